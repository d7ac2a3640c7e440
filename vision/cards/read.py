"""Enroll a deck and read every card on the table.

Reading a frame: find every card (:mod:`.find`), warp each to the canonical portrait,
describe it both ways up (four for square cards) and take the enrolled card whose images are
most similar.  When the runner-up is close (near-duplicate cards), compare the two only where
they differ.  A card too unlike every enrolled image is reported with id None.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .describe import (align, align_target, canon_size, describe, detail_form, detail_region, rectify,
                       region_distances, turned)
from .find import FindOptions, find_cards, side_ratio
from .model import CardModel

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
#: A found card whose confidence is below this is reported with id None.
UNSURE_BELOW = 0.35


@dataclass
class CardReading:
    id: str | None
    confidence: float
    corners: np.ndarray  # 4x2, frame pixels, clockwise

    def as_json(self) -> dict:
        return {"id": self.id, "confidence": round(float(self.confidence), 3),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


def read_image(path: Path | str) -> np.ndarray:
    """A BGR image from a file; an unreadable file is an :class:`OSError` naming it."""
    if not Path(path).is_file():
        raise OSError(f"cannot read image {path}: no such file")
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise OSError(f"cannot read image {path}: not an image")
    return img


class CardReader:
    """A model made ready for matching: every enrolled image, turned every way a card can lie,
    described once."""

    #: Cards whose similarity is this close to the best one are compared in detail.
    SHORTLIST = 0.05
    #: Most entries kept in each frame-independent cache (aligned pairs, difference regions).
    CACHE_LIMIT = 2048

    def __init__(self, model: CardModel) -> None:
        self.model = model
        self.cards = model.cards
        views, owner = [], []
        for t, label in zip(model.templates, model.labels):
            for v in turned(t, model.square):
                views.append(v)
                owner.append(self.cards.index(label))
        per = len(turned(model.templates[0], model.square))
        original = np.array([i // per < model.enrolled or not model.enrolled for i in range(len(views))])
        # views sorted by card, so each card's views are one slice
        order = np.argsort(np.array(owner), kind="stable")
        self.views = [views[i] for i in order]
        self.owner = np.array(owner)[order]
        #: enrolled images (not the jittered copies) are the ones compared in detail
        self.original = original[order]
        self.starts = np.searchsorted(self.owner, np.arange(len(self.cards)))
        self.descriptions = np.ascontiguousarray(np.stack([describe(v) for v in self.views]))
        #: the same, one column per view (the layout the matrix product reads fastest)
        self._columns = np.ascontiguousarray(self.descriptions.T)
        self.options = FindOptions(ratio=model.ratio)
        self._aligned: dict[tuple[int, int], np.ndarray] = {}
        self._targets: dict[int, np.ndarray] = {}
        self._regions: dict[tuple[int, ...], tuple | None] = {}

    def _pair(self, a: int, b: int) -> np.ndarray:
        """View ``b`` aligned onto view ``a`` (cached: it does not depend on the frame)."""
        if (a, b) not in self._aligned:
            if len(self._aligned) >= self.CACHE_LIMIT:
                self._aligned.clear()
            self._aligned[(a, b)] = detail_form(
                self.views[b] if a == b else align(None, self.views[b], self._target(a)))
        return self._aligned[(a, b)]

    def _target(self, v: int) -> np.ndarray:
        """View ``v`` prepared as an alignment target (cached)."""
        if v not in self._targets:
            self._targets[v] = align_target(self.views[v])
        return self._targets[v]

    def _region(self, views: tuple[int, ...]) -> tuple | None:
        """Where the views (the first one's card and its near-duplicates) differ (cached)."""
        if views not in self._regions:
            if len(self._regions) >= self.CACHE_LIMIT:  # a long game: start afresh, stay small
                self._regions.clear()
            self._regions[views] = detail_region([self._pair(views[0], v) for v in views])
        return self._regions[views]

    def identify(self, card: np.ndarray) -> tuple[str | None, float]:
        """The id of a rectified card and the confidence (id None when unknown or unsure)."""
        return self.identify_all([card])[0]

    def identify_all(self, cards: list[np.ndarray]) -> list[tuple[str | None, float]]:
        """:meth:`identify` for several rectified cards: their similarities to every stored
        view come from one matrix product."""
        if not cards:
            return []
        q = np.stack([describe(c) for c in cards])
        sims = q @ self._columns                           # (cards, views), float32
        per_card = np.maximum.reduceat(sims, self.starts, axis=1)
        return [self._decide(c, s, p) for c, s, p in zip(cards, sims, per_card)]

    def _decide(self, card: np.ndarray, sims: np.ndarray, per_card: np.ndarray) -> tuple[str | None, float]:
        m = self.model
        order = np.argsort(-per_card)
        s1 = float(per_card[order[0]])
        if s1 < m.min_similarity:
            return None, float(np.clip(s1 / max(m.min_similarity, 1e-6), 0, 1)) * 0.2
        short = [int(c) for c in order[:6] if per_card[c] >= s1 - self.SHORTLIST]
        best_view = {}
        for c in short:
            lo = self.starts[c]
            hi = self.starts[c + 1] if c + 1 < len(self.cards) else len(self.owner)
            mine = np.arange(lo, hi)[self.original[lo:hi]]
            best_view[c] = int(mine[int(np.argmax(sims[mine]))])
        if len(short) == 1:
            s2 = float(per_card[order[1]]) if len(order) > 1 else -1.0
            conf = float(np.clip(0.5 + (s1 - s2) / (2 * self.SHORTLIST), 0, 1))
            return self.cards[short[0]], conf
        # near-duplicates: compare them only where they differ, all lined up on the best
        # candidate's image (one alignment per card read; candidate alignments are cached)
        v0 = int(best_view[short[0]])
        lined_up = detail_form(align(None, card, self._target(v0)))
        d = region_distances(self._region(tuple(int(best_view[c]) for c in short)), lined_up, len(short))
        rank = np.argsort(d)
        d1, d2 = float(d[rank[0]]), float(d[rank[1]])
        winner = short[int(rank[0])]
        conf = float(np.clip(2.5 * (d2 - d1) / max(d1 + d2, 1e-6), 0, 1))
        return (self.cards[winner] if conf >= UNSURE_BELOW else None), conf

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card found in ``image``, top to bottom, left to right."""
        quads = find_cards(image, self.options)
        quads.sort(key=lambda q: (round(float(q[:, 1].mean()) / 80), float(q[:, 0].mean())))
        cards = [rectify(image, quad, self.model.ratio) for quad in quads]
        return [CardReading(card_id, conf, quad)
                for quad, (card_id, conf) in zip(quads, self.identify_all(cards))]


# ---------------------------------------------------------------------------
# Enrollment


def _jittered(rng: np.random.Generator, image: np.ndarray, corners: np.ndarray, ratio: float,
              n: int) -> list[np.ndarray]:
    """Rectified copies with the corners nudged and the light changed, as the camera would."""
    out = []
    size = float(np.sqrt(cv2.contourArea(corners.astype(np.float32))))
    for _ in range(n):
        c = corners + rng.normal(0, 0.012 * size, corners.shape).astype(np.float32)
        card = rectify(image, c, ratio).astype(np.float32)
        card = card * rng.uniform(0.85, 1.1) * (1 + rng.uniform(-0.06, 0.06, 3))
        if rng.random() < 0.5:
            card = cv2.GaussianBlur(card, (0, 0), 0.7)
        out.append(np.clip(card, 0, 255).astype(np.uint8))
    return out


def card_in(image: np.ndarray) -> np.ndarray:
    """The corners of the one card of an enrollment image: the largest card found on the
    table, or the whole image when it is a tight crop of the card."""
    h, w = image.shape[:2]
    found = find_cards(image, FindOptions(min_area=0.002, max_area=0.98))
    if found:
        best = max(found, key=lambda q: cv2.contourArea(q))
        # a quad filling most of the image is the card itself or a frame printed on a
        # tightly cropped card: either way the image is the card
        if cv2.contourArea(best) < 0.5 * w * h:
            return best
    return np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])


def enroll(samples: Path | str, progress: Iterable | None = None, jitter: int = 3,
           seed: int = 0) -> CardModel:
    """Learn a deck from ``samples/<card_id>/*`` (a tight crop of the card or a photo of it
    alone on the table per image)."""
    samples = Path(samples)
    if not samples.is_dir():
        raise OSError(f"no samples folder {samples}")
    found: list[tuple[str, np.ndarray, np.ndarray]] = []
    for card_dir in sorted(p for p in samples.iterdir() if p.is_dir()):
        for p in sorted(card_dir.iterdir()):
            if p.suffix.lower() not in IMAGE_SUFFIXES or not p.is_file():
                continue
            img = read_image(p)
            found.append((card_dir.name, img, card_in(img)))
            if progress is not None:
                progress.update(1)  # type: ignore[attr-defined]
    if not found:
        raise ValueError(f"{samples}: no images in SAMPLES/<card_id>/")
    if len({label for label, _, _ in found}) < 1:
        raise ValueError(f"{samples}: no cards")
    ratio = float(np.median([side_ratio(c) for _, _, c in found]))
    rng = np.random.default_rng(seed)
    templates, labels = [], []
    for label, img, corners in found:
        templates.append(rectify(img, corners, ratio))
        labels.append(label)
    enrolled = len(templates)
    for label, img, corners in found:
        for t in _jittered(rng, img, corners, ratio, jitter):
            templates.append(t)
            labels.append(label)
    model = CardModel(np.stack(templates), labels, ratio, 0.0, enrolled)
    model.min_similarity = _calibrate(model)
    return model


def _calibrate(model: CardModel) -> float:
    """The unknown-card threshold: below what every card's own jittered copies reach."""
    d = np.stack([describe(t) for t in model.templates])
    sims = cv2.gemm(d, d, 1, None, 0, flags=cv2.GEMM_2_T)
    labels = np.array(model.labels)
    own = []
    for i in range(model.enrolled, len(model.labels)):
        same = np.flatnonzero(labels == labels[i])
        same = same[same != i]
        if len(same):
            own.append(float(sims[i, same].max()))
    floor = float(np.percentile(own, 2)) if own else 0.6
    return max(0.3, floor - 0.15)


def canon_shape(model: CardModel) -> tuple[int, int]:
    return canon_size(model.ratio)
