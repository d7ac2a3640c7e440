"""Guided dice enrollment on the box: which face to show next, take, keep or retake, learn.

The state machine behind the enrollment screens. Buttons: ``ok`` takes a photo / keeps it,
``back`` retakes it (or quits before the first photo), holding any button undoes the last kept
photo. Once every photo is kept the model is learned and written, and the leave-one-out reads
of the photos themselves (:class:`farmbox.vision.dice.enroll.SampleCheck`) name the weak ones:
the check screen offers to shoot those again (``ok``: their steps are asked for again, then
the dice are learned again) or to keep the model as it is (``back``). It never reads the camera itself: while :attr:`EnrollSession.capturing` is True the
driver (:mod:`farmbox.firmware.games.enroll.box`) feeds it frames with :meth:`EnrollSession.frame`, or
reports :meth:`EnrollSession.camera_gone`. A photo is taken once the table has been still for
a few frames (:class:`farmbox.vision.dice.Stillness`'s frame difference), so the hand that put the die
down is out of the picture; the first frames after OK are dropped (a camera's buffered frames
show the table from before the press).

The photos and the model are written as ``farmbox vision enroll dice SAMPLES --model PATH``
reads and writes them: ``SAMPLES/<face>/<die>-<n>.png`` and ``SAMPLES/background.png``.
Time is injected (``now``: seconds of a monotonic clock), so tests need no sleeping.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from farmbox.firmware.box.files import replace_folder
from farmbox.firmware.games.enroll.shots import write_png
from farmbox.vision.dice import DiceEnrollment, DiceModel, EnrollmentPlan, Stillness
from farmbox.vision.dice.colour import balance_gains, balanced
from farmbox.vision.dice.detect import MIN_CHROMA_STEP, Blob, blob_of, chromaticity, shrink, work_scale
from farmbox.vision.dice.enroll import Step

#: Frames in a row without motion before a photo is taken.
STILL_FRAMES = 3
#: Frames dropped after OK: a USB camera hands out the frames it buffered before the press.
STALE_FRAMES = 4
#: Give up waiting for a still table after this many seconds.
STILL_TIMEOUT = 6.0
#: Least die silhouette, as a share of the frame width squared (a die is about 6% wide).
MIN_DIE_AREA = 0.02 ** 2


class Phase(enum.Enum):
    CLEAR = "clear"        # clear the table; ok: photograph the empty table
    PROMPT = "prompt"      # put <face> up on the <die> die alone; ok: take
    CAPTURE = "capture"    # waiting for a still frame
    REVIEW = "review"      # the photo taken: ok keeps it, back retakes it
    ERROR = "error"        # something went wrong; any button: retake
    BUILD = "build"        # learning the dice (the driver calls build())
    CHECK = "check"        # learned, some photos are weak; ok: shoot them again, back: keep
    DONE = "done"          # model and samples written; any button: finish
    QUIT = "quit"          # left before the first photo (back on the first screen)


@dataclass(frozen=True)
class Capture:
    """A frame taken for the current step and where the die is in it (None: the background)."""

    frame: np.ndarray
    die: Blob | None


@dataclass(frozen=True)
class Learned:
    """What enrollment produced: the files, the thresholds learned from leave-one-out reads and
    the photos those reads found weak (the steps they were taken for, in the plan's order)."""

    model_path: Path
    samples_dir: Path
    photos: int
    min_score: float
    min_margin: float
    weak: tuple[Step, ...] = ()
    #: Photos the check could not read (no other photo of their face).
    unchecked: int = 0


def find_die(frame: np.ndarray, background: np.ndarray) -> Blob | None:
    """The one die on the empty table: the largest region whose colour differs from the
    background's (chromaticity after white-balancing each frame on its median), or None."""
    if frame.shape != background.shape:
        return None
    a = balanced(shrink(frame), balance_gains(frame))
    b = balanced(shrink(background), balance_gains(background))
    step = np.abs(chromaticity(a) - chromaticity(b)).sum(axis=2)
    step[a.sum(axis=2) < 45] = 0
    blob = blob_of(step > MIN_CHROMA_STEP * 1.5, work_scale(frame),
                   min_area=MIN_DIE_AREA * frame.shape[1] ** 2)
    if blob is None or blob.touches_border:
        return None
    return blob


def die_crop(capture: Capture, size: int) -> Image.Image:
    """A square greyscale crop around the captured die (the whole frame for the background)."""
    frame = capture.frame
    h, w = frame.shape[:2]
    if capture.die is None:
        box = (0, 0, w, h)
    else:
        cx, cy = capture.die.centre
        r = capture.die.radius * 1.6
        box = (int(max(0, cx - r)), int(max(0, cy - r)), int(min(w, cx + r)), int(min(h, cy + r)))
    rgb = Image.fromarray(np.ascontiguousarray(frame[:, :, ::-1]))
    crop = rgb.crop(box).convert("L")
    crop.thumbnail((size, size), Image.Resampling.LANCZOS)
    return crop


def write_samples(folder: Path, samples: list[tuple[str, str, np.ndarray]],
                  background: np.ndarray | None) -> None:
    """Write (face, die, frame) photos as ``folder/<face>/<die>-<n>.png`` (+ background.png),
    replacing ``folder`` as a whole: written to a temp folder first, then renamed into place."""
    def fill(tmp: Path) -> None:
        if background is not None:
            write_png(tmp / "background.png", background)
        counts: dict[tuple[str, str], int] = {}
        for face, die, frame in samples:
            n = counts[(face, die)] = counts.get((face, die), 0) + 1
            (tmp / face).mkdir(exist_ok=True)
            write_png(tmp / face / f"{die}-{n}.png", frame)

    replace_folder(folder, fill)


def photo_label(step: Step) -> str:
    """Where ``step``'s photo is written in SAMPLES (without ``.png``): ``pig/green-2``."""
    return f"{step.face}/{step.die}-{step.number}"


def weak_faces(steps: Iterable[Step]) -> list[tuple[str, str]]:
    """The (face, die) pairs of weak photos, each once, in the order given."""
    return list(dict.fromkeys((s.face, s.die) for s in steps))


class EnrollSession:
    """One guided enrollment of the two dice, button by button and frame by frame."""

    def __init__(self, samples_dir: Path, model_path: Path, per_face: int = 3,
                 now: float = 0.0) -> None:
        self.samples_dir = Path(samples_dir)
        self.model_path = Path(model_path)
        self.enrollment = DiceEnrollment(EnrollmentPlan(per_face=per_face))
        self.phase = Phase.CLEAR
        self.kept: list[Step] = []          # kept photos in order (for undo)
        self.capture: Capture | None = None  # the photo under review
        self.error = ""                      # what the error screen says
        self.error_phase = Phase.PROMPT      # where a button goes from the error screen
        self.learned: Learned | None = None
        self.alerts: list[str] = []
        self._still = Stillness(frames=STILL_FRAMES)
        self._still_frames = 0
        self._stale = 0
        self._capture_since = now

    # -- what the screens show ------------------------------------------------
    @property
    def step(self) -> Step | None:
        """The photo to take next (None when all are taken)."""
        return self.enrollment.next_step()

    def progress(self) -> tuple[int, int]:
        """(photos kept, photos in the plan)."""
        return self.enrollment.progress()

    @property
    def capturing(self) -> bool:
        """The driver must read camera frames and pass them to :meth:`frame`."""
        return self.phase is Phase.CAPTURE

    @property
    def background(self) -> np.ndarray | None:
        return self.enrollment.background

    # -- buttons ----------------------------------------------------------------
    def press(self, button: str, now: float = 0.0) -> None:
        """A short press of ``button`` (prev, next, ok, back)."""
        if self.phase is Phase.CLEAR:
            if button == "ok":
                self._start_capture(now)
            elif button == "back" and not self.kept:
                self.phase = Phase.QUIT
        elif self.phase is Phase.PROMPT:
            if button == "ok":
                self._start_capture(now)
            elif button == "back":
                self.alerts.append("mistake")  # hold undoes; back alone does nothing here
        elif self.phase is Phase.CAPTURE:
            if button == "back":
                self.phase = self._prompt_phase()
        elif self.phase is Phase.REVIEW:
            if button == "ok":
                self._keep()
            elif button == "back":
                self.capture = None
                self.phase = self._prompt_phase()
        elif self.phase is Phase.ERROR:
            self.phase, self.error = self.error_phase, ""
        elif self.phase is Phase.CHECK:
            if button == "ok":
                self.redo()
            elif button == "back":
                self.phase = Phase.DONE  # the model as it is

    def hold(self, button: str, now: float = 0.0) -> None:
        """Holding any button undoes the last kept photo (then the empty-table photo)."""
        if self.phase in (Phase.BUILD, Phase.DONE, Phase.QUIT):
            return
        if self.phase is Phase.CHECK:
            self.alerts.append("mistake")  # nothing to undo: the photos are learned
            return
        self.capture, self.error = None, ""
        if self.kept:
            self.enrollment.forget(self.kept.pop())
            self.phase = Phase.PROMPT
        elif self.enrollment.background is not None:
            self.enrollment.background = None
            self.phase = Phase.CLEAR
        else:
            self.alerts.append("mistake")
            self.phase = Phase.CLEAR

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
                self._fail("THE TABLE KEEPS MOVING", self._prompt_phase())
            return
        background = self.enrollment.background
        if background is None:
            self.capture = Capture(frame.copy(), None)
            self.phase = Phase.REVIEW
            return
        if frame.shape != background.shape:
            self._fail("FRAME SIZE CHANGED", self._prompt_phase())
            return
        blob = find_die(frame, background)
        if blob is None:
            self._fail("NO DIE FOUND IN THE FRAME", self._prompt_phase())
            return
        self.capture = Capture(frame.copy(), blob)
        self.phase = Phase.REVIEW

    def camera_gone(self, reason: str, now: float) -> None:
        """The camera did not give a frame: show it; any button retakes the step."""
        if self.phase is Phase.CAPTURE:
            self._fail("CAMERA GONE", self._prompt_phase(), reason)

    def tick(self, now: float) -> None:
        """Time passes (nothing expires on its own except the wait for a still table)."""
        if self.phase is Phase.CAPTURE and now - self._capture_since > STILL_TIMEOUT:
            self._fail("THE TABLE KEEPS MOVING", self._prompt_phase())

    # -- learning ---------------------------------------------------------------
    def build(self, progress: Callable[[Iterable], Iterable] | None = None) -> Learned:
        """Learn the model, then write SAMPLES and the model (each atomically).

        On a learning error (ValueError) nothing is written: the error screen shows it and the
        last photo is undone, to be retaken (hold undoes more). On a write error (OSError) the
        error screen shows it and any button tries again. With weak photos the check screen
        follows (:meth:`redo` or keep), else the done screen.
        """
        if self.phase is not Phase.BUILD:
            raise RuntimeError("not all photos are taken yet")
        try:
            model: DiceModel = self.enrollment.build_model(progress)
        except ValueError as exc:
            self._fail("CANNOT LEARN THE DICE", Phase.PROMPT, str(exc))
            if self.kept:
                self.enrollment.forget(self.kept.pop())
            raise
        photos = [(face, step.die, frame) for step, (face, frame, _) in
                  zip(self.enrollment.steps, self.enrollment.samples) if step is not None]
        try:
            write_samples(self.samples_dir, photos, self.enrollment.background)
            model.save(self.model_path)
        except OSError as exc:
            self._fail("CANNOT SAVE", Phase.BUILD, str(exc))  # any button tries again
            raise
        weak = tuple(self.enrollment.weak)
        self.learned = Learned(self.model_path, self.samples_dir, len(photos),
                               float(model.min_score), float(model.min_margin), weak,
                               sum(1 for c in self.enrollment.checks if not c.checked))
        self.phase = Phase.CHECK if weak else Phase.DONE
        self.alerts.append("mistake" if weak else "win")
        return self.learned

    def redo(self) -> None:
        """Shoot the weak photos again: their steps are asked for again, then learning again."""
        if self.phase is not Phase.CHECK or self.learned is None:
            raise RuntimeError("no check to act on")
        for step in self.learned.weak:
            self.enrollment.forget(step)
            self.kept.remove(step)
        self.phase = Phase.PROMPT

    def take_alerts(self) -> list[str]:
        """Alerts (error, mistake, win) raised since the last call."""
        out, self.alerts = self.alerts, []
        return out

    # -- inside -------------------------------------------------------------------
    def _prompt_phase(self) -> Phase:
        return Phase.CLEAR if self.enrollment.background is None else Phase.PROMPT

    def _start_capture(self, now: float) -> None:
        self.phase = Phase.CAPTURE
        self.capture = None
        self._still = Stillness(frames=STILL_FRAMES)
        self._still_frames = 0
        self._stale = STALE_FRAMES
        self._capture_since = now

    def _fail(self, message: str, then: Phase, detail: str = "") -> None:
        self.error = message if not detail else f"{message}|{detail}"
        self.error_phase = then
        self.capture = None
        self.phase = Phase.ERROR
        self.alerts.append("error")

    def _keep(self) -> None:
        capture, self.capture = self.capture, None
        assert capture is not None
        if capture.die is None:
            self.enrollment.set_background(capture.frame)
        else:
            step = self.step
            assert step is not None
            self.enrollment.add_sample(step.face, capture.frame, photo_label(step), step)
            self.kept.append(step)
        self.phase = Phase.PROMPT if self.step is not None else Phase.BUILD


__all__ = ["Capture", "EnrollSession", "Learned", "Phase", "die_crop", "find_die", "photo_label",
           "weak_faces", "write_samples"]
