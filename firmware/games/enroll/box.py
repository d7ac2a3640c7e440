"""Guided dice enrollment on the box: buttons and camera in, OLED out.

``run_enrollment(hardware, SAMPLES, MODEL)`` walks the owner through photographing the empty
table and every face of both dice (:mod:`farmbox.firmware.games.enroll.session`), then learns the model and
writes ``SAMPLES/<face>/<die>-<n>.png``, ``SAMPLES/background.png`` and the model, as
``farmbox vision enroll dice SAMPLES --model MODEL`` would from the same photos. The photos
the model's leave-one-out check finds weak are named on the OLED and the phone's page, to be
shot again (OK, or the page's redo) or kept (BACK, or finish).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

import farmbox.firmware.games.enroll.screens as screens
from farmbox.firmware.box.drawing.icons import SIZE
from farmbox.firmware.games.enroll.guided import POLL, GuidedBox, circle
from farmbox.firmware.games.enroll.session import EnrollSession, Phase, find_die, photo_label
from farmbox.hw import Hardware

log = logging.getLogger(__name__)



class EnrollmentCancelled(Exception):
    """The owner left the enrollment (BACK on its first screen); nothing was written."""


class EnrollmentBox(GuidedBox):
    """One guided enrollment on ``hardware`` (buttons, camera, display, lights/buzzer)."""

    kind = "dice"

    def __init__(self, hardware: Hardware, samples_dir: Path, model_path: Path,
                 per_face: int = 3, clock: Callable[[], float] = time.monotonic,
                 language: str | None = None) -> None:
        super().__init__(hardware, clock, language)
        self.session = EnrollSession(samples_dir, model_path, per_face, now=clock())
        self.fraction = 0.0
        self.seconds = 0.0

    # -- buttons and the phone ---------------------------------------------------------
    def button(self, name: str, kind: str) -> None:
        """A button event: a press or a hold (releases and pushes are ignored)."""
        session = self.session
        if session.phase is Phase.DONE and kind in ("press", "hold"):
            self.finished = True
        elif kind == "press":
            session.press(name, self.clock())
        elif kind == "hold":
            session.hold(name, self.clock())

    def allowed(self) -> list[str]:
        """The phone's actions that apply now (each is a button press or hold below)."""
        s, phase = self.session, self.session.phase
        out = []
        if phase in (Phase.CLEAR, Phase.PROMPT):
            out.append("take")
        if phase in (Phase.REVIEW, Phase.ERROR):
            out.append("keep")
        if phase in (Phase.CAPTURE, Phase.REVIEW, Phase.ERROR):
            out.append("retake")
        if phase not in (Phase.BUILD, Phase.CHECK, Phase.DONE, Phase.QUIT) and (s.kept or s.background is not None):
            out.append("undo")
        if phase is Phase.CHECK:
            out.append("redo")
        if phase in (Phase.CHECK, Phase.DONE):
            out.append("finish")
        if phase is Phase.CLEAR and not s.kept:
            out.append("quit")
        return out

    def apply(self, action: str) -> None:
        """The phone's action as the button that does it."""
        if action == "undo":
            self.button("ok", "hold")
        elif action == "finish" and self.session.phase is Phase.CHECK:
            self.button("back", "press")  # keep the model as it is
        elif action in ("take", "keep", "finish", "redo"):
            self.button("ok", "press")
        elif action in ("retake", "quit"):
            self.button("back", "press")

    # -- what the OLED and the phone show ------------------------------------------------
    def screen(self) -> Any:
        """The OLED's screen for the session now."""
        return screens.render(self.session, self.tr)

    def under_review(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The photo under review and the die's circle in it (the whole frame for the table)."""
        capture = self.session.capture
        if capture is None:
            return None
        if capture.die is None:
            h, w = capture.frame.shape[:2]
            return capture.frame, np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        return capture.frame, circle(capture.die.centre, capture.die.radius)

    def find(self, frame: np.ndarray) -> np.ndarray | None:
        """The die's circle in ``frame`` while a face is asked for (None otherwise)."""
        with self.lock:
            background = self.session.background if self.session.phase is Phase.PROMPT else None
        blob = None if background is None else find_die(frame, background)
        return None if blob is None else circle(blob.centre, blob.radius)

    def picture(self) -> Image.Image | None:
        """The face to show next at 3x in its die's frame, as on the OLED."""
        step = self.session.step
        if step is None or self.session.phase is Phase.CLEAR:
            return None
        side = 3 * SIZE + 6
        image = Image.new("1", (side, side), 0)
        screens.big_die(ImageDraw.Draw(image), (0, 0), step.face, step.die == "red")
        return image

    def view(self) -> dict[str, Any]:
        """What the phone's page shows."""
        s = self.session
        done, total = s.progress()
        step = s.step
        message, _, detail = s.error.partition("|")
        learned = s.learned
        weak = [] if learned is None else list(learned.weak)
        return {
            "kind": "dice", "phase": s.phase.value, "done": done, "total": total,
            "step": None if step is None or s.phase is Phase.CLEAR else {
                "label": f"{step.die}/{step.face}",
                "name": f"{step.face.upper()} UP, {step.die.upper()} DIE",
                "number": step.number, "of": s.enrollment.plan.per_face},
            "clear": s.phase is Phase.CLEAR or (s.phase is Phase.REVIEW and s.background is None),
            "error": message, "detail": detail, "fraction": round(self.fraction, 3),
            "weak": [f"{w.face.upper()} UP, {w.die.upper()} DIE: PHOTO {w.number}" for w in weak],
            "actions": self.allowed(),
            "learned": None if learned is None else {
                "photos": learned.photos, "seconds": round(self.seconds, 1),
                "weak": [photo_label(w) for w in weak], "model": str(learned.model_path)},
            "finished": self.finished,
        }

    # -- learning ------------------------------------------------------------------------
    def build(self) -> None:
        """Learn the model with a progress screen; errors stay on the screen for a retake."""
        self.show(screens.building(self.tr, 0.0))
        started = self.clock()

        def progress(items: Iterable[Any]) -> Iterator[Any]:
            items = list(items)
            for i, item in enumerate(items):
                self.fraction = 0.5 * i / max(1, len(items))
                self.show(screens.building(self.tr, self.fraction))
                yield item
            self.fraction = 0.5
            self.show(screens.building(self.tr, 0.5))

        try:
            learned = self.session.build(progress)
        except (ValueError, OSError) as exc:
            log.warning("dice enrollment: %s", exc)
        else:
            self.fraction, self.seconds = 1.0, self.clock() - started
            log.info("dice enrolled from %d photos -> %s; weak: %s", learned.photos, learned.model_path,
                     ", ".join(photo_label(w) for w in learned.weak) or "none")

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


__all__ = ["POLL", "EnrollmentBox", "EnrollmentCancelled", "run_enrollment"]
