"""The enrolled dice model: a small versioned ``.npz`` of plain arrays (never a pickle)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from farmbox.vision.dice.faces import DICE, FACES
from farmbox.vision.dice.features import ANGLES, CHANNELS, RINGS, drawn_out, spectra
from farmbox.vision.files import VisionInputError, write_atomic

KIND = "farmbox-dice"
#: 2: top-face descriptors with the broad picture partly taken away (a high-pass).
#: 3: the descriptor at two scales (sharp and smoothed), 6 channels.
#: 4: how a die's size and outline change across the frame (``size_map``,
#: ``elongation_map``: the lens, a leaning camera); templates taken at each photo's own size.
#: 5: templates taken with a leaning camera's look undone (:meth:`DiceModel.stretch_at`).
#: 6: the camera's geometry fitted to where the reader finds the photos' faces; each face's
#: own least lead (``face_margin``); the empty table's colour (``table_chroma``).
VERSION = 6
#: The size map of a camera whose dice look the same size everywhere.
NO_SIZE_MAP = (1.0, 0.0, 0.0, 0.0)
#: A size map is trusted within these factors; a fit outside them is no fit.
SIZE_RANGE = (0.6, 1.6)


def size_terms(frame_shape: tuple[int, ...], point: tuple[float, float]) -> np.ndarray:
    """The size map's terms at ``point``: 1, x, y and x^2 + y^2, from the frame's centre in
    half frame widths (a leaning camera makes a slope, a lens a bowl)."""
    h, w = frame_shape[:2]
    x = (point[0] - (w - 1) / 2) / (w / 2)
    y = (point[1] - (h - 1) / 2) / (w / 2)
    return np.array([1.0, x, y, x * x + y * y])


def top_of(perspective: float, shift: np.ndarray, frame_shape: tuple[int, ...],
           point: tuple[float, float]) -> tuple[float, float]:
    """The top face's centre for a silhouette centred at ``point``: the top face stands above
    the table, so it is seen further from the spot under the camera than the die's foot, by
    ``perspective`` times the distance from the frame's centre, plus ``shift`` (half frame
    widths) when the camera leans and that spot is not the frame's centre."""
    h, w = frame_shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    return (cx + (point[0] - cx) * perspective + float(shift[0]) * w / 2,
            cy + (point[1] - cy) * perspective + float(shift[1]) * w / 2)


#: The lean's share of the size map's slope (see :func:`stretch_of`).
LEAN_OF_SLOPE = 2 / 3


def stretch_of(size_map: np.ndarray, frame_shape: tuple[int, ...], point: tuple[float, float],
               lean_share: float = LEAN_OF_SLOPE) -> np.ndarray:
    """See :meth:`DiceModel.stretch_at`; ``lean_share``: the share of the size map's slope taken
    as the lean (``bench/look_check.py`` tries others)."""
    t = size_terms(frame_shape, point)
    ratio = float(np.clip(1.0 + float(size_map[3]) / float(size_map[0]) * t[3], *STRETCH_RANGE))
    look = drawn_out(float(np.arctan2(t[2], t[1])), ratio)
    # a leaning camera: a flat face seen at t (half frame widths from the frame's centre) is
    # drawn out as I + t c^T (a pinhole's homography, to first order in the lean), where the
    # size of things grows across the frame as (1 + c.t)^(3/2): c is 2/3 of the size map's slope
    c = lean_share * np.asarray(size_map[1:3], np.float64) / float(size_map[0])
    lean = np.eye(2) + np.outer(t[1:3], c)
    return look @ lean / np.sqrt(max(float(np.linalg.det(lean)), 0.25))


#: The most a lens is taken to draw a top face out (or in) along the radius.
STRETCH_RANGE = (0.75, 1.4)


def size_factor(size_map: np.ndarray, frame_shape: tuple[int, ...], point: tuple[float, float]) -> float:
    """How many times its usual radius a die looks at ``point``."""
    return float(np.clip(size_terms(frame_shape, point) @ np.asarray(size_map, float), *SIZE_RANGE))


class ModelError(VisionInputError):
    """A dice model file that cannot be used (one line naming the file and the field)."""


