"""Rectifying a found card: the quad the finder found warped to an upright portrait card.

What is read of it (its features) is made in :mod:`.learn`.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Canonical width of a rectified card in pixels (height follows the deck's proportions).
CANON_W = 48


def canon_size(ratio: float) -> tuple[int, int]:
    """(width, height) of the rectified portrait card for a short/long ``ratio``."""
    return CANON_W, int(round(CANON_W / max(0.3, min(1.0, ratio))))


def whole(image: np.ndarray) -> np.ndarray:
    """The corners (clockwise from the top left, float32) of the whole of ``image``: a photo
    that is the card, or a card already rectified."""
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)


def rectify(image: np.ndarray, corners: np.ndarray, ratio: float) -> np.ndarray:
    """Warp the card inside ``corners`` (clockwise) to a portrait canonical image.

    The first corner becomes the top left; the longer sides become the vertical ones (the
    result may be upside down: the matcher tries both ways).
    """
    return rectify_to(image, corners, canon_size(ratio))


def rectify_to(image: np.ndarray, corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """:func:`rectify` to a given (width, height) portrait size."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    d = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    if d[0] + d[2] > d[1] + d[3]:
        q = np.roll(q, -1, axis=0)  # landscape: start from the next corner
    w, h = size
    # warp at twice the size, then shrink with area averaging (no aliasing of fine print)
    W, H = 2 * w, 2 * h
    dst = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    big = cv2.warpPerspective(image, m, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
