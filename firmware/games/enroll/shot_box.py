"""The guided card or colour-dice enrollment on the box: buttons, camera and phone in, OLED out.

:class:`ShotBox` drives a :class:`~farmbox.firmware.games.enroll.shots.ShotSession` with the
box's buttons and camera and draws its screens; the loop and the phone's side are
:class:`~farmbox.firmware.games.enroll.guided.GuidedBox`'s.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

import farmbox.firmware.games.enroll.shot_screens as shot_screens
from farmbox.firmware.games.enroll.box import EnrollmentCancelled
from farmbox.firmware.games.enroll.guided import GuidedBox
from farmbox.firmware.games.enroll.shots import Phase, ShotSession
from farmbox.hw import Hardware

log = logging.getLogger(__name__)


class ShotBox(GuidedBox):
    """One guided enrollment of ``session`` on ``hardware``."""

    def __init__(self, hardware: Hardware, session: ShotSession,
                 clock: Callable[[], float] = time.monotonic, language: str | None = None) -> None:
        self.kind = session.reader.kind
        self.session: ShotSession = session
        super().__init__(hardware, clock, language)

    def allowed(self) -> list[str]:
        return self.session.allowed()

    def apply(self, action: str) -> None:
        self.session.act(action, self.clock())
        self.finished = self.session.finished

    def button(self, name: str, kind: str) -> None:
        if kind == "press":
            self.session.press(name, self.clock())
        elif kind == "hold":
            self.session.hold(name, self.clock())
        self.finished = self.session.finished

    def screen(self) -> Image.Image:
        return shot_screens.render(self.session, self.tr)

    def under_review(self) -> tuple[np.ndarray, np.ndarray] | None:
        capture = self.session.capture
        return None if capture is None else (capture.frame, capture.outline)

    def find(self, frame: np.ndarray) -> np.ndarray | None:
        with self.lock:
            looking = self.session.phase is Phase.PROMPT
            background = self.session.background
        return self.session.reader.find(frame, background) if looking else None

    def picture(self) -> Image.Image | None:
        step = self.session.step
        if step is None or self.session.phase is Phase.CLEAR:
            return None
        return step.subject.picture

    def view(self) -> dict[str, Any]:
        s = self.session
        done, total = s.progress()
        step = s.step
        message, _, detail = s.error.partition("|")
        return {
            "kind": s.reader.kind, "phase": s.phase.value, "done": done, "total": total,
            "step": None if step is None or s.phase is Phase.CLEAR else {
                "label": step.subject.label, "name": step.subject.name,
                "number": step.number, "of": s.per_subject},
            "clear": s.phase is Phase.CLEAR or (s.phase is Phase.REVIEW and s.reader.wants_table
                                                and s.background is None),
            "error": message, "detail": detail, "fraction": round(s.fraction, 3),
            "weak": [sub.name for sub in s.weak], "actions": s.allowed(),
            "learned": None if s.learned is None else {
                "photos": s.learned.photos, "seconds": round(s.learned.seconds, 1),
                "weak": list(s.learned.weak), "model": str(s.learned.model_path)},
            "finished": s.finished,
        }

    def build(self) -> None:
        """Learn with a progress screen; errors stay on the screen for a retake."""
        session, kind = self.session, self.kind
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

    def run(self) -> ShotSession:
        """Until the done screen is left; returns the session (its ``learned`` files)."""
        self.show()
        while not self.finished:
            if self.session.phase is Phase.QUIT:
                raise EnrollmentCancelled(f"{self.kind} enrollment cancelled: nothing written")
            self.step()
        return self.session


__all__ = ["ShotBox"]
