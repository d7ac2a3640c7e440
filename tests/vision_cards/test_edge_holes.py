"""The large holes of a textured edge map, found as regions of its background
(:func:`farmbox.vision.cards.find._large_holes`), are the holes OpenCV's contour tracing finds
in the whole map, point for point."""

import cv2
import numpy as np
import pytest

from farmbox.vision.cards.find import (
    FINE_GROW,
    RING_GROW,
    RING_HOLE_GROW,
    TEXTURED,
    FindOptions,
    _fine_holes,
    _holes,
    _large_holes,
    _lengths,
    _may_enclose,
)


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


def _cream_card_on(table: np.ndarray) -> np.ndarray:
    """``table`` (a 720 x 960 grey frame) with a cream card on it, ringed by a thin grey line,
    its art coming within a few pixels of that line."""
    img = table.copy()
    cv2.rectangle(img, (400, 250), (520, 430), 238, -1)
    cv2.rectangle(img, (400, 250), (520, 430), 175, 1)            # the thin grey line round it
    cv2.circle(img, (460, 340), 40, 120, -1)                      # its art
    cv2.rectangle(img, (404, 300), (440, 330), 90, -1)           # art near its edge
    return img


def _rings(candidates: list) -> list:
    return [c for c, grow, _ in candidates if grow in (RING_GROW, RING_HOLE_GROW)]


def test_a_textured_tables_edge_map_is_not_searched_for_rings():
    """On a pale smooth table the thickened full-size edge map's rings are candidates (a cream
    card's thin line, :func:`_alone_rings`); on a felt the thickened map is one web of the
    texture, a ring round a card glued to it: no rings are traced there (some 11 ms of a felt
    frame), and the card's own hole is still a candidate."""
    rng = np.random.default_rng(7)
    options = FindOptions(ratio=120 / 180, card_share=121 * 181 / (720 * 960))
    scale = 640 / 960
    pale = np.clip(rng.normal(226, 2, (720, 960)), 0, 255).astype(np.uint8)
    felt = cv2.GaussianBlur(rng.normal(128, 40, (720, 960)).astype(np.float32), (0, 0), 1.2)
    felt = np.clip(felt, 0, 255).astype(np.uint8)
    card = 121 * 181 * scale * scale                               # in work-frame pixels
    for table, textured in ((pale, False), (felt, True)):
        full = _cream_card_on(table)
        edges = cv2.Canny(cv2.GaussianBlur(full, (3, 3), 0), 25, 64, L2gradient=True)
        assert (cv2.countNonZero(edges) > TEXTURED * edges.size) == textured
        found = _fine_holes(full, scale, options)
        rings = _rings(found)
        near_card = [c for c in rings if 0.8 * card <= cv2.contourArea(c) <= 1.2 * card]
        if textured:
            assert rings == []
            assert any(0.8 * card <= cv2.contourArea(c) <= 1.05 * card for c, grow, _ in found
                       if grow == FINE_GROW)
        else:
            assert near_card, "the cream card's ring on the smooth table"
