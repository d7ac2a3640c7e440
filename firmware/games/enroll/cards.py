"""The cards reader's side of a guided enrollment: the deck's cards as subjects, the card
found in a photo (the reader's own card finder) and the deck learned from the photos with the
reader's leave-one-out check (:func:`farmbox.vision.cards.enroll_shots`); a card under the
lamp's glare in every photo (washed out, or veiled over part of it) is among the weak ones too.

The model file is the one ``farmbox vision enroll cards SAMPLES --model PATH`` writes, and the
photos are written as that command reads them: ``SAMPLES/<card_id>/<n>.png``, the empty table
(photographed first) as ``SAMPLES/background.png``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from farmbox.firmware.games.enroll.shots import Lesson, Progress, Subject
from farmbox.vision.cards import CardModel, FindOptions, enroll_shots, find_cards, save_model
from farmbox.vision.cards.read import JITTER

#: A card alone on the table covers at least this share of the frame, at most this share.
MIN_AREA, MAX_AREA = 0.004, 0.5


def card_subjects(ids: Sequence[str], picture: Callable[[str], Image.Image | None] | None = None,
                  name: Callable[[str], str] | None = None) -> list[Subject]:
    """One subject per card id, in deck order, with ``picture(id)`` (our own icon) and
    ``name(id)`` for the screens (the id in capitals by default)."""
    return [Subject(card, (name or str.upper)(card), picture(card) if picture else None)
            for card in ids]


class Cards:
    """Finds the one card on the table; learns a deck from the kept photos."""

    kind = "cards"

    def __init__(self, jitter: int | None = None) -> None:
        self.jitter = jitter
        self.options = FindOptions(min_area=MIN_AREA, max_area=MAX_AREA)

    #: The empty table first (``SAMPLES/background.png``): the deck's table in enrollment and
    #: play (a card that differs little from it, cream paper on a pale cloth, is still told from a
    #: cloth's pattern; :func:`farmbox.vision.cards.enroll_shots`). The card itself is found by
    #: its outline, on any table.
    wants_table = True
    #: Finding each photo's card and making its made-up shots (a step each) are most of the
    #: time; fitting the discriminant and the leave-one-out check the rest
    #: (bench_enroll_box.py --kind cards: the last step at 13.6 of 17.1 s; the first at 0.0 s,
    #: 7.3 s before the finding pass had steps of its own).
    progress_share = 0.8

    def find(self, frame: np.ndarray, background: np.ndarray | None) -> np.ndarray | None:
        """The corners of the largest card in ``frame`` (None: no card, or it leaves the frame)."""
        found = find_cards(frame, self.options)
        if not found:
            return None
        best = max(found, key=lambda q: cv2.contourArea(np.asarray(q, np.float32)))
        h, w = frame.shape[:2]
        if best[:, 0].min() < 2 or best[:, 1].min() < 2 or best[:, 0].max() > w - 3 \
                or best[:, 1].max() > h - 3:
            return None
        return np.asarray(best, np.float32)

    def learn(self, photos: list[tuple[str, np.ndarray]], on_progress: Progress,
              background: np.ndarray | None = None) -> Lesson:
        """The deck's model (file bytes) and the cards whose photos failed leave-one-out."""
        model, check = enroll_shots(photos, on_progress, JITTER if self.jitter is None else self.jitter,
                                    table_shots=None if background is None else [background])
        return Lesson(model_bytes(model), tuple(check.weak))


def model_bytes(model: CardModel) -> bytes:
    """The bytes of the reader's own model file (written by the box's atomic writer)."""
    with tempfile.TemporaryDirectory(prefix="farmbox-cards-") as tmp:
        path = Path(tmp) / "cards.npz"
        save_model(model, path)
        return path.read_bytes()
