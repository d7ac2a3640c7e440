"""Super Farmer's journal: the box's journal file, replayed through the rules engine."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from farmbox.firmware.box.journal import Journal, Replay
from farmbox.firmware.games.superfarmer.actions import Action, Timeline, rules_from
from farmbox.firmware.rules.superfarmer import Rules
from farmbox.firmware.rules.superfarmer.game import GameState

NAME = "superfarmer.jsonl"


@dataclass
class SuperFarmerReplay(Replay):
    """What :meth:`SuperFarmerJournal.open` found: the game's timeline, farmers and rules."""

    timeline: Timeline | None = None
    players: int = 0
    rules: Rules | None = None

    def begin(self, action: Action, state: Any) -> None:
        """The file's ``new_game`` record: its rules, its farmers and the state it recorded."""
        self.rules = rules_from(action)
        self.players = int(action["players"])
        self.timeline = Timeline(GameState.from_dict(state))

    def preview(self, action: Action) -> GameState:
        if self.timeline is None:
            raise ValueError("a record before the game's new_game record")
        return self.timeline.preview(action)

    def apply(self, action: Action, new: GameState) -> None:
        assert self.timeline is not None, "begin() first"
        self.timeline.apply(action, new)

    def resume(self, action: Action, state: Any) -> None:
        """After a bad record: the recorded state says its rules and farms itself."""
        if not isinstance(state, dict):
            raise ValueError("a record without a game state")
        game = GameState.from_dict(state)
        self.rules = game.rules
        self.players = len(game.farms)
        self.timeline = Timeline(game)


class SuperFarmerJournal(Journal[SuperFarmerReplay]):
    """The journal of one Super Farmer table in ``directory``."""

    def __init__(self, directory: str | os.PathLike[str], name: str = NAME) -> None:
        super().__init__(directory, name, SuperFarmerReplay)
