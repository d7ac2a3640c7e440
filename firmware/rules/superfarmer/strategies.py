"""Strategies: small objects that choose a turn's exchange (or none).

Every strategy is deterministic: the same farm, herd and rules give the same
choice, so the simulator may remember choices per state. All of them make a
winning exchange when there is one.

>>> from farmbox.firmware.rules.superfarmer import CLASSIC
>>> farm = Herd.parse("rabbit=14")
>>> str(STRATEGIES["hoard"].choose(farm, CLASSIC.stock_for(farm), CLASSIC))
'rabbit=6->small_dog=1'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from .exchanges import Exchange, apply_exchange, find_combination, single_animal, winning_exchange
from .herd import Animal, Herd
from .odds import expected_gain
from .variants import Rules

if TYPE_CHECKING:  # numpy tables, imported when the advisor first plays
    from .solitaire import Model

#: Pay with the cheapest animals first; dogs and horses only as a last resort.
LOW_FIRST = (Animal.RABBIT, Animal.SHEEP, Animal.PIG, Animal.COW)


class Strategy(Protocol):
    """Chooses the exchange of a turn from what the table shows."""

    name: str

    def choose(self, farm: Herd, stock: Herd, rules: Rules,
               others: Sequence[Herd] = ()) -> Exchange | None:
        """The exchange to make with the main herd before rolling, or None."""
        ...


def buy(farm: Herd, stock: Herd, animal: Animal, keep: Herd = Herd(),
        pay_with: Sequence[Animal] = LOW_FIRST) -> Exchange | None:
    """Buy one ``animal`` from the herd with the farm's cheapest animals (keeping ``keep``)."""
    if not stock[animal]:
        return None
    spare = tuple(max(0, n - k) for n, k in zip(farm.counts, keep.counts))
    order = tuple(int(a) for a in pay_with if a is not animal)
    combo = find_combination(animal.value_in_rabbits, spare, order)
    if combo is None:
        return None
    return Exchange(Herd(combo), single_animal(animal))  # type: ignore[arg-type]


def sell(farm: Herd, stock: Herd, animal: Animal) -> Exchange | None:
    """Sell one ``animal`` for change from the herd, largest animals below it first."""
    if not farm[animal]:
        return None
    order = tuple(a for a in (Animal.COW, Animal.PIG, Animal.SHEEP, Animal.RABBIT)
                  if a.value_in_rabbits < animal.value_in_rabbits)
    combo = find_combination(animal.value_in_rabbits, stock.counts, tuple(int(a) for a in order))
    if combo is None:
        return None
    return Exchange(single_animal(animal), Herd(combo))  # type: ignore[arg-type]


class Naive:
    """Buy the next missing animal up the ladder as soon as it can be paid; no dogs."""

    name = "naive"

    def choose(self, farm: Herd, stock: Herd, rules: Rules,
               others: Sequence[Herd] = ()) -> Exchange | None:
        win = winning_exchange(farm, stock)
        if win is not None:
            return win
        for animal in (Animal.SHEEP, Animal.PIG, Animal.COW, Animal.HORSE):
            if not farm[animal]:
                return buy(farm, stock, animal)
        return None


@lru_cache(maxsize=1 << 18)
def _gain(farm: Herd, stock: Herd, rules: Rules) -> Fraction:
    # Many states share candidate farms, so remembering the exact figure pays.
    return expected_gain(farm, stock, rules)


class Greedy:
    """Make the exchange with the highest exact expected gain of the coming roll.

    The candidates are what a farmer would consider: buying one animal of each
    kind with the cheapest animals, or selling one for change.
    """

    name = "greedy"

    def candidates(self, farm: Herd, stock: Herd) -> list[Exchange]:
        out = []
        for animal in Animal:
            for ex in (buy(farm, stock, animal), sell(farm, stock, animal)):
                if ex is not None:
                    out.append(ex)
        return out

    def choose(self, farm: Herd, stock: Herd, rules: Rules,
               others: Sequence[Herd] = ()) -> Exchange | None:
        win = winning_exchange(farm, stock)
        if win is not None:
            return win
        best: Exchange | None = None
        best_gain: Fraction = _gain(farm, stock, rules)
        for ex in self.candidates(farm, stock):
            f, s = apply_exchange(farm, stock, ex)
            gain = _gain(f, s, rules)
            if gain > best_gain:
                best, best_gain = ex, gain
        return best


