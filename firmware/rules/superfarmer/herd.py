"""Animals, their exchange values and the :class:`Herd` multiset.

A :class:`Herd` is used for a player's farm and for the main herd alike.

>>> h = Herd.parse("rabbit=6,sheep=1")
>>> h.value
12
>>> str(h)
'rabbit=6,sheep=1'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from ..errors import InvalidHerd


class Animal(enum.IntEnum):
    """The seven kinds of token, in exchange-table order."""

    RABBIT = 0
    SHEEP = 1
    PIG = 2
    COW = 3
    HORSE = 4
    SMALL_DOG = 5
    BIG_DOG = 6

    @property
    def key(self) -> str:
        """The name used in herd strings and JSON (``small_dog``)."""
        return self.name.lower()

    @property
    def value_in_rabbits(self) -> int:
        return VALUES[self]

    @classmethod
    def from_key(cls, key: str) -> "Animal":
        """The animal named ``key`` (``"small_dog"``, any case; ASCII letters only).

        >>> Animal.from_key("ſheep")
        Traceback (most recent call last):
        ...
        farmbox.firmware.rules.errors.InvalidHerd: unknown animal 'ſheep' (expected one of rabbit, sheep, pig, cow, horse, small_dog, big_dog)
        """
        name = key.strip()
        # ASCII only: str.upper() would turn a long s or a dotless i into a real name.
        if name.isascii() and name.upper() in cls.__members__:
            return cls[name.upper()]
        raise InvalidHerd(
            f"unknown animal {name!r} (expected one of {', '.join(a.key for a in cls)})")


ANIMALS: tuple[Animal, ...] = tuple(Animal)
#: The five species that breed and that a winning farm must hold.
LIVESTOCK: tuple[Animal, ...] = (Animal.RABBIT, Animal.SHEEP, Animal.PIG, Animal.COW, Animal.HORSE)
DOGS: tuple[Animal, ...] = (Animal.SMALL_DOG, Animal.BIG_DOG)

#: Longest count :meth:`Herd.parse` reads (no herd comes near a billion animals).
MAX_COUNT_DIGITS = 9

#: Exchange values in rabbits (seed 004's table).
VALUES: tuple[int, ...] = (1, 6, 12, 36, 72, 6, 36)


@dataclass(frozen=True, slots=True)
class Herd:
    """An immutable count of each of the seven animals (never negative)."""

    counts: tuple[int, int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        c = self.counts
        if len(c) != 7:
            raise InvalidHerd(f"a herd has 7 counts, got {len(c)}")
        for animal, n in zip(ANIMALS, c):
            if type(n) is not int or n < 0:
                raise InvalidHerd(f"bad count for {animal.key}: {n!r}")

    # -- construction -------------------------------------------------
    @classmethod
    def _trusted(cls, counts: tuple[int, ...]) -> "Herd":
        """A herd from counts already known to be 7 ints >= 0 (skips the checks; hot paths)."""
        herd = object.__new__(cls)
        object.__setattr__(herd, "counts", counts)
        return herd

    @classmethod
    def of(cls, **counts: int) -> "Herd":
        """``Herd.of(rabbit=3, small_dog=1)``."""
        return cls.from_mapping(counts)

    @classmethod
    def from_mapping(cls, counts: Mapping[str, int] | Mapping[Animal, int]
                     | Mapping[str | Animal, int]) -> "Herd":
        """``Herd.from_mapping({"rabbit": 3})``; keys are names or :class:`Animal`."""
        values = [0] * 7
        for key, n in counts.items():
            animal = key if isinstance(key, Animal) else Animal.from_key(str(key))
            if isinstance(n, bool) or not isinstance(n, int):
                raise InvalidHerd(f"count for {animal.key} is not a whole number: {n!r}")
            if n < 0:
                raise InvalidHerd(f"count for {animal.key} is negative: {n}")
            values[animal] += n
        return cls(tuple(values))  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: str) -> "Herd":
        """Parse ``name=count`` pairs joined by commas; ``""`` is an empty herd.

        Counts are ASCII digits only (at most :data:`MAX_COUNT_DIGITS` of them): other
        scripts' digits and superscripts are a one-line :class:`InvalidHerd`.

        >>> Herd.parse("pig=1, small_dog=1")[Animal.PIG]
        1
        >>> Herd.parse("rabbit=²")
        Traceback (most recent call last):
        ...
        farmbox.firmware.rules.errors.InvalidHerd: bad herd item 'rabbit=²': count must be a whole number >= 0 in digits 0-9, not '²'
        """
        values = [0] * 7
        seen: set[Animal] = set()
        text = text.strip()
        if not text:
            return cls()
        for part in text.split(","):
            part = part.strip()
            if not part:
                raise InvalidHerd(f"bad herd {text!r}: empty item")
            name, sep, count = part.partition("=")
            if not sep:
                raise InvalidHerd(f"bad herd item {part!r}: expected name=count")
            animal = Animal.from_key(name)
            if animal in seen:
                raise InvalidHerd(f"bad herd item {part!r}: {animal.key} given twice")
            seen.add(animal)
            count = count.strip()
            if not (count.isascii() and count.isdigit()):
                raise InvalidHerd(f"bad herd item {part!r}: count must be a whole number >= 0 "
                                  f"in digits 0-9, not {count!r}")
            if len(count) > MAX_COUNT_DIGITS:
                raise InvalidHerd(f"bad herd item {part!r}: count has {len(count)} digits, "
                                  f"at most {MAX_COUNT_DIGITS}")
            values[animal] = int(count)
        return cls(tuple(values))  # type: ignore[arg-type]

    # -- access -------------------------------------------------------
    def __getitem__(self, animal: Animal) -> int:
        return self.counts[animal]

    def __iter__(self) -> Iterator[tuple[Animal, int]]:
        return iter(zip(ANIMALS, self.counts))

    def items(self) -> Iterable[tuple[Animal, int]]:
        """(animal, count) pairs with a non-zero count."""
        return [(a, n) for a, n in zip(ANIMALS, self.counts) if n]

    @property
    def value(self) -> int:
        """Total exchange value in rabbits."""
        c = self.counts
        return c[0] + 6 * c[1] + 12 * c[2] + 36 * c[3] + 72 * c[4] + 6 * c[5] + 36 * c[6]

    @property
    def size(self) -> int:
        """Number of tokens."""
        return sum(self.counts)

    def is_empty(self) -> bool:
        return not any(self.counts)

    def is_complete(self) -> bool:
        """Holds at least one rabbit, sheep, pig, cow and horse (a winning farm)."""
        c = self.counts
        return bool(c[0] and c[1] and c[2] and c[3] and c[4])

    def covers(self, other: "Herd") -> bool:
        """Every count here is at least the count in ``other``."""
        return all(a >= b for a, b in zip(self.counts, other.counts))

    # -- arithmetic ---------------------------------------------------
    def __add__(self, other: "Herd") -> "Herd":
        return Herd._trusted(tuple(a + b for a, b in zip(self.counts, other.counts)))

    def __sub__(self, other: "Herd") -> "Herd":
        counts = tuple(a - b for a, b in zip(self.counts, other.counts))
        if min(counts) < 0:
            short = [f"{a.key} ({-n} short)" for a, n in zip(ANIMALS, counts) if n < 0]
            raise InvalidHerd(f"not enough animals: {', '.join(short)}")
        return Herd._trusted(counts)

    def replace(self, animal: Animal, count: int) -> "Herd":
        c = list(self.counts)
        c[animal] = count
        return Herd(tuple(c))  # type: ignore[arg-type]

    # -- text ---------------------------------------------------------
    def as_dict(self) -> dict[str, int]:
        """All seven names, zeros included (the JSON shape)."""
        return {a.key: n for a, n in zip(ANIMALS, self.counts)}

    def __str__(self) -> str:
        return ",".join(f"{a.key}={n}" for a, n in zip(ANIMALS, self.counts) if n)

    def __repr__(self) -> str:
        return f"Herd.parse({str(self)!r})"


def single(animal: Animal, count: int = 1) -> Herd:
    """A herd of ``count`` animals of one kind."""
    return Herd().replace(animal, count)
