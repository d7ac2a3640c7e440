"""What the docs' picture scripts share: tiles laid out in a grid on white, and the file written."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

WHITE = (255, 255, 255)


def grid(tiles: list[np.ndarray], per_row: int, margin: int = 0) -> np.ndarray:
    """``tiles`` in rows of ``per_row``, each padded on white to the largest (and by
    ``margin`` pixels all round); a short last row is filled with white tiles."""
    h = max(t.shape[0] for t in tiles)
    w = max(t.shape[1] for t in tiles)
    padded = [cv2.copyMakeBorder(t, margin, margin + h - t.shape[0], margin, margin + w - t.shape[1],
                                 cv2.BORDER_CONSTANT, value=WHITE) for t in tiles]
    padded += [np.full_like(padded[0], 255)] * (-len(padded) % per_row)
    return np.vstack([np.hstack(padded[i:i + per_row]) for i in range(0, len(padded), per_row)])


def save(out: Path, picture: np.ndarray, quality: int, script: str) -> int:
    """Write ``picture`` as a JPEG to ``out`` (its folder made); its path on stdout, or one line
    on stderr and 2 when it cannot be written."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), picture, [cv2.IMWRITE_JPEG_QUALITY, quality]):
        print(f"{script}: cannot write {out}", file=sys.stderr)
        return 2
    print(out)
    return 0
