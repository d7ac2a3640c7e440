"""The card reader's time per frame against an earlier commit's, on the same frames, in turn.

    .venv/bin/python bench/bench_cards_ab.py --before 50c50b5 --rendered 40
    .venv/bin/python bench/bench_cards_ab.py --before 50c50b5 DIR [DIR...] [--frames 20] [--rounds 3]

A shared machine's speed drifts by a third within the hour, so two runs of ``bench_cards.py``
minutes apart cannot tell a tenth apart.  Here both readers are loaded in one process (the
earlier commit's ``vision/`` extracted with ``git archive`` and imported under another name) and
read each frame in turn, the order swapped every frame; each frame's time is the least of
``--rounds`` reads (other jobs only ever add time), CPU time of one thread.  Both read with the
model the current code enrolls: from ``DIR/enroll`` for a folder in the enroll/ + scenes/ layout
(``bench_vision.py``'s), or our renderer's Fun Farm deck and its held-out frames of 12 cards
(``--rendered N``, seed 53,000,000 as in ``bench_cards.py``).  Prints the median and mean ms
per frame of each, and how many cards each read the same.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import NoReturn

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
from counts import Parser, at_least
from tqdm import tqdm

from farmbox.vision.cards import CardReader, enroll, load_model, save_model
from farmbox.vision.cards.read import IMAGE_SUFFIXES, STEPS_PER_SHOT
from farmbox.vision.render import cards as card_scenes

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = {".jpg", ".jpeg", ".png"}


def refuse(problem: str) -> NoReturn:
    """One line naming the problem, exit status 2 (bad input, as the ``farmbox`` commands)."""
    print(f"bench_cards_ab: {problem}", file=sys.stderr)
    raise SystemExit(2)


def earlier_cards(rev: str, into: Path):
    """The card reader package (``vision.cards``) of commit ``rev``, imported as
    ``farmbox_before.vision.cards`` from ``into``."""
    try:
        data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "vision"], check=True,
                              capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        refuse(f"no commit {rev!r} here: {e.stderr.decode().strip()}")
    package = into / "farmbox_before"
    package.mkdir()
    (package / "__init__.py").write_text("")
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(package, filter="data")
    sys.path.insert(0, str(into))
    return importlib.import_module("farmbox_before.vision.cards")


def enrolled(samples: Path, model: Path) -> Path:
    """The deck in ``samples`` (``<card_id>/*`` photos) learned by the current code into ``model``."""
    total = STEPS_PER_SHOT * sum(1 for p in samples.glob("*/*") if p.suffix.lower() in IMAGE_SUFFIXES)
    with tqdm(total=total, desc=f"enroll {samples.parent.name}", unit="img", leave=False) as bar:
        save_model(enroll(samples, progress=bar), model)
    return model


def frames_of(folder: Path, limit: int) -> list[np.ndarray]:
    if not (folder / "scenes").is_dir():
        refuse(f"no scenes/ folder in {folder}")
    scenes = sorted(p for p in (folder / "scenes").iterdir() if p.suffix.lower() in SUFFIXES)[:limit]
    images = [cv2.imread(str(p)) for p in scenes]
    if not images or any(i is None for i in images):
        refuse(f"no readable scenes in {folder / 'scenes'}")
    return images


def compare(name: str, model_file: Path, images: list[np.ndarray], before, rounds: int) -> None:
    readers = {"before": before.CardReader(before.load_model(model_file)), "now": CardReader(load_model(model_file))}
    for r in readers.values():
        r.read(images[0])               # the first read fills caches
    best = {k: [float("inf")] * len(images) for k in readers}
    same = cards = 0
    for rnd in range(rounds):
        for i, image in enumerate(tqdm(images, desc=f"{name} round {rnd + 1}/{rounds}", leave=False)):
            order = list(readers) if (rnd + i) % 2 == 0 else list(reversed(readers))
            got = {}
            for k in order:
                t0 = time.process_time()
                got[k] = readers[k].read(image)
                best[k][i] = min(best[k][i], time.process_time() - t0)
            if rnd == 0:
                ids = [sorted(str(r.id) for r in got[k]) for k in readers]
                cards += len(ids[1])
                same += sum(min(ids[0].count(c), ids[1].count(c)) for c in set(ids[1]))
    for k in readers:
        ms = 1000 * np.array(best[k])
        print(f"{name}: {k:6s} {np.median(ms):6.1f} ms median, {ms.mean():6.1f} mean per frame ({len(images)} frames)")
    print(f"{name}: {same} of the {cards} readings now the same as before")


def main(argv: list[str] | None = None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, help="enroll/ + scenes/ folders")
    ap.add_argument("--before", required=True, help="the earlier commit (any git revision)")
    ap.add_argument("--rendered", type=at_least(0), default=0, help="our renderer's frames of 12 Fun Farm cards")
    ap.add_argument("--frames", type=at_least(1), default=20, help="frames of each folder (default 20)")
    ap.add_argument("--rounds", type=at_least(1), default=3, help="reads of each frame by each reader (default 3)")
    args = ap.parse_args(argv)
    if not args.folders and not args.rendered:
        ap.error("give a folder or --rendered N")
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        before = earlier_cards(args.before, Path(tmp))
        if args.rendered:
            samples = Path(tmp) / "rendered" / "enroll"
            card_scenes.enrollment_samples(samples, "funfarm", per_card=2, seed=424242)
            images = [card_scenes.scene(53_000_000 + k, "funfarm", count=12).image for k in range(args.rendered)]
            compare("our renderer", enrolled(samples, Path(tmp) / "rendered.npz"), images, before, args.rounds)
        for folder in args.folders:
            if not (folder / "enroll").is_dir():
                refuse(f"no enroll/ folder in {folder}")
            model = enrolled(folder / "enroll", Path(tmp) / f"{folder.name}.npz")
            compare(folder.name, model, frames_of(folder, args.frames), before, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
