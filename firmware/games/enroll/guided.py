"""What every guided enrollment box shares: the run loop over buttons, camera and the phone.

A guided box (:class:`~farmbox.firmware.games.enroll.box.EnrollmentBox` for the dice,
:class:`~farmbox.firmware.games.enroll.shot_box.ShotBox` for cards and colour dice) drives
its enrollment session from the box's own thread. The phone's page
(:mod:`farmbox.firmware.web.enroll`) never touches the session: it puts named actions in
:attr:`GuidedBox.inbox` (:meth:`GuidedBox.send`), done here between two button events, and
reads :meth:`GuidedBox.view` and :meth:`GuidedBox.preview` under :attr:`GuidedBox.lock`. While
a phone watches, the box also reads the camera between photos, so the page shows what the
camera sees; without a phone the camera is read only while a photo is being taken.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

import farmbox.firmware.games.enroll.screens as screens
from farmbox.hw import CameraGone, Hardware

#: How long to wait for a button between screen refreshes, seconds.
POLL = 0.1
#: A phone that asked for the camera's picture this recently is still watching, seconds.
WATCHING = 3.0


class GuidedBox:
    """The loop and the phone's side of one guided enrollment (a subclass has the session)."""

    #: "dice", "cards" or "colour-dice".
    kind = ""
    #: The enrollment session (a subclass sets it).
    session: Any

    def __init__(self, hardware: Hardware, clock: Callable[[], float] = time.monotonic,
                 language: str | None = None) -> None:
        if hardware.camera is None:
            raise ValueError(f"{self.kind} enrollment needs a camera: set [camera] source")
        self.hw = hardware
        self.clock = clock
        lang = language or getattr(getattr(hardware.config, "ui", None), "language", "en")
        self.tr = screens.translator(lang)
        #: Actions from the phone, done on the box's thread.
        self.inbox: queue.Queue[str] = queue.Queue()
        #: Guards the session and the last frame between the box's thread and the page's.
        self.lock = threading.Lock()
        #: The camera's last frame (read between photos only while a phone watches).
        self.frame: np.ndarray | None = None
        self.finished = False
        self._watched = -WATCHING
        self._shown: bytes | None = None

    # -- what a subclass says ---------------------------------------------------------
    def allowed(self) -> list[str]:
        """The actions that apply now."""
        raise NotImplementedError

    def apply(self, action: str) -> None:
        """Do ``action`` (under the lock, on the box's thread)."""
        raise NotImplementedError

    def button(self, name: str, kind: str) -> None:
        """A button event (press or hold)."""
        raise NotImplementedError

    def build(self) -> None:
        """Learn from the photos (the session is in its build phase)."""
        raise NotImplementedError

    def screen(self) -> Image.Image:
        """The OLED's picture of the session now (under the lock)."""
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        """What the phone's page shows (under the lock)."""
        raise NotImplementedError

    def picture(self) -> Image.Image | None:
        """Our own picture of what to lay down next (under the lock), None without one."""
        raise NotImplementedError

    def under_review(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The photo under review and the outline of what was found in it (under the lock)."""
        raise NotImplementedError

    def find(self, frame: np.ndarray) -> np.ndarray | None:
        """The outline of what would be found in ``frame`` now, None when nothing is looked
        for (outside the lock: it may take a few milliseconds)."""
        raise NotImplementedError

    # -- the phone ----------------------------------------------------------------------
    def send(self, action: str) -> None:
        """An action from the phone (done on the box's thread at its next step)."""
        self.inbox.put(action)

    def preview(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(the newest frame, the outline of what was found in it), on the page's thread: the
        photo under review, else the camera's last frame with the reader's find on it."""
        self._watched = self.clock()
        with self.lock:
            review = self.under_review()
            if review is not None:
                return review
            frame = self.frame
        if frame is None:
            return None, None
        return frame, self.find(frame)

    # -- one step at a time (tests and the run loop) -------------------------------
    def step(self, timeout: float = POLL) -> None:
        """Do the phone's actions, read one camera frame (while capturing, or for a watching
        phone), wait up to ``timeout`` s for a button."""
        session = self.session
        while True:
            try:
                action = self.inbox.get_nowait()
            except queue.Empty:
                break
            with self.lock:
                if action in self.allowed():
                    self.apply(action)
        watching = self.clock() - self._watched < WATCHING
        if session.capturing or watching:
            event = self.hw.buttons.get(timeout=0)
            if event is None:
                self._read_camera(session.capturing)
                if not session.capturing:
                    event = self.hw.buttons.get(timeout=min(timeout, POLL))
        else:
            event = self.hw.buttons.get(timeout=timeout)
        if event is not None:
            with self.lock:
                self.button(event.name, event.kind)
        with self.lock:
            session.tick(self.clock())
            building = session.phase.value == "build"
        if building:
            self.build()
        self.show()

    def _read_camera(self, capturing: bool) -> None:
        try:
            frame = self.hw.camera.read()  # type: ignore[union-attr]
        except CameraGone as exc:
            with self.lock:
                self.session.camera_gone(str(exc), self.clock())
            return
        with self.lock:
            self.frame = frame
            if capturing:
                self.session.frame(frame, self.clock())

    def show(self, image: Any = None) -> None:
        """Draw the session's screen (or ``image``) when it changed; sound its alerts."""
        with self.lock:
            alerts = self.session.take_alerts()
            if image is None:
                image = self.screen()
        for alert in alerts:
            self.hw.alert(alert)
        data = image.tobytes()
        if data != self._shown:
            self.hw.display.show(image)
            self._shown = data


def circle(centre: tuple[float, float], radius: float, points: int = 32) -> np.ndarray:
    """A circle as an outline of ``points`` points (frame pixels)."""
    a = np.linspace(0, 2 * np.pi, points, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)], axis=1).astype(np.float32)


__all__ = ["GuidedBox", "POLL", "WATCHING", "circle"]
