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


def _work_gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The finder's gradients of ``image`` (already at its work width)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    return cv2.spatialGradient(gray)


def _outline(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)


def test_a_pair_of_cards_has_their_width_reach_and_art_and_a_stripe_or_a_tile_has_not():
    """Regions the size of two cards that no card explains are cut across in search of two
    cards touching (8 ms a region).  A stripe of a striped cloth cut short by cards (half a card
    wide, four long) has no room for two cards; a pale tile ringed by grout has no art inside."""
    from farmbox.vision.cards.find import _holds_art, _room_for_a_pair
    short, long_ = 60.0, 86.0
    table = np.full((480, 640, 3), 120, np.uint8)
    pair = table.copy()
    for x0 in (100, 100 + int(short)):       # two cards side by side, each with its art
        cv2.rectangle(pair, (x0, 100), (x0 + int(short) - 1, 100 + int(long_)), (235, 235, 235), -1)
        cv2.circle(pair, (x0 + int(short) // 2, 140), 14, (40, 90, 160), -1)
        cv2.line(pair, (x0 + 10, 170), (x0 + int(short) - 10, 175), (30, 30, 30), 2)
    mask = (cv2.cvtColor(pair, cv2.COLOR_BGR2GRAY) > 160).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((31, 31), np.uint8))   # the bright region
    pts = _outline(mask)
    assert _room_for_a_pair(pts, short, long_) and _holds_art(pts, *_work_gradients(pair))
    # a stripe two cards' area: half a card wide, four cards long
    stripe = np.zeros((480, 640), np.uint8)
    cv2.rectangle(stripe, (50, 200), (50 + 4 * int(long_), 200 + int(short) // 2), (1,), -1)
    assert not _room_for_a_pair(_outline(stripe), short, long_)
    # a plain pale tile of two cards' size ringed by grout: room for two, no art
    tile = np.full((480, 640, 3), 215, np.uint8)
    cv2.rectangle(tile, (300, 100), (300 + 2 * int(short), 100 + int(long_)), (90, 90, 90), 3)
    inner = np.zeros((480, 640), np.uint8)
    cv2.rectangle(inner, (303, 103), (297 + 2 * int(short), 97 + int(long_)), (1,), -1)
    pts = _outline(inner)
    assert _room_for_a_pair(pts, short, long_) and not _holds_art(pts, *_work_gradients(tile))
    # the same tile with a card's art on it
    cv2.circle(tile, (340, 140), 14, (40, 90, 160), -1)
    assert _holds_art(pts, *_work_gradients(tile))


def _tiled_floor_with_cards() -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A pale floor of 120 px square tiles ringed by grout, and on three of them a white card
    (60 x 92, ratio 0.65) with a dark edge and its art."""
    img = np.full((720, 960, 3), 215, np.uint8)
    for x in range(0, 960, 120):
        cv2.line(img, (x, 0), (x, 719), (150, 150, 150), 3)
    for y in range(0, 720, 120):
        cv2.line(img, (0, y), (959, y), (150, 150, 150), 3)
    cards = [(150, 134, 60, 92), (510, 254, 60, 92), (750, 494, 60, 92)]
    for x, y, w, h in cards:
        cv2.rectangle(img, (x, y), (x + w, y + h), (70, 70, 70), -1)          # the card's edge, dark
        cv2.rectangle(img, (x + 2, y + 2), (x + w - 2, y + h - 2), (250, 250, 250), -1)
        cv2.circle(img, (x + w // 2, y + h // 2), 14, (40, 90, 160), -1)     # its art
    return cv2.GaussianBlur(img, (3, 3), 0), cards


def test_the_tiles_squares_are_not_refined_and_the_cards_found_are_the_same(monkeypatch):
    """An outline whose side ratio lies farther from the cards' than refining it could move it
    (:data:`REFINE_RATIO` beyond the tolerance and the lens's leeway) is passed over unrefined:
    on pale tiles most outlines a frame are the tiles' squares, and each refinement costs some
    0.3 ms (the rings round them too, :func:`_alone_rings`).  The cards found are the same as
    with every outline refined."""
    from farmbox.vision.cards import find as finding
    image, cards = _tiled_floor_with_cards()
    options = FindOptions(ratio=60 / 92, card_share=60 * 92 / (720 * 960))
    refined: list[float] = []
    original = finding._refine

    def counted(quad, contour, fixed=None):
        refined.append(finding.side_ratio(finding.order_corners(quad)))
        return original(quad, contour, fixed)

    monkeypatch.setattr(finding, "_refine", counted)
    found = find_cards(image, options)
    beyond = options.ratio + options.ratio_tolerance + finding.RATIO_OFF_CENTRE + finding.REFINE_RATIO
    squares_now = sum(r > beyond for r in refined)
    monkeypatch.setattr(finding, "REFINE_RATIO", 10.0)      # every outline refined, as before
    refined.clear()
    every = find_cards(image, options)
    squares_before = sum(r > beyond for r in refined)
    assert len(found) == len(cards)
    assert [q.round(1).tolist() for q in found] == [q.round(1).tolist() for q in every]
    assert squares_before >= 10 and squares_now == 0
