"""A scripted farmer at the card game's scorekeeper: enters what lies on the table.

The demo and the tests play a game with the rules engine's bots, then this bot enters each
round's numbers on the buttons exactly as a person would (from the engine's farms at the end
of phase 2, the token, the cabbage points and the cards given up to predators).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from farmbox.firmware.games.cardgame.session import (
    SETUP_CHOICES,
    ColumnCount,
    FarmCount,
    Phase,
    Question,
    Scorekeeper,
    Setup,
)
from farmbox.firmware.rules.cardgame import Animal, Card, Farm, Predator, RoundRecord

#: ("press" | "hold", button)
Move = tuple[str, str]


def count_of(farm: Farm, cabbage: int = 0) -> FarmCount:
    """What a farmer counts on a farm: per column cards, animal icons, dogs, water, cats."""
    return FarmCount(tuple(ColumnCount(c.animal, c.length, c.icons - len(c.cats), c.dogs,
                                       c.water, len(c.cats)) for c in farm.columns), cabbage)


@dataclass
class RoundTruth:
    """One round as it lies on the table when scoring starts."""

    farms: Sequence[Farm]
    cabbage: Sequence[int]
    predators: tuple[Predator, ...] = ()
    #: (seat, animal) -> the animal card that farmer gave up to the predator.
    lost: Mapping[tuple[int, Animal], Card] = field(default_factory=dict)

    @classmethod
    def from_record(cls, farms: Sequence[Farm], record: RoundRecord,
                    names: Sequence[str]) -> "RoundTruth":
        """From the farms before phase 3 and the engine's record of the round."""
        seat = {n: i for i, n in enumerate(names)}
        lost = {(seat[n], a.animal): next(c for c in cards if not c.is_cat)
                for a in record.score.attacks for n, cards in a.lost.items()}
        return cls(tuple(farms), tuple(record.cabbage), tuple(record.predators), lost)

    def answer(self, q: Question) -> int:
        """The true answer to question ``q``."""
        if q.kind == "token":
            return 0 if self.predators[0] is Predator.FOX else 1
        if q.kind == "confirm":
            return 1
        if q.kind == "cabbage":
            return self.cabbage[q.seat]
        assert q.animal is not None
        if q.kind == "prey":
            card = self.lost[(q.seat, q.animal)]
            return card.icons if q.field == "icons" else card.water
        col = count_of(self.farms[q.seat]).column(q.animal)
        if col is None:
            return 0
        return getattr(col, q.field)


def setup_move(keeper: Scorekeeper, want: Setup) -> Move:
    """The press that moves the setup screens towards ``want``."""
    option = list(SETUP_CHOICES)[keeper.option]
    if getattr(keeper.draft_setup, option) != getattr(want, option):
        return ("press", "next")
    return ("press", "ok")


def next_move(keeper: Scorekeeper, truth: RoundTruth | None) -> Move | None:
    """The next press to enter ``truth``; None when the round waits on the scoreboard."""
    phase = keeper.phase
    if phase is Phase.BREAKDOWN:
        return ("press", "ok")
    if phase is not Phase.ENTRY or truth is None:
        return None
    q = keeper.question
    assert q is not None
    want = truth.answer(q)
    if q.kind == "confirm" or keeper.value == want:
        return ("press", "ok")
    return ("press", "next" if keeper.value < want else "prev")


__all__ = ["Move", "RoundTruth", "count_of", "next_move", "setup_move"]
