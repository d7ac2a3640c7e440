"""Super Farmer, the dice game: variants, exchanges and settling a roll.

Everything here is pure: functions take herds and return new herds plus a
tuple of :class:`Event` saying what happened.

>>> from farmbox.firmware.rules.dice import Roll
>>> s = settle(Herd.parse("rabbit=5,sheep=3,pig=2"), CLASSIC.stock_for(Herd.parse("rabbit=5,sheep=3,pig=2")),
...            Roll.parse("sheep,rabbit"), CLASSIC)
>>> str(s.farm)
'rabbit=8,sheep=5,pig=2'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import lru_cache

from .dice import Roll
from .errors import IllegalExchange, InvalidState
from .herd import ANIMALS, LIVESTOCK, VALUES, Animal, Herd

FULL_HERD = Herd((60, 24, 20, 12, 6, 4, 2))


@dataclass(frozen=True)
class Rules:
    """A variant of Super Farmer, as data.

    Attributes name every option RULES.md asks each variant to expose.
    """

    name: str
    #: The main herd before anyone takes a starting animal (128 tokens in both editions).
    herd_sizes: Herd = FULL_HERD
    #: What the wolf leaves on an unprotected farm (dogs included where spared).
    wolf_spares: frozenset[Animal] = frozenset({Animal.HORSE, Animal.SMALL_DOG})
    #: Animals each farm takes from the main herd at the start.
    starting: Herd = Herd()
    #: After the first winner the others play on for places.
    play_on: bool = False
    #: The one exchange of a turn may be made with another consenting player.
    player_exchanges: bool = False
    min_players: int = 1
    max_players: int = 6

    def __post_init__(self) -> None:
        if Animal.BIG_DOG in self.wolf_spares:
            # A big dog is the wolf's own guard; "sparing" it is meaningless.
            object.__setattr__(self, "wolf_spares", self.wolf_spares - {Animal.BIG_DOG})

    def options(self) -> dict[str, object]:
        """The named options, JSON-ready."""
        return {
            "herd_sizes": self.herd_sizes.as_dict(),
            "wolf_spares": sorted(a.key for a in self.wolf_spares),
            "starting": self.starting.as_dict(),
            "play_on": self.play_on,
            "player_exchanges": self.player_exchanges,
        }

    def with_options(self, **changes: object) -> "Rules":
        """A copy with some options changed (``CLASSIC.with_options(play_on=True)``)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def total(self) -> Herd:
        return self.herd_sizes

    def stock_for(self, *farms: Herd) -> Herd:
        """The main herd when ``farms`` hold what they hold (all else is in the herd)."""
        stock = self.herd_sizes
        for farm in farms:
            try:
                stock = stock - farm
            except ValueError as exc:
                raise InvalidState(f"the main herd cannot account for the farms: {exc}") from None
        return stock


#: Seed 004's rules, the default: every farm starts empty; the wolf spares horses and small dogs.
CLASSIC = Rules(name="classic")
#: The compact edition (seed 001).
COMPACT = Rules(
    name="compact",
    wolf_spares=frozenset({Animal.HORSE, Animal.RABBIT, Animal.SMALL_DOG}),
    starting=Herd.of(rabbit=1),
    play_on=True,
    player_exchanges=True,
    min_players=2,
)
VARIANTS: dict[str, Rules] = {r.name: r for r in (CLASSIC, COMPACT)}


def variant(name: str) -> Rules:
    """Look up a variant by name; unknown names are a :class:`ValueError`."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r} (expected {' or '.join(VARIANTS)})") from None


# ---------------------------------------------------------------------------
# Events


class EventKind(enum.Enum):
    BRED = "bred"
    CAPPED = "capped"
    LOST_TO_FOX = "lost_to_fox"
    LOST_TO_WOLF = "lost_to_wolf"
    DOG_USED = "dog_used"
    EXCHANGED = "exchanged"
    WON = "won"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened to a farm. ``count`` animals of ``animal``."""

    kind: EventKind
    animal: Animal | None = None
    count: int = 0

    def as_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind.value}
        if self.animal is not None:
            d["animal"] = self.animal.key
            d["count"] = self.count
        return d

    def __str__(self) -> str:
        if self.animal is None:
            return self.kind.value
        return f"{self.kind.value} {self.count} {self.animal.key}"


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of settling one roll for one farm."""

    farm: Herd
    stock: Herd
    events: tuple[Event, ...]

    @property
    def won(self) -> bool:
        return self.farm.is_complete()


# ---------------------------------------------------------------------------
# Settling a roll


@lru_cache(maxsize=None)
def _shown(roll: Roll) -> tuple[tuple[Animal, int], ...]:
    return tuple(sorted(roll.shown().items()))


def settle(farm: Herd, stock: Herd, roll: Roll, rules: Rules = CLASSIC) -> Settlement:
    """Settle ``roll`` for ``farm`` against the main herd ``stock``.

    Predators first (fox, then wolf, each dog against its own predator),
    then breeding: per species shown, the farm gains floor((owned + shown) / 2),
    capped by what the herd holds. Tokens only move between farm and herd.
    """
    f = list(farm.counts)
    s = list(stock.counts)
    events: list[Event] = []
    if roll.fox:
        if f[Animal.SMALL_DOG]:
            f[Animal.SMALL_DOG] -= 1
            s[Animal.SMALL_DOG] += 1
            events.append(Event(EventKind.DOG_USED, Animal.SMALL_DOG, 1))
        elif f[Animal.RABBIT]:
            n = f[Animal.RABBIT]
            f[Animal.RABBIT] = 0
            s[Animal.RABBIT] += n
            events.append(Event(EventKind.LOST_TO_FOX, Animal.RABBIT, n))
    if roll.wolf:
        if f[Animal.BIG_DOG]:
            f[Animal.BIG_DOG] -= 1
            s[Animal.BIG_DOG] += 1
            events.append(Event(EventKind.DOG_USED, Animal.BIG_DOG, 1))
        else:
            for animal in ANIMALS:
                if animal in rules.wolf_spares or animal is Animal.BIG_DOG:
                    continue
                n = f[animal]
                if n:
                    f[animal] = 0
                    s[animal] += n
                    events.append(Event(EventKind.LOST_TO_WOLF, animal, n))
    for animal, shown in _shown(roll):
        due = (f[animal] + shown) // 2
        paid = min(due, s[animal])
        if paid:
            f[animal] += paid
            s[animal] -= paid
            events.append(Event(EventKind.BRED, animal, paid))
        if due > paid:
            events.append(Event(EventKind.CAPPED, animal, due - paid))
    # Counts only moved between two valid herds, never below zero: skip re-validation.
    new_farm = Herd._trusted(tuple(f))
    if new_farm.is_complete():
        events.append(Event(EventKind.WON))
    return Settlement(new_farm, Herd._trusted(tuple(s)), tuple(events))


# ---------------------------------------------------------------------------
# Exchanges


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


@lru_cache(maxsize=None)
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


__all__ = [
    "ANIMALS",
    "CLASSIC",
    "COMPACT",
    "FULL_HERD",
    "LIVESTOCK",
    "VARIANTS",
    "Animal",
    "Event",
    "EventKind",
    "Exchange",
    "Herd",
    "Roll",
    "Rules",
    "Settlement",
    "apply_exchange",
    "check_exchange_shape",
    "find_combination",
    "legal_exchanges",
    "settle",
    "variant",
    "winning_exchange",
]
