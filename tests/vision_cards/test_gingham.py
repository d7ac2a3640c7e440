"""Cards on a gingham cloth, drawn by the second renderer (bench/holdout_cards.py --table checked)."""

import pytest

from tests.vision_cards.conftest import learned_at_the_cards_shape


@pytest.mark.parametrize("seed, style", [(294, "printed"), (303, "bleed")])
def test_cards_on_a_gingham_cloth_are_learned_by_what_differs_from_the_table(holdout, tmp_path, capsys, seed, style):
    """A gingham cloth: the cards' sides run along the checks' edges, broken at every check.
    printed/checked 294 (cream cards with a white border on green and white checks):
    :func:`card_in` found no card in any of the 48 photos, nor was an outline found round what
    differs from the empty table (the card's art and the pieces of its border on the green
    checks); every photo was taken for a tight crop, the deck was learned with the frame's
    proportions (0.75) and no card size, and not one card of 854 was read.  bleed/checked 303
    (black checks as large as a card's short side): a white check was found for the card in 13
    photos, and the deck was learned as 10 cards of side ratio 0.46 (1 card of 818 read).
    Where no outline is found round it, a photo's card is the hull of what differs, looked for
    again as the card-sized rectangle round it along the image's edges; and where fewer than
    half the photos show an outline, the photos are of one table when they differ from it over
    no more than a card may cover, so the checks are told for the table: the deck is learned
    at its own shape and its tables are read."""
    for table, ids in learned_at_the_cards_shape(holdout, tmp_path, seed, style, "checked", capsys):
        assert sorted(i or "?" for i in ids) == sorted(table[1]), table[0]
