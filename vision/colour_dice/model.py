"""The enrolled colour-dice model: a small versioned JSON file (never a pickle).

It holds, per die ("white", "black"): the body colour, the die's size in pixels and, per face
colour, the enrolled colour features of the face's mark and the largest share of the die those
marks covered (optional: older files read every colour by the die's share); and, when
enrollment had one, the fixed camera's shot of the empty table at the working size (a PNG in
base64: still no pickle).
Version 1 models (no table, colours not relit) are refused with "enroll again".
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from farmbox.vision.files import VisionInputError, write_atomic

FORMAT = "farmbox-colour-dice"
VERSION = 2
DICE = ("white", "black")


class ModelError(VisionInputError):
    """A model file that cannot be used (one line naming the problem)."""


@dataclass
class DieModel:
    """What one die looks like: body colour (Lab 0..255), top-face side length in pixels and
    the colour samples of each face (label -> list of Lab features)."""

    body: tuple[float, float, float]
    side_px: float
    samples: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    #: Typical share of the die's outline covered by the top face's mark (0: unknown).
    mark_share: float = 0.0
    #: ... and the largest of each colour's enrolled marks (colour -> share; a colour missing:
    #: ``mark_share``).
    colour_shares: dict[str, float] = field(default_factory=dict)


@dataclass
class ColourDiceModel:
    dice: dict[str, DieModel]
    frame_width: int = 960
    #: The empty table as the fixed camera saw it at enrollment (BGR uint8 at the working
    #: width), or None.
    table: np.ndarray | None = None

    def to_json(self) -> dict:
        """The model as plain JSON data (the table shot as a base64 PNG)."""
        table = None
        if self.table is not None:
            ok, buf = cv2.imencode(".png", self.table)
            if not ok:
                raise RuntimeError("cannot encode the table shot as PNG")
            table = base64.b64encode(buf.tobytes()).decode("ascii")
        return {
            "format": FORMAT, "version": VERSION, "frame_width": self.frame_width, "table": table,
            "dice": {
                name: {"body": list(d.body), "side_px": d.side_px, "mark_share": d.mark_share,
                       "colour_shares": dict(d.colour_shares),
                       "samples": {k: [list(v) for v in vs] for k, vs in d.samples.items()}}
                for name, d in self.dice.items()
            },
        }

    @classmethod
    def from_json(cls, data: object, source: str = "model") -> "ColourDiceModel":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ModelError(f"{source}: not a colour-dice model")
        if data.get("version") != VERSION:
            raise ModelError(f"{source}: colour-dice model version {data.get('version')!r}, "
                             f"this farmbox reads version {VERSION}; enroll again")
        try:
            dice = {}
            for name, d in data["dice"].items():
                if name not in DICE:
                    raise ModelError(f"{source}: unknown die {name!r}")
                body = tuple(float(x) for x in d["body"])
                samples = {str(k): [tuple(float(x) for x in v) for v in vs]
                           for k, vs in d["samples"].items()}
                if len(body) != 3 or any(len(v) != 3 for vs in samples.values() for v in vs):
                    raise ModelError(f"{source}: die {name!r} has malformed colours")
                values = list(body) + [x for vs in samples.values() for v in vs for x in v]
                if not all(math.isfinite(x) and -1.0 <= x <= 256.0 for x in values):
                    raise ModelError(f"{source}: die {name!r} field 'body' or 'samples' holds a colour "
                                     f"outside 0..255 or not finite")
                side = float(d["side_px"])
                if not math.isfinite(side) or not 1.0 <= side <= 5000.0:
                    raise ModelError(f"{source}: die {name!r} field 'side_px' is {side!r}, expected 1..5000")
                share = float(d.get("mark_share", 0.0))
                if not math.isfinite(share) or not 0.0 <= share <= 1.0:
                    raise ModelError(f"{source}: die {name!r} field 'mark_share' is {share!r}, expected 0..1")
                if not samples or any(not vs for vs in samples.values()):
                    raise ModelError(f"{source}: die {name!r} field 'samples' has a colour with no sample")
                # optional (models written before it read every colour by the die's share)
                shares = {str(k): float(v) for k, v in d.get("colour_shares", {}).items()}
                for colour, value in shares.items():
                    if colour not in samples or not math.isfinite(value) or not 0.0 <= value <= 1.0:
                        raise ModelError(f"{source}: die {name!r} field 'colour_shares' holds {colour!r}: "
                                         f"{value!r}, expected an enrolled colour and 0..1")
                # every colour was checked above to hold three values
                lab_body = (body[0], body[1], body[2])
                lab_samples = {k: [(v[0], v[1], v[2]) for v in vs] for k, vs in samples.items()}
                dice[name] = DieModel(lab_body, float(d["side_px"]), lab_samples,
                                      float(d.get("mark_share", 0.0)), shares)
            width = data.get("frame_width", 960)
            if isinstance(width, bool) or not isinstance(width, int) or not 16 <= width <= 20000:
                raise ModelError(f"{source}: field 'frame_width' is {width!r}, expected 16..20000")
            model = cls(dice, width, _table(data.get("table"), source))
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            if isinstance(exc, ModelError):
                raise
            raise ModelError(f"{source}: malformed colour-dice model ({exc!r})") from None
        if not model.dice:
            raise ModelError(f"{source}: the model knows no die")
        return model


def _table(text: object, source: str) -> np.ndarray | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise ModelError(f"{source}: field 'table' is not a base64 PNG")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ModelError(f"{source}: field 'table' is not a base64 PNG") from None
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR) if raw else None
    if image is None or image.ndim != 3 or not 16 <= image.shape[1] <= 4096 or image.shape[0] > 4096:
        raise ModelError(f"{source}: field 'table' is not a usable table shot")
    return np.asarray(image, np.uint8)


def save_model(model: ColourDiceModel, path: Path | str) -> None:
    """Write the model atomically (temp file + rename)."""
    path = Path(path)
    write_atomic(path, json.dumps(model.to_json(), separators=(",", ":")).encode())


def load_model(path: Path | str) -> ColourDiceModel:
    """Read a model file; a missing, corrupt or other-version file is a one-line error."""
    path = Path(path)
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        raise ModelError(f"{path}: not a colour-dice model (binary file)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ModelError(f"{path}: not a colour-dice model (corrupt JSON)") from None
    return ColourDiceModel.from_json(data, str(path))
