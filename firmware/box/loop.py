"""What every game's box loop shares: handle queued events, show a frame only when it changed."""

from __future__ import annotations

from typing import Any


class BoxLoop:
    """Base of a box's loop (hardware events in, frames out); subclasses define :meth:`step`."""

    #: The bytes of the frame shown last (None before the first one).
    _last: bytes | None = None

    def step(self, timeout: float = 0.05) -> bool:
        """Handle at most one event (waiting up to ``timeout`` s); True if one came."""
        raise NotImplementedError

    def drain(self) -> int:
        """Handle every event already queued; returns how many there were."""
        n = 0
        while self.step(timeout=0):
            n += 1
        return n

    def show(self, display: Any, image: Any) -> None:
        """Send ``image`` to ``display`` unless it is the frame shown last."""
        data = image.tobytes()
        if data != self._last:
            display.show(image)
            self._last = data
