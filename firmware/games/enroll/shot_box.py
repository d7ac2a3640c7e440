"""The guided card or colour-dice enrollment on the box: buttons, camera and phone in, OLED out.

:class:`ShotBox` drives a :class:`~farmbox.firmware.games.enroll.shots.ShotSession` with the
box's buttons and camera and draws its screens. The phone's page
(:mod:`farmbox.firmware.web.enroll`) puts the same actions in :attr:`ShotBox.inbox`; they are
done on the box's own thread, between two button events, so the buttons and the phone never
change the session at the same time. While a phone watches, the box also reads the camera
between photos, so the page can show what the camera sees (:meth:`ShotBox.preview`).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import farmbox.firmware.games.enroll.screens as screens
import farmbox.firmware.games.enroll.shot_screens as shot_screens
from farmbox.firmware.games.enroll.box import EnrollmentCancelled
from farmbox.firmware.games.enroll.shots import ACTIONS, Phase, ShotSession
from farmbox.hw import CameraGone, Hardware

log = logging.getLogger(__name__)

#: How long to wait for a button between screen refreshes, seconds.
POLL = 0.1
#: A phone that asked for the camera's picture this recently is still watching, seconds.
WATCHING = 3.0


class ShotBox:
    """One guided enrollment of ``session`` on ``hardware``."""

    def __init__(self, hardware: Hardware, session: ShotSession,
                 clock: Callable[[], float] = time.monotonic, language: str | None = None) -> None:
        if hardware.camera is None:
            raise ValueError(f"{session.reader.kind} enrollment needs a camera: set [camera] source")
        self.hw = hardware
        self.session = session
        self.clock = clock
        lang = language or getattr(getattr(hardware.config, "ui", None), "language", "en")
        self.tr = screens.translator(lang)
        #: Actions from the phone, done on the box's thread.
        self.inbox: queue.Queue[str] = queue.Queue()
        #: Guards the session and the last frame between the box's thread and the page's.
        self.lock = threading.Lock()
        self.frame: np.ndarray | None = None
        self._watched = -WATCHING
        self._shown: bytes | None = None

    # -- what the phone sees --------------------------------------------------------
    def watched(self) -> None:
        """A phone asked for the camera's picture: keep the camera running for it a while."""
        self._watched = self.clock()

    def preview(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(the newest frame, the outline of what was found in it), on the page's thread: the
        photo under review, else the camera's last frame with the reader's find on it."""
        self.watched()
        with self.lock:
            capture = self.session.capture
            if capture is not None:
                return capture.frame, capture.outline
            frame, background = self.frame, self.session.background
            wants_find = self.session.phase is Phase.PROMPT
        if frame is None or not wants_find:
            return frame, None
        return frame, self.session.reader.find(frame, background)

    # -- one step at a time (tests and the run loop) -------------------------------
    def step(self, timeout: float = POLL) -> None:
        """Handle the phone's actions, one camera frame (while capturing, or for a watching
        phone) and up to ``timeout`` s of waiting for a button."""
        session = self.session
        while True:
            try:
                action = self.inbox.get_nowait()
            except queue.Empty:
                break
            with self.lock:
                session.act(action, self.clock())
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
                if event.kind == "press":
                    session.press(event.name, self.clock())
                elif event.kind == "hold":
                    session.hold(event.name, self.clock())
        with self.lock:
            session.tick(self.clock())
        if session.phase is Phase.BUILD:
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

    def build(self) -> None:
        """Learn with a progress screen; errors stay on the screen for a retake."""
        session, kind = self.session, self.session.reader.kind
        self.show(shot_screens.learning(self.tr, kind, 0.0))
        shown = [-1]

        def progress(done: int, total: int) -> None:
            percent = round(100 * done / max(1, total))
            if percent != shown[0]:
                shown[0] = percent
                self.show(shot_screens.learning(self.tr, kind, done / max(1, total)))

        try:
            learned = session.build(progress)
        except (ValueError, OSError) as exc:
            log.warning("%s enrollment: %s", kind, exc)
        else:
            log.info("%s enrolled from %d photos in %.1f s -> %s; weak: %s", kind, learned.photos,
                     learned.seconds, learned.model_path, ", ".join(learned.weak) or "none")

    def show(self, image: Any = None) -> None:
        """Draw the session's screen (or ``image``) when it changed; sound its alerts."""
        with self.lock:
            alerts = self.session.take_alerts()
            if image is None:
                image = shot_screens.render(self.session, self.tr)
        for alert in alerts:
            self.hw.alert(alert)
        data = image.tobytes()
        if data != self._shown:
            self.hw.display.show(image)
            self._shown = data

    def send(self, action: str) -> None:
        """An action from the phone (done on the box's thread at its next step)."""
        if action not in ACTIONS:
            raise ValueError(f"unknown action {action!r}")
        self.inbox.put(action)

    # -- the whole enrollment -------------------------------------------------------------
    def run(self) -> ShotSession:
        """Until the done screen is left; returns the session (its ``learned`` files)."""
        self.show()
        while not self.session.finished:
            if self.session.phase is Phase.QUIT:
                raise EnrollmentCancelled(f"{self.session.reader.kind} enrollment cancelled: "
                                          "nothing written")
            self.step()
        return self.session


__all__ = ["ShotBox"]
