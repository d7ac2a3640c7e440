"""Herd strings, values and arithmetic."""

import pytest

from farmbox.firmware.rules.errors import InvalidHerd
from farmbox.firmware.rules.superfarmer.herd import ANIMALS, Animal, Herd, single


def test_parse_and_print_round_trip():
    h = Herd.parse(" rabbit=6, sheep=1 ,big_dog=2")
    assert h.counts == (6, 1, 0, 0, 0, 0, 2)
    assert str(h) == "rabbit=6,sheep=1,big_dog=2"
    assert Herd.parse(str(h)) == h
    assert h.value == 6 + 6 + 72


def test_empty_string_is_an_empty_farm():
    assert Herd.parse("") == Herd()
    assert Herd.parse("   ").is_empty()
    assert Herd().as_dict() == {a.key: 0 for a in ANIMALS}


@pytest.mark.parametrize("text,fragment", [
    ("goat=1", "unknown animal 'goat'"),
    ("rabbit", "expected name=count"),
    ("rabbit=-1", "count must be a whole number"),
    ("rabbit=1.5", "count must be a whole number"),
    ("rabbit=x", "count must be a whole number"),
    ("rabbit=1,,sheep=2", "empty item"),
    ("rabbit=1,rabbit=2", "rabbit given twice"),
])
def test_parse_errors_name_the_bad_part(text, fragment):
    with pytest.raises(InvalidHerd) as info:
        Herd.parse(text)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


def test_mapping_errors():
    with pytest.raises(InvalidHerd, match="negative"):
        Herd.from_mapping({"sheep": -2})
    with pytest.raises(InvalidHerd, match="not a whole number"):
        Herd.from_mapping({"sheep": True})
    with pytest.raises(InvalidHerd, match="bad count"):
        Herd((1, 2, 3, 4, 5, 6, -7))
    with pytest.raises(InvalidHerd, match="7 counts"):
        Herd((1, 2))  # type: ignore[arg-type]


def test_values_and_completion():
    assert [a.value_in_rabbits for a in ANIMALS] == [1, 6, 12, 36, 72, 6, 36]
    full = Herd.parse("rabbit=1,sheep=1,pig=1,cow=1,horse=1")
    assert full.is_complete() and full.value == 127
    assert not full.replace(Animal.COW, 0).is_complete()
    assert not Herd.parse("small_dog=4,big_dog=2,horse=6").is_complete()


def test_subtraction_never_goes_negative():
    with pytest.raises(InvalidHerd, match=r"sheep \(2 short\)"):
        Herd.parse("sheep=1") - Herd.parse("sheep=3")
    assert Herd.parse("sheep=3") - single(Animal.SHEEP, 2) == Herd.parse("sheep=1")
    assert Herd.parse("sheep=3").covers(Herd.parse("sheep=2"))
    assert not Herd.parse("sheep=3").covers(Herd.parse("pig=1"))


@pytest.mark.parametrize("text,fragment", [
    ("rabbit=١٢", "'rabbit=١٢'"),  # Arabic-Indic digits: int() would read 12
    ("rabbit=²", "'rabbit=²'"),  # a superscript: isdigit() but not int()
    ("rabbit=１", "in digits 0-9"),  # a full-width digit
    ("rabbit=1234567890", "10 digits"),
    ("ſheep=1", "unknown animal 'ſheep'"),  # str.upper() would make it SHEEP
    ("rabbıt=1", "unknown animal 'rabbıt'"),
])
def test_counts_and_names_are_ascii_only(text, fragment):
    with pytest.raises(InvalidHerd, match=fragment) as info:
        Herd.parse(text)
    assert "\n" not in str(info.value)
