"""What the card tests share: the independent card renderer, and the overlap of two quads."""

import cv2
import numpy as np
import pytest

from tests.bench_scripts import bench_script


@pytest.fixture(scope="module")
def holdout():
    """bench/holdout_cards.py, the second, independent card renderer."""
    return bench_script("holdout_cards")


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    return float(inter) / (cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - float(inter) + 1e-9)
