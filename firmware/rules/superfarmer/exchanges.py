"""Exchanges: one transaction at exact value, with the main herd or another farm.

>>> ex = Exchange.parse("sheep=1->rabbit=6")
>>> farm, herd = apply_exchange(Herd.parse("sheep=1"), Herd.parse("rabbit=60"), ex)
>>> str(farm), str(herd)
('rabbit=6', 'rabbit=54,sheep=1')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import IllegalExchange
from .herd import VALUES, Herd


@dataclass(frozen=True, slots=True)
class Exchange:
    """One exchange, seen from the farm: it ``gives`` and ``takes`` these animals.

    Exactly one side is a single animal (one-for-several or several-for-one);
    both sides have the same value in rabbits.

    >>> Exchange.parse("sheep=1->rabbit=6").value
    6
    """

    gives: Herd
    takes: Herd

    def __post_init__(self) -> None:
        check_exchange_shape(self.gives, self.takes)

    @classmethod
    def parse(cls, text: str) -> "Exchange":
        """Parse ``GIVES->TAKES``, each side a herd string: ``"sheep=1->rabbit=6"``."""
        gives, sep, takes = text.partition("->")
        if not sep:
            raise IllegalExchange(f"bad exchange {text!r}: expected GIVES->TAKES")
        return cls(Herd.parse(gives), Herd.parse(takes))

    @property
    def value(self) -> int:
        return self.gives.value

    def reversed(self) -> "Exchange":
        return Exchange(self.takes, self.gives)

    def as_dict(self) -> dict[str, object]:
        return {
            "gives": {a.key: n for a, n in self.gives.items()},
            "takes": {a.key: n for a, n in self.takes.items()},
        }

    def __str__(self) -> str:
        return f"{self.gives}->{self.takes}"


def check_exchange_shape(gives: Herd, takes: Herd) -> None:
    """Raise :class:`IllegalExchange` unless gives/takes form one legal transaction."""
    if gives.is_empty() or takes.is_empty():
        raise IllegalExchange("an exchange must give and take at least one animal")
    if gives.value != takes.value:
        raise IllegalExchange(
            f"unequal values: gives {gives} worth {gives.value}, takes {takes} worth {takes.value}"
        )
    if gives.size != 1 and takes.size != 1:
        raise IllegalExchange(
            f"{gives} for {takes} is many-for-many; one side must be a single animal"
        )
    if any(a and b for a, b in zip(gives.counts, takes.counts)):
        raise IllegalExchange(f"{gives} for {takes} gives and takes the same animal")


def apply_exchange(farm: Herd, other: Herd, exchange: Exchange) -> tuple[Herd, Herd]:
    """Apply ``exchange`` between ``farm`` and ``other`` (the main herd or a player).

    Returns the new (farm, other). Raises :class:`IllegalExchange` if either
    side does not hold what it pays.
    """
    if not farm.covers(exchange.gives):
        raise IllegalExchange(f"the farm does not hold {exchange.gives} (it holds {farm or 'nothing'})")
    if not other.covers(exchange.takes):
        raise IllegalExchange(f"the other side does not hold {exchange.takes}")
    return farm - exchange.gives + exchange.takes, other - exchange.takes + exchange.gives


#: Herd pairs seen in a game repeat (the menu is drawn again and again), but a box that runs
#: for days sees endlessly many: remember the recent ones only (memory stays flat).
COMBINATIONS_CACHE = 4096


@lru_cache(maxsize=COMBINATIONS_CACHE)
def _combinations(value: int, limits: tuple[int, ...], exclude: int) -> tuple[tuple[int, ...], ...]:
    """All count vectors over the 7 animals (limited, ``exclude`` zero) worth ``value``."""
    out: list[tuple[int, ...]] = []
    idx = [i for i in range(7) if i != exclude and limits[i] > 0]

    def rec(k: int, remaining: int, acc: list[int]) -> None:
        if remaining == 0:
            out.append(tuple(acc))
            return
        if k == len(idx):
            return
        i = idx[k]
        v = VALUES[i]
        for n in range(min(limits[i], remaining // v), -1, -1):
            acc[i] = n
            rec(k + 1, remaining - n * v, acc)
        acc[i] = 0

    rec(0, value, [0] * 7)
    return tuple(out)


def legal_exchanges(farm: Herd, other: Herd) -> list[Exchange]:
    """Every legal exchange between ``farm`` and ``other``, in a stable order.

    Selling one animal for several (or one) of other kinds comes first, then
    buying one animal with several of the farm's.
    """
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    result: list[Exchange] = []
    for i in range(7):
        if farm.counts[i]:
            one = [0] * 7
            one[i] = 1
            for combo in _combinations(VALUES[i], other.counts, i):
                key = (tuple(one), combo)
                if key not in seen:
                    seen.add(key)
                    result.append(Exchange(Herd(tuple(one)), Herd(combo)))  # type: ignore[arg-type]
    for i in range(7):
        if other.counts[i]:
            one = [0] * 7
            one[i] = 1
            for combo in _combinations(VALUES[i], farm.counts, i):
                key = (combo, tuple(one))
                if key not in seen:
                    seen.add(key)
                    result.append(Exchange(Herd(combo), Herd(tuple(one))))  # type: ignore[arg-type]
    return result


def find_combination(value: int, available: tuple[int, ...], order: tuple[int, ...]
                     ) -> tuple[int, ...] | None:
    """One count vector from ``available`` worth exactly ``value``, or None.

    Animals are tried in ``order`` (indices), each with as many as fit first;
    animals not in ``order`` are never used.
    """
    counts = [0] * 7

    def rec(k: int, remaining: int) -> bool:
        if remaining == 0:
            return True
        if k == len(order):
            return False
        i = order[k]
        for n in range(min(available[i], remaining // VALUES[i]), -1, -1):
            counts[i] = n
            if rec(k + 1, remaining - n * VALUES[i]):
                return True
        counts[i] = 0
        return False

    return tuple(counts) if rec(0, value) else None


_HIGH_FIRST = (6, 4, 3, 2, 5, 1, 0)


def winning_exchange(farm: Herd, other: Herd) -> Exchange | None:
    """An exchange with ``other`` after which ``farm`` is complete, or None.

    Much faster than scanning :func:`legal_exchanges`: a win needs a farm worth
    at least 127 rabbits, and either one animal bought with the surplus or one
    animal sold for change that includes every missing species.
    """
    f = farm.counts
    if farm.value < 127 or farm.is_complete():
        return None
    missing = [i for i in range(5) if not f[i]]
    # Many-for-one: exactly one species missing, paid with the surplus.
    if len(missing) == 1:
        y = missing[0]
        if other.counts[y]:
            surplus = tuple(n - 1 if i < 5 and n else n for i, n in enumerate(f))
            combo = find_combination(VALUES[y], surplus, _HIGH_FIRST)
            if combo is not None:
                return Exchange(Herd(combo), single_animal(y))  # type: ignore[arg-type]
    # One-for-many: sell one animal (not the last of a species) for change with every missing one.
    base = [0] * 7
    for i in missing:
        base[i] = 1
    if any(other.counts[i] < base[i] for i in missing):
        return None
    need = sum(VALUES[i] for i in missing)
    for x in _HIGH_FIRST:
        if not f[x] or (x < 5 and f[x] < 2) or VALUES[x] < need:
            continue
        rest = tuple(0 if i == x else other.counts[i] - base[i] for i in range(7))
        combo = find_combination(VALUES[x] - need, rest, (0, 1, 2, 3, 4, 5, 6))
        if combo is not None:
            takes = tuple(a + b for a, b in zip(base, combo))
            return Exchange(single_animal(x), Herd(takes))  # type: ignore[arg-type]
    return None


def single_animal(i: int) -> Herd:
    one = [0] * 7
    one[i] = 1
    return Herd(tuple(one))  # type: ignore[arg-type]


__all__ = ["Exchange", "apply_exchange", "check_exchange_shape", "find_combination",
           "legal_exchanges", "single_animal", "winning_exchange"]
