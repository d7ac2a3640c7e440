"""The deck data file: the provisional default and bad files."""

from collections import Counter

import pytest

from farmbox.firmware.games.funfarm.deck_file import read_deck
from farmbox.firmware.rules.funfarm import Animal, InvalidDeck, load_deck


def test_default_deck_is_24_balanced_cards():
    deck = load_deck()
    assert len(deck) == 24 and deck.provisional
    assert Counter(c.animal for c in deck.cards) == {a: 4 for a in Animal}
    # Each of the six colours is on each die, on exactly 4 cards per die.
    assert set(deck.black_faces) == set(deck.white_faces) and len(set(deck.black_faces)) == 6
    assert Counter(c.black for c in deck.cards) == {c: 4 for c in deck.black_faces}
    assert Counter(c.white for c in deck.cards) == {c: 4 for c in deck.white_faces}
    assert all(c.black != c.white for c in deck.cards)
    assert len({c.id for c in deck.cards}) == 24
    for a in Animal:
        mine = [c for c in deck.cards if c.animal is a]
        assert len({c.black for c in mine}) == 4 and len({c.white for c in mine}) == 4


GOOD = '''
[dice]
black = ["red", "blue"]
white = ["red", "blue"]
'''


def _write(tmp_path, cards, dice=GOOD):
    p = tmp_path / "deck.toml"
    p.write_text("cards = [\n" + cards + "\n]\n" + dice)
    return p


def test_owner_edited_deck_loads(tmp_path):
    p = _write(tmp_path, '{ id = "a", animal = "Cow", black = "red", white = "blue" },')
    deck = read_deck(p)
    assert deck.cards[0].animal is Animal.COW and not deck.provisional
    assert deck.index("a") == 0


@pytest.mark.parametrize("cards,message", [
    ('{ id = "a", animal = "dog", black = "red", white = "blue" },', "unknown animal 'dog'"),
    ('{ id = "a", animal = "cow", black = "pink", white = "blue" },', "'pink' is not on the black die"),
    ('{ id = "a", animal = "cow", black = "red", white = "pink" },', "'pink' is not on the white die"),
    ('{ id = "a", animal = "cow", black = "red" },', "card 1 has no 'white'"),
    ('"x",', "card 1 must be a table like"),
    ('{ id = "a", animal = "cow", black = "red", white = "blue" },\n'
     '{ id = "b", animal = "pig", black = "mauve", white = "blue" },',
     r"card 2 \('b'\): 'mauve' is not on the black die \(red, blue\)"),
    ('{ id = "a", animal = "cow", black = 3, white = "blue" },', "card 1 .'a'.: black: 3 is not a colour"),
    ('{ id = 7, animal = "cow", black = "red", white = "blue" },', "card 1 has a bad id 7"),
    ('{ id = "a", animal = "cow", black = "red", white = "blue", colour = "x" },', "unknown key 'colour'"),
    ('{ id = "a", animal = "cow", black = "red", white = "red" },\n'
     '{ id = "a", animal = "pig", black = "red", white = "red" },', "'a' appears twice"),
    ('', "no cards"),
])
def test_bad_deck_names_the_problem(tmp_path, cards, message):
    with pytest.raises(InvalidDeck, match=message) as info:
        read_deck(_write(tmp_path, cards))
    assert "\n" not in str(info.value) and "deck.toml" in str(info.value)


def test_not_toml_and_missing_dice(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text("cards = [ {")
    with pytest.raises(InvalidDeck, match="not valid TOML"):
        read_deck(p)
    p.write_text("cards = []\n")
    with pytest.raises(InvalidDeck, match="missing 'dice'"):
        read_deck(p)
    p.write_text('cards = "x"\n' + GOOD)
    with pytest.raises(InvalidDeck, match="'cards' must be a list"):
        read_deck(p)
    with pytest.raises(InvalidDeck, match="absent.toml: no such file$"):
        read_deck(tmp_path / "absent.toml")
    with pytest.raises(InvalidDeck, match="is a directory"):
        read_deck(tmp_path)


def test_colours_are_read_in_any_case():
    """``black = "Red"`` is the die's ``red`` (the rolls are written in lower case)."""
    from farmbox.firmware.rules.funfarm import parse_deck

    deck = parse_deck({"dice": {"black": ["Red", "blue"], "white": ["red", "BLUE"]},
                       "cards": [{"id": "a", "animal": "cow", "black": "RED", "white": "Blue"}]})
    assert deck.black_faces == ("red", "blue") and deck.cards[0].white == "blue"


def test_the_packaged_deck_round_trips_through_a_journal_record():
    from farmbox.firmware.rules.funfarm import deck_as_data, parse_deck

    deck = load_deck()
    assert parse_deck(deck_as_data(deck)) == deck and read_deck(None) is deck
