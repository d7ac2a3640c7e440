"""The picture in docs/card-vision.md of Fun Farm cards beside the colour dice, as the box reads them.

    .venv/bin/python bench/picture_cards_beside_dice.py docs/images/cards-beside-dice.jpg

One throw of the independent colour-dice renderer (``bench/holdout_colour_dice.py --cards``):
the deck and the dice enrolled from their photos on the table, the frame read as the Fun Farm
box reads it.  Drawn over the frame: each card the card reader read (its outline and id), the
part of the frame the dice reader leaves out, and each die with the colour read.
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


def captioned_jpeg(out: Path, shown: np.ndarray, caption: str) -> None:
    """``shown`` with ``caption`` on a dark bar along its foot, written to ``out`` (a JPEG)."""
    h, w = shown.shape[:2]
    cv2.rectangle(shown, (0, h - 40), (w, h), (30, 30, 30), -1)
    cv2.putText(shown, caption, (12, h - 13), cv2.FONT_HERSHEY_SIMPLEX, 0.65, (255, 255, 255), 2, cv2.LINE_AA)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), shown, [cv2.IMWRITE_JPEG_QUALITY, 85])


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=6, help="the box (default: painted faces on a near-white linen)")
    ap.add_argument("--throw", type=int, default=3)
    args = ap.parse_args()
    from farmbox.vision import colour_dice
    from farmbox.vision.cards import CardReader
    from farmbox.vision.cards import enroll as enroll_cards
    from farmbox.vision.colour_dice.read import cards_away

    hold = bench_script("holdout_colour_dice")
    style, kind = hold.SETS[(args.seed - 1) % len(hold.SETS)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        hold.write_set(folder, args.seed, style, kind, args.throw + 1, progress=False, cards=8)
        dice = colour_dice.enroll(folder / "enroll")
        reader = CardReader(enroll_cards(folder / "enroll-cards"))
        image = cv2.imread(str(folder / "scenes" / f"throw-{args.throw:04d}.jpg"))
    cards = reader.read(image)
    read = [c.corners for c in cards if c.id]
    unread = [c.corners for c in cards if not c.id]
    reading = colour_dice.read_frame(dice, image, read, unread)
    shown = image.copy()
    away = cards_away(dice, image, read + unread)
    if away is not None:
        big = cv2.resize(away.astype(np.uint8), (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
        shown[big] = (0.55 * shown[big] + 0.45 * np.array([200, 60, 200])).astype(np.uint8)
    for c in cards:
        if not c.id:
            continue
        q = np.round(c.corners).astype(np.int32)
        cv2.polylines(shown, [q], True, (160, 0, 160), 3, cv2.LINE_AA)
        x, y = q.min(axis=0)
        cv2.putText(shown, c.id, (int(x), max(18, int(y) - 8)), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (120, 0, 120), 2,
                    cv2.LINE_AA)
    text = "  ".join(f"{die} die: {colour or '?'}" for die, colour in reading.dice.items())
    captioned_jpeg(args.out, shown, f"read: {text}   (cards kept out of the dice search, tinted)")
    print(f"{args.out}: {text}; {sum(1 for c in cards if c.id)} cards read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
