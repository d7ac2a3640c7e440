"""What the table view shows, as JSON: one builder per game, read from the box's session.

The builders run on the web server's thread and only read the session (its states are
immutable, each replaced whole by the box), so the box's loop is never held up by a viewer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from farmbox.firmware.box.events import Event
from farmbox.firmware.games.cardgame.session import TableState
from farmbox.firmware.games.superfarmer.advice import advised
from farmbox.firmware.rules.funfarm import FarmState
from farmbox.firmware.rules.superfarmer import EventKind
from farmbox.firmware.rules.superfarmer.game import GameState
from farmbox.firmware.rules.superfarmer.herd import Animal
from farmbox.firmware.rules.superfarmer.odds import odds

ANIMALS = tuple(a.key for a in Animal)
PREDATORS = {EventKind.LOST_TO_FOX: "fox", EventKind.LOST_TO_WOLF: "wolf"}


class FarmChart:
    """Each farm's value in rabbits after every turn of the game (undo takes turns back)."""

    def __init__(self) -> None:
        self.points: list[list[int]] = []

    def add(self, state: GameState) -> list[list[int]]:
        """Record ``state`` at its turn (the sum of the farms' turns) and return the chart."""
        turn = sum(state.turns)
        values = [farm.value for farm in state.farms]
        if self.points and len(self.points[0]) != len(values):
            self.points = []  # a new game with another number of farms
        del self.points[turn:]
        while len(self.points) < turn:  # turns played before the view started: unknown
            self.points.append(self.points[-1] if self.points else values)
        self.points.append(values)
        return self.points


def _state_of(memory: Memory, parse: Callable[[dict[str, Any]], Any], fallback: Any) -> tuple[int, Any]:
    """The journal seq and game state of the newest published action (parsed once), else the
    session's own state (before the first action): the box publishes inside its commit,
    before the session takes the new state, so the event is the truth."""
    event = memory.event
    if event is None:
        return 0, fallback
    if memory._parsed[0] is not event:
        data = event.data.get("state")
        memory._parsed = (event, None if data is None else parse(data))
    return event.seq, memory._parsed[1]


class Memory:
    """What the view remembers between updates: the chart and the last published action."""

    def __init__(self) -> None:
        self.chart = FarmChart()
        #: The newest journaled action the box published (set on the box's thread).
        self.event: Event | None = None
        self._parsed: tuple[Event | None, Any] = (None, None)
        #: The last view built and what it was built from (the poll rebuilds only on change).
        self.key: tuple[Any, ...] = ()
        self.view: dict[str, Any] = {}


def _read(seen: Any, seq: int, which: str = "roll") -> dict[str, Any] | None:
    """What the camera saw of a roll: its faces, confidence and reason, and for each die
    found the URL of its picture (served by ``/api/crop/``, never inlined in the stream)."""
    if seen is None:
        return None
    faces = [f.value for f in seen.faces] if seen.faces is not None else [None, None]
    crops = {c.die: c for c in getattr(seen, "crops", ())}
    return {"faces": faces, "confidence": round(float(seen.confidence), 3), "reason": seen.reason,
            "source": getattr(seen, "source", "camera"),
            "dice": [{"die": die, "face": face,
                      "crop": f"/api/crop/{die}.jpg?{which}={seq}" if die in crops else None}
                     for die, face in zip(("green", "red"), faces)]}


def die_crop(box: Any, die: str) -> bytes | None:
    """The JPEG of ``die`` ("green" or "red") as the camera saw it: the unsure read waiting
    for confirmation, else the last roll settled from the camera (None: no picture)."""
    session = getattr(box, "session", None)
    if session is None:
        return None
    for seen in (getattr(session, "seen", None), getattr(session, "last_seen", None)):
        for crop in getattr(seen, "crops", ()):
            if crop.die == die:
                return bytes(crop.jpeg)
    return None


