"""Figures for the device's guided enrollments: finding the die or card in a photo, learning.

    .venv/bin/python bench/bench_enroll_box.py                   # all three, as below
    .venv/bin/python bench/bench_enroll_box.py --kind dice [--per-face 3] [--setup 3]
    .venv/bin/python bench/bench_enroll_box.py --kind cards [--per-face 3]  # Fun Farm's 24 cards
    .venv/bin/python bench/bench_enroll_box.py --kind colour-dice           # 2 dice x 6 colours

Cards and colour dice go through the box's own session (take, still frames, keep) with
rendered photos, then learn as the box does (the reader's learning, the photos and the model
written, the leave-one-out check).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from farmbox.firmware.games.enroll.session import find_die, write_samples
from farmbox.vision.dice import DiceEnrollment, EnrollmentPlan
from farmbox.vision.render.dice import Setup, render_background, render_enrollment_sample


def shots(kind: str, per_face: int) -> None:
    """A whole card or colour-dice enrollment through the box's session, timed."""
    import statistics

    import numpy as np

    from farmbox.firmware.cli.enroll import deck_cards, die_picture
    from farmbox.firmware.games.enroll.cards import Cards, card_subjects
    from farmbox.firmware.games.enroll.colour_dice import ColourDice, colour_subjects
    from farmbox.firmware.games.enroll.shots import STALE_FRAMES, STILL_FRAMES, Phase, ShotSession
    from farmbox.firmware.rules.funfarm import load_deck
    from farmbox.vision.render._common import FRAME_SIZE, Lighting, camera_faults, table
    from farmbox.vision.render.cards import Mount, scene
    from farmbox.vision.render.colour_dice import draw_die

    tmp = Path(tempfile.mkdtemp(prefix="bench-enroll-"))
    if kind == "cards":
        ids, picture, name = deck_cards(None)
        session = ShotSession(card_subjects(ids, picture, name), Cards(), tmp / "S", tmp / "m.npz",
                              per_face)

        mount = Mount(3, "wood")  # one box: its table, lamp and camera

        def photo(label: str, n: int) -> np.ndarray:  # label "": the empty table
            return scene(sum(map(ord, label)) * 10 + n + 1000 * retakes, ids=[label] if label else [],
                         mount=mount).image
    else:
        deck = load_deck()
        session = ShotSession(colour_subjects({"white": deck.white_faces, "black": deck.black_faces},
                                              die_picture), ColourDice(), tmp / "S", tmp / "m.json",
                              per_face)
        rng = np.random.default_rng(11)
        top = table(rng, FRAME_SIZE, "wood").astype(np.float32)
        light = Lighting.random(rng, 0.6)

        def photo(label: str, n: int) -> np.ndarray:
            r = np.random.default_rng(sum(map(ord, label)) * 10 + n)
            canvas = top.copy()
            if label:
                die, colour = label.split("/")
                c = (float(r.uniform(200, 760)), float(r.uniform(180, 540)))
                draw_die(canvas, r, die, colour, c, 82.0, float(r.uniform(0, 1.5)),
                         ((c[0] - 480) * 0.08, (c[1] - 360) * 0.08))
            return camera_faults(r, light.apply(canvas), jpeg=92)

    finds = []
    retakes = 0

    def take(label: str, n: int) -> None:
        nonlocal retakes
        frame = photo(label, n)
        session.act("take")
        for _ in range(STALE_FRAMES + STILL_FRAMES + 1):
            t = time.perf_counter()
            session.frame(frame, 0.0)
            if session.phase is not Phase.CAPTURE:
                finds.append(time.perf_counter() - t)
                break
        if session.phase is Phase.ERROR and retakes < 10:  # the owner moves it, takes again
            retakes += 1
            session.act("retake")
            take(label, n)
            return
        if session.phase is not Phase.REVIEW:
            raise SystemExit(f"photo not taken: {session.error}")
        session.act("keep")

    if session.phase is Phase.CLEAR:
        take("", 0)
    while (step := session.step) is not None:
        take(step.subject.label, step.number)
    marks = []
    t = time.perf_counter()
    learned = session.build(lambda done, total: marks.append(time.perf_counter() - t))
    h, w = FRAME_SIZE[1], FRAME_SIZE[0]
    print(f"{kind}: {len(session.subjects)} subjects x {per_face} = {learned.photos} photos "
          f"{w}x{h} ({retakes} retaken: nothing found); find {1000 * statistics.median(finds):.0f} ms median per photo; learn, "
          f"write and check {learned.seconds:.1f} s ({len(marks)} progress steps, the first after "
          f"{marks[0]:.1f} s, the last {marks[-1]:.1f} s); weak: {', '.join(learned.weak) or 'none'}")
    if learned.weak:  # the owner shoots the weak ones again, as the check screen offers
        session.act("redo")
        redone = 0
        while (step := session.step) is not None:
            take(step.subject.label, step.number + 10)
            redone += 1
        again = session.build()
        print(f"{kind}: redo of the weak: {redone} photos retaken; learn, write and check "
              f"{again.seconds:.1f} s; weak: {', '.join(again.weak) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=("all", "dice", "cards", "colour-dice"), default="all")
    parser.add_argument("--per-face", type=int, default=3)
    parser.add_argument("--setup", type=int, default=3)
    args = parser.parse_args()
    if args.kind in ("all", "cards", "colour-dice"):
        for kind in ("cards", "colour-dice") if args.kind == "all" else (args.kind,):
            shots(kind, args.per_face)
        if args.kind != "all":
            return
    setup = Setup.from_seed(args.setup)
    background = render_background(0, setup=setup)
    enrollment = DiceEnrollment(EnrollmentPlan(per_face=args.per_face))
    enrollment.set_background(background)
    times = []
    photos = []
    n = 0
    while (step := enrollment.next_step()) is not None:
        n += 1
        frame = render_enrollment_sample(n, step.die, step.face, setup=setup)
        t = time.perf_counter()
        if find_die(frame, background) is None:
            raise SystemExit(f"no die found in photo {n} ({step.face} on the {step.die} die)")
        times.append(time.perf_counter() - t)
        enrollment.add_sample(step.face, frame)
        photos.append((step.face, step.die, frame))
    t = time.perf_counter()
    model = enrollment.build_model()
    build = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:   # the photos, as the box keeps them
        t = time.perf_counter()
        write_samples(Path(tmp) / "SAMPLES", photos, background)
        written = time.perf_counter() - t
    times.sort()
    h, w = background.shape[:2]
    print(f"{n} photos {w}x{h}: find the die {1000 * times[len(times) // 2]:.0f} ms median "
          f"({1000 * times[0]:.0f}-{1000 * times[-1]:.0f}); learn {build:.1f} s; write the photos {written:.1f} s; "
          f"accept at score >= {model.min_score:.2f}, lead >= {model.min_margin:.2f}")


if __name__ == "__main__":
    main()
