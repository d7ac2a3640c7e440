"""One card's two outlines: the finder reports one of them (:func:`.find._one_of_alike`)."""

import cv2
import numpy as np

from farmbox.vision.cards.find import OUTDONE, _one_of_alike, _overlap


def _table_with_a_card() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A pale table (work-frame size) with a dark card on it, its Sobel gradients as the finder
    makes them, and the card's own corners."""
    gray = np.full((480, 640), 205, np.uint8)
    card = np.float32([[300, 150], [400, 150], [400, 300], [300, 300]])
    cv2.fillConvexPoly(gray, card.astype(np.int32), 60)
    gx, gy = cv2.spatialGradient(cv2.GaussianBlur(gray, (3, 3), 0))
    return gray, gx, gy, card


def _with_a_band(card: np.ndarray) -> np.ndarray:
    """``card`` widened by a band of the table on its left and cut a little at top and foot,
    as the half of a pair's outline cut along a seam was on the second renderer's bleed/tiles
    196 (0.84 alike the card's own outline)."""
    return card + np.float32([[-12, 5], [0, 5], [0, -5], [-12, -5]])


def test_a_seams_half_gives_way_to_the_card_found_whole():
    _, gx, gy, card = _table_with_a_card()
    half = _with_a_band(card)
    assert _overlap(half, card) > OUTDONE
    for quads in ([(half, True), (card, False)], [(card, False), (half, True)]):
        kept = _one_of_alike(quads, gx, gy)
        assert len(kept) == 1 and np.array_equal(kept[0], card)


def test_of_two_alike_outlines_the_one_along_the_cards_edges_is_kept():
    _, gx, gy, card = _table_with_a_card()
    off = _with_a_band(card)
    for quads in ([(off, False), (card, False)], [(card, True), (off, True)]):
        kept = _one_of_alike(quads, gx, gy)
        assert len(kept) == 1 and np.array_equal(kept[0], card)


def test_outlines_less_alike_are_both_kept():
    """Two cards, one partly over the other, are two outlines: both kept, whatever their edges."""
    _, gx, gy, card = _table_with_a_card()
    other = card + np.float32([40, 30])
    assert _overlap(other, card) < OUTDONE
    kept = _one_of_alike([(card, False), (other, True), (card + np.float32([0, 200]), False)], gx, gy)
    assert len(kept) == 3
