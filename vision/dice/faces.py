"""The faces of the two Super Farmer animal dice, as data (vision does not import the rules).

>>> GREEN_FACES.count("rabbit"), RED_FACES.count("fox")
(6, 1)
"""

from __future__ import annotations

#: The seven pictures, in the order used for folders and model arrays.
FACES: tuple[str, ...] = ("rabbit", "sheep", "pig", "cow", "horse", "fox", "wolf")

#: Die names, green first (a roll is always reported green, red).
DICE: tuple[str, ...] = ("green", "red")

#: The twelve faces of each die.
GREEN_FACES: tuple[str, ...] = ("wolf", "cow", "pig") + ("sheep",) * 3 + ("rabbit",) * 6
RED_FACES: tuple[str, ...] = ("fox", "horse") + ("pig",) * 2 + ("sheep",) * 2 + ("rabbit",) * 6

DIE_FACES: dict[str, tuple[str, ...]] = {"green": GREEN_FACES, "red": RED_FACES}


def faces_on(die: str) -> tuple[str, ...]:
    """The distinct faces of ``die`` ("green" or "red") in FACES order."""
    return tuple(f for f in FACES if f in DIE_FACES[die])


def only_on(die: str) -> tuple[str, ...]:
    """Faces found on ``die`` and not on the other one (wolf, cow / fox, horse)."""
    other = DICE[1 - DICE.index(die)]
    return tuple(f for f in faces_on(die) if f not in DIE_FACES[other])
