"""The colour dice reader's side of a guided enrollment: each colour of each die as a subject,
the die found in a photo, and the two dice learned from the photos with the reader's
leave-one-out check (:func:`farmbox.vision.colour_dice.enroll`, :func:`~farmbox.vision.colour_dice.weak_colours`).

The photos are written as ``farmbox vision enroll colour-dice SAMPLES`` reads them:
``SAMPLES/<white|black>/<colour>/<n>.png``; the model file is the one that command writes.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from farmbox.firmware.games.enroll.shots import Lesson, Progress, Subject, write_photos
from farmbox.vision import colour_dice

#: The dice, in the order they are enrolled.
DICE = ("white", "black")
#: Width the die is looked for at.
WORK_W = 320
#: A die covers at least / at most this share of the frame.
MIN_AREA, MAX_AREA = 0.0015, 0.08


def colour_subjects(faces: Mapping[str, Sequence[str]],
                    picture: Callable[[str, str], Image.Image | None] | None = None) -> list[Subject]:
    """One subject per die and colour (``faces``: die -> its colours), labelled ``die/colour``,
    with ``picture(die, colour)`` for the screens."""
    return [Subject(f"{die}/{colour}", f"{colour.upper()} ON {die.upper()}",
                    picture(die, colour) if picture else None)
            for die in DICE for colour in faces.get(die, ())]


def _lab(frame: np.ndarray) -> tuple[np.ndarray, float]:
    h, w = frame.shape[:2]
    scale = WORK_W / w
    small = cv2.resize(frame, (WORK_W, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32), scale


def _coarse_median(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    coarse = cv2.resize(np.clip(image, 0, 255).astype(np.uint8), (max(8, w // 10), max(6, h // 10)),
                        interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(coarse, 5), (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def find_die(frame: np.ndarray, background: np.ndarray | None = None) -> np.ndarray | None:
    """The outline (convex hull, frame pixels) of the one die on the table: the largest region
    that differs from the empty table (``background``, the empty-table photo, its lightness
    matched to the frame's; without it a coarse median of the frame), holes filled; None when
    there is none of a die's size or it touches the frame's edge."""
    lab, scale = _lab(frame)
    sh, sw = lab.shape[:2]
    if background is not None and background.shape == frame.shape:
        d = lab - _lab(background)[0]
        # what changes slowly across the frame since the empty table is the light, not a die
        d = d - (_coarse_median(d + 128.0) - 128.0)
    else:
        d = lab - _coarse_median(lab)
    dist = np.sqrt(0.5 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    mask = (dist > max(14.0, 4.0 * float(np.median(dist)))).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea)).reshape(-1, 2).astype(np.float32)
    area = cv2.contourArea(hull) / (sw * sh)
    if not MIN_AREA <= area <= MAX_AREA:
        return None
    if hull[:, 0].min() < 1 or hull[:, 1].min() < 1 or hull[:, 0].max() > sw - 2 \
            or hull[:, 1].max() > sh - 2:
        return None
    return hull / scale


class ColourDice:
    """Finds the one colour die on the table; learns both dice from the kept photos."""

    kind = "colour-dice"

    #: The empty table is photographed first: the die is what differs from it.
    wants_table = True
    #: The photos written for the reader and its two passes over them come before the last
    #: step; the check and the photos written again after it (bench_enroll_box.py
    #: --kind colour-dice: the last step at 3.2 of 5.1 s).
    progress_share = 0.6

    def find(self, frame: np.ndarray, background: np.ndarray | None) -> np.ndarray | None:
        """See :func:`find_die`."""
        return find_die(frame, background)

    def learn(self, photos: list[tuple[str, np.ndarray]], on_progress: Progress,
              background: np.ndarray | None = None) -> Lesson:
        """The model (file bytes, with the empty table when given: the reader then finds the
        dice as what differs from it) and the ``die/colour`` labels whose photos failed
        leave-one-out."""
        with tempfile.TemporaryDirectory(prefix="farmbox-colour-dice-") as tmp:
            samples = Path(tmp) / "samples"
            write_photos(samples, photos, [] if background is None
                         else [("background.png", background)])
            model = colour_dice.enroll(samples, on_progress=on_progress)
            path = Path(tmp) / "model.json"
            colour_dice.save_model(model, path)
            data = path.read_bytes()
        weak = colour_dice.weak_colours(model)
        return Lesson(data, tuple(f"{die}/{c}" for die in DICE for c in weak.get(die, [])))
