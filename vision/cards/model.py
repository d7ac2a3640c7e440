"""The enrolled card model: rectified card images plus a JSON header, in one ``.npz`` file.

Only plain arrays are stored (loaded with ``allow_pickle=False``), so a model file can never
run code.  The header names the format and version; anything else is a one-line error.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from farmbox.vision.files import write_atomic

FORMAT = "farmbox-cards"
VERSION = 1


class ModelError(ValueError):
    """A card model file that cannot be used (one line naming the problem)."""


@dataclass
class CardModel:
    """Rectified card images (N, h, w, 3 uint8, portrait) and the card id of each."""

    templates: np.ndarray
    labels: list[str]
    #: Short over long side of the deck's cards.
    ratio: float
    #: Similarity below which a card is reported as unknown (id null).
    min_similarity: float = 0.5
    #: How many of the templates are enrolled images (the rest are jittered copies).
    enrolled: int = 0

    @property
    def square(self) -> bool:
        return self.ratio > 0.9

    @property
    def cards(self) -> list[str]:
        return sorted(set(self.labels))


def save_model(model: CardModel, path: Path | str) -> None:
    """Write the model atomically (temp file + rename)."""
    path = Path(path)
    header = {"format": FORMAT, "version": VERSION, "labels": model.labels, "ratio": model.ratio,
              "min_similarity": model.min_similarity, "enrolled": model.enrolled}
    buf = io.BytesIO()
    np.savez_compressed(buf, header=np.frombuffer(json.dumps(header).encode(), np.uint8),
                        templates=model.templates)
    write_atomic(path, buf.getvalue())


def load_model(path: Path | str) -> CardModel:
    """Read a model file; missing, corrupt or other-version files are a one-line error."""
    path = Path(path)
    if not path.is_file():
        raise OSError(f"no model file {path}")
    try:
        with np.load(path, allow_pickle=False) as z:
            header = json.loads(bytes(z["header"]).decode())
            templates = np.array(z["templates"])
    except (zipfile.BadZipFile, ValueError, KeyError, OSError, UnicodeDecodeError, EOFError):
        raise ModelError(f"{path}: not a card model (corrupt or another kind of file)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ModelError(f"{path}: not a card model")
    if header.get("version") != VERSION:
        raise ModelError(f"{path}: card model version {header.get('version')!r}, this farmbox "
                         f"reads version {VERSION}; enroll again")
    try:
        labels = [str(x) for x in header["labels"]]
        model = CardModel(templates, labels, float(header["ratio"]),
                          float(header["min_similarity"]), int(header.get("enrolled", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{path}: malformed card model header ({exc!r})") from None
    if (templates.dtype != np.uint8 or templates.ndim != 4 or templates.shape[3] != 3
            or len(labels) != len(templates) or not labels or not 0.3 <= model.ratio <= 1.0):
        raise ModelError(f"{path}: malformed card model (templates do not match the header)")
    return model
