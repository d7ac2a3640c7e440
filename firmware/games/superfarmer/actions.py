"""Settled actions, the unit of the journal: apply one to a game state through the rules engine.

An action is a small JSON-ready dict:

- ``{"action": "new_game", "players": 2, "variant": "classic", "options": {...}}``
- ``{"action": "exchange", "exchange": "sheep=1->rabbit=6", "partner": null}``
- ``{"action": "roll", "roll": "rabbit,fox", "source": "camera"}``
- ``{"action": "undo"}``
"""

from __future__ import annotations

from typing import Any

from farmbox.firmware.box.history import History, NothingToUndo
from farmbox.firmware.rules.errors import IllegalAction
from farmbox.firmware.rules.superfarmer import Exchange, Rules, variant
from farmbox.firmware.rules.superfarmer.dice import Roll
from farmbox.firmware.rules.superfarmer.game import Game, GameState, new_state
from farmbox.firmware.rules.superfarmer.herd import Animal, Herd

Action = dict[str, Any]


def new_game_action(players: int, rules: Rules) -> Action:
    return {"action": "new_game", "players": players, "variant": rules.name,
            "options": rules.options()}


def rules_from(action: Action) -> Rules:
    opts = action["options"]
    return variant(action["variant"]).with_options(
        herd_sizes=Herd.from_mapping(opts["herd_sizes"]),
        wolf_spares=frozenset(Animal.from_key(k) for k in opts["wolf_spares"]),
        starting=Herd.from_mapping(opts["starting"]),
        play_on=bool(opts["play_on"]),
        player_exchanges=bool(opts["player_exchanges"]),
    )


class Timeline(History[GameState]):
    """The current game state plus the states before it (for undo)."""

    def preview(self, action: Action) -> GameState:
        """The state ``action`` would lead to; raises a rules error if it is illegal."""
        kind = action.get("action")
        if kind == "new_game":
            return new_state(int(action["players"]), rules_from(action))
        if kind == "undo":
            try:
                return self.undone()
            except NothingToUndo as exc:
                raise IllegalAction(str(exc)) from None
        game = Game(state=self.state)
        if kind == "exchange":
            partner = action.get("partner")
            game.exchange(Exchange.parse(action["exchange"]),
                          None if partner is None else int(partner), consent=True)
        elif kind == "roll":
            game.roll(Roll.parse(action["roll"]))
        else:
            raise ValueError(f"unknown action {kind!r}")
        return game.state
