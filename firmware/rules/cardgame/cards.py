"""Cards of Super Farmer: The Card Game: the six animals, cats, predators.

>>> card = Card(Animal.SHEEP, icons=2, cabbage=1)
>>> str(card)
'sheep 2 icons, 1 cabbage'
>>> CAT.is_cat, CAT.icons
(True, 1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..errors import RulesError


class CardGameError(RulesError):
    """Bad input to the card game: a bad card, farm, deck or action."""


def quoted(value: object, most: int = 40) -> str:
    """``repr(value)`` cut to ``most`` characters: an error names the bad part, not a whole file.

    >>> quoted("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


class Animal(str, enum.Enum):
    """The animal columns, in scoring order (horse only with 5-6 players)."""

    RABBIT = "rabbit"
    CHICKEN = "chicken"
    SHEEP = "sheep"
    PIG = "pig"
    COW = "cow"
    HORSE = "horse"

    @classmethod
    def from_key(cls, key: object) -> "Animal":
        try:
            return cls(str(key).strip().lower())
        except ValueError:
            raise CardGameError(
                f"unknown animal {quoted(key)} (expected one of {', '.join(a.value for a in cls)})"
            ) from None


#: Phase 3 scores the columns in this order.
COLUMN_ORDER: tuple[Animal, ...] = tuple(Animal)


class Predator(str, enum.Enum):
    """The two faces of the predator token and the columns each attacks."""

    FOX = "fox"
    WOLF = "wolf"

    @property
    def prey(self) -> tuple[Animal, ...]:
        return PREY[self]

    @classmethod
    def from_key(cls, key: object) -> "Predator":
        try:
            return cls(str(key).strip().lower())
        except ValueError:
            raise CardGameError(f"unknown predator {quoted(key)} (expected fox or wolf)") from None


PREY: dict[Predator, tuple[Animal, ...]] = {
    Predator.FOX: (Animal.RABBIT, Animal.CHICKEN, Animal.SHEEP),
    Predator.WOLF: (Animal.PIG, Animal.COW),
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``animal`` is None for a cat (a joker worth +1 icon in a column).

    ``serial`` tells physical copies apart (0 for cards made by hand, e.g. in the
    scorekeeper), so a dealt deck never holds two equal cards.
    """

    animal: Animal | None
    icons: int = 1
    cabbage: int = 0
    water: int = 0
    small_dogs: int = 0
    big_dogs: int = 0
    serial: int = 0

    def __post_init__(self) -> None:
        for field in ("icons", "cabbage", "water", "small_dogs", "big_dogs"):
            value = getattr(self, field)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise CardGameError(f"card {field} must be a whole number >= 0, got {value!r}")
        if self.animal is None:
            if (self.icons, self.cabbage, self.water, self.small_dogs, self.big_dogs) != (1, 0, 0, 0, 0):
                raise CardGameError("a cat card carries exactly one joker icon and nothing else")
        elif self.icons < 1:
            raise CardGameError(f"a {self.animal.value} card needs at least one animal icon")

    @property
    def is_cat(self) -> bool:
        return self.animal is None

    @property
    def dogs(self) -> int:
        """Dog icons; small and big dogs count alike against predators."""
        return self.small_dogs + self.big_dogs

    @property
    def kind(self) -> str:
        return "cat" if self.animal is None else self.animal.value

    def as_dict(self) -> dict[str, object]:
        if self.animal is None:
            return {"kind": "cat"}
        out: dict[str, object] = {"kind": self.animal.value, "icons": self.icons}
        for field in ("cabbage", "water", "small_dogs", "big_dogs"):
            if getattr(self, field):
                out[field] = getattr(self, field)
        return out

    def __str__(self) -> str:
        if self.animal is None:
            return "cat"
        parts = [f"{self.icons} icon{'s' if self.icons != 1 else ''}"]
        for field, label in (("cabbage", "cabbage"), ("water", "water"),
                             ("small_dogs", "small dog"), ("big_dogs", "big dog")):
            n = getattr(self, field)
            if n:
                parts.append(f"{n} {label}{'s' if n > 1 and 'dog' in label else ''}")
        return f"{self.animal.value} {', '.join(parts)}"


#: A cat card made by hand (the scorekeeper, tests).
CAT = Card(None)
