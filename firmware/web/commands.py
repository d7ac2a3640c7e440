"""What the page may ask of the table (with the PIN), as the box's own inputs.

Every command becomes items for ``box.inbox`` -- the observations and button events the box
already takes -- so it goes through the same session, the same refusals and the same
journal as the table's buttons and camera. A command that cannot apply now is a
:class:`NotNow` (HTTP 409), a malformed one a :class:`BadCommand` (HTTP 400).
"""

from __future__ import annotations

from typing import Any

from farmbox.firmware.box.observations import Press, RollSeen
from farmbox.firmware.games.superfarmer.session import GREEN_FACES, RED_FACES
from farmbox.firmware.rules.superfarmer.dice import Face

#: The web view's name for the source of a roll it entered (RollSeen.reason).
WEB = "web"
#: The most players' names the page may set, and the longest name.
MAX_NAMES = 10
NAME_LENGTH = 16


class BadCommand(ValueError):
    """The request is not a command this game knows (or its arguments are wrong)."""


class NotNow(ValueError):
    """A known command that the game cannot take in its present phase."""


def _face(value: Any, faces: tuple[Face, ...], die: str) -> Face:
    names = [f.value for f in faces]
    if value not in names:
        raise BadCommand(f"{die} die: {value!r} is not one of {', '.join(names)}")
    return Face(value)


def superfarmer(box: Any, body: dict[str, Any]) -> list[Any]:
    """``confirm`` the unsure read, ``roll`` (green, red: a correction or an entry),
    ``undo`` the last action, ``new_game`` once the game is over."""
    session = box.session
    if session is None:
        raise NotNow("the game is starting")
    command = body.get("command")
    phase = session.phase.value
    if command == "undo":
        if not session.can_undo:
            raise NotNow("nothing to undo")
        return [Press("ok", "hold")]
    if command == "confirm":
        seen = session.seen
        if phase != "confirm" or seen is None or seen.faces is None:
            raise NotNow("no unsure read to confirm")
        return [RollSeen(seen.faces, 1.0, WEB)]
    if command == "roll":
        if session.state.over or phase in ("winner", "new_game", "consent"):
            raise NotNow(f"no roll now ({phase.replace('_', ' ')})")
        faces = (_face(body.get("green"), GREEN_FACES, "green"), _face(body.get("red"), RED_FACES, "red"))
        # The dice were seen moving, then still at these faces, read for sure.
        return [RollSeen(None, 0.0, WEB), RollSeen(faces, 1.0, WEB)]
    if command == "new_game":
        if not session.state.over:
            raise NotNow("a new game from the page only once this one is over")
        return ([Press("ok")] if phase == "new_game" else [Press("ok"), Press("ok")])
    raise BadCommand(f"unknown command {command!r} for superfarmer")


def cardgame(box: Any, body: dict[str, Any]) -> list[Any]:
    """The card game is followed read-only: its box reads only its buttons, not the inbox."""
    raise NotNow("the card game is shown read-only; correct it on the box's buttons")


def funfarm(box: Any, body: dict[str, Any]) -> list[Any]:
    """Fun Farm is followed read-only: its box has no input yet for a remote correction."""
    raise NotNow("Fun Farm is shown read-only; correct it on the box's buttons")


COMMANDS = {"superfarmer": superfarmer, "cardgame": cardgame, "funfarm": funfarm}


def clean_names(value: Any, players: int) -> list[str]:
    """The players' names from the page: one per seat, printable, at most 16 characters."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise BadCommand("names must be a list of strings")
    if not 1 <= len(value) <= min(players or MAX_NAMES, MAX_NAMES):
        raise BadCommand(f"names: one per player ({players}), got {len(value)}")
    names = [" ".join(n.split())[:NAME_LENGTH] for n in value]
    if not all(n and n.isprintable() for n in names):
        raise BadCommand("names must not be empty")
    return names
