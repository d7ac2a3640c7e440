"""A scripted player for the demo and the tests: decides like a family at the table would.

Its plan depends only on the game state and the journal's record count, so a game it
plays can be replayed by the rules engine alone (:func:`play_alone`) and resumed after a
power cut: the same state always leads to the same next move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from farmbox.firmware.box.observations import RollSeen
from farmbox.firmware.games.superfarmer.actions import Action, Timeline
from farmbox.firmware.games.superfarmer.advice import offers
from farmbox.firmware.games.superfarmer.session import GREEN_FACES, RED_FACES, Phase, Session
from farmbox.firmware.rules.superfarmer import Rules
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS, Roll
from farmbox.firmware.rules.superfarmer.game import GameState, new_state
from farmbox.firmware.rules.superfarmer.strategies import strategy

#: ("press" | "hold", button) or a camera observation.
Move = tuple[str, str] | RollSeen


def roll_for(seed: int, state: GameState) -> Roll:
    """The roll the dice show for this turn (a function of the seed and the turn number)."""
    rng = random.Random(f"{seed}:{sum(state.turns)}:{state.current}")
    return ALL_ROLLS[rng.randrange(len(ALL_ROLLS))]


class RollSource(Protocol):
    """Where the bot's dice come from: a seeded RNG now, rendered camera scenes later."""

    def roll_for(self, state: GameState) -> Roll:
        ...


@dataclass(frozen=True)
class SeededRolls:
    """Rolls from a seeded RNG, one per turn (the same state always rolls the same)."""

    seed: int = 1

    def roll_for(self, state: GameState) -> Roll:
        return roll_for(self.seed, state)


@dataclass
class Bot:
    """Plays every farm: the advisor's exchange, then the seeded roll.

    ``strategy``: a ``farmbox.firmware.rules.superfarmer.strategies`` name choosing the exchange (found in the
    session's menu wherever the advisor ranked it). ``camera``: rolls arrive as RollSeen
    observations (motion first), ``unsure`` of them with low confidence (the bot then
    confirms on the buttons); otherwise the dice are entered face by face on the buttons.
    ``undo_every``: hold a button for undo after every N-th journal record (0: never).
    """

    seed: int = 1
    camera: bool = True
    unsure: float = 0.15
    undo_every: int = 0
    rolls: RollSource | None = field(default=None)
    strategy: str = "greedy"

    def __post_init__(self) -> None:
        if self.rolls is None:
            self.rolls = SeededRolls(self.seed)

    def plan(self, state: GameState, seq: int, can_undo: bool = True) -> Action | None:
        """The next settled action for the rules engine, or None when the game is over."""
        if state.over:
            return None
        if self.undo_every and can_undo and seq % self.undo_every == 0:
            return {"action": "undo"}
        if not state.exchanged:
            others = tuple(f for i, f in enumerate(state.farms) if i != state.current)
            choice = strategy(self.strategy).choose(state.farm, state.stock, state.rules, others)
            if choice is not None:
                return {"action": "exchange", "exchange": str(choice), "partner": None}
        assert self.rolls is not None
        return {"action": "roll", "roll": str(self.rolls.roll_for(state)), "source": "bot"}

    def next_input(self, session: Session, seq: int) -> Move | None:
        """The next button press or observation that moves ``session`` along its plan."""
        if session.notice is not None:
            return ("press", "ok")
        phase = session.phase
        if phase in (Phase.RESULT, Phase.STOCK, Phase.LAST_ROLL):
            return ("press", "ok")
        if phase in (Phase.WINNER, Phase.NEW_GAME):
            return None if session.state.over else ("press", "ok")
        if phase is Phase.CONFIRM:
            return ("press", "ok")
        action = self.plan(session.state, seq, session.can_undo)
        if action is None:
            return None
        kind = action["action"]
        if kind == "undo":
            return ("hold", "back")
        if kind == "exchange":
            if phase is Phase.FARM:
                return ("press", "next")
            if phase is Phase.TRADE:
                target = next(i for i, o in enumerate(session.menu)
                              if str(o.exchange) == action["exchange"]
                              and o.partner == action["partner"])
                if session.cursor == target:
                    return ("press", "ok")
                ahead = (target - session.cursor) % len(session.menu)
                return ("press", "next" if ahead <= len(session.menu) - ahead else "prev")
            if phase is Phase.CONSENT:
                return ("press", "ok")
            return ("press", "back")
        roll = Roll.parse(action["roll"])
        if self.camera and phase in (Phase.FARM, Phase.TRADE):
            if not session.armed:
                return RollSeen(None, 0.0, "motion")
            rng = random.Random(f"{self.seed}:{seq}:unsure")
            sure = rng.random() >= self.unsure
            return RollSeen((roll.green, roll.red), 0.97 if sure else 0.6, "ok")
        if phase is Phase.FARM:
            return ("press", "ok")
        if phase is Phase.GREEN:
            want = GREEN_FACES.index(roll.green)
            return ("press", "ok" if session.green == want else "next")
        if phase is Phase.RED:
            want = RED_FACES.index(roll.red)
            return ("press", "ok" if session.red == want else "next")
        return ("press", "back")


def play_alone(bot: Bot, players: int, rules: Rules, max_records: int = 100_000) -> GameState:
    """The same game played by the rules engine alone (no session, no buttons)."""
    timeline = Timeline(new_state(players, rules))
    seq = 1  # the new-game record
    while seq < max_records:
        action = bot.plan(timeline.state, seq, bool(timeline.history))
        if action is None:
            break
        timeline.apply(action, timeline.preview(action))
        seq += 1
    return timeline.state


__all__ = ["Bot", "Move", "RollSource", "SeededRolls", "offers", "play_alone", "roll_for"]
