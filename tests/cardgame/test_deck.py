"""The deck data file, its validation and the deal table."""

import tomllib
from collections import Counter
from importlib import resources

import pytest

from farmbox.firmware.rules.cardgame import (
    DEALS,
    DECK_SIZE,
    GIFT_LIMITS,
    Animal,
    CardGameError,
    cards_for,
    load_deck,
    parse_deck,
)


def deck_data() -> dict:
    text = resources.files("farmbox.firmware.rules.cardgame").joinpath("deck.toml").read_text()
    return tomllib.loads(text)


def test_deck_has_110_numbered_cards_and_4_cats():
    deck = load_deck()
    assert len(deck) == DECK_SIZE == 110
    assert sum(c.is_cat for c in deck) == 4
    assert sorted(c.serial for c in deck) == list(range(1, 111))
    assert len(set(deck)) == 110


def test_deck_file_is_marked_provisional():
    text = resources.files("farmbox.firmware.rules.cardgame").joinpath("deck.toml").read_text()
    assert "PROVISIONAL" in text


def test_horses_and_cats_stay_in_the_box_with_four_or_fewer():
    deck = load_deck()
    horses = sum(c.animal is Animal.HORSE for c in deck)
    assert horses > 0
    for players in (2, 3, 4):
        in_play = cards_for(deck, players)
        assert not any(c.is_cat or c.animal is Animal.HORSE for c in in_play)
        assert len(in_play) == 110 - 4 - horses
    for players in (5, 6):
        assert cards_for(deck, players) == deck


@pytest.mark.parametrize("players, hand, extra", [
    (2, 8, (8,)), (3, 8, (6,)), (4, 8, (8,)), (5, 6, (6, 4)), (6, 6, (6, 6))])
def test_deal_table(players, hand, extra):
    deal = DEALS[players]
    assert (deal.hand, deal.extra) == (hand, extra)
    # Every turn uses two cards and hands one gift: the limits fit one round exactly.
    assert deal.cards(players) == 2 * GIFT_LIMITS[players] * players
    # Two rounds fit in the cards in play.
    assert 2 * deal.cards(players) <= len(cards_for(load_deck(), players))


def test_dog_icons_only_on_hunted_animals():
    # Horses are never hunted, so no horse card needs a dog (the provisional deck's choice).
    counts = Counter(c.animal for c in load_deck() if c.dogs)
    assert Animal.HORSE not in counts and set(counts) <= set(Animal)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["card"][0].update(count=5), "111 cards"),
    (lambda d: d["card"][0].update(count=0), "count must be"),
    (lambda d: d["card"][0].update(colour="red"), "unknown key 'colour'"),
    (lambda d: d["card"][0].update(kind="goat"), "unknown animal 'goat'"),
    (lambda d: d["card"][0].update(icons=0), "at least one animal icon"),
    (lambda d: d["card"][0].update(water=-1), "water must be"),
    (lambda d: d["card"][-1].update(icons=2), "a cat has no icons"),
    (lambda d: d.update(extra=1), "unknown key 'extra'"),
    (lambda d: d.update(card=[]), "list of [[card]]"),
])
def test_bad_deck_files_name_the_problem(change, message):
    data = deck_data()
    change(data)
    with pytest.raises(CardGameError, match=message.replace("[", r"\[")) as info:
        parse_deck(data)
    assert "\n" not in str(info.value)


def test_wrong_number_of_cats_is_rejected():
    data = deck_data()
    data["card"][-1]["count"] = 3
    data["card"][0]["count"] += 1
    with pytest.raises(CardGameError, match="3 cats"):
        parse_deck(data)
