"""Two cards lying against each other, turned a little apart, on the independent card renderer
(bench/holdout_cards.py)."""

import numpy as np
import pytest

from farmbox.vision.cards import FindOptions, find_cards
from tests.vision_cards.conftest import quad_iou


def _against(holdout, first, card, rng, slid=(0.25, 0.6), turned=(0.0, 2.0)):
    """``card`` laid against the long side of ``first``, turned ``turned`` degrees from it and
    slid along it by ``slid`` of its length, as near as it goes without the two overlapping
    (they touch at a corner or along a stretch)."""
    turn = first.turn + float(rng.choice([-1.0, 1.0]) * np.radians(rng.uniform(*turned)))
    c, s = np.cos(first.turn), np.sin(first.turn)
    side = float(rng.choice([-1.0, 1.0]))
    slide = float(rng.choice([-1.0, 1.0]) * rng.uniform(*slid)) * holdout.CARD_H
    for d in np.arange(holdout.CARD_W, 2 * holdout.CARD_W, 0.05):
        x, y = first.x + side * d * c - slide * s, first.y + side * d * s + slide * c
        cand = holdout.Placed(card, float(x), float(y), turn, np.array([0.0, 0.0, 1.0]))
        if holdout.apart(cand, first, 0.0):
            return cand
    raise AssertionError("no room beside the first card")


@pytest.mark.parametrize("seed,style,kind,lay,alone,enrolled,least", [
    (4, "printed", "tiles", {}, 2, False, 11),
    (3, "flat", "cloth", {}, 2, False, 13),
    (8, "printed", "felt", {"slid": (0.0, 0.1)}, 1, False, 13),
    (22, "printed", "wood", {}, 0, True, 15)])
def test_two_cards_lying_against_each_other_are_both_found(holdout, seed, style, kind, lay, alone, enrolled, least):
    """Where a card's white border lies against another white card, the edge between them is
    faint, and neither card's outline ran along an edge on all four sides: both were missed,
    or one quad took in parts of both, or each card's art was found alone (10 and 7 of these
    16 cards were found whole before).  Two outlines of a card's shape and size, each seen on
    three sides and with the fourth against the other's, are the two cards.

    Laid level, side by side, with one other card in the frame, the two made one quad (two
    portraits side by side are nearly a card's shape): none of the 16 was found before.  A quad
    twice the size of the frame's other card is cut along the faint seam.

    With no other card in the frame, a card's size is the one the enrollment photos showed
    (the same camera): 13 of the 16 found without it."""
    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, style, kind, deck)
    h, w = box.ground.shape[:2]
    rng = np.random.default_rng([seed, 31])
    whole = 0
    for k in range(8):
        cards = [deck[(4 * k + i) % len(deck)] for i in range(4)]
        for _ in range(50):
            g = box.ground[int(rng.uniform(0.3, 0.7) * h), int(rng.uniform(0.3, 0.7) * w)]
            first = holdout.Placed(cards[0], float(g[0]), float(g[1]), float(rng.uniform(0, 2 * np.pi)),
                                   np.array([0.0, 0.0, 1.0]))
            second = _against(holdout, first, cards[1], rng, **lay)
            # more cards apart, where the camera sees them whole
            rest = []
            for card, (fy, fx) in zip(cards[2:2 + alone], ((0.2, 0.2), (0.8, 0.8))):
                g = box.ground[int(fy * h), int(fx * w)]
                rest.append(holdout.Placed(card, float(g[0]), float(g[1]), float(rng.uniform(0, 2 * np.pi)),
                                           np.array([0.0, 0.0, 1.0])))
            placed = [first, second, *rest]
            if all(box.in_view(p, 3.0) for p in placed) and all(
                    holdout.apart(a, b, 0.5) for a in rest for b in placed if b is not a):
                break
        else:
            raise AssertionError("could not lay the cards")
        share = holdout.CARD_H / holdout.CARD_W * box.card_px() ** 2 / (w * h) if enrolled else None
        found = find_cards(box.render(placed, rng), FindOptions(ratio=0.66, card_share=share))
        whole += sum(bool(found) and max(quad_iou(box.project(p.corners()), q) for q in found) > 0.8
                     for p in (first, second))
        assert len(found) <= len(placed)   # nothing else is taken for a card
    assert whole >= least, whole
