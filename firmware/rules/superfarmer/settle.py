"""Settling one roll for one farm: predators, then breeding, capped by the main herd.

Everything here is pure: :func:`settle` takes herds and returns new herds plus a
tuple of :class:`Event` saying what happened.

>>> from .dice import Roll
>>> from .variants import CLASSIC
>>> farm = Herd.parse("rabbit=5,sheep=3,pig=2")
>>> s = settle(farm, CLASSIC.stock_for(farm), Roll.parse("sheep,rabbit"), CLASSIC)
>>> str(s.farm)
'rabbit=8,sheep=5,pig=2'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from .dice import Roll
from .herd import ANIMALS, Animal, Herd
from .variants import CLASSIC, Rules


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


@cache
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


__all__ = ["Event", "EventKind", "Settlement", "settle"]
