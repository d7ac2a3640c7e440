"""Real phone photos of a real deck (a slice of the SET dev set), read through the command line
exactly as the owner would: ``farmbox vision enroll cards`` then ``farmbox vision read cards
--json``.  The whole set is measured by ``bench/bench_vision.py cards``."""

import contextlib
import io
import itertools
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from farmbox.firmware.cli import main
from farmbox.vision.cards import CardReader, load_model, read_image
from farmbox.vision.cards.find import sides_apart
from farmbox.vision.cards.read import APART, CardReading

DATA = Path(__file__).parent / "data" / "set-ones"
#: Measured when written: 53 of 54 exact, 1 wrong (a green empty diamond read as purple).
EXACT_AT_LEAST = 51
WRONG_AT_MOST = 1


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("set") / "set.npz"
    assert main(["vision", "enroll", "cards", str(DATA / "enroll"), "--model", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def readings(model):
    scenes = sorted((DATA / "scenes").glob("*.jpg"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["vision", "read", "cards", "--model", str(model), "--json", *map(str, scenes)]) == 0
    return {Path(obj["image"]).name: obj["cards"]
            for obj in map(json.loads, out.getvalue().strip().splitlines())}


def test_every_card_on_real_photos_is_found(readings):
    labels = json.loads((DATA / "labels.json").read_text())
    assert set(readings) == set(labels)
    for name, truth in labels.items():
        assert len(readings[name]) == len(truth), name


def test_real_photos_are_identified_and_hardly_ever_misread(readings):
    """The 27 one-symbol cards differ only in colour, fill and shape; enrollment crops come from
    other photos and a scan (other light, other camera)."""
    labels = json.loads((DATA / "labels.json").read_text())
    exact = wrong = unsure = 0
    for name, truth in labels.items():
        ids = Counter(c["id"] for c in readings[name] if c["id"] is not None)
        exact += sum((Counter(truth) & ids).values())
        wrong += sum((ids - Counter(truth)).values())
        unsure += sum(c["id"] is None for c in readings[name])
    assert exact + wrong + unsure == 54
    assert exact >= EXACT_AT_LEAST and wrong <= WRONG_AT_MOST


def test_confidence_is_high_exactly_when_a_card_is_named(readings):
    for cards in readings.values():
        for c in cards:
            assert 0.0 <= c["confidence"] <= 1.0
            assert (c["id"] is not None) == (c["confidence"] >= 0.5)


def test_a_card_read_through_an_outline_with_a_corner_off_it_is_read_right(model):
    """An outline with one corner off the card (cut into it, or out onto a smudge of the table)
    is no card's as a camera sees one: its opposite sides are out of parallel.  A card of three
    open diamonds in a real photo turned a quarter was read as striped through such an outline
    (12 degrees apart), near its card.  Each card read right on the slice's photos is read
    again through its outline with each corner in turn moved back along the side that ends
    there by 12% of it, where that puts the sides more than ``APART`` out of parallel.
    Measured when written: 107 such outlines, 107 read right, 0 wrong; through the outline as
    it was, 99 right and 8 wrong (an open card read as striped).  (Moved out across the side
    by 16% of it instead: 200 outlines, 197 right, 2 wrong; 191 and 8 before.)"""
    reader = CardReader(load_model(model))
    labels = json.loads((DATA / "labels.json").read_text())
    tried = right = wrong = 0
    for scene in sorted((DATA / "scenes").glob("*.jpg")):
        image = read_image(scene)
        for card in reader.read(image):
            if card.id not in labels[scene.name]:
                continue
            q = np.asarray(card.corners, np.float32)
            for k in range(4):
                off = q.copy()
                off[k] = q[k] - 0.12 * (q[k] - q[k - 1])
                if sides_apart(off) <= APART:
                    continue
                got = reader.read_outline(image, off)
                tried += 1
                right += got.id == card.id
                wrong += got.id not in (None, card.id)
    assert tried >= 80
    assert wrong <= 2 and right >= 0.95 * tried, (tried, right, wrong)


def test_a_card_read_by_a_narrow_lead_is_read_again_softer(model):
    """A card read by a narrow lead (confidence under 1) is read again from its card a little
    softer (``SOFTER``): read so as no card or as another, it is read as no card.  Each card
    read right on the slice's photos is given as read, by a narrow lead, as another card of
    the deck: the softer card reads its own, so it comes back as no card; given as its own
    card by a narrow lead it stays; given as another card at full confidence it is not read
    again."""
    reader = CardReader(load_model(model))
    labels = json.loads((DATA / "labels.json").read_text())
    tried = 0
    for scene in sorted((DATA / "scenes").glob("*.jpg"))[:3]:
        image = read_image(scene)
        for card in reader.read(image):
            if card.id not in labels[scene.name]:
                continue
            other = next(c for c in reader.cards if c != card.id)
            as_other, as_own, sure_other = reader._held(image, [
                CardReading(other, 0.9, card.corners), CardReading(card.id, 0.9, card.corners),
                CardReading(other, 1.0, card.corners)])
            assert (as_other.id, as_other.confidence) == (None, 0.0)
            assert as_own.id == card.id and as_own.confidence == 0.9
            assert sure_other.id == other
            tried += 1
    assert tried >= 20


def test_real_photos_sharpened_hard_are_misread_less(model):
    """The slice's photos sharpened as a phone sharpens (an unsharp mask of 2 and 3 pixels at
    strengths 2 and 3: halos round the symbols that make an open oval look shaded or a shaded
    one open).  Measured when written: 181 exact, 13 wrong of 216; 183 and 18 before cards read
    by a narrow lead were read again softer (``CardReader._held``)."""
    reader = CardReader(load_model(model))
    labels = json.loads((DATA / "labels.json").read_text())
    exact = wrong = 0
    for scene in sorted((DATA / "scenes").glob("*.jpg")):
        image = read_image(scene).astype(np.float32)
        truth = Counter(labels[scene.name])
        for sigma, strength in itertools.product((2.0, 3.0), (2.0, 3.0)):
            sharp = image + strength * (image - cv2.GaussianBlur(image, (0, 0), sigma))
            ids = Counter(c.id for c in reader.read(np.clip(sharp, 0, 255).astype(np.uint8)) if c.id is not None)
            exact += sum((truth & ids).values())
            wrong += sum((ids - truth).values())
    assert exact >= 175 and wrong <= 14, (exact, wrong)
