"""The card model file: a versioned, pickle-free npz (arrays plus one JSON header).

Every field is checked when loaded (type, range, finite, shape); a model from another version
is a one-line error asking the owner to enroll again.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from farmbox.vision.files import VisionInputError, write_atomic

from .table import TABLE_W

FORMAT = "farmbox-cards"
#: 2: features that cancel the light, a discriminant learned from made-up shots.
#: 3: the hue of the coloured ink in each half of the card joins the features.
#: 4: the empty table, when the deck was enrolled from photos on the box's own table.
#: 5: the hue of the colour details (a mark against what lies round it) joins the features.
VERSION = 5


class ModelError(VisionInputError):
    """A card model file that cannot be used (one line naming the file and the problem)."""


@dataclass
class CardModel:
    """A learned deck.

    ``templates`` are the enrolled shots, rectified (N, h, w, 3 uint8, portrait), ``labels``
    the card id of each.  The discriminant (``mean``, ``scale``, ``projection``) maps a card's
    features to a space where each class (one card lying one way) has its mean in
    ``class_means``; ``class_card`` names the card of each class (an index into :attr:`cards`).
    """

    templates: np.ndarray
    labels: list[str]
    #: Short over long side of the deck's cards.
    ratio: float
    mean: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    scale: np.ndarray = field(default_factory=lambda: np.ones(0, np.float32))
    projection: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    class_means: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    class_card: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    #: A card further than this from every class is unknown (not in the deck).
    max_distance: float = 1.0
    #: The best card must lead the next one by this much, else the card is unsure.
    min_lead: float = 0.0
    #: How many of the templates are enrolled images.
    enrolled: int = 0
    #: Cards whose enrollment shots failed the leave-one-out check (shoot them again).
    weak: list[str] = field(default_factory=list)
    #: The share of the frame one card covered in the enrollment photos on the table (the
    #: box's own camera); 0 when the deck was enrolled from tight crops.
    card_share: float = 0.0
    #: The empty table through the box's camera (uint8 BGR at the table's work width,
    #: :mod:`.table`), when the deck was enrolled from photos on it; else an empty array.  A card
    #: the finder misses in play is looked for where the frame differs from it.
    table: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 3), np.uint8))

    @property
    def square(self) -> bool:
        return self.ratio > 0.9

    @property
    def cards(self) -> list[str]:
        return sorted(set(self.labels))

    @property
    def min_similarity(self) -> float:
        """Kept for callers of version 1: the unknown-card limit (a distance now)."""
        return self.max_distance


ARRAYS = ("templates", "mean", "scale", "projection", "class_means", "class_card", "table")


def save_model(model: CardModel, path: Path | str) -> None:
    """Write the model atomically (temp file + rename)."""
    path = Path(path)
    header = {"format": FORMAT, "version": VERSION, "labels": model.labels, "ratio": model.ratio,
              "max_distance": model.max_distance, "min_lead": model.min_lead,
              "enrolled": model.enrolled, "weak": model.weak, "card_share": model.card_share}
    buf = io.BytesIO()
    np.savez_compressed(buf, header=np.frombuffer(json.dumps(header).encode(), np.uint8),
                        **{name: getattr(model, name) for name in ARRAYS})
    write_atomic(path, buf.getvalue())


def _number(path: Path, header: dict, name: str, lo: float, hi: float) -> float:
    v = header.get(name)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or not lo <= v <= hi:
        raise ModelError(f"{path}: card model field {name!r} is {v!r}, expected a number in [{lo}, {hi}]")
    return float(v)


def _array(path: Path, arrays: dict, name: str, kind: str, ndim: int) -> np.ndarray:
    a = arrays[name]
    if a.dtype.kind != kind or a.ndim != ndim:
        raise ModelError(f"{path}: card model field {name!r} has dtype {a.dtype} and {a.ndim} dimensions, "
                         f"expected {ndim} dimensions of {'integers' if kind in 'iu' else 'floats'}")
    if kind == "f" and not np.isfinite(a).all():
        raise ModelError(f"{path}: card model field {name!r} holds values that are not finite")
    return a


def load_model(path: Path | str) -> CardModel:
    """Read a model file; missing, corrupt, malformed or other-version files are a one-line
    :class:`ModelError` (an :class:`OSError` when the file is not there)."""
    path = Path(path)
    if not path.is_file():
        raise OSError(f"no model file {path}")
    try:
        with np.load(path, allow_pickle=False) as z:
            header = json.loads(bytes(z["header"]).decode())
            arrays = {name: np.array(z[name]) for name in z.files if name != "header"}
    except (zipfile.BadZipFile, ValueError, KeyError, OSError, UnicodeDecodeError, EOFError):
        raise ModelError(f"{path}: not a card model (corrupt or another kind of file)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ModelError(f"{path}: not a card model")
    if header.get("version") != VERSION:
        raise ModelError(f"{path}: card model version {header.get('version')!r}, this farmbox "
                         f"reads version {VERSION}; enroll the deck again")
    missing = [name for name in ARRAYS if name not in arrays]
    if missing:
        raise ModelError(f"{path}: card model field {missing[0]!r} is missing")
    labels = header.get("labels")
    if not isinstance(labels, list) or not labels or not all(isinstance(x, str) and x for x in labels):
        raise ModelError(f"{path}: card model field 'labels' must be a non-empty list of card ids")
    weak = header.get("weak", [])
    if not isinstance(weak, list) or not all(isinstance(x, str) for x in weak):
        raise ModelError(f"{path}: card model field 'weak' must be a list of card ids")
    ratio = _number(path, header, "ratio", 0.3, 1.0)
    max_distance = _number(path, header, "max_distance", 0.0, 1e6)
    min_lead = _number(path, header, "min_lead", 0.0, 1e6)
    card_share = _number(path, header, "card_share", 0.0, 0.5)
    enrolled = header.get("enrolled")
    if isinstance(enrolled, bool) or not isinstance(enrolled, int) or not 1 <= enrolled <= len(labels):
        raise ModelError(f"{path}: card model field 'enrolled' is {enrolled!r}, expected 1..{len(labels)}")
    templates = _array(path, arrays, "templates", "u", 4)
    mean = _array(path, arrays, "mean", "f", 1)
    scale = _array(path, arrays, "scale", "f", 1)
    projection = _array(path, arrays, "projection", "f", 2)
    class_means = _array(path, arrays, "class_means", "f", 2)
    class_card = _array(path, arrays, "class_card", "i", 1)
    table = _array(path, arrays, "table", "u", 3)
    cards = sorted(set(labels))
    d, k = projection.shape
    if table.dtype != np.uint8 or table.shape[2] != 3 or (table.size and (
            not 8 <= table.shape[1] <= TABLE_W or not 8 <= table.shape[0] <= 2 * TABLE_W or not card_share)):
        raise ModelError(f"{path}: card model field 'table' has shape {table.shape}, expected an empty "
                         f"table of bytes (h, w <= {TABLE_W}, 3) with a card_share, or none")
    if templates.dtype != np.uint8 or templates.shape[0] != len(labels) or templates.shape[3] != 3:
        raise ModelError(f"{path}: card model field 'templates' has shape {templates.shape}, "
                         f"expected ({len(labels)}, h, w, 3) bytes")
    if mean.shape != (d,) or scale.shape != (d,) or d == 0 or k == 0:
        raise ModelError(f"{path}: card model fields 'mean', 'scale' and 'projection' do not agree "
                         f"({mean.shape}, {scale.shape}, {projection.shape})")
    if (scale <= 0).any():
        raise ModelError(f"{path}: card model field 'scale' holds values that are not positive")
    if class_means.shape[1] != k or class_means.shape[0] != len(class_card) or not len(class_card):
        raise ModelError(f"{path}: card model field 'class_means' has shape {class_means.shape}, "
                         f"expected ({len(class_card)}, {k})")
    if class_card.min() < 0 or class_card.max() >= len(cards) or len(np.unique(class_card)) != len(cards):
        raise ModelError(f"{path}: card model field 'class_card' does not name each of the "
                         f"{len(cards)} cards")
    from .learn import feature_length, feature_size
    if d != feature_length(feature_size(ratio)):
        raise ModelError(f"{path}: card model field 'mean' has {d} features, this farmbox makes "
                         f"{feature_length(feature_size(ratio))}; enroll the deck again")
    return CardModel(templates, [str(x) for x in labels], ratio, mean.astype(np.float32),
                     scale.astype(np.float32), projection.astype(np.float32),
                     class_means.astype(np.float32), class_card.astype(np.int32), max_distance,
                     min_lead, enrolled, [str(x) for x in weak], card_share, table)
