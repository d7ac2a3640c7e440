"""The large holes of a textured edge map, found as regions of its background
(:func:`farmbox.vision.cards.find._large_holes`), are the holes OpenCV's contour tracing finds
in the whole map, point for point."""

import cv2
import numpy as np
import pytest

from farmbox.vision.cards.find import TEXTURED, _holes, _large_holes, _lengths, _may_enclose


def _traced(edges: np.ndarray, lo: float) -> list[np.ndarray]:
    """The holes of ``edges`` closing ``lo`` pixels or more, by tracing the whole map."""
    contours, hier = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hier is None:
        return []
    keep = (hier[0][:, 3] >= 0) & _may_enclose(_lengths(contours), lo)
    return [contours[int(k)] for k in np.flatnonzero(keep) if cv2.contourArea(contours[int(k)]) >= lo]


def _felt(seed: int, h: int = 360, w: int = 480) -> np.ndarray:
    """An edge map of a felt-like table with cards on it: texture everywhere, card outlines
    (one hugging its art's frame a pixel away, one cut by the frame's edge, one touching the
    frame's border row), as Canny draws them at full size."""
    rng = np.random.default_rng(seed)
    img = cv2.GaussianBlur(rng.normal(128, 40, (h, w)).astype(np.float32), (0, 0), 1.2)
    img = np.clip(img, 0, 255).astype(np.uint8)
    for _ in range(5):
        x, y = int(rng.integers(-30, w - 60)), int(rng.integers(-30, h - 80))
        cw, ch = int(rng.integers(50, 90)), int(rng.integers(70, 120))
        cv2.rectangle(img, (x, y), (x + cw, y + ch), 235, -1)
        cv2.rectangle(img, (x, y), (x + cw, y + ch), 60, 1)                  # the card's outline
        cv2.rectangle(img, (x + 3, y + 3), (x + cw - 3, y + ch - 3), 90, 1)  # its art's frame
        cv2.circle(img, (x + cw // 2, y + ch // 2), 9, 40, -1)               # art
    cv2.rectangle(img, (0, 0), (70, 90), 60, 1)                               # on the border row
    return cv2.Canny(img, 20, 60, L2gradient=True)


@pytest.mark.parametrize("seed", range(6))
def test_holes_found_as_background_regions_are_the_traced_holes(seed):
    edges = _felt(seed)
    assert cv2.countNonZero(edges) > TEXTURED * edges.size      # textured: _holes takes this way
    lo = 2000.0
    traced = _traced(edges, lo)
    regions = [c for c in _large_holes(edges, lo) if cv2.contourArea(c) >= lo]
    assert len(traced) >= 2
    key = lambda c: (int(c[0, 0, 1]), int(c[0, 0, 0]))          # noqa: E731
    assert len(regions) == len(traced)
    for a, b in zip(sorted(traced, key=key), sorted(regions, key=key)):
        assert np.array_equal(a, b)
    # either way, the same outlines in the same order
    both = [c for c in _holes(edges, lo) if cv2.contourArea(c) >= lo]
    assert all(np.array_equal(a, b) for a, b in zip(both, sorted(traced, key=key))) and len(both) == len(traced)


def test_a_thin_gap_round_a_cards_art_is_a_large_hole():
    """The card's outline a pixel from its art's frame: the background between them is a thin
    ring of few pixels, yet the hole it makes closes the whole card."""
    edges = np.zeros((200, 200), np.uint8)
    edges[::3, ::3] = 255                                        # texture specks everywhere
    edges[40:161, 50:151] = 0
    cv2.rectangle(edges, (50, 40), (150, 160), 255, 1)          # the card's outline
    cv2.rectangle(edges, (52, 42), (148, 158), 255, -1)         # its art, a pixel inside
    assert cv2.connectedComponents(cv2.bitwise_not(edges), connectivity=4)[1][41, 51] > 0
    gap = int((edges[40:161, 50:151] == 0).sum())
    assert gap < 5000 / 10                                       # the ring between them: few pixels
    holes = [c for c in _large_holes(edges, 5000.0) if cv2.contourArea(c) >= 5000]
    traced = _traced(edges, 5000.0)
    assert len(holes) == len(traced) == 1 and np.array_equal(holes[0], traced[0])
    assert cv2.contourArea(holes[0]) > 0.99 * 100 * 120         # the card's whole outline
