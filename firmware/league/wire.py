"""What travels between the boxes and the league: topics, messages and a game's result.

Every message a box sends on ``farmbox/<box>/events`` carries ``n``, the box's outbox
number (1, 2, 3, ... never reused), and ``seq``, the journal's record number; the league
de-duplicates on (box, n) and acknowledges the highest n it holds without a gap on
``farmbox/<box>/ack`` (retained), so a box resends what is not yet acknowledged.
"""

from __future__ import annotations

import json
from typing import Any

PREFIX = "farmbox"
DISCOVERY = "homeassistant"


def state_topic(box: str) -> str:
    return f"{PREFIX}/{box}/state"


def events_topic(box: str) -> str:
    return f"{PREFIX}/{box}/events"


def ack_topic(box: str) -> str:
    return f"{PREFIX}/{box}/ack"


def box_of(topic: str) -> str | None:
    """``farmbox/<box>/events`` -> box (None for any other topic)."""
    parts = topic.split("/")
    return parts[1] if len(parts) == 3 and parts[0] == PREFIX and parts[1] else None


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), sort_keys=True).encode()


def decode(payload: bytes | bytearray) -> dict[str, Any]:
    """A message from the wire; ValueError if it is not a JSON object."""
    data = json.loads(bytes(payload).decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("a message must be a JSON object")
    return data


def ranking(game_type: str, state: dict[str, Any]) -> list[int] | None:
    """The seats from first to last when the game in ``state`` (a journal state) is over,
    else None. Super Farmer: the finishing order, then the rest by farm value (ties: seat);
    the card game: by final score."""
    if game_type == "superfarmer":
        if not state.get("over"):
            return None
        from farmbox.firmware.rules.superfarmer.herd import Herd

        places = [int(p) for p in state["places"]]
        values = [Herd.parse(f).value for f in state["farms"]]
        rest = sorted((s for s in range(len(values)) if s not in places), key=lambda s: (-values[s], s))
        return places + rest
    if game_type == "cardgame":
        results = state.get("results") or []
        if len(results) < 2:
            return None
        totals = results[-1]["totals"]
        return sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    return None


def summary(game_type: str, state: dict[str, Any]) -> dict[str, Any]:
    """The few figures a dashboard shows: the turn, the leading seat, the last predator."""
    if game_type == "superfarmer":
        from farmbox.firmware.rules.superfarmer.herd import Herd

        values = [Herd.parse(f).value for f in state["farms"]]
        predator = next((e["kind"].removeprefix("lost_to_") for e in state.get("last_events", [])
                         if e["kind"] in ("lost_to_fox", "lost_to_wolf")), None)
        return {"turn": sum(state["turns"]) + 1, "leader": max(range(len(values)), key=lambda s: values[s]),
                "predator": predator, "over": bool(state["over"])}
    if game_type == "cardgame" and state:
        results = state.get("results") or []
        totals = results[-1]["totals"] if results else [0] * int(state["setup"]["players"])
        return {"turn": int(state["round"]), "leader": max(range(len(totals)), key=lambda s: totals[s]),
                "predator": None, "over": len(results) >= 2}
    return {"turn": None, "leader": None, "predator": None, "over": False}
