"""Outlines far larger than a card: the squares of a pale tiled floor ringed by its grout."""

import cv2
import numpy as np
import pytest

from farmbox.vision.cards.find import LARGEST_CARD, FindOptions, find_cards


def _floor_of_rings(ring: tuple[int, int], count: int) -> np.ndarray:
    """A pale floor with ``count`` dark rings of ``ring`` (width, height) pixels, apart."""
    img = np.full((720, 960, 3), 200, np.uint8)
    w, h = ring
    for x0, y0 in ((60, 40), (360, 40), (660, 40), (210, 330))[:count]:
        cv2.rectangle(img, (x0, y0), (x0 + w, min(y0 + h, 715)), (90, 90, 90), 6)
    return cv2.GaussianBlur(img, (5, 5), 0)


@pytest.mark.parametrize("count", [1, 4])
def test_outlines_of_four_cards_size_are_no_cards_however_many_there_are(count):
    """Where a white card's own edges are faint on pale tiles the finder finds the grout round
    two squares instead, a card's shape at four times its size.  With three or more of them the
    finder took their median for one card's size and returned them all (the second renderer's
    printed/tiles 52: one table of four cards read none, the tiles' outlines in their place).
    Larger than two of the largest cards the enrollment photos show, they are no card.  One
    alone was kept too: the finder leaves out outlines of two cards' size and keeps the largest
    of those nested in them, three rounds, and the grout's ring had more nested outlines than
    that (a table of five read four cards and such an outline)."""
    w, h = 240, 372
    card = w * h / 4
    image = _floor_of_rings((w, h), count)
    found = find_cards(image, FindOptions(ratio=w / h, card_share=card / (720 * 960)))
    assert not any(cv2.contourArea(q) > 2 * LARGEST_CARD * card for q in found)
    # the same rings at a card's own size are cards
    found = find_cards(image, FindOptions(ratio=w / h, card_share=w * h / (720 * 960)))
    assert len(found) == count
