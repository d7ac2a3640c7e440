"""The one camera watcher every game shares: frames in, observations out.

A :class:`CameraWatcher` reads the camera in its own thread (a slow read never blocks the
buttons), tells the box that the camera is alive (:class:`FrameSeen`, at most every 0.3 s) or
gone (:class:`CameraLost`), and hands each frame to the game's reader, a :class:`StillTable`:
while the table moves it says so once; when it is still again it reads the scene once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from farmbox.firmware.box.observations import CameraLost, FrameSeen
from farmbox.hw.camera import CameraGone

log = logging.getLogger(__name__)

#: A frame reader: one frame -> what it saw (maybe nothing).
Reader = Callable[[Any], Sequence[Any]]


class Stillness(Protocol):
    """Compares consecutive frames (``farmbox.vision.dice.Stillness``)."""

    change: float
    threshold: float

    def update(self, frame: Any) -> bool:
        """Take a frame; True when the table has just become still (read it now)."""


class StillTable:
    """Frames in, observations out: ``moving()`` once when the table starts to move, then
    ``still(frame)`` once per still scene."""

    def __init__(self, stillness: Any, moving: Callable[[], Sequence[Any]],
                 still: Callable[[Any], Sequence[Any]]) -> None:
        self.stillness = stillness
        self._on_moving = moving
        self._on_still = still
        self._moving = False

    def __call__(self, frame: Any) -> Sequence[Any]:
        fresh = self.stillness.update(frame)
        if self.stillness.change > self.stillness.threshold:
            if not self._moving:
                self._moving = True
                return self._on_moving()
            return ()
        self._moving = False
        return self._on_still(frame) if fresh else ()


class CameraWatcher:
    """Read ``camera`` every ``interval`` s until :meth:`stop`; every observation and the
    camera's health go to ``post``. ``reader`` may be None (the camera is only watched)."""

    #: The box hears that the camera is alive at most this often (s).
    ALIVE_EVERY = 0.3
    #: After a failed read, wait this long before the next (s).
    RETRY = 0.25

    def __init__(self, camera: Any, reader: Reader | None, post: Callable[[Any], None],
                 interval: float = 0.1) -> None:
        self.camera = camera
        self.reader = reader
        self.post = post
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    def run(self) -> None:
        last_alive = 0.0
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                frame = self.camera.read()
            except CameraGone as exc:
                self.post(CameraLost(str(exc)))
                self._stop.wait(self.RETRY)
                continue
            except Exception as exc:  # a bad frame must not kill the reader
                self.post(CameraLost(f"camera: {exc}"))
                self._stop.wait(self.RETRY)
                continue
            if started - last_alive > self.ALIVE_EVERY:
                self.post(FrameSeen(started))
                last_alive = started
            if self.reader is not None:
                try:
                    seen = list(self.reader(frame))
                except Exception as exc:  # a reader bug must not stop the camera
                    log.warning("reader: %s", exc)
                    seen = []
                for obs in seen:
                    self.post(obs)
            self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))
