"""Guided dice enrollment on the box: buttons and camera in, OLED out.

``run_enrollment(hardware, SAMPLES, MODEL)`` walks the owner through photographing the empty
table and every face of both dice (:mod:`farmbox.firmware.games.enroll.session`), then learns the model and
writes ``SAMPLES/<face>/<die>-<n>.png``, ``SAMPLES/background.png`` and the model, as
``farmbox vision enroll dice SAMPLES --model MODEL`` would from the same photos.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import farmbox.firmware.games.enroll.screens as screens
from farmbox.firmware.games.enroll.session import EnrollSession, Phase
from farmbox.hw import CameraGone, Hardware

log = logging.getLogger(__name__)

#: How long to wait for a button between screen refreshes, seconds.
POLL = 0.1


class EnrollmentCancelled(Exception):
    """The owner left the enrollment (BACK on its first screen); nothing was written."""


class EnrollmentBox:
    """One guided enrollment on ``hardware`` (buttons, camera, display, lights/buzzer)."""

    def __init__(self, hardware: Hardware, samples_dir: Path, model_path: Path,
                 per_face: int = 3, clock: Callable[[], float] = time.monotonic,
                 language: str | None = None) -> None:
        if hardware.camera is None:
            raise ValueError("dice enrollment needs a camera: set [camera] source")
        self.hw = hardware
        self.clock = clock
        lang = language or getattr(getattr(hardware.config, "ui", None), "language", "en")
        self.tr = screens.translator(lang)
        self.session = EnrollSession(samples_dir, model_path, per_face, now=clock())
        self._shown: bytes | None = None
        self.finished = False

    # -- one step at a time (tests and the run loop) -------------------------------
    def step(self, timeout: float = POLL) -> None:
        """Handle one camera frame (while capturing) or wait up to ``timeout`` s for a button."""
        session = self.session
        if session.capturing:
            event = self.hw.buttons.get(timeout=0)
            if event is None:
                try:
                    frame = self.hw.camera.read()  # type: ignore[union-attr]
                except CameraGone as exc:
                    session.camera_gone(str(exc), self.clock())
                else:
                    session.frame(frame, self.clock())
        else:
            event = self.hw.buttons.get(timeout=timeout)
        if event is not None:
            self.button(event.name, event.kind)
        session.tick(self.clock())
        if session.phase is Phase.BUILD:
            self.build()
        self.show()

    def button(self, name: str, kind: str) -> None:
        """A button event: a press or a hold (releases and pushes are ignored)."""
        session = self.session
        if session.phase is Phase.DONE and kind in ("press", "hold"):
            self.finished = True
        elif kind == "press":
            session.press(name, self.clock())
        elif kind == "hold":
            session.hold(name, self.clock())

    def build(self) -> None:
        """Learn the model with a progress screen; errors stay on the screen for a retake."""
        self.show(screens.building(self.tr, 0.0))

        def progress(items: Iterable[Any]) -> Iterator[Any]:
            items = list(items)
            for i, item in enumerate(items):
                self.show(screens.building(self.tr, 0.5 * i / max(1, len(items))))
                yield item
            self.show(screens.building(self.tr, 0.5))

        try:
            learned = self.session.build(progress)
        except (ValueError, OSError) as exc:
            log.warning("dice enrollment: %s", exc)
        else:
            log.info("dice enrolled from %d photos -> %s", learned.photos, learned.model_path)

    def show(self, image: Any = None) -> None:
        """Draw the session's screen (or ``image``) when it changed; sound its alerts."""
        for alert in self.session.take_alerts():
            self.hw.alert(alert)
        if image is None:
            image = screens.render(self.session, self.tr)
        data = image.tobytes()
        if data != self._shown:
            self.hw.display.show(image)
            self._shown = data

    # -- the whole enrollment -------------------------------------------------------------
    def run(self) -> Path:
        """Until the done screen is acknowledged; returns the model's path."""
        self.show()
        while not self.finished:
            if self.session.phase is Phase.QUIT:
                raise EnrollmentCancelled("dice enrollment cancelled: nothing written")
            self.step()
        return self.session.model_path


def run_enrollment(hardware: Hardware, samples_dir: Path, model_path: Path, per_face: int = 3,
                   clock: Callable[[], float] = time.monotonic) -> Path:
    """Guide the owner through enrolling the dice with the box's buttons, camera and OLED.

    Writes ``samples_dir`` (the CLI's SAMPLES layout) and ``model_path`` (each atomically) and
    returns ``model_path`` once the owner leaves the done screen; raises
    :class:`EnrollmentCancelled` if they leave before the first photo, ValueError without a camera.
    """
    return EnrollmentBox(hardware, samples_dir, model_path, per_face, clock).run()


__all__ = ["EnrollmentBox", "EnrollmentCancelled", "run_enrollment"]
