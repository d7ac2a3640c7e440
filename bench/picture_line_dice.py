"""The picture in docs/dice-vision.md of the second renderer's line-art dice, as read.

    .venv/bin/python bench/picture_line_dice.py docs/images/line-dice.jpg

For each table the line style is drawn on (``bench/holdout_dice.py --style line``: the animals'
outlines in thin dark lines on cream pentagonal stickers, drawn by that file's own code), one
box is rendered (its 30 enrollment photos and a few throws), enrolled through ``farmbox vision
enroll dice`` and its throws read through ``farmbox vision read dice``; each throw's dice are
shown cropped, with the truth and the reading (and the top face's disc the box chose) over them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from farmbox.firmware.cli import main as farmbox
from farmbox.vision.dice.model import DiceModel
from farmbox.vision.dice.reader import DiceReader
from tests.bench_scripts import bench_script

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pictures

#: Each box's seed and table (the line style's tables in the order --style line takes them).
BOXES = ((209, "wood"), (210, "cloth"), (211, "felt"), (212, "tiles"))
#: Throws shown per box, and the crop round each die (frame pixels).
THROWS = 2
CROP = 150


def _box(folder: Path, seed: int, table: str) -> list[np.ndarray]:
    """Tiles of the box's first throws, each die cropped, the truth and the reading above."""
    bench_script("holdout_dice").write_set(folder, seed, "line", table, scenes=THROWS, odd=0, progress=False)
    model = folder / "dice.npz"
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        if farmbox(["vision", "enroll", "dice", str(folder / "enroll"), "--model", str(model)]) != 0:
            raise SystemExit(f"picture_line_dice: cannot enroll {folder}")
    labels = json.loads((folder / "labels.json").read_text())
    scenes = sorted(labels)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        farmbox(["vision", "read", "dice", "--model", str(model), "--json", *(str(folder / "scenes" / s) for s in scenes)])
    reads = [json.loads(line) for line in out.getvalue().splitlines()]
    learned = DiceModel.load(model)
    rho, reader = learned.rho, DiceReader(learned)
    tiles = []
    for name, read in zip(scenes, reads):
        frame = cv2.imread(str(folder / "scenes" / name))
        padded = cv2.copyMakeBorder(frame, CROP, CROP, CROP, CROP, cv2.BORDER_CONSTANT, value=pictures.WHITE)
        crops = []
        for blob in reader.find(frame):
            if blob is None:
                continue
            x, y = (int(round(c)) for c in blob.centre)
            crops.append(padded[y + CROP // 2:y + 3 * CROP // 2, x + CROP // 2:x + 3 * CROP // 2])
        tile = np.hstack(crops) if crops else np.full((CROP, 2 * CROP, 3), 255, np.uint8)
        tile = cv2.resize(tile, None, fx=1.6, fy=1.6, interpolation=cv2.INTER_CUBIC)
        read_text = " ".join(read["faces"]) if read["faces"] else read["reason"]
        head = np.full((52, tile.shape[1], 3), 255, np.uint8)
        cv2.putText(head, f"{table}, disc {rho:.2f}: truth {' '.join(labels[name])}", (6, 20),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(head, f"read {read_text}", (6, 44), cv2.FONT_HERSHEY_SIMPLEX, 0.55,
                    (0, 110, 0) if read["faces"] == labels[name] else (0, 0, 200), 1, cv2.LINE_AA)
        tiles.append(np.vstack([head, tile]))
    return tiles


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    tiles: list[np.ndarray] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed, table in BOXES:
            tiles += _box(Path(tmp) / f"line-{table}-{seed}", seed, table)
    return pictures.save(args.out, pictures.grid(tiles, THROWS, margin=4), 82, "picture_line_dice")


if __name__ == "__main__":
    sys.exit(main())
