"""Trade advice for one farm, with the numbers behind it.

>>> a = advise(Herd.parse("horse=2"))
>>> a.wins_now, a.turns_recommended
(True, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import InvalidState
from .exchanges import Exchange, apply_exchange
from .herd import Herd
from .odds import expected_gain
from .solitaire import Model, model_for
from .strategies import Advisor
from .variants import CLASSIC, Rules


@dataclass(frozen=True)
class Advice:
    """The recommended exchange (None: just roll) and why, in expected turns and rabbits."""

    farm: Herd
    stock: Herd
    exchange: Exchange | None
    wins_now: bool
    #: Expected turns to win, counting this one, if the farm rolls without an exchange.
    turns_without: float
    #: The same after the recommended exchange (1.0 when it wins at once).
    turns_recommended: float
    #: Exact expected gain of this turn's roll in rabbits, without / after the exchange.
    gain_without: Fraction
    gain_recommended: Fraction | None
    #: The best few choices of the model: (expected turns, exchange or None).
    alternatives: tuple[tuple[float, Exchange | None], ...]
    caps: tuple[int, ...]

    @property
    def turns_saved(self) -> float:
        return self.turns_without - self.turns_recommended

    @property
    def capped(self) -> bool:
        """The farm holds more of some animal than the model distinguishes."""
        return any(n > c for n, c in zip(self.farm.counts, self.caps))

    def as_dict(self) -> dict[str, object]:
        names = list(self.farm.as_dict())
        return {
            "herd": self.farm.as_dict(), "stock": self.stock.as_dict(),
            "exchange": self.exchange.as_dict() if self.exchange else None,
            "exchange_text": str(self.exchange) if self.exchange else None,
            "wins_now": self.wins_now,
            "expected_turns": {"no_exchange": round(self.turns_without, 3),
                               "recommended": round(self.turns_recommended, 3)},
            "expected_turns_saved": round(self.turns_saved, 3),
            "expected_gain": {
                "no_exchange": str(self.gain_without),
                "recommended": None if self.gain_recommended is None else str(self.gain_recommended)},
            "alternatives": [{"exchange": str(e) if e else None, "expected_turns": round(t, 3)}
                             for t, e in self.alternatives],
            "model": {"caps": dict(zip(names, self.caps)), "capped": self.capped},
        }


def advise(farm: Herd, stock: Herd | None = None, rules: Rules = CLASSIC,
           alternatives: int = 4, model: Model | None = None) -> Advice:
    """What the advisor would exchange for ``farm`` (solitaire herd unless ``stock`` given).

    ``model``: the variant's solved model (default: :func:`model_for` ``rules``, which
    solves it if this process does not have it yet).
    """
    if stock is None:
        stock = rules.stock_for(farm)
    else:
        rules.stock_for(farm + stock)  # the farm and herd must fit in the full set
    if farm.is_complete():
        raise InvalidState(f"the farm {farm} is already complete: it has won")
    if model is None or model.rules != rules:
        model = model_for(rules)
    ex = Advisor(model).choose(farm, stock, rules)
    after_farm, after_stock = apply_exchange(farm, stock, ex) if ex else (farm, stock)
    wins_now = after_farm.is_complete()

    def turns(f: Herd) -> float:
        return 1.0 if f.is_complete() else model.expected_turns_after(f)

    gain_without = expected_gain(farm, stock, rules)
    if ex is None:
        gain_recommended: Fraction | None = gain_without
    else:
        gain_recommended = None if wins_now else expected_gain(after_farm, after_stock, rules)
    return Advice(farm, stock, ex, wins_now, turns(farm), turns(after_farm), gain_without,
                  gain_recommended, tuple(model.options(farm, stock)[:alternatives]), model.caps)


__all__ = ["Advice", "advise"]