class Hoard:
    """Hoard rabbits, then buy dogs, then the horse as the winning move.

    In the spirit of the best published student strategies: rabbits breed
    fastest, so keep them until a small dog can guard them; a big dog guards the
    rest (both are bought again after they are used); the missing sheep, pig and
    cow are bought from surplus rabbits above a reserve; the horse, the dearest
    animal, is bought last, by the exchange that completes the farm. The default
    thresholds are the best of a small grid (see ``docs/rules.md``).
    """

    name = "hoard"

    def __init__(self, small_dog_at: int = 10, big_dog_at: int = 66, reserve: int = 12) -> None:
        self.small_dog_at = small_dog_at
        self.big_dog_at = big_dog_at
        self.keep = Herd((reserve, 1, 1, 1, 1, 0, 0))

    def choose(self, farm: Herd, stock: Herd, rules: Rules,
               others: Sequence[Herd] = ()) -> Exchange | None:
        win = winning_exchange(farm, stock)
        if win is not None:
            return win
        livestock = farm.value - 6 * farm[Animal.SMALL_DOG] - 36 * farm[Animal.BIG_DOG]
        if not farm[Animal.SMALL_DOG] and farm[Animal.RABBIT] >= self.small_dog_at:
            return buy(farm, stock, Animal.SMALL_DOG)
        if not farm[Animal.BIG_DOG] and livestock >= self.big_dog_at:
            ex = buy(farm, stock, Animal.BIG_DOG)
            if ex is not None:
                return ex
        for animal in (Animal.SHEEP, Animal.PIG, Animal.COW):
            if not farm[animal]:
                return buy(farm, stock, animal, keep=self.keep)
        return None


class Advisor:
    """Play the solved solitaire model (see :mod:`farmbox.firmware.rules.superfarmer.solitaire`).

    With other farms at the table it still plays as if alone, but only makes
    exchanges the shared main herd can pay.
    """

    name = "advisor"

    def __init__(self, model: Model | None = None) -> None:
        self._model = model

    @property
    def model(self) -> Model | None:
        """The model played last (None before the first choice)."""
        return self._model

    def model_for(self, rules: Rules) -> Model:
        """The solved model for ``rules`` (remembered in this process, else solved now)."""
        if self._model is None or self._model.rules != rules:
            from .solitaire import model_for  # numpy: only when the advisor plays

            self._model = model_for(rules)
        return self._model

    def choose(self, farm: Herd, stock: Herd, rules: Rules,
               others: Sequence[Herd] = ()) -> Exchange | None:
        model = self.model_for(rules)
        ex = model.best(farm)
        if ex is None or stock.covers(ex.takes):
            if ex is None or not apply_exchange(farm, stock, ex)[0].is_complete():
                win = winning_exchange(farm, stock)
                if win is not None:
                    return win
            return ex
        # The shared herd cannot pay the model's choice: the best it can pay.
        win = winning_exchange(farm, stock)
        if win is not None:
            return win
        return model.options(farm, stock)[0][1]


STRATEGIES: dict[str, Strategy] = {s.name: s for s in (Naive(), Greedy(), Hoard(), Advisor())}


def strategy(name: str) -> Strategy:
    """Look up a strategy by name; an unknown name is a :class:`ValueError`."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(
            f"unknown strategy {name!r} (expected one of {', '.join(STRATEGIES)})") from None


__all__ = ["Advisor", "Greedy", "Hoard", "Naive", "STRATEGIES", "Strategy", "buy", "sell",
           "strategy"]
