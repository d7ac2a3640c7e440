"""The two 12-sided animal dice of Super Farmer, as data.

>>> GREEN.count(Face.RABBIT), RED.count(Face.RABBIT)
(6, 6)
>>> Roll.parse("wolf,fox")
Roll(green=<Face.WOLF: 'wolf'>, red=<Face.FOX: 'fox'>)
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..errors import InvalidRoll
from .herd import Animal


class Face(enum.Enum):
    """A picture on a die: five animals and two predators."""

    RABBIT = "rabbit"
    SHEEP = "sheep"
    PIG = "pig"
    COW = "cow"
    HORSE = "horse"
    FOX = "fox"
    WOLF = "wolf"

    # Faces are singletons compared by identity: hash them so too (Enum's default
    # hashes the name in Python code, a hot spot when rolls key caches).
    __hash__ = object.__hash__

    @property
    def animal(self) -> Animal | None:
        """The animal this face breeds, or None for a predator."""
        return _FACE_ANIMAL.get(self)

    @property
    def is_predator(self) -> bool:
        return self in (Face.FOX, Face.WOLF)


_FACE_ANIMAL = {
    Face.RABBIT: Animal.RABBIT,
    Face.SHEEP: Animal.SHEEP,
    Face.PIG: Animal.PIG,
    Face.COW: Animal.COW,
    Face.HORSE: Animal.HORSE,
}


class Die(tuple[Face, ...]):
    """The twelve faces of one die (a tuple with a name)."""

    name: str

    def __new__(cls, name: str, faces: list[Face]) -> "Die":
        die = super().__new__(cls, faces)
        die.name = name
        return die

    def probability(self, face: Face) -> Fraction:
        return Fraction(self.count(face), len(self))

    def distinct(self) -> tuple[Face, ...]:
        return tuple(dict.fromkeys(self))


def _die(name: str, spec: dict[Face, int]) -> Die:
    faces = [f for f, n in spec.items() for _ in range(n)]
    assert len(faces) == 12
    return Die(name, faces)


#: Green die: wolf, cow, pig, 3 sheep, 6 rabbits.
GREEN = _die("green", {Face.WOLF: 1, Face.COW: 1, Face.PIG: 1, Face.SHEEP: 3, Face.RABBIT: 6})
#: Red die: fox, horse, 2 pigs, 2 sheep, 6 rabbits.
RED = _die("red", {Face.FOX: 1, Face.HORSE: 1, Face.PIG: 2, Face.SHEEP: 2, Face.RABBIT: 6})


@dataclass(frozen=True, slots=True)
class Roll:
    """The faces shown by the green and the red die (green first)."""

    green: Face
    red: Face

    def __post_init__(self) -> None:
        if self.green not in GREEN:
            raise InvalidRoll(f"{self.green.value!r} is not on the green die")
        if self.red not in RED:
            raise InvalidRoll(f"{self.red.value!r} is not on the red die")

    @classmethod
    def parse(cls, text: str) -> "Roll":
        """Parse ``GREEN,RED`` face names, e.g. ``"rabbit,fox"``."""
        parts = [p.strip().lower() for p in text.split(",")]
        if len(parts) != 2:
            raise InvalidRoll(f"bad roll {text!r}: expected GREEN,RED (two faces)")
        faces = []
        for die, part in zip(("green", "red"), parts):
            try:
                faces.append(Face(part))
            except ValueError:
                raise InvalidRoll(
                    f"bad roll {text!r}: {part!r} is not a face (on the {die} die)"
                ) from None
        return cls(faces[0], faces[1])

    def shown(self) -> Counter[Animal]:
        """How many of each animal the two dice show."""
        c: Counter[Animal] = Counter()
        for f in (self.green, self.red):
            a = f.animal
            if a is not None:
                c[a] += 1
        return c

    @property
    def fox(self) -> bool:
        return self.red is Face.FOX

    @property
    def wolf(self) -> bool:
        return self.green is Face.WOLF

    def __str__(self) -> str:
        return f"{self.green.value},{self.red.value}"


def outcomes() -> dict[Roll, int]:
    """Every distinct roll with its weight out of 144."""
    weights: Counter[Roll] = Counter()
    for g in GREEN:
        for r in RED:
            weights[Roll(g, r)] += 1
    return dict(weights)


#: All 144 (green, red) outcomes in die order, for uniform sampling.
ALL_ROLLS: tuple[Roll, ...] = tuple(Roll(g, r) for g in GREEN for r in RED)
