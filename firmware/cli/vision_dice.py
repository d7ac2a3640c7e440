"""``farmbox vision enroll dice`` and ``farmbox vision read dice``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tqdm import tqdm

from farmbox.vision.dice.enroll import (
    EXPOSURES,
    SampleCheck,
    enroll_folder,
    load_image,
    weak_samples,
    why_weak,
)
from farmbox.vision.dice.model import DiceModel
from farmbox.vision.dice.reader import DiceReader, DiceReading


def enroll(samples: Path, model: Path) -> int:
    """Learn the dice from SAMPLES/<face>/*.jpg|png and write the model to ``model``."""
    def progress(items):
        return tqdm(items, desc="enroll dice", unit="step", file=sys.stderr, leave=False)

    left_out: list[str] = []
    checks: list[SampleCheck] = []
    learned = enroll_folder(samples, progress, left_out, checks)
    for name in left_out:
        print(f"left out {name}: the die is cut by the frame's edge (shoot it again wholly in view)",
              file=sys.stderr)
    # the check of its own photos, as the box's guided enrollment shows it
    for check in weak_samples(checks, learned.min_score, learned.min_margin):
        print(f"weak photo {check.name}: {why_weak(check, learned.min_score)} "
              f"(shoot it again with the {check.face} up)", file=sys.stderr)
    learned.save(model)
    n = len(learned.templates) // (1 + len(EXPOSURES))  # each photo at several exposures
    print(f"enrolled {n} photos of the dice -> {model} (accept at score >= {learned.min_score:.2f}, "
          f"lead >= {learned.min_margin:.2f})")
    return 0


def read(model: Path, images: list[Path], as_json: bool) -> int:
    """Read the roll in each image; one line (or JSON object) per image."""
    reader = DiceReader(DiceModel.load(model))
    for path in images:
        reading = reader.read(load_image(path))
        if as_json:
            print(json.dumps({"image": str(path), **reading.as_dict()}), flush=True)
        else:
            print(text_line(path, reading), flush=True)
    return 0


def text_line(path: Path, reading: DiceReading) -> str:
    """The plain-text line of one image: its faces, or ``unsure`` and why (the reason itself
    when it is more than "unsure")."""
    if reading.faces:
        return f"{path}: {reading.faces[0]},{reading.faces[1]} (confidence {reading.confidence:.2f})"
    why = "" if reading.reason == "unsure" else f": {reading.reason}"
    return f"{path}: unsure{why} (confidence {reading.confidence:.2f})"
