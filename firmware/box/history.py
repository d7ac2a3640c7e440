"""Undo for every game: the current state plus the states before it.

Undo goes back at most :data:`UNDO_DEPTH` actions (a table corrects a mistake or two, never
a whole evening): the states kept for it are bounded, so a box that runs for days keeps a
flat memory. A replayed journal keeps the same depth, so an undo after a restart does
exactly what it would have done before.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

S = TypeVar("S")

Action = dict[str, Any]

#: How many actions back undo can go.
UNDO_DEPTH = 100


class NothingToUndo(ValueError):
    """An undo with no earlier state (the table is refused, never crashed)."""


class History(Generic[S]):
    """The current state plus the states before it (for undo); each game says how its other
    actions lead to a new state and asks :meth:`undone` for an undo's.

    >>> h = History(0)
    >>> h.apply({"action": "add"}, 1); h.apply({"action": "add"}, 2)
    >>> h.undone(), h.state
    (1, 2)
    >>> h.apply({"action": "undo"}, h.undone()); h.state, h.history
    (1, [0])
    """

    def __init__(self, state: S) -> None:
        self.state = state
        self.history: list[S] = []

    def undone(self) -> S:
        """The state an ``undo`` leads to; :class:`NothingToUndo` at the start of a game."""
        if not self.history:
            raise NothingToUndo("nothing to undo")
        return self.history[-1]

    def apply(self, action: Action, new: S) -> None:
        """Make ``new`` (what ``action`` leads to) the current state."""
        kind = action["action"]
        if kind == "new_game":
            self.history = []
        elif kind == "undo":
            self.history.pop()
        else:
            self.history.append(self.state)
            if len(self.history) > UNDO_DEPTH:
                del self.history[0]
        self.state = new
