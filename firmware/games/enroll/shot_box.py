"""The guided card or colour-dice enrollment on the box: buttons, camera and phone in, OLED out.

:class:`ShotBox` drives a :class:`~farmbox.firmware.games.enroll.shots.ShotSession` with the
box's buttons and camera and draws its screens; the loop and the phone's side are
:class:`~farmbox.firmware.games.enroll.guided.GuidedBox`'s.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

import farmbox.firmware.games.enroll.shot_screens as shot_screens
from farmbox.firmware.games.enroll.box import EnrollmentCancelled
from farmbox.firmware.games.enroll.guided import POLL, GuidedBox
from farmbox.firmware.games.enroll.shots import Phase, ShotSession
from farmbox.hw import Hardware

log = logging.getLogger(__name__)


class ShotBox(GuidedBox):
    """One guided enrollment of ``session`` on ``hardware``."""

    def __init__(self, hardware: Hardware, session: ShotSession,
                 clock: Callable[[], float] = time.monotonic, language: str | None = None) -> None:
        self.kind = session.reader.kind
        self.session: ShotSession = session
        #: How far learning is, 0..1, while it runs (the OLED's bar and the page's).
        self.fraction = 0.0
        super().__init__(hardware, clock, language)

    def allowed(self) -> list[str]:
        """The session's actions that apply now."""
        return self.session.allowed()

    def apply(self, action: str) -> None:
        """Do the phone's ``action`` in the session."""
        self.session.act(action, self.clock())
        self.finished = self.session.finished

    def button(self, name: str, kind: str) -> None:
        """A button event: a press or a hold (releases are ignored)."""
        if kind == "press":
            self.session.press(name, self.clock())
        elif kind == "hold":
            self.session.hold(name, self.clock())
        self.finished = self.session.finished

    def screen(self) -> Image.Image:
        """The OLED's screen for the session now."""
        return shot_screens.render(self.session, self.tr)

    def under_review(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The photo under review and the outline found in it."""
        capture = self.session.capture
        return None if capture is None else (capture.frame, capture.outline)

    def find(self, frame: np.ndarray) -> np.ndarray | None:
        """The reader's find in ``frame`` while a photo is asked for (None otherwise)."""
        with self.lock:
            looking = self.session.phase is Phase.PROMPT
            background = self.session.background
        return self.session.reader.find(frame, background) if looking else None

    def picture(self) -> Image.Image | None:
        """The next subject's own picture."""
        step = self.session.step
        if step is None or self.session.phase is Phase.CLEAR:
            return None
        return step.subject.picture

    def view(self) -> dict[str, Any]:
        """What the phone's page shows."""
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
            "error": message, "detail": detail,
            "fraction": round(self.fraction if s.phase is Phase.BUILD else s.fraction, 3),
            "weak": [sub.name for sub in s.weak], "actions": s.allowed(),
            "learned": None if s.learned is None else {
                "photos": s.learned.photos, "seconds": round(s.learned.seconds, 1),
                "weak": list(s.learned.weak), "model": str(s.learned.model_path)},
            "finished": s.finished,
        }

    def build(self) -> None:
        """Learn on a worker thread while the OLED shows a progress bar; errors stay on the
        screen for a retake.

        The reader reports a step per photo (:attr:`Reader.progress_share` of the whole time);
        after the last one it fits and checks without reporting, so the rest of the bar moves
        with the time that part took so far, the first part's time scaled by its share (and
        stops short of the end until learning is done).
        """
        session, kind = self.session, self.kind
        share = max(0.05, min(1.0, getattr(session.reader, "progress_share", 1.0)))
        started = self.clock()
        reported = [0.0, -1.0]  # share of the reader's steps done; when the last came

        stepped = threading.Event()

        def progress(done: int, total: int) -> None:
            reported[0] = done / max(1, total)
            if done >= total and reported[1] < 0:
                reported[1] = self.clock()
            stepped.set()

        result: dict[str, Any] = {}

        def work() -> None:
            try:
                result["learned"] = session.build(progress)
            except (ValueError, OSError) as exc:
                result["refused"] = exc
            except BaseException as exc:  # a bug: raised on the box's thread below
                result["bug"] = exc

        worker = threading.Thread(target=work, name=f"learn-{kind}", daemon=True)
        worker.start()
        while worker.is_alive():
            self.fraction = share * reported[0]
            if reported[1] >= 0 and share < 1.0:
                first = max(reported[1] - started, 1e-3)
                rest = (self.clock() - reported[1]) / (first * (1 - share) / share)
                self.fraction = share + (1 - share) * min(0.95, rest)
            self.show(shot_screens.learning(self.tr, kind, self.fraction))
            stepped.wait(POLL)  # a step, or time passing, moves the bar
            stepped.clear()
        worker.join()
        self.fraction = 0.0
        if "bug" in result:
            raise result["bug"]
        if "refused" in result:
            log.warning("%s enrollment: %s", kind, result["refused"])
        else:
            learned = result["learned"]
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
