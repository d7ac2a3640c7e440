"""Cards with white borders on a cloth of white and coloured stripes, on the independent card
renderer (bench/holdout_cards.py)."""

import cv2
import numpy as np
import pytest

from farmbox.vision.cards import FindOptions, find_cards
from farmbox.vision.cards.find import PART_OF_CARD
from tests.vision_cards.conftest import quad_iou


def _lay_apart(holdout, box, cards, rng):
    """``cards`` lying apart, turned any way, wholly in view."""
    h, w = box.ground.shape[:2]
    for _ in range(200):
        placed = []
        for card in cards:
            g = box.ground[int(rng.uniform(0.15, 0.85) * h), int(rng.uniform(0.15, 0.85) * w)]
            placed.append(holdout.Placed(card, float(g[0]), float(g[1]), float(rng.uniform(0, 2 * np.pi)),
                                         np.array([0.0, 0.0, 1.0])))
        if all(box.in_view(p, 3.0) for p in placed) and all(
                holdout.apart(a, b, 1.0) for i, a in enumerate(placed) for b in placed[i + 1:]):
            return placed
    raise AssertionError("could not lay the cards")


@pytest.mark.parametrize("seed,least", [(21, 17), (26, 20)])
def test_cards_on_white_stripes_are_found_whole(holdout, seed, least):
    """A card's white border lying along a white stripe leaves one side with only a faint line
    (the side test misses it), and the card's art panel was found alone instead.  Two things
    mend it, where the enrolled card size is known: an art panel found alone is no card when
    telling a card's size (else the whole cards looked twice a card and were dropped as
    pairs), and an outline the edge map closed round at full size, of a card's shape and
    size, seen on three sides, is a card where nothing else was found.  Of these 24 cards,
    11 (seed 21) and 17 (seed 26) were found whole before."""
    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, "flat", "striped", deck)
    h, w = box.ground.shape[:2]
    rng = np.random.default_rng([seed, 57])
    share = holdout.CARD_H / holdout.CARD_W * box.card_px() ** 2 / (w * h)
    whole = 0
    for k in range(6):
        placed = _lay_apart(holdout, box, [deck[(4 * k + i) % len(deck)] for i in range(4)], rng)
        found = find_cards(box.render(placed, rng), FindOptions(ratio=0.66, card_share=share))
        whole += sum(bool(found) and max(quad_iou(box.project(p.corners()), q) for q in found) > 0.8
                     for p in placed)
        # nothing else is taken for a card (the reader calls a find far smaller than the
        # enrolled card a part of one, not a card)
        cards = [q for q in found if cv2.contourArea(q) >= PART_OF_CARD * share * w * h]
        assert len(cards) <= len(placed)
    assert whole >= least, whole
