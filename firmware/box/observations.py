"""What the session is told from outside: button presses and what the camera saw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from farmbox.firmware.rules.superfarmer.dice import Face, Roll

BUTTONS = ("prev", "next", "ok", "back")


@dataclass(frozen=True)
class RollSeen:
    """The dice reader's verdict on one still scene.

    ``faces`` is (green, red) or None when there are no still dice (moving, absent,
    unreadable); ``reason`` says why in a word or two.
    """

    faces: tuple[Face, Face] | None
    confidence: float = 1.0
    reason: str = ""

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
    return RollSeen(faces, float(getattr(obs, "confidence", 1.0)), str(getattr(obs, "reason", "")))
