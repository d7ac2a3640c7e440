"""What the page may ask of the table (with the PIN), as the box's own inputs.

Every command becomes items for ``box.inbox`` -- the button presses, observations and
:class:`~farmbox.firmware.box.observations.Remote` commands the box already takes -- so it
goes through the same session, the same refusals and the same journal as the table's
buttons and camera. A command that cannot apply now is a :class:`NotNow` (HTTP 409), a
malformed one a :class:`BadCommand` (HTTP 400).
"""

from __future__ import annotations

from typing import Any

from farmbox.firmware.box.names import clean_names
from farmbox.firmware.box.observations import Press, Remote, RollSeen
from farmbox.firmware.games.superfarmer.session import GREEN_FACES, RED_FACES
from farmbox.firmware.rules.superfarmer.dice import Face

#: The source journaled with a roll entered on the page.
WEB = "web"


class BadCommand(ValueError):
    """The request is not a command this game knows (or its arguments are wrong)."""


class NotNow(ValueError):
    """A known command that the game cannot take in its present phase."""


def _face(value: Any, faces: tuple[Face, ...], die: str) -> Face:
    names = [f.value for f in faces]
    if value not in names:
        raise BadCommand(f"{die} die: {value!r} is not one of {', '.join(names)}")
    return Face(value)


def _number(body: dict[str, Any], key: str, low: int, high: int) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadCommand(f"{key}: expected a whole number {low}-{high}, got {value!r}")
    return value


def superfarmer(box: Any, body: dict[str, Any]) -> list[Any]:
    """``confirm`` the unsure read, ``roll`` (green, red: a correction or an entry, journaled
    as from the web), ``undo`` the last action, ``new_game`` (at any point)."""
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
        # The camera's read, confirmed: settled as the camera's (as the OK button does).
        return [RollSeen(seen.faces, 1.0, "confirmed", "camera")]
    if command == "roll":
        if session.state.over or phase in ("winner", "new_game", "consent"):
            raise NotNow(f"no roll now ({phase.replace('_', ' ')})")
        green = _face(body.get("green"), GREEN_FACES, "green")
        red = _face(body.get("red"), RED_FACES, "red")
        return [Remote("roll", {"green": green.value, "red": red.value})]
    if command == "new_game":
        return [Remote("new_game")]
    raise BadCommand(f"unknown command {command!r} for superfarmer")


def cardgame(box: Any, body: dict[str, Any]) -> list[Any]:
    """``undo`` the last action, ``new_game`` with this game's setup, ``correct`` a scored
    round's points (``round`` 1-2, ``seat``, ``points``)."""
    keeper = box.keeper
    if keeper is None:
        raise NotNow("the game is starting")
    command = body.get("command")
    if command == "undo":
        if not keeper.can_undo:
            raise NotNow("nothing to undo")
        return [Remote("undo")]
    if command == "new_game":
        return [Remote("new_game")]
    if command == "correct":
        state = keeper.state
        if state is None or not state.results:
            raise NotNow("no round is scored yet")
        n = _number(body, "round", 1, 2)
        if n > len(state.results):
            raise NotNow(f"round {n} is not scored yet")
        seat = _number(body, "seat", 0, state.setup.players - 1)
        points = _number(body, "points", 0, 999)
        return [Remote("correct", {"round": n, "seat": seat, "points": points})]
    raise BadCommand(f"unknown command {command!r} for cardgame")


def funfarm(box: Any, body: dict[str, Any]) -> list[Any]:
    """``undo`` the last action, ``award`` the open race to ``player`` (0-based),
    ``new_game``."""
    session = box.session
    command = body.get("command")
    if command == "undo":
        if not session.can_undo:
            raise NotNow("nothing to undo")
        return [Remote("undo")]
    if command == "award":
        state = session.state
        player = _number(body, "player", 0, state.players - 1)
        if state.phase.value != "catch" or not state.uncaught:
            raise NotNow("no open race to award")
        if player not in state.contenders:
            raise NotNow(f"player {player + 1} is not in this game's race")
        return [Remote("award", {"player": player})]
    if command == "new_game":
        return [Remote("new_game")]
    raise BadCommand(f"unknown command {command!r} for funfarm")


COMMANDS = {"superfarmer": superfarmer, "cardgame": cardgame, "funfarm": funfarm}


def names_command(body: dict[str, Any], players: int) -> list[Any]:
    """The players' names from the page: one per seat (at most 16 characters each)."""
    value = body.get("names")
    try:
        names = clean_names(value)
    except ValueError as exc:
        raise BadCommand(str(exc)) from None
    if players and len(names) != players:
        raise BadCommand(f"names: one per player ({players}), got {len(names)}")
    return [Remote("names", {"names": list(names)})]
