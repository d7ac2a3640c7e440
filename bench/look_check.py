"""How well the dice model undoes the look of a leaning camera: against the second renderer's
own camera, how drawn out a flat top face is left across the frame.

    .venv/bin/python bench/look_check.py OUT/line-felt-311 [OUT/<set> ...]

Each folder is a box of ``bench/holdout_dice.py`` (named ``<style>-<table>-<seed>`` as it
writes them).  Its enrollment photos are learned by the current code; the renderer's camera
(its lean and lens, rebuilt from the seed) projects a small step on a flat face at a top face's
height at 99 points over the frame: that is how the face looks there (2x2).  Printed per box:
the camera's lean, then for each share of the size map's slope taken as the lean
(``LEAN_OF_SLOPE``: 0 is the lens's stretch alone, as before stop 60; the model's own is 2/3),
how drawn out a face is left once the model's look is undone (long over short axis, less 1:
the mean over the points, and the most).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from counts import Parser

sys.path.insert(0, str(Path(__file__).resolve().parent))
import holdout_dice

from farmbox.vision.dice.enroll import enroll_folder
from farmbox.vision.dice.model import stretch_of

#: The shares of the size map's slope tried as the lean.
SHARES = (0.0, 0.4, 0.5, 0.6, 2 / 3, 0.8, 1.0, 1.2)
#: A top face's height over the table, in edges of the die: twice a dodecahedron's inradius.
TOP_HEIGHT = 2 * 1.1135


def looks(box: holdout_dice.Box) -> list[tuple[tuple[float, float], np.ndarray]]:
    """(frame point, the look there) of a flat face at a top face's height, over the frame."""
    z, step = TOP_HEIGHT * box.edge, 0.01
    out = []
    for px in np.linspace(60, 900, 11):
        for py in np.linspace(60, 660, 9):
            x, y = box.under(px, py, z)
            at = np.array(box.project(np.array([x, y, z])))
            look = np.stack([np.array(box.project(np.array([x + step, y, z]))) - at,
                             np.array(box.project(np.array([x, y + step, z]))) - at], axis=1) / step
            out.append(((float(px), float(py)), look))
    return out


def drawn(m: np.ndarray) -> float:
    """How drawn out the 2x2 map ``m`` is: its long axis over its short, less 1."""
    s = np.linalg.svd(m, compute_uv=False)
    return float(s[0] / s[1] - 1)


def main(argv: list[str] | None = None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    args = ap.parse_args(argv)
    boxes = []
    for folder in args.folders:
        style, table, seed = (folder.name.split("-") + ["", "", ""])[:3]
        if style not in holdout_dice.STYLES or not seed.isdigit() or not (folder / "enroll").is_dir():
            print(f"look_check: {folder} is not a box of bench/holdout_dice.py (<style>-<table>-<seed>/enroll)",
                  file=sys.stderr)
            return 2
        boxes.append((folder, holdout_dice.Box.from_seed(int(seed), style, table)))
    print("box: lean; left drawn out, mean/most, for each share of the slope taken as the lean")
    for folder, box in boxes:
        model = enroll_folder(folder / "enroll")
        points = looks(box)
        cells = []
        for share in SHARES:
            left = [drawn(np.linalg.inv(stretch_of(model.size_map, (720, 960), p, share)) @ look)
                    for p, look in points]
            cells.append(f"{share:.2f}: {np.mean(left):.4f}/{np.max(left):.3f}")
        seen = [drawn(look) for _, look in points]
        lean = float(np.degrees(np.arccos(box.lean[2, 2])))
        print(f"{folder.name}: lean {lean:.1f} deg, as seen {np.mean(seen):.4f}/{np.max(seen):.3f}; "
              + "  ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
