"""Where a card frame's time goes: the reader's steps, timed one by one as it reads.

    .venv/bin/python bench/card_stages.py --rendered 40
    .venv/bin/python bench/card_stages.py DIR [DIR...] [--frames 20]

Each frame is read once with the reader's steps wrapped in timers (CPU time of one thread):
finding the cards (``find_cards``), checking them against the empty table (``on_the_table``),
rectifying and describing an outline (``rectify_to``, ``features``: every outline read, the
fit's tries too), the fit to the deck (``CardReader._fitted``, its own rectifying and
describing included), parting outlines of two cards (``CardReader._split``, the fits it makes
included).  The steps nest (a fit describes, a parting fits), so the shares add up to more
than the whole; each is of the frame's time.  Prints, per set, ms a frame and each step's ms
and share, and the outlines described a frame.  The deck is enrolled as ``bench_cards_ab.py``
enrolls it (our renderer's Fun Farm deck and its held-out frames of 12 cards for
``--rendered N``; a folder's ``enroll/`` otherwise).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
from counts import Parser, at_least

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cards_ab import enrolled, frames_of, refuse

from farmbox.vision.cards import CardReader, load_model
from farmbox.vision.cards import read as reading
from farmbox.vision.render import cards as card_scenes

#: (name, owner, attribute): the steps timed, as the reader calls them.
STEPS = (
    ("find", reading, "find_cards"),
    ("table", reading, "on_the_table"),
    ("rectify", reading, "rectify_to"),
    ("describe", reading, "features"),
    ("fit", reading.CardReader, "_fitted"),
    ("part", reading.CardReader, "_split"),
)


class Stages:
    """The reader's steps wrapped in timers while in use (``with``): CPU seconds and calls of
    each, the outermost call only where a step calls itself."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys((name for name, _, _ in STEPS), 0.0)
        self.calls = dict.fromkeys(self.seconds, 0)
        self._saved: list[tuple[object, str, Callable]] = []

    def _timed(self, name: str, fn: Callable) -> Callable:
        depth = [0]

        def timed(*args, **kwargs):
            depth[0] += 1
            t0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    self.seconds[name] += time.process_time() - t0
                self.calls[name] += 1
        return timed

    def __enter__(self) -> Stages:
        for name, owner, attr in STEPS:
            fn = getattr(owner, attr)
            self._saved.append((owner, attr, fn))
            setattr(owner, attr, self._timed(name, fn))
        return self

    def __exit__(self, *exc) -> None:
        for owner, attr, fn in reversed(self._saved):
            setattr(owner, attr, fn)
        self._saved.clear()


def report(name: str, model_file: Path, images: list[np.ndarray]) -> None:
    reader = CardReader(load_model(model_file))
    reader.read(images[0])                     # the first read fills caches
    with Stages() as stages:
        t0 = time.process_time()
        for image in images:
            reader.read(image)
        total = time.process_time() - t0
    n = len(images)
    parts = ", ".join(f"{k} {1000 * s / n:.1f} ({100 * s / total:.0f}%)" for k, s in stages.seconds.items())
    print(f"{name}: {1000 * total / n:.1f} ms a frame ({n} frames): {parts}; "
          f"{stages.calls['describe'] / n:.1f} outlines described, {stages.calls['fit'] / n:.2f} fits a frame")


def main(argv: list[str] | None = None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, help="enroll/ + scenes/ folders")
    ap.add_argument("--rendered", type=at_least(0), default=0, help="our renderer's frames of 12 Fun Farm cards")
    ap.add_argument("--frames", type=at_least(1), default=20, help="frames of each folder (default 20)")
    args = ap.parse_args(argv)
    if not args.folders and not args.rendered:
        ap.error("give a folder or --rendered N")
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        if args.rendered:
            samples = Path(tmp) / "rendered" / "enroll"
            card_scenes.enrollment_samples(samples, "funfarm", per_card=2, seed=424242)
            images = [card_scenes.scene(53_000_000 + k, "funfarm", count=12).image for k in range(args.rendered)]
            report("our renderer", enrolled(samples, Path(tmp) / "rendered.npz"), images)
        for folder in args.folders:
            if not (folder / "enroll").is_dir():
                refuse(f"no enroll/ folder in {folder}")
            images = frames_of(folder, args.frames)
            report(folder.name, enrolled(folder / "enroll", Path(tmp) / f"{folder.name}.npz"), images)
    return 0


if __name__ == "__main__":
    sys.exit(main())
