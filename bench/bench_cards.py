"""Figures for the card reader and the colour-dice reader on held-out rendered scenes.

    .venv/bin/python bench/bench_cards.py [--scenes 50] [--dice-scenes 300] [--seed 47000000] [--repeat 1]
                                          [--dice-set white-cloth ...]

Enrolls each deck from rendered samples (its own seeds), then reads scenes whose seeds were
never used while developing (``--seed``): 12 cards per 960x720 frame.  Times are CPU time of
one process pinned to one thread (OpenCV and BLAS threads set to 1), per frame, after the
first frame (which fills the reader's alignment cache).  With ``--repeat N`` each frame is read N
times and the fastest is kept (other jobs on a shared machine only ever add time).  Finding alone is timed too (one more
call per frame, outside the reading time), so identifying is the difference.

Colour dice are read on several sets (:data:`DICE_SETS`): shots on tables of their own, and the
box's fixed camera over one table (near-white cloth, striped cloth, wood, cloth) enrolled with its
empty-table shot, in two art styles, dice apart or touching.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
from counts import Parser, at_least

from farmbox.vision.cards import CardReader, enroll, find_cards
from farmbox.vision.colour_dice import enroll as enroll_dice
from farmbox.vision.colour_dice import read_frame
from farmbox.vision.render import cards as card_scenes
from farmbox.vision.render import colour_dice as dice_scenes


def _fastest(repeat: int, fn, *args):
    """(result of the first call, least CPU seconds and least wall seconds over ``repeat`` calls)."""
    result, cpu, wall = None, float("inf"), float("inf")
    for i in range(repeat):
        t0, w0 = time.process_time(), time.perf_counter()
        r = fn(*args)
        cpu, wall = min(cpu, time.process_time() - t0), min(wall, time.perf_counter() - w0)
        result = r if i == 0 else result
    return result, cpu, wall


def bench_deck(deck: str, scenes: int, seed: int, repeat: int = 1) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        card_scenes.enrollment_samples(tmp, deck, per_card=2, seed=424242)
        reader = CardReader(enroll(tmp))
    counts = dict(cards=0, found=0, right=0, unsure=0, wrong=0, false=0)
    cpu, wall, find_cpu = [], [], []
    for k in range(scenes):
        s = card_scenes.scene(seed + k, deck, count=12)
        readings, c, w = _fastest(repeat if k else 1, reader.read, s.image)
        if k:
            cpu.append(c)
            wall.append(w)
            find_cpu.append(_fastest(repeat, find_cards, s.image, reader.options)[1])
        used = set()
        for card in s.cards:
            size = np.sqrt(cv2.contourArea(card.corners.astype(np.float32)))
            near = [i for i, r in enumerate(readings)
                    if np.linalg.norm(r.corners.mean(0) - card.corners.mean(0)) < 0.15 * size]
            counts["cards"] += 1
            if not near:
                continue
            used.add(near[0])
            r = readings[near[0]]
            counts["found"] += 1
            if r.id is None:
                counts["unsure"] += 1
            elif r.id == card.id:
                counts["right"] += 1
            else:
                counts["wrong"] += 1
        counts["false"] += len(readings) - len(used)
    counts["cpu_ms_median"] = 1000 * float(np.median(cpu))
    counts["cpu_ms_mean"] = 1000 * float(np.mean(cpu))
    counts["cpu_ms_p90"] = 1000 * float(np.percentile(cpu, 90))
    counts["find_cpu_ms_median"] = 1000 * float(np.median(find_cpu))
    counts["wall_ms_median"] = 1000 * float(np.median(wall))
    return counts


#: Colour-dice settings: (name, table kind, art, fixed camera over one table, dice touching).
#: "mixed" is every shot on a table of its own (no empty-table shot to use); the others are the
#: box's fixed camera over one table, enrolled with its empty-table shot.
DICE_SETS = (
    ("mixed", None, "disc", False, False),
    ("white-cloth", "white", "disc", True, False),
    ("white-cloth-tile", "white", "tile", True, False),
    ("striped", "striped", "disc", True, False),
    ("wood-tile", "wood", "tile", True, False),
    ("cloth-touching", "cloth", "tile", True, True),
    ("striped-touching", "striped", "disc", True, True),
)


def bench_overlap(deck: str, scenes: int, seed: int) -> dict:
    """Tables of 8 cards where every second card lies over the one before (about 30% of it
    covered): cards read right, reported null, read wrong (as a card not on the table, or more
    often than it lies there)."""
    from collections import Counter

    with tempfile.TemporaryDirectory() as tmp:
        card_scenes.enrollment_samples(tmp, deck, per_card=2, seed=424242)
        reader = CardReader(enroll(tmp))
    counts = dict(cards=0, found=0, right=0, null=0, wrong=0)
    for k in range(scenes):
        s = card_scenes.scene(seed + k, deck, count=8, overlap=0.3)
        readings = reader.read(s.image)
        truth = Counter(c.id for c in s.cards)
        got = Counter(r.id for r in readings if r.id is not None)
        counts["cards"] += len(s.cards)
        counts["found"] += len(readings)
        counts["right"] += sum((got & truth).values())
        counts["wrong"] += sum((got - truth).values())
        counts["null"] += sum(r.id is None for r in readings)
    return counts


def bench_dice(scenes: int, seed: int, table_kind: str | None = None, art: str = "disc",
               fixed: bool = False, touching: bool = False) -> dict:
    table_seed = seed + 777_777 if fixed else None
    with tempfile.TemporaryDirectory() as tmp:
        dice_scenes.enrollment_samples(tmp, per_colour=3, seed=4242, table_kind=table_kind, art=art,
                                       table_seed=table_seed)
        model = enroll_dice(tmp)
    counts = dict(dice=0, right=0, unsure=0, wrong=0, rolls_right=0)
    cpu = []
    for k in range(scenes):
        s = dice_scenes.scene(seed + k, table_kind=table_kind, art=art, table_seed=table_seed,
                              touching=touching)
        t0 = time.process_time()
        r = read_frame(model, s.image)
        cpu.append(time.process_time() - t0)
        for die, colour in s.dice.items():
            counts["dice"] += 1
            got = r.dice.get(die)
            key = "unsure" if got is None else "right" if got == colour else "wrong"
            counts[key] += 1
        counts["rolls_right"] += all(r.dice.get(d) == c for d, c in s.dice.items())
    counts["cpu_ms_median"] = 1000 * float(np.median(cpu))
    return counts


def main() -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=at_least(0), default=50, help="card scenes per deck")
    ap.add_argument("--dice-scenes", type=at_least(0), default=300)
    ap.add_argument("--seed", type=int, default=47_000_000, help="first held-out seed")
    ap.add_argument("--overlap-scenes", type=at_least(0), default=0,
                    help="tables of 8 overlapping cards per deck (default 0: none)")
    ap.add_argument("--dice-set", action="append", choices=[d[0] for d in DICE_SETS],
                    help="colour-dice set(s) to run (default: all)")
    ap.add_argument("--repeat", type=at_least(1), default=1, help="read each card frame N times, keep the fastest")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for deck in ("funfarm", "symbols") if args.scenes > 1 else ():
        c = bench_deck(deck, args.scenes, args.seed, max(1, args.repeat))
        print(f"cards/{deck}: {args.scenes} frames 960x720, 12 cards each: "
              f"found {c['found']}/{c['cards']} ({100 * c['found'] / c['cards']:.1f}%), "
              f"identified {c['right']} ({100 * c['right'] / c['cards']:.1f}%), "
              f"unsure {c['unsure']}, wrong {c['wrong']}, false finds {c['false']}; "
              f"CPU {c['cpu_ms_median']:.0f} ms/frame median ({c['cpu_ms_mean']:.0f} mean, "
              f"{c['cpu_ms_p90']:.0f} p90; finding alone {c['find_cpu_ms_median']:.0f}), "
              f"wall {c['wall_ms_median']:.0f} ms; load average {os.getloadavg()[0]:.1f}", flush=True)
    for deck in ("funfarm", "symbols") if args.overlap_scenes > 0 else ():
        o = bench_overlap(deck, args.overlap_scenes, args.seed)
        print(f"cards/{deck} overlapping: {args.overlap_scenes} tables of 8, every second card over the one "
              f"before: {o['found']} found of {o['cards']}, right {o['right']}, reported null {o['null']}, "
              f"wrong {o['wrong']}", flush=True)
    if args.dice_scenes < 1:
        return 0
    for name, kind, art, fixed, touching in DICE_SETS:
        if args.dice_set and name not in args.dice_set:
            continue
        d = bench_dice(args.dice_scenes, args.seed, kind, art, fixed, touching)
        print(f"colour-dice/{name}: {args.dice_scenes} frames 960x720, two dice: "
              f"rolls right {d['rolls_right']}/{args.dice_scenes}, dice right {d['right']}/{d['dice']} "
              f"({100 * d['right'] / d['dice']:.1f}%), unsure {d['unsure']}, wrong {d['wrong']} "
              f"({100 * d['wrong'] / d['dice']:.2f}%); CPU {d['cpu_ms_median']:.0f} ms/frame median", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