def superfarmer(box: Any, memory: Memory) -> dict[str, Any]:
    """Every farm, the main herd, the turn, the last roll, the unsure read, odds and advice."""
    session = box.session
    if session is None:
        return {"game": "superfarmer", "starting": True}
    seq, state = _state_of(memory, GameState.from_dict, session.state)
    seen = session.seen
    phase = session.phase.value
    read = getattr(session, "last_seen", None)
    key = (id(state), seen, phase, session.rolled_by, id(read))
    if key == memory.key:
        return dict(memory.view)
    unsure = None
    if phase == "confirm" and seen is not None and seen.faces is not None:
        unsure = {"faces": [f.value for f in seen.faces], "confidence": round(seen.confidence, 3),
                  "reason": seen.reason, "dice": (_read(seen, seq, "unsure") or {}).get("dice", [])}
    figures = odds(state.farm, state.stock, state.rules).as_dict()
    tip = None if state.over else advised(state)
    predators = [{"animal": PREDATORS[e.kind], "lost": e.animal.key if e.animal else None,
                  "count": e.count} for e in state.last_events if e.kind in PREDATORS]
    view: dict[str, Any] = {
        "game": "superfarmer",
        "seq": seq,
        "variant": state.rules.name,
        "players": state.players,
        "current": state.current,
        "over": state.over,
        "places": list(state.places),
        "turns": list(state.turns),
        "farms": [{"herd": farm.as_dict(), "value": farm.value, "complete": farm.is_complete()}
                  for farm in state.farms],
        "stock": state.stock.as_dict(),
        "last_roll": (None if state.last_roll is None else
                      {"faces": str(state.last_roll).split(","), "by": session.rolled_by,
                       "source": getattr(session, "rolled_from", None),
                       "read": _read(read, seq)}),
        "events": [e.as_dict() for e in state.last_events],
        "predators": predators,
        "phase": phase,
        "unsure": unsure,
        "can_undo": session.can_undo,
        "odds": {"expected_gain": figures["expected_gain_float"], "p_fox": figures["p_fox"],
                 "p_wolf": figures["p_wolf"], "p_loss": figures["p_loss"], "p_win": figures["p_win"]},
        "advice": ("roll" if tip is None else str(tip.exchange)) if not state.over else None,
        "chart": [list(p) for p in memory.chart.add(state)],
    }
    memory.key, memory.view = key, view
    return dict(view)


def cardgame(box: Any, memory: Memory) -> dict[str, Any]:
    """The card game's scoreboard and each scored round's breakdown."""
    keeper = box.keeper
    if keeper is None:
        return {"game": "cardgame", "starting": True}
    seq, state = _state_of(memory, TableState.from_dict, keeper.state)
    if state is None:
        return {"game": "cardgame", "seq": seq, "setting_up": True, "players": 0}
    return {
        "game": "cardgame",
        "seq": seq,
        "players": state.setup.players,
        "round": state.round,
        "over": state.over,
        "phase": keeper.phase.value,
        "scores": list(state.scores),
        "rounds": [{"predators": list(r.predators), "cabbage": list(r.cabbage),
                    "points": list(r.points), "totals": list(r.totals), "longest": list(r.longest)}
                   for r in state.results],
        "can_undo": keeper.can_undo,
    }


def funfarm(box: Any, memory: Memory) -> dict[str, Any]:
    """Fun Farm: the circle of cards and the activated ones, each race of the round (who
    took what, how fast, by how many ms), the scores."""
    session = getattr(box, "session", None)
    if session is None:
        return {"game": "funfarm", "starting": True}
    rules = session.rules
    seq, state = _state_of(memory, lambda d: FarmState.from_dict(d, rules), session.state)
    cards = rules.deck.cards

    def ids(indices: Any) -> list[str]:
        return [cards[i].id for i in indices]

    takes = [{"players": list(t.players), "cards": ids(t.cards), "reaction_ms": t.reaction_ms,
              "lead_ms": t.lead_ms} for t in session.takes]
    return {
        "game": "funfarm", "seq": seq, "players": state.players, "round": state.round,
        "phase": state.phase.value, "roll": str(state.roll) if state.roll else None,
        "circle": ids(state.circle), "activated": ids(state.activated),
        "uncaught": ids(state.uncaught), "scores": list(state.totals),
        "farmer": state.farmer, "over": state.over, "winner": state.winner,
        "contenders": list(state.contenders), "takes": takes, "can_undo": session.can_undo,
        "race_open": state.phase.value == "catch" and bool(state.uncaught),
        "cards_left": len(state.draw_pile),
    }


VIEWS: dict[str, Callable[[Any, Memory], dict[str, Any]]] = {
    "superfarmer": superfarmer, "cardgame": cardgame, "funfarm": funfarm,
}
