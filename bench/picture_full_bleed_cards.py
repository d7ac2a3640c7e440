"""The picture in docs/card-vision.md of full-bleed cards on a wood table, as the box reads them.

    .venv/bin/python bench/picture_full_bleed_cards.py docs/images/full-bleed-cards.jpg
    .venv/bin/python bench/picture_full_bleed_cards.py docs/images/gingham-cards.jpg --seed 296 --kind checked --table 3

One table of the independent card renderer's "bleed" style (``bench/holdout_cards.py --style
bleed``: the art to the card's edge, a deep ground of the animal's colour): the deck enrolled
from two photos per card on the table, the frame read as the Fun Farm box reads it.  Drawn over
the frame: each card's outline and the id read (red where it is not the card's, grey where the
reader was unsure).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bench_scripts import bench_script


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=102, help="the box (default: a wood table)")
    ap.add_argument("--table", type=int, default=6, help="which table of the set")
    ap.add_argument("--kind", help="the kind of table (default: the seed's; checked: a gingham cloth)")
    args = ap.parse_args()
    from farmbox.vision.cards import CardReader
    from farmbox.vision.cards.read import enroll

    hold = bench_script("holdout_cards")
    kind = args.kind or hold.SETS[(args.seed - 1) % len(hold.SETS)][1]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        labels = hold.write_set(folder, args.seed, "bleed", kind, args.table + 1, 2, progress=False)
        reader = CardReader(enroll(folder / "enroll"))
        name = f"table-{args.table:04d}.jpg"
        image = cv2.imread(str(folder / "scenes" / name))
    truth = list(labels[name])
    shown = image.copy()
    cards = reader.read(image)
    for c in cards:
        q = np.round(c.corners).astype(np.int32)
        colour = (150, 150, 150) if c.id is None else (40, 200, 40) if c.id in truth else (40, 40, 230)
        cv2.polylines(shown, [q], True, colour, 3, cv2.LINE_AA)
        x, y = q.min(axis=0)
        cv2.putText(shown, c.id or "?", (int(x), max(18, int(y) - 8)), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2,
                    cv2.LINE_AA)
    right = sum(1 for c in cards if c.id in truth)
    text = f"{right} of {len(truth)} cards read, {sum(1 for c in cards if c.id and c.id not in truth)} wrong"
    bench_script("picture_cards_beside_dice").captioned_jpeg(args.out, shown, f"{text}   (full-bleed art, {kind} table)")
    print(f"{args.out}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
