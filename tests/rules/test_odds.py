"""Seed 004's figures, formulas and pair table, reproduced exactly."""

import itertools
from fractions import Fraction

import pytest

from farmbox.firmware.rules.superfarmer import CLASSIC
from farmbox.firmware.rules.superfarmer.dice import Face, Roll, outcomes
from farmbox.firmware.rules.superfarmer.herd import Herd
from farmbox.firmware.rules.superfarmer.odds import expected_gain, odds, seed004_formula


@pytest.mark.parametrize("herd,expected", [
    ("", Fraction(2, 3)),
    ("rabbit=1", Fraction(133, 144)),
    ("sheep=2", Fraction(11, 6)),
    ("pig=1", Fraction(13, 6)),
    ("sheep=1,rabbit=6", Fraction(25, 8)),
])
def test_worked_numbers(herd, expected):
    assert expected_gain(Herd.parse(herd)) == expected


def test_four_formulas_over_many_herds():
    checked = 0
    for r, s, p, c, h, sd, bd in itertools.product(
            range(7), range(4), range(3), range(3), range(3), range(3), range(2)):
        farm = Herd((r, s, p, c, h, sd, bd))
        assert expected_gain(farm) == seed004_formula(farm), str(farm)
        checked += 1
    assert checked == 7 * 4 * 3 * 3 * 3 * 3 * 2


# Seed 004's table of unordered pairs, weights out of 144.
PAIR_TABLE = {
    ("rabbit", "rabbit"): 36, ("sheep", "sheep"): 6, ("pig", "pig"): 2,
    ("rabbit", "sheep"): 30, ("rabbit", "pig"): 18, ("rabbit", "cow"): 6,
    ("rabbit", "horse"): 6, ("rabbit", "fox"): 6, ("rabbit", "wolf"): 6,
    ("sheep", "pig"): 8, ("sheep", "cow"): 2, ("sheep", "horse"): 3, ("sheep", "fox"): 3,
    ("sheep", "wolf"): 2, ("pig", "cow"): 2, ("pig", "horse"): 1, ("pig", "fox"): 1,
    ("pig", "wolf"): 2, ("cow", "horse"): 1, ("cow", "fox"): 1, ("horse", "wolf"): 1,
    ("fox", "wolf"): 1,
}


def test_pair_table():
    order = [f.value for f in Face]
    table: dict[tuple[str, str], int] = {}
    for roll, weight in outcomes().items():
        pair = tuple(sorted((roll.green.value, roll.red.value), key=order.index))
        table[pair] = table.get(pair, 0) + weight
    assert table == PAIR_TABLE
    assert sum(table.values()) == 144


def test_probabilities_of_at_least_one_face():
    # Seed 004: rabbit 108/144, sheep 54/144, pig 34/144 on at least one die.
    def at_least(face):
        return Fraction(sum(w for r, w in outcomes().items() if face in (r.green, r.red)), 144)
    assert at_least(Face.RABBIT) == Fraction(3, 4)
    assert at_least(Face.SHEEP) == Fraction(3, 8)
    assert at_least(Face.PIG) == Fraction(17, 72)
    for face in (Face.COW, Face.HORSE, Face.FOX, Face.WOLF):
        assert at_least(face) == Fraction(1, 12)


def test_capped_stock_lowers_the_exact_figure():
    farm = Herd.parse("rabbit=40")
    endless = expected_gain(farm)
    capped = expected_gain(farm, CLASSIC.stock_for(farm))  # only 20 rabbits left
    tiny = expected_gain(farm, Herd.parse("rabbit=1,sheep=24,pig=20,cow=12,horse=6"))
    assert endless == seed004_formula(farm)
    # 40 + 2 shown breeds 21 but 20 remain: the two-rabbit rolls lose one each.
    assert endless - capped == Fraction(36, 144)
    assert tiny < capped


def test_odds_summary():
    o = odds(Herd.parse("rabbit=1"))
    assert o.expected_gain == Fraction(133, 144)
    assert o.loss == Fraction(23, 144)
    assert o.fox_and_wolf == Fraction(1, 144)
    assert Roll.parse("wolf,fox").wolf
