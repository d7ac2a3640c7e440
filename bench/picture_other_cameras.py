"""The picture in docs/card-vision.md of one table through every camera of other_camera.py.

    .venv/bin/python bench/picture_other_cameras.py docs/images/other-cameras.jpg

One frame of our renderer's Fun Farm cards (drawn by our own code), shot again through each
camera the real photos are measured through (``bench/other_camera.py --camera C``), in a grid
with the camera's name over each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from farmbox.vision.render import cards as card_scenes
from tests.bench_scripts import bench_script

#: Width of each camera's tile in the picture.
TILE_W = 480


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=53_000_003, help="our renderer's frame")
    args = ap.parse_args()
    cameras = bench_script("other_camera")
    frame = card_scenes.scene(args.seed, "funfarm", count=12).image
    tiles = []
    for k, camera in enumerate(("original",) + cameras.CAMERAS):
        shot = frame if camera == "original" else cameras.reshoot(frame, camera, np.random.default_rng([1, k]))
        tile = cv2.resize(shot, (TILE_W, round(TILE_W * shot.shape[0] / shot.shape[1])), interpolation=cv2.INTER_AREA)
        cv2.rectangle(tile, (0, 0), (TILE_W, 30), (255, 255, 255), -1)
        cv2.putText(tile, camera, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2, cv2.LINE_AA)
        tiles.append(tile)
    h = max(t.shape[0] for t in tiles)
    tiles = [cv2.copyMakeBorder(t, 0, h - t.shape[0], 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255)) for t in tiles]
    tiles += [np.full_like(tiles[0], 255)] * (-len(tiles) % 3)
    rows = [np.hstack(tiles[i:i + 3]) for i in range(0, len(tiles), 3)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(args.out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 80]):
        print(f"picture_other_cameras: cannot write {args.out}", file=sys.stderr)
        return 2
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
