"""Guided enrollment of a deck of cards or of the colour dice: one subject at a time.

The state machine behind ``farmbox enroll cards`` and ``farmbox enroll colour-dice``. A
*subject* is one thing to photograph alone on the table (a card; one colour up on one colour
die); each is photographed ``per_subject`` times. Buttons: ``ok`` takes a photo / keeps it,
``back`` retakes it (or quits before the first photo), holding any button undoes the last kept
photo. Once every photo is kept the driver calls :meth:`ShotSession.build`: the reader learns
from the photos (with a progress callback), the photos and the model are written (each
atomically), and the reader's leave-one-out check of its own photos names the weak subjects.
The check screen offers to shoot those again (``ok``) or to finish (``back``); a redo drops
the weak subjects' photos, asks for them again and learns again.

Every input is one of the named :data:`ACTIONS` (``take``, ``keep``, ``retake``, ``undo``,
``redo``, ``finish``, ``quit``): the buttons (:meth:`ShotSession.press`) and the phone's page
(:mod:`farmbox.firmware.web.enroll`) send the same ones, so both go through the same steps.
The session never reads the camera itself: while :attr:`ShotSession.capturing` is True the
driver feeds it frames. Time is injected (``now``), so tests need no sleeping.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from PIL import Image

from farmbox.firmware.box.files import check_writable_target, replace_folder, write_atomically
from farmbox.vision.dice import Stillness

#: Frames in a row without motion before a photo is taken.
STILL_FRAMES = 3
#: Frames dropped after a take: a USB camera hands out the frames it buffered before the press.
STALE_FRAMES = 4
#: Give up waiting for a still table after this many seconds.
STILL_TIMEOUT = 6.0

#: What the owner can ask for (from the buttons or the phone).
ACTIONS = ("take", "keep", "retake", "undo", "redo", "finish", "quit")

Progress = Callable[[int, int], None]


class Phase(enum.Enum):
    CLEAR = "clear"        # clear the table; take a photo of it empty
    PROMPT = "prompt"      # put <subject> alone on the table; take
    CAPTURE = "capture"    # waiting for a still frame
    REVIEW = "review"      # the photo taken: keep or retake
    ERROR = "error"        # something went wrong; any button: back to the step
    BUILD = "build"        # learning (the driver calls build())
    CHECK = "check"        # some subjects are weak: redo them or finish
    DONE = "done"          # model and photos written; any button: finish
    QUIT = "quit"          # left before the first photo


@dataclass(frozen=True)
class Subject:
    """One thing to photograph alone: ``label`` names its photos' folder (a card id,
    ``white/red``), ``name`` is what the screens call it, ``picture`` our own small 1-bit
    drawing of it (None: the name alone)."""

    label: str
    name: str
    picture: Image.Image | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Step:
    """Photo ``number`` (from 1) of ``subject``."""

    subject: Subject
    number: int


@dataclass(frozen=True)
class Capture:
    """A frame taken for the current step and the outline of what was found in it."""

    frame: np.ndarray
    outline: np.ndarray  # (N, 2) float32, frame pixels


@dataclass(frozen=True)
class Learned:
    """What one learning produced: the files, the photos and the weak subjects' labels."""

    model_path: Path
    samples_dir: Path
    photos: int
    weak: tuple[str, ...]
    seconds: float


@dataclass(frozen=True)
class Lesson:
    """A reader's model as the bytes of its file, and the labels its check found weak."""

    model: bytes
    weak: tuple[str, ...]


class Reader(Protocol):
    """How one reader finds its subject in a photo and learns from the photos."""

    #: "cards" or "colour-dice": the screens' titles and the log.
    kind: str
    #: Whether the empty table is photographed first (``find`` then gets that photo).
    wants_table: bool
    #: The share of the learning time its progress steps cover (the rest comes after the
    #: last step: fitting and checking).
    progress_share: float

    def find(self, frame: np.ndarray, background: np.ndarray | None) -> np.ndarray | None:
        """The outline of the one subject on the table, or None when none is seen."""
        ...

    def learn(self, photos: list[tuple[str, np.ndarray]], on_progress: Progress,
              background: np.ndarray | None = None) -> Lesson:
        """Learn from ``(label, frame)`` photos (and, for a reader that :attr:`wants_table`,
        the empty table's photo); ValueError when it cannot."""
        ...