#: Scalar fields and their allowed ranges.
SCALARS = {"floor": (0.0, 1e6), "perspective": (0.5, 2.0), "rho": (0.05, 2.0), "sharpness": (0.0, 1e6),
           "min_score": (-1.0, 1.0), "min_margin": (0.0, 2.0)}


@dataclass
class DiceModel:
    """Everything the reader needs, learned from one set of dice on one table."""

    templates: np.ndarray  # (K, ANGLES, RINGS, CHANNELS) float32 top-face descriptors
    template_face: np.ndarray  # (K,) int, index into FACES
    template_die: np.ndarray  # (K,) int, 0 green / 1 red
    densities: np.ndarray  # (3, BINS, BINS) float32: table, green, red chromaticity
    floor: float  # density of a colour never seen
    frame_size: np.ndarray  # (2,) int: width, height of the enrollment frames
    die_area: np.ndarray  # (2,) float: median silhouette area of each die, frame pixels
    perspective: float  # top-face centre = image centre + (blob centre - image centre) * this
    rho: float  # disc radius / die radius
    sharpness: float  # median sharpness of the enrolled dice
    min_score: float  # least best-rotation correlation to accept a face
    min_margin: float  # least lead over the next face to accept it
    #: radius factor at a point = size_map . (1, x, y, x^2 + y^2) (:func:`size_terms`)
    size_map: np.ndarray = field(default_factory=lambda: np.array(NO_SIZE_MAP))
    #: (a, b): a die lying flat at x^2 + y^2 = q looks at most a + b q long (long / short axis)
    elongation_map: np.ndarray = field(default_factory=lambda: np.array([1.1, 0.0]))
    #: the top face's centre is further moved by this, in half frame widths: a camera that
    #: leans sees every die's top face shifted the same way (see :func:`top_of`)
    top_shift: np.ndarray = field(default_factory=lambda: np.zeros(2))
    #: the least lead a read of each face (FACES' order) needs beyond ``min_margin``: photos
    #: of another face read as it at enrollment, by a lead, ask that much more of it
    face_margin: np.ndarray = field(default_factory=lambda: np.zeros(len(FACES)))
    #: the empty table's chromaticity (g, r) in the working image, times 255 (0 x 0 when not
    #: known): a die of the table's own colour is found by what differs from it
    table_chroma: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 2), np.uint8))

    def __post_init__(self) -> None:
        self._spectra: np.ndarray | None = None

    @property
    def spectra(self) -> np.ndarray:
        """The templates' :func:`~farmbox.vision.dice.features.spectra`, computed on first use."""
        if self._spectra is None:
            self._spectra = spectra(self.templates)
        return self._spectra

    def margin_for(self, face: str) -> float:
        """The least lead over the next face a read of ``face`` needs."""
        return max(self.min_margin, float(self.face_margin[FACES.index(face)]))

    def disc(self, die: int, frame_width: int) -> float:
        """Radius in pixels of the disc read on ``die``'s top face."""
        return self.rho * float(np.sqrt(self.scaled_area(die, frame_width) / np.pi))

    def scaled_area(self, die: int, frame_width: int) -> float:
        """Usual silhouette area of ``die`` in a frame ``frame_width`` pixels wide (where the
        size map is 1)."""
        return float(self.die_area[die]) * (frame_width / float(self.frame_size[0])) ** 2

    def size_at(self, frame_shape: tuple[int, ...], point: tuple[float, float]) -> float:
        """How many times its usual radius a die looks at ``point`` of a frame."""
        return size_factor(self.size_map, frame_shape, point)

    def area_at(self, die: int, frame_shape: tuple[int, ...], point: tuple[float, float]) -> float:
        """Expected silhouette area of ``die`` lying at ``point`` of a frame."""
        return self.scaled_area(die, frame_shape[1]) * self.size_at(frame_shape, point) ** 2

    def top_centre(self, frame_shape: tuple[int, ...], point: tuple[float, float]) -> tuple[float, float]:
        """Where the top face's centre of a die whose silhouette is centred at ``point`` lies."""
        return top_of(self.perspective, self.top_shift, frame_shape, point)

    def stretch_at(self, frame_shape: tuple[int, ...], point: tuple[float, float]) -> np.ndarray:
        """How a top face at ``point`` is drawn out: its look (2x2, a flat face's vector
        ``v`` seen as ``look @ v``, up to the size).  A lens that enlarges towards the edges
        by (1 + k r^2) in area's square root enlarges about (1 + k r^2) times more along the
        radius than across it.  A camera that leans sees the table (and a top face, parallel
        to it) through a homography: a ray through the image point x = (u/f, v/f, 1) meets a
        plane of normal n (in the camera's frame) at depth d / (n.x), so a small step on the
        plane is seen as (I + x' c^T) times it, up to the size, where x' = (u, v) and c = (n_x,
        n_y) / (f n_z) (to first order in the lean), and a thing's size there grows as
        (n.x)^(3/2) = (1 + c.x')^(3/2): c is 2/3 of the size map's slope
        (:data:`LEAN_OF_SLOPE`).  On the second renderer's boxes leaning 10.5 and 10.9 degrees
        (line/felt 311, line/wood 313), undoing this and the lens leaves a face drawn out by
        3.3% and 2.5% on average (10.5% and 7.5% at most) against 7.5% and 7.1% (22% and 19%)
        with the lens alone; part of what is left is the same everywhere (1 / cos of the lean,
        0.017 at 10.5 degrees: the same for the enrollment photos and the throws)."""
        return stretch_of(self.size_map, frame_shape, point)

    def flat_elongation(self, frame_shape: tuple[int, ...], point: tuple[float, float]) -> float:
        """The most elongated a die lying flat at ``point`` looked at enrollment (perspective
        and the lens draw it out towards the frame's edges)."""
        q = float(size_terms(frame_shape, point)[3])
        return float(self.elongation_map[0] + self.elongation_map[1] * q)

    def smallest_area(self, frame_shape: tuple[int, ...]) -> float:
        """The least area either die is expected to show anywhere in a frame."""
        h, w = frame_shape[:2]
        spots = [(x, y) for x in (0, (w - 1) / 2, w - 1) for y in (0, (h - 1) / 2, h - 1)]
        least = min(self.size_at(frame_shape, p) for p in spots)
        return min(self.scaled_area(d, w) for d in range(len(self.die_area))) * least ** 2

    # ------------------------------------------------------------------ file

    def save(self, path: str | Path) -> None:
        """Write the model atomically (temp file, then rename)."""
        path = Path(path)
        arrays = {f.name: np.asarray(getattr(self, f.name)) for f in fields(self)}
        arrays["templates"] = arrays["templates"].astype(np.float16)  # plenty for unit-norm data
        buf = io.BytesIO()
        # allow_pickle=False: the fields are plain numeric arrays (and load() refuses pickles);
        # naming it also keeps the ** fields from being taken for that bool parameter
        np.savez_compressed(buf, allow_pickle=False, kind=np.array(KIND), version=np.array(VERSION),
                            **arrays)
        write_atomic(path, buf.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> "DiceModel":
        """Read a model; a missing, corrupt or other-version file is a one-line error."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"dice model {path} not found")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError):
            raise ModelError(f"{path}: not a dice model (corrupt or another kind of file)") from None
        if arrays.get("kind") is None or arrays["kind"].dtype.kind != "U" or str(arrays["kind"]) != KIND:
            raise ModelError(f"{path} is not a dice model")
        v = arrays.get("version")
        version = int(v) if v is not None and v.dtype.kind in "iu" and v.ndim == 0 else v
        if version != VERSION:
            raise ModelError(f"dice model {path} has version {version!r}, this farmbox reads version "
                             f"{VERSION}: enroll the dice again")
        for f in fields(cls):
            if f.name not in arrays:
                raise ModelError(f"dice model {path}: field {f.name!r} is missing")

        def bad(name: str, why: str) -> ModelError:
            return ModelError(f"dice model {path}: field {name!r} {why}")

        values: dict = {}
        for name, (lo, hi) in SCALARS.items():
            a = arrays[name]
            if a.ndim != 0 or a.dtype.kind not in "fiu":
                raise bad(name, "must be one number")
            x = float(a)
            if not np.isfinite(x) or not lo <= x <= hi:
                raise bad(name, f"is {x!r}, expected a finite number in [{lo}, {hi}]")
            values[name] = x
        templates = arrays["templates"]
        if templates.dtype.kind != "f" or templates.ndim != 4 or templates.shape[1:] != (ANGLES, RINGS, CHANNELS) \
                or not len(templates):
            raise bad("templates", f"has shape {templates.shape} ({templates.dtype}), expected "
                      f"(K, {ANGLES}, {RINGS}, {CHANNELS}) floats")
        if not np.isfinite(templates).all():
            raise bad("templates", "holds values that are not finite")
        k = len(templates)
        for name, count in (("template_face", len(FACES)), ("template_die", len(DICE))):
            a = arrays[name]
            if a.dtype.kind not in "iu" or a.shape != (k,):
                raise bad(name, f"has shape {a.shape} ({a.dtype}), expected ({k},) integers")
            if a.min() < 0 or a.max() >= count:
                raise bad(name, f"holds indices outside 0..{count - 1}")
            values[name] = a.astype(np.int64)
        dens = arrays["densities"]
        if dens.dtype.kind != "f" or dens.ndim != 3 or dens.shape[0] != len(DICE) + 1 \
                or dens.shape[1] != dens.shape[2] or not np.isfinite(dens).all() or (dens < 0).any():
            raise bad("densities", f"has shape {dens.shape} ({dens.dtype}), expected "
                      f"({len(DICE) + 1}, B, B) finite non-negative floats")
        size = arrays["frame_size"]
        if size.dtype.kind not in "iu" or size.shape != (2,) or size.min() < 16 or size.max() > 20000:
            raise bad("frame_size", f"is {size.tolist()!r}, expected (width, height) in 16..20000")
        area = arrays["die_area"]
        if area.dtype.kind not in "fiu" or area.shape != (len(DICE),) or not np.isfinite(area).all() \
                or (area <= 0).any():
            raise bad("die_area", f"is {area.tolist()!r}, expected {len(DICE)} positive areas")
        size_map = arrays["size_map"]
        if size_map.dtype.kind not in "fiu" or size_map.shape != (len(NO_SIZE_MAP),) \
                or not np.isfinite(size_map).all() or not 0.5 <= float(size_map[0]) <= 2.0:
            raise bad("size_map", f"is {size_map.tolist()!r}, expected {len(NO_SIZE_MAP)} finite numbers, "
                      "the first in [0.5, 2]")
        elong = arrays["elongation_map"]
        if elong.dtype.kind not in "fiu" or elong.shape != (2,) or not np.isfinite(elong).all() \
                or not 1.0 <= float(elong[0]) <= 10.0 or not 0.0 <= float(elong[1]) <= 10.0:
            raise bad("elongation_map", f"is {elong.tolist()!r}, expected (a, b) with a in [1, 10] "
                      "and b in [0, 10]")
        shift = arrays["top_shift"]
        if shift.dtype.kind not in "fiu" or shift.shape != (2,) or not np.isfinite(shift).all() \
                or float(np.abs(shift).max()) > 0.5:
            raise bad("top_shift", f"is {shift.tolist()!r}, expected 2 numbers within [-0.5, 0.5]")
        face_margin = arrays["face_margin"]
        if face_margin.dtype.kind not in "fiu" or face_margin.shape != (len(FACES),) \
                or not np.isfinite(face_margin).all() or face_margin.min() < 0 or face_margin.max() > 2:
            raise bad("face_margin", f"is {face_margin.tolist()!r}, expected {len(FACES)} numbers in [0, 2]")
        table = arrays["table_chroma"]
        if table.dtype != np.uint8 or table.ndim != 3 or table.shape[2] != 2 or max(table.shape[:2]) > 4000:
            raise bad("table_chroma", f"has shape {table.shape} ({table.dtype}), expected (H, W, 2) bytes")
        values.update(table_chroma=table, templates=templates.astype(np.float32), densities=dens.astype(np.float32),
                      face_margin=face_margin.astype(np.float64), size_map=size_map.astype(np.float64),
                      elongation_map=elong.astype(np.float64),
                      top_shift=shift.astype(np.float64),
                      frame_size=size.astype(np.int64), die_area=area.astype(np.float64))
        return cls(**values)
