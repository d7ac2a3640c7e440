"""``farmbox vision enroll|read colour-dice``: the Fun Farm white and black colour dice."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tqdm import tqdm

from farmbox.vision.colour_dice import enroll as learn
from farmbox.vision.colour_dice import load_model, read_frame, read_image, save_model
from farmbox.vision.colour_dice.read import IMAGE_SUFFIXES


def enroll(samples: Path, model: Path) -> int:
    """Learn from SAMPLES/<white|black>/<colour>/* and write the model file."""
    if not Path(samples).is_dir():
        raise OSError(f"no samples folder {samples}")
    total = sum(1 for p in Path(samples).glob("*/*/*") if p.suffix.lower() in IMAGE_SUFFIXES)
    with tqdm(total=2 * total, desc="enroll colour dice", unit="img", file=sys.stderr,
              disable=None) as bar:
        m = learn(samples, progress=bar)
    save_model(m, model)
    for name, die in m.dice.items():
        n = sum(len(v) for v in die.samples.values())
        print(f"{name} die: {len(die.samples)} colours ({', '.join(sorted(die.samples))}), "
              f"{n} samples")
    print(f"model written to {model}")
    return 0


def read(model: Path, images: list[Path], as_json: bool, cards: Path | None = None) -> int:
    """Print what each image shows: one JSON object per line with --json.  ``cards``: a card
    model; the cards its reader reads in an image are left out of that image's dice search, and
    the outlines it finds and cannot read (a card partly under another, or unsure) where most
    of them differs from the table (such an outline may be no card: a die in a cloth's weave)."""
    m = load_model(model)
    card_reader = None
    if cards is not None:
        from farmbox.vision.cards import CardReader
        from farmbox.vision.cards import load_model as load_cards

        card_reader = CardReader(load_cards(cards))
    for path in tqdm(images, desc="read colour dice", unit="img", file=sys.stderr,
                     disable=None if len(images) > 1 else True):
        image = read_image(path)
        found = [] if card_reader is None else card_reader.read(image)
        reading = read_frame(m, image, [c.corners for c in found if c.id],
                             [c.corners for c in found if not c.id])
        if as_json:
            print(json.dumps(reading.as_json(str(path))), flush=True)
        else:
            shown = ", ".join(f"{d}={c or '?'}" for d, c in reading.dice.items())
            why = f"  ({'; '.join(f'{k}: {v}' for k, v in reading.reasons.items())})" \
                if reading.reasons else ""
            print(f"{path}: {shown}  confidence {reading.confidence:.2f}{why}", flush=True)
    return 0
