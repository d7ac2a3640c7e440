"""Exact odds of one roll, over the 144 equally likely outcomes.

Seed 004 gives the expected gain in rabbits for an endless main herd:

>>> expected_gain(Herd())
Fraction(2, 3)
>>> expected_gain(Herd.parse("rabbit=1"))
Fraction(133, 144)

With ``stock`` given, breeding is capped by what the herd holds, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .dice import ALL_ROLLS, GREEN, RED, Face, outcomes
from .herd import ANIMALS, LIVESTOCK, Animal, Herd
from .settle import EventKind, settle
from .variants import CLASSIC, Rules

#: The distinct rolls with their weights out of 144.
WEIGHTED_ROLLS = tuple(outcomes().items())

#: A main herd too large to ever cap breeding (seed 004's assumption).
ENDLESS = Herd((10**9,) * 7)


@dataclass(frozen=True)
class Odds:
    """Exact figures for one roll of a farm."""

    expected_gain: Fraction
    fox: Fraction
    wolf: Fraction
    fox_and_wolf: Fraction
    loss: Fraction
    gain: dict[Animal, Fraction]
    win: Fraction

    def as_dict(self) -> dict[str, object]:
        return {
            "expected_gain": str(self.expected_gain),
            "expected_gain_float": float(self.expected_gain),
            "p_fox": str(self.fox),
            "p_wolf": str(self.wolf),
            "p_fox_and_wolf": str(self.fox_and_wolf),
            "p_loss": str(self.loss),
            "p_gain": {a.key: str(p) for a, p in self.gain.items()},
            "p_win": str(self.win),
        }


def _stock(farm: Herd, stock: Herd | None) -> Herd:
    return ENDLESS if stock is None else stock


def expected_gain(farm: Herd, stock: Herd | None = None, rules: Rules = CLASSIC) -> Fraction:
    """Expected change of the farm's value in rabbits after one roll."""
    s = _stock(farm, stock)
    base = farm.value
    total = 0
    for roll, weight in WEIGHTED_ROLLS:
        total += weight * (settle(farm, s, roll, rules).farm.value - base)
    return Fraction(total, len(ALL_ROLLS))


def odds(farm: Herd, stock: Herd | None = None, rules: Rules = CLASSIC) -> Odds:
    """All the one-roll figures for ``farm`` (endless herd unless ``stock`` is given)."""
    s = _stock(farm, stock)
    n = len(ALL_ROLLS)
    base = farm.value
    total = loss = win = 0
    gain = {a: 0 for a in LIVESTOCK}
    for roll, w in WEIGHTED_ROLLS:
        result = settle(farm, s, roll, rules)
        total += w * (result.farm.value - base)
        kinds = {e.kind for e in result.events}
        if kinds & {EventKind.LOST_TO_FOX, EventKind.LOST_TO_WOLF, EventKind.DOG_USED}:
            loss += w
        for e in result.events:
            if e.kind is EventKind.BRED and e.animal is not None:
                gain[e.animal] += w
        win += w * result.farm.is_complete()
    fox = RED.probability(Face.FOX)
    wolf = GREEN.probability(Face.WOLF)
    return Odds(
        expected_gain=Fraction(total, n),
        fox=fox,
        wolf=wolf,
        fox_and_wolf=fox * wolf,
        loss=Fraction(loss, n),
        gain={a: Fraction(c, n) for a, c in gain.items()},
        win=Fraction(win, n),
    )


def seed004_formula(farm: Herd) -> Fraction:
    """Seed 004's closed-form expected gain (endless herd), one of four by dogs held."""
    R, S, P, C, H = (farm[a] for a in LIVESTOCK)
    small, big = farm[Animal.SMALL_DOG] > 0, farm[Animal.BIG_DOG] > 0
    F = Fraction
    horse = 6 * ((H + 1) // 2)
    if not small and not big:
        return (F(2, 3) + F(37, 144) * R - F(1, 6) * (R // 2) + F(17, 12) * S - F(5, 3) * (S // 2)
                + F(3, 2) * P - F(7, 3) * (P // 2) - 3 * (C // 2) + horse)
    if small and not big:
        return (F(1, 6) + F(3, 8) * R - F(5, 24) * (R // 2) + F(17, 12) * S - F(5, 3) * (S // 2)
                + F(3, 2) * P - F(7, 3) * (P // 2) - 3 * (C // 2) + horse)
    if big and not small:
        return (F(-7, 3) + F(3, 8) * R - F(5, 24) * (R // 2) + 2 * S - F(7, 4) * (S // 2)
                + F(8, 3) * P - F(5, 2) * (P // 2) + 3 * ((C + 1) // 2) + horse)
    return (F(-17, 6) + F(1, 2) * R - F(1, 4) * (R // 2) + 2 * S - F(7, 4) * (S // 2)
            + F(8, 3) * P - F(5, 2) * (P // 2) + 3 * ((C + 1) // 2) + horse)


__all__ = ["ANIMALS", "ENDLESS", "Odds", "expected_gain", "odds", "seed004_formula"]
