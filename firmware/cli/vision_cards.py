"""``farmbox vision enroll|read cards``: learn any deck, then find and name every card."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tqdm import tqdm

from farmbox.vision.cards import CardReader, load_model, read_image, save_model
from farmbox.vision.cards import enroll as learn
from farmbox.vision.cards.read import IMAGE_SUFFIXES, STEPS_PER_SHOT


def enroll(samples: Path, model: Path) -> int:
    """Learn from SAMPLES/<card_id>/* and write the model file."""
    if not Path(samples).is_dir():
        raise OSError(f"no samples folder {samples}")
    # steps an image: its card found, checked against the empty table, learned from
    total = STEPS_PER_SHOT * sum(1 for p in Path(samples).glob("*/*") if p.suffix.lower() in IMAGE_SUFFIXES)
    left_out: list[str] = []
    washed_out: list[str] = []
    lost: list[str] = []
    with tqdm(total=total, desc="enroll cards", unit="img", file=sys.stderr, disable=None) as bar:
        m = learn(samples, progress=bar, left_out=left_out, washed_out=washed_out, lost=lost)
    for name in left_out:
        print(f"left out {name}: no whole card found on the table in it (shoot it again with the card "
              f"wholly in view, away from the table's pattern)", file=sys.stderr)
    if lost:
        print(f"not learned, no whole card found in any of its photos (shoot them again): {', '.join(lost)}",
              file=sys.stderr)
    save_model(m, model)
    print(f"{len(m.cards)} cards from {m.enrolled} images, side ratio {m.ratio:.3f}, "
          f"unknown beyond distance {m.max_distance:.2f}, unsure below lead {m.min_lead:.2f}")
    if washed_out:
        print(f"under the lamp's glare in every photo (its reflection or too much light; shoot again away "
              f"from the glare): {', '.join(washed_out)}")
    if m.weak:
        print(f"weak in the enrollment's own check (shoot again): {', '.join(m.weak)}")
    print(f"model written to {model}")
    return 0


def read(model: Path, images: list[Path], as_json: bool) -> int:
    """Print the cards in each image: one JSON object per image per line with --json."""
    reader = CardReader(load_model(model))
    for path in tqdm(images, desc="read cards", unit="img", file=sys.stderr,
                     disable=None if len(images) > 1 else True):
        cards = reader.read(read_image(path))
        if as_json:
            print(json.dumps({"image": str(path), "cards": [c.as_json() for c in cards]}), flush=True)
        else:
            names = ", ".join(f"{c.id or '?'} ({c.confidence:.2f})" for c in cards) or "no cards"
            print(f"{path}: {len(cards)} cards: {names}", flush=True)
    return 0
