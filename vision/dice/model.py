"""The enrolled dice model: a small versioned ``.npz`` of plain arrays (never a pickle)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from farmbox.vision.files import write_atomic

from farmbox.vision.dice.features import ANGLES, RINGS, spectra

KIND = "farmbox-dice"
VERSION = 1


@dataclass
class DiceModel:
    """Everything the reader needs, learned from one set of dice on one table."""

    templates: np.ndarray  # (K, ANGLES, RINGS, 3) float32 top-face descriptors
    template_face: np.ndarray  # (K,) int, index into FACES
    template_die: np.ndarray  # (K,) int, 0 green / 1 red
    densities: np.ndarray  # (3, BINS, BINS) float32: table, green, red chromaticity
    floor: float  # density of a colour never seen
    frame_size: np.ndarray  # (2,) int: width, height of the enrollment frames
    die_area: np.ndarray  # (2,) float: median silhouette area of each die, frame pixels
    perspective: float  # top-face centre = image centre + (blob centre - image centre) * this
    rho: float  # disc radius / die radius
    sharpness: float  # median sharpness of the enrolled dice
    max_elongation: float  # most elongated silhouette of a die lying flat at enrollment
    min_score: float  # least best-rotation correlation to accept a face
    min_margin: float  # least lead over the next face to accept it

    def __post_init__(self) -> None:
        self._spectra = None

    @property
    def spectra(self) -> np.ndarray:
        if self._spectra is None:
            self._spectra = spectra(self.templates)
        return self._spectra

    def disc(self, die: int, frame_width: int) -> float:
        """Radius in pixels of the disc read on ``die``'s top face."""
        return self.rho * float(np.sqrt(self.scaled_area(die, frame_width) / np.pi))

    def scaled_area(self, die: int, frame_width: int) -> float:
        """Expected silhouette area of ``die`` in a frame ``frame_width`` pixels wide."""
        return float(self.die_area[die]) * (frame_width / float(self.frame_size[0])) ** 2

    # ------------------------------------------------------------------ file

    def save(self, path: str | Path) -> None:
        """Write the model atomically (temp file, then rename)."""
        path = Path(path)
        arrays = {f.name: np.asarray(getattr(self, f.name)) for f in fields(self)}
        arrays["templates"] = arrays["templates"].astype(np.float16)  # plenty for unit-norm data
        buf = io.BytesIO()
        np.savez_compressed(buf, kind=np.array(KIND), version=np.array(VERSION), **arrays)
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
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise ValueError(f"dice model {path} is corrupt ({type(exc).__name__})") from None
        if str(arrays.get("kind", "")) != KIND:
            raise ValueError(f"{path} is not a dice model")
        version = int(arrays.get("version", -1))
        if version != VERSION:
            raise ValueError(f"dice model {path} has version {version}, this farmbox reads version "
                             f"{VERSION}: enroll the dice again")
        try:
            values = {f.name: arrays[f.name] for f in fields(cls)}
        except KeyError as exc:
            raise ValueError(f"dice model {path} is corrupt (no {exc.args[0]})") from None
        for name in ("floor", "perspective", "rho", "sharpness", "max_elongation", "min_score",
                     "min_margin"):
            values[name] = float(values[name])
        values["templates"] = values["templates"].astype(np.float32)
        model = cls(**values)
        k = len(model.templates)
        if (model.templates.shape[1:] != (ANGLES, RINGS, 3) or model.template_face.shape != (k,)
                or model.template_die.shape != (k,) or model.densities.ndim != 3 or k == 0):
            raise ValueError(f"dice model {path} is corrupt (bad array shapes)")
        return model
