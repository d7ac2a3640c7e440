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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pictures

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
    return pictures.save(args.out, pictures.grid(tiles, 3), 80, "picture_other_cameras")


if __name__ == "__main__":
    sys.exit(main())
