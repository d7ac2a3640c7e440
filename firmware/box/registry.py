"""The registry of game modes: one line per game.

Each game lives in its own folder, ``firmware/games/<name>/``, with a ``box`` module that
has ``open_box(config, hardware=None, notifier=None)`` (the game on the box's runtime) and a
``demo`` module with ``main(args, players)`` (``farmbox demo <name>``). The runtime names the
games here by module path and imports one only when it runs, so the box never depends on
the games (the import contracts check it) and adding a game is a folder plus one line below.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from farmbox.firmware.rules.superfarmer import variant

if TYPE_CHECKING:
    from farmbox.firmware.box.runtime import Box
    from farmbox.firmware.box.systemd import Notifier


def superfarmer_players(variant_name: str) -> tuple[int, int]:
    """Super Farmer's farmers come from its variant's rules: classic 1-6 (solitaire), compact 2-6."""
    try:
        rules = variant(variant_name)
    except ValueError:
        return 1, 6  # an unknown variant is reported on its own
    return rules.min_players, rules.max_players


@dataclass(frozen=True)
class GameMode:
    """One game the box can run: ``[game] mode = name``."""

    name: str
    #: Fewest and most players for a variant (``[game] variant``, if the game has variants).
    players: Callable[[str], tuple[int, int]]
    #: The demo's fewest, most and default players.
    demo_players: tuple[int, int, int]
    #: True: each player has a buzzer button (``[buttons] buzzers`` must wire them all).
    seats_on_buzzers: bool = False

    @property
    def package(self) -> str:
        return f"farmbox.firmware.games.{self.name}"

    def open_box(self, config: Any, hardware: Any = None,
                 notifier: Notifier | None = None) -> Box[Any]:
        """The game on ``config``'s hardware (opened when it starts, unless given)."""
        box: Box[Any] = importlib.import_module(f"{self.package}.box").open_box(config, hardware,
                                                                          notifier)
        return box

    def run_demo(self, args: argparse.Namespace, players: int) -> int:
        """``farmbox demo <name>``: the exit status."""
        status: int = importlib.import_module(f"{self.package}.demo").main(args, players)
        return status


MODES: dict[str, GameMode] = {m.name: m for m in (
    GameMode("superfarmer", superfarmer_players, (1, 6, 2)),
    GameMode("funfarm", lambda _variant: (2, 10), (2, 10, 4), seats_on_buzzers=True),
    GameMode("cardgame", lambda _variant: (2, 6), (2, 6, 3)),
)}


def mode(name: str) -> GameMode:
    """The game mode called ``name``; ValueError naming the known ones otherwise."""
    try:
        return MODES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (choose {', '.join(MODES)})") from None