def write_photos(folder: Path, photos: Sequence[tuple[str, np.ndarray]],
                 extra: Sequence[tuple[str, np.ndarray]] = ()) -> None:
    """Write ``(label, frame)`` photos as ``folder/<label>/<n>.png`` (n from 1 per label) and
    ``extra`` ``(name, frame)`` as ``folder/<name>``, replacing ``folder`` as a whole: written
    to a temp folder first, then renamed into place."""
    def fill(tmp: Path) -> None:
        counts: dict[str, int] = {}
        for label, frame in photos:
            n = counts[label] = counts.get(label, 0) + 1
            (tmp / label).mkdir(parents=True, exist_ok=True)
            write_png(tmp / label / f"{n}.png", frame)
        for name, frame in extra:
            write_png(tmp / name, frame)

    replace_folder(folder, fill)


def write_png(path: Path, frame: np.ndarray) -> None:
    """An enrollment photo (BGR) as a PNG at ``path``: OpenCV's fast zlib setting, lossless like
    any (a 960 x 720 photo in some 50 ms here, against 230-390 ms at Pillow's default).
    ValueError for what is no 8-bit photo (OpenCV would write it cast)."""
    if frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise ValueError(f"{path}: not an 8-bit photo ({frame.dtype}, {frame.ndim} axes)")
    ok, data = cv2.imencode(".png", frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    if not ok:
        raise OSError(f"{path}: cannot encode the photo")
    path.write_bytes(data.tobytes())


def crop(capture: Capture, size: int) -> Image.Image:
    """A square greyscale crop around what was found (for the review screen)."""
    frame = capture.frame
    h, w = frame.shape[:2]
    x0, y0 = capture.outline.min(axis=0)
    x1, y1 = capture.outline.max(axis=0)
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * 0.6
    box = (int(max(0, cx - r)), int(max(0, cy - r)), int(min(w, cx + r)), int(min(h, cy + r)))
    rgb = Image.fromarray(np.ascontiguousarray(frame[:, :, ::-1]))
    out = rgb.crop(box).convert("L")
    out.thumbnail((size, size), Image.Resampling.LANCZOS)
    return out


@dataclass
class ShotSession:
    """Which subject to photograph next, and what the owner's last action did."""

    subjects: Sequence[Subject]
    reader: Reader
    samples_dir: Path
    model_path: Path
    per_subject: int = 3
    now: float = 0.0
    clock: Callable[[], float] = time.perf_counter
    phase: Phase = Phase.PROMPT
    capture: Capture | None = None
    error: str = ""
    error_phase: Phase = Phase.PROMPT
    learned: Learned | None = None
    #: Build progress 0..1 (the driver shows it).
    fraction: float = 0.0
    #: Rounds of learning so far (a redo is a round).
    rounds: int = 0
    #: The owner left the done screen.
    finished: bool = False
    alerts: list[str] = field(default_factory=list)
    #: The empty table (when the reader wants it).
    background: np.ndarray | None = None
    kept: dict[Step, np.ndarray] = field(default_factory=dict)
    order: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.subjects:
            raise ValueError("nothing to enroll: the list of subjects is empty")
        labels = [s.label for s in self.subjects]
        if len(set(labels)) != len(labels):
            raise ValueError("two subjects share a label")
        if not 1 <= self.per_subject <= 10:
            raise ValueError(f"photos per subject must be 1-10, got {self.per_subject}")
        self.plan = [Step(s, n) for s in self.subjects for n in range(1, self.per_subject + 1)]
        self._still = Stillness(frames=STILL_FRAMES)
        self._still_frames = 0
        self._stale = 0
        self._capture_since = self.now
        self.phase = self._prompt_phase()

    # -- where we are ---------------------------------------------------------------
    @property
    def step(self) -> Step | None:
        """The next photo to take (None once every photo is kept)."""
        return next((s for s in self.plan if s not in self.kept), None)

    @property
    def capturing(self) -> bool:
        return self.phase is Phase.CAPTURE

    def progress(self) -> tuple[int, int]:
        """(photos kept, photos in all)."""
        return len(self.kept), len(self.plan)

    @property
    def weak(self) -> list[Subject]:
        """The subjects the last check found weak."""
        labels = set(self.learned.weak) if self.learned else set()
        return [s for s in self.subjects if s.label in labels]

    # -- the owner's actions ----------------------------------------------------------
    def press(self, button: str, now: float = 0.0) -> None:
        """A short press of ``button`` (prev, next, ok, back) as the action it means now."""
        phase = self.phase
        if phase is Phase.ERROR or phase is Phase.DONE:
            self.act("keep" if phase is Phase.ERROR else "finish", now)
        elif button == "ok":
            self.act({Phase.CLEAR: "take", Phase.PROMPT: "take", Phase.REVIEW: "keep", Phase.CHECK: "redo"}.get(phase, ""), now)
        elif button == "back":
            if phase in (Phase.CLEAR, Phase.PROMPT):
                self.act("quit" if not self.kept else "", now)
            else:
                self.act({Phase.CAPTURE: "retake", Phase.REVIEW: "retake",
                          Phase.CHECK: "finish"}.get(phase, ""), now)

    def hold(self, button: str, now: float = 0.0) -> None:
        """Holding any button undoes the last kept photo (or leaves the done screen)."""
        self.act("finish" if self.phase is Phase.DONE else "undo", now)

    def allowed(self) -> list[str]:
        """The actions that apply now (the phone's page offers these)."""
        phase, out = self.phase, []
        if phase is Phase.CLEAR or phase is Phase.PROMPT and self.step is not None:
            out.append("take")
        if phase in (Phase.REVIEW, Phase.ERROR):
            out.append("keep")
        if phase in (Phase.CAPTURE, Phase.REVIEW, Phase.ERROR):
            out.append("retake")
        if phase in (Phase.PROMPT, Phase.CAPTURE, Phase.REVIEW, Phase.ERROR) \
                and (self.order or self.background is not None):
            out.append("undo")
        if phase is Phase.CHECK:
            out.append("redo")
        if phase in (Phase.CHECK, Phase.DONE):
            out.append("finish")
        if phase in (Phase.CLEAR, Phase.PROMPT) and not self.kept and self.rounds == 0:
            out.append("quit")
        return out

    def act(self, action: str, now: float = 0.0) -> bool:
        """Do ``action`` (one of :data:`ACTIONS`) if it applies now (:meth:`allowed`); False
        (and a "mistake" alert) if it does not."""
        if action not in self.allowed():
            self.alerts.append("mistake")
            return False
        phase = self.phase
        if action == "take":
            self._start_capture(now)
        elif action == "keep" and phase is Phase.REVIEW:
            self._keep()
        elif action in ("keep", "retake") and phase is Phase.ERROR:
            self.phase, self.error = self.error_phase, ""
        elif action == "retake":
            self.capture, self.phase = None, self._prompt_phase()
        elif action == "undo":
            if self.order:
                self.kept.pop(self.order.pop())
            else:
                self.background = None
            self.capture, self.error, self.phase = None, "", self._prompt_phase()
        elif action == "redo":
            self._redo()
        elif action == "finish" and phase is Phase.CHECK:
            self.phase = Phase.DONE
        elif action == "finish":
            self.finished = True
        elif action == "quit":
            self.phase = Phase.QUIT
        return True

    # -- camera -------------------------------------------------------------------
    def frame(self, frame: np.ndarray, now: float) -> None:
        """A camera frame while capturing: take it once the table has been still."""
        if self.phase is not Phase.CAPTURE:
            return
        if self._stale > 0:
            self._stale -= 1
            return
        self._still.update(frame)
        self._still_frames = 0 if self._still.moving else self._still_frames + 1
        if self._still_frames < STILL_FRAMES:
            if now - self._capture_since > STILL_TIMEOUT:
                self._fail("THE TABLE KEEPS MOVING")
            return
        if self.reader.wants_table and self.background is None:
            h, w = frame.shape[:2]
            whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
            self.capture, self.phase = Capture(frame.copy(), whole), Phase.REVIEW
            return
        if self.background is not None and frame.shape != self.background.shape:
            self._fail("FRAME SIZE CHANGED")
            return
        outline = self.reader.find(frame, self.background)
        if outline is None:
            self._fail("NO CARD FOUND" if self.reader.kind == "cards" else "NO DIE FOUND IN THE FRAME")
            return
        self.capture = Capture(frame.copy(), np.asarray(outline, np.float32).reshape(-1, 2))
        self.phase = Phase.REVIEW

    def camera_gone(self, reason: str, now: float) -> None:
        """The camera did not give a frame: show it; any button retakes the step."""
        if self.phase is Phase.CAPTURE:
            self._fail("CAMERA GONE", reason)

    def tick(self, now: float) -> None:
        """Time passes (only the wait for a still table expires)."""
        if self.phase is Phase.CAPTURE and now - self._capture_since > STILL_TIMEOUT:
            self._fail("THE TABLE KEEPS MOVING")

    # -- learning ---------------------------------------------------------------
    def build(self, on_progress: Progress | None = None) -> Learned:
        """Learn, then write the photos and the model (each atomically) and check the photos.

        A learning error (ValueError) shows on the error screen and undoes the last photo, to
        be retaken; a write error (OSError, ValueError from the file checks) shows and any
        button tries again.
        """
        if self.phase is not Phase.BUILD:
            raise RuntimeError("not all photos are taken yet")
        started = self.clock()
        photos = [(step.subject.label, self.kept[step]) for step in self.plan]

        def progress(done: int, total: int) -> None:
            self.fraction = done / total if total else 1.0
            if on_progress is not None:
                on_progress(done, total)

        try:
            if self.reader.wants_table and self.background is not None:
                # the reader learns the empty table too (the colour dice are what differ from it)
                lesson = self.reader.learn(photos, progress, self.background)
            else:
                lesson = self.reader.learn(photos, progress)
        except ValueError as exc:
            self._fail("CANNOT LEARN", str(exc))
            if self.order:
                self.kept.pop(self.order.pop())
            raise
        try:
            self.model_path.parent.mkdir(parents=True, exist_ok=True)
            check_writable_target(self.model_path)
            write_photos(self.samples_dir, photos, [] if self.background is None
                         else [("background.png", self.background)])
            write_atomically(self.model_path, lesson.model)
        except (OSError, ValueError) as exc:
            self._fail("CANNOT SAVE", str(exc), then=Phase.BUILD)
            raise
        self.rounds += 1
        self.learned = Learned(self.model_path, self.samples_dir, len(photos), lesson.weak,
                               self.clock() - started)
        self.phase = Phase.CHECK if lesson.weak else Phase.DONE
        self.alerts.append("mistake" if lesson.weak else "win")
        return self.learned

    def take_alerts(self) -> list[str]:
        """Alerts (error, mistake, win) raised since the last call."""
        out, self.alerts = self.alerts, []
        return out

    # -- inside -------------------------------------------------------------------
    def _start_capture(self, now: float) -> None:
        self.phase = Phase.CAPTURE
        self.capture = None
        self._still = Stillness(frames=STILL_FRAMES)
        self._still_frames = 0
        self._stale = STALE_FRAMES
        self._capture_since = now

    def _prompt_phase(self) -> Phase:
        return Phase.CLEAR if self.reader.wants_table and self.background is None else Phase.PROMPT

    def _fail(self, message: str, detail: str = "", then: Phase | None = None) -> None:
        self.error = message if not detail else f"{message}|{detail}"
        self.error_phase = self._prompt_phase() if then is None else then
        self.capture = None
        self.phase = Phase.ERROR
        self.alerts.append("error")

    def _keep(self) -> None:
        capture, self.capture = self.capture, None
        assert capture is not None
        if self.reader.wants_table and self.background is None:
            self.background, self.phase = capture.frame, Phase.PROMPT
            return
        step = self.step
        assert step is not None
        self.kept[step] = capture.frame
        self.order.append(step)
        self.phase = Phase.PROMPT if self.step is not None else Phase.BUILD
        self.fraction = 0.0

    def _redo(self) -> None:
        weak = {s.label for s in self.weak}
        for step in [s for s in self.order if s.subject.label in weak]:
            self.kept.pop(step)
            self.order.remove(step)
        self.phase = Phase.PROMPT


__all__ = ["ACTIONS", "Capture", "Learned", "Lesson", "Phase", "Reader", "ShotSession", "Step",
           "Subject", "crop", "write_photos", "write_png"]
