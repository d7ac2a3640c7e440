"""What a game is told from outside, one set of types for every game: button presses (the
buttons' own :class:`~farmbox.hw.buttons.ButtonEvent`, or a :class:`Press` from code), what
the camera saw (:class:`RollSeen` for Super Farmer's animal dice, :class:`CardsSeen` and
:class:`DiceSeen` for Fun Farm's cards and colour dice) and the camera's own health
(:class:`FrameSeen`, :class:`CameraLost`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from farmbox.firmware.rules.superfarmer.dice import Face, Roll

BUTTONS = ("prev", "next", "ok", "back")


@dataclass(frozen=True)
class DieCrop:
    """The camera's picture of one die as the reader found it (a small JPEG), for the table
    view to show beside what the reader made of it."""

    die: str
    jpeg: bytes = field(repr=False)


@dataclass(frozen=True)
class RollSeen:
    """The dice reader's verdict on one still scene.

    ``faces`` is (green, red) or None when there are no still dice (moving, absent,
    unreadable); ``reason`` says why in a word or two. ``source`` is who saw the roll (the
    ``camera``, or ``web``: entered on the table view), journaled with it; ``crops`` are the
    camera's pictures of the dice found (none when nothing was found or nobody looked).
    """

    faces: tuple[Face, Face] | None
    confidence: float = 1.0
    reason: str = ""
    source: str = "camera"
    crops: tuple[DieCrop, ...] = field(default=(), compare=False, repr=False)

    @property
    def roll(self) -> Roll | None:
        return None if self.faces is None else Roll(self.faces[0], self.faces[1])


def as_roll_seen(obs: Any) -> RollSeen:
    """Accept a RollSeen-shaped object from the dice reader (faces as Face or names)."""
    faces = getattr(obs, "faces", None)
    if faces is not None:
        faces = tuple(f if isinstance(f, Face) else Face(str(getattr(f, "value", f)).lower())
                      for f in faces)
        if len(faces) != 2:
            raise ValueError(f"a roll has two faces, got {len(faces)}")
    if isinstance(obs, RollSeen):
        return RollSeen(faces, obs.confidence, obs.reason, obs.source, obs.crops)
    return RollSeen(faces, float(getattr(obs, "confidence", 1.0)), str(getattr(obs, "reason", "")))


@dataclass(frozen=True)
class CardsSeen:
    """The card reader's ids of the cards face up on the table (any order)."""

    ids: tuple[str, ...]
    confidence: float = 1.0


@dataclass(frozen=True)
class DiceSeen:
    """The colour-dice reader: the colour up on each die; both None while they move.
    ``t_ns`` is when the frame was read (monotonic ns), so buzzes can be judged against it."""

    black: str | None
    white: str | None
    confidence: float = 1.0
    t_ns: int = field(default=0, compare=False)

    @property
    def moving(self) -> bool:
        return self.black is None and self.white is None


@dataclass(frozen=True)
class FrameSeen:
    """The camera delivered a frame (it is alive)."""

    t: float


@dataclass(frozen=True)
class CameraLost:
    """Reading the camera failed (unplugged, read error)."""

    reason: str


@dataclass(frozen=True)
class Remote:
    """A command from the table view (sent with the PIN) that no single button press says:
    ``name`` (``names``, ``new_game``, ``roll``, a game's own correction) and its arguments.
    The game's box takes it through the same session and journal as its buttons; one it
    cannot take now is refused like an illegal press (a ValueError)."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Press:
    """A button event injected by code (a bot, the web view), same meaning as a ButtonEvent."""

    name: str
    kind: str = "press"
    t_ns: int = 0
