"""Synthetic top-down frames of playing cards on a table, with our own simple card art.

Two decks: ``FUNFARM`` (24 cards: an animal drawn in code and two small dice, black and white,
each with a colour dot; cards of one animal differ only in those small dots) and ``SYMBOLS``
(12 cards: one to three diamonds or ovals, filled or hollow: near-duplicates differing in the
number or fill of a symbol).  Scenes put up to a dozen cards on a wood or cloth table, turned
any way, close together, under a slightly tilted camera, uneven light, noise and JPEG.

>>> s = scene(1, count=5)
>>> s.image.shape, len(s.cards)
((720, 960, 3), 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from ._common import FRAME_SIZE, Lighting, camera_faults, table

#: Canonical card face size (width, height) in pixels; poker-like proportions.
FACE_SIZE = (250, 350)

PAINT = {
    "red": (45, 40, 205), "orange": (30, 125, 240), "yellow": (45, 215, 235),
    "green": (70, 165, 45), "blue": (200, 105, 35), "purple": (150, 50, 125),
}
_COLOURS = tuple(PAINT)
ANIMALS = ("sheep", "goat", "pig", "horse", "cow", "chick")
_OFFS = (3, 5, 4, 1)

#: Fun Farm-like deck: id -> (animal, black-die colour, white-die colour).
FUNFARM: dict[str, tuple[str, str, str]] = {
    f"{a}-{k + 1}": (a, _COLOURS[(i + k) % 6], _COLOURS[(i + _OFFS[k]) % 6])
    for i, a in enumerate(ANIMALS) for k in range(4)
}
#: Symbol deck: id -> (shape, number, filled).
SYMBOLS: dict[str, tuple[str, int, bool]] = {
    f"{shape}-{n}-{'solid' if filled else 'open'}": (shape, n, filled)
    for shape in ("diamond", "oval") for n in (1, 2, 3) for filled in (True, False)
}
#: Deck name -> its cards.
DECKS: dict[str, Mapping[str, tuple[str, str, str] | tuple[str, int, bool]]] = {
    "funfarm": FUNFARM, "symbols": SYMBOLS}


# ---------------------------------------------------------------------------
# Card art (all ours: ellipses, circles and polygons)


def _p(x: float, y: float) -> tuple[int, int]:
    return int(round(x * 16)), int(round(y * 16))


def _ellipse(img, cx, cy, ax, ay, colour, angle=0.0, thick=-1):
    cv2.ellipse(img, _p(cx, cy), _p(ax, ay), angle, 0, 360, colour, thick, cv2.LINE_AA, 4)


def _circle(img, cx, cy, r, colour, thick=-1):
    cv2.circle(img, _p(cx, cy), int(round(r * 16)), colour, thick, cv2.LINE_AA, 4)


def _poly(img, pts, colour):
    cv2.fillPoly(img, [np.array([_p(x, y) for x, y in pts], np.int32)], colour, cv2.LINE_AA, 4)


def _legs(img, xs, y0, y1, colour, w=7):
    for x in xs:
        cv2.line(img, _p(x, y0), _p(x, y1), colour, w, cv2.LINE_AA, 4)


def draw_animal(img: np.ndarray, animal: str, cx: float, cy: float, s: float) -> None:
    """Our own simple side-view animal, about ``s`` pixels wide, centred at (cx, cy)."""
    k = s / 100
    dark = (40, 40, 40)
    if animal == "sheep":
        _legs(img, [cx - 25 * k, cx - 10 * k, cx + 10 * k, cx + 25 * k], cy, cy + 38 * k, dark, max(2, int(6 * k)))
        for dx, dy in [(-25, -5), (-10, -15), (8, -15), (25, -5), (-18, 8), (0, 5), (18, 8)]:
            _circle(img, cx + dx * k, cy + dy * k, 16 * k, (235, 240, 240))
        _ellipse(img, cx + 42 * k, cy - 12 * k, 12 * k, 9 * k, dark, 20)
    elif animal == "goat":
        _legs(img, [cx - 25 * k, cx - 12 * k, cx + 12 * k, cx + 25 * k], cy, cy + 40 * k, (90, 100, 110), max(2, int(5 * k)))
        _ellipse(img, cx, cy - 5 * k, 38 * k, 20 * k, (160, 170, 180))
        _ellipse(img, cx + 42 * k, cy - 25 * k, 12 * k, 10 * k, (160, 170, 180), -30)
        _poly(img, [(cx + 38 * k, cy - 32 * k), (cx + 30 * k, cy - 52 * k), (cx + 44 * k, cy - 34 * k)], (60, 70, 80))
        _poly(img, [(cx + 48 * k, cy - 16 * k), (cx + 52 * k, cy + 2 * k), (cx + 44 * k, cy - 14 * k)], (230, 230, 230))
    elif animal == "pig":
        pink = (170, 150, 240)
        _legs(img, [cx - 22 * k, cx - 8 * k, cx + 8 * k, cx + 22 * k], cy, cy + 34 * k, (140, 120, 215), max(2, int(8 * k)))
        _ellipse(img, cx, cy - 4 * k, 40 * k, 24 * k, pink)
        _circle(img, cx + 40 * k, cy - 10 * k, 16 * k, pink)
        _ellipse(img, cx + 54 * k, cy - 8 * k, 6 * k, 8 * k, (120, 100, 200))
        _poly(img, [(cx + 32 * k, cy - 22 * k), (cx + 36 * k, cy - 36 * k), (cx + 44 * k, cy - 24 * k)], (140, 120, 215))
    elif animal == "horse":
        brown = (40, 75, 130)
        _legs(img, [cx - 28 * k, cx - 14 * k, cx + 14 * k, cx + 28 * k], cy, cy + 44 * k, brown, max(2, int(6 * k)))
        _ellipse(img, cx, cy - 4 * k, 40 * k, 18 * k, brown)
        _poly(img, [(cx + 25 * k, cy - 15 * k), (cx + 40 * k, cy - 50 * k), (cx + 50 * k, cy - 44 * k), (cx + 38 * k, cy - 5 * k)], brown)
        _ellipse(img, cx + 52 * k, cy - 42 * k, 14 * k, 8 * k, brown, 30)
        _poly(img, [(cx + 28 * k, cy - 18 * k), (cx + 38 * k, cy - 52 * k), (cx + 33 * k, cy - 18 * k)], (20, 30, 50))
        _poly(img, [(cx - 40 * k, cy - 8 * k), (cx - 55 * k, cy + 20 * k), (cx - 44 * k, cy + 18 * k)], (20, 30, 50))
    elif animal == "cow":
        _legs(img, [cx - 28 * k, cx - 14 * k, cx + 14 * k, cx + 28 * k], cy, cy + 38 * k, dark, max(2, int(7 * k)))
        _ellipse(img, cx, cy - 4 * k, 42 * k, 22 * k, (235, 235, 235))
        for dx, dy, r in [(-18, -10, 9), (10, 2, 11), (-2, -18, 6)]:
            _circle(img, cx + dx * k, cy + dy * k, r * k, dark)
        _ellipse(img, cx + 46 * k, cy - 14 * k, 13 * k, 12 * k, (235, 235, 235))
        _ellipse(img, cx + 54 * k, cy - 8 * k, 8 * k, 6 * k, (170, 160, 230))
        _poly(img, [(cx + 38 * k, cy - 24 * k), (cx + 34 * k, cy - 36 * k), (cx + 44 * k, cy - 26 * k)], dark)
    elif animal == "chick":
        yellow = (60, 215, 245)
        _legs(img, [cx - 6 * k, cx + 6 * k], cy + 10 * k, cy + 32 * k, (30, 120, 230), max(2, int(4 * k)))
        _circle(img, cx - 4 * k, cy, 26 * k, yellow)
        _circle(img, cx + 18 * k, cy - 26 * k, 16 * k, yellow)
        _circle(img, cx + 22 * k, cy - 30 * k, 3 * k, dark)
        _poly(img, [(cx + 32 * k, cy - 28 * k), (cx + 44 * k, cy - 24 * k), (cx + 32 * k, cy - 20 * k)], (30, 120, 230))
    else:
        raise ValueError(f"no drawing for {animal!r}")


def _small_die(img, x, y, size, body, colour):
    body_bgr = (25, 25, 25) if body == "black" else (245, 245, 245)
    cv2.rectangle(img, _p(x, y), _p(x + size, y + size), body_bgr, -1, cv2.LINE_AA, 4)
    cv2.rectangle(img, _p(x, y), _p(x + size, y + size), (90, 90, 90), 2, cv2.LINE_AA, 4)
    _circle(img, x + size / 2, y + size / 2, size * 0.3, PAINT[colour])


def _blank(frame_colour) -> np.ndarray:
    w, h = FACE_SIZE
    img = np.full((h, w, 3), (238, 244, 246), np.uint8)
    cv2.rectangle(img, (10, 10), (w - 11, h - 11), frame_colour, 4, cv2.LINE_AA)
    return img


@cache
def card_face(deck: str, card_id: str) -> np.ndarray:
    """The face of one card, FACE_SIZE, BGR uint8 (cached, do not modify)."""
    w, h = FACE_SIZE
    if deck == "funfarm":
        animal, black, white = FUNFARM[card_id]
        img = _blank((70, 120, 60))
        cv2.rectangle(img, (22, 22), (w - 23, h - 23), (200, 230, 215), -1)
        draw_animal(img, animal, w / 2 - 8, h / 2 - 5, 150)
        _small_die(img, 26, h - 74, 46, "black", black)
        _small_die(img, w - 72, h - 74, 46, "white", white)
        # a small mark at the top so the card is not the same upside down
        cv2.putText(img, animal[0].upper(), (28, 62), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (60, 90, 50), 3, cv2.LINE_AA)
    elif deck == "symbols":
        shape, n, filled = SYMBOLS[card_id]
        img = _blank((120, 60, 40))
        colour = (120, 40, 150)
        ys = {1: [h / 2], 2: [h / 2 - 50, h / 2 + 50], 3: [h / 2 - 95, h / 2, h / 2 + 95]}[n]
        for y in ys:
            if shape == "diamond":
                pts = np.array([_p(w / 2 - 70, y), _p(w / 2, y - 35), _p(w / 2 + 70, y), _p(w / 2, y + 35)], np.int32)
                if filled:
                    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)
                else:
                    cv2.polylines(img, [pts], True, colour, 5, cv2.LINE_AA, 4)
            else:
                _ellipse(img, w / 2, y, 70, 33, colour, 0, -1 if filled else 5)
        cv2.circle(img, (30, 30), 7, colour, -1, cv2.LINE_AA)
    else:
        raise ValueError(f"unknown deck {deck!r}")
    img.setflags(write=False)
    return img


def _rounded_mask() -> np.ndarray:
    w, h = FACE_SIZE
    m = np.zeros((h, w), np.uint8)
    r = 14
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(m, (x, y), r, (255,), -1, cv2.LINE_AA)
    return m


# ---------------------------------------------------------------------------
# Scenes


@dataclass
class PlacedCard:
    id: str
    #: Corners in the frame, in the card's own order: top-left, top-right, bottom-right,
    #: bottom-left of the face as drawn.
    corners: np.ndarray


@dataclass(frozen=True)
class Mount:
    """One mounted box: the table, the lamp, the camera's tilt and the cards' size in the frame
    stay the same from photo to photo (each photo draws only where the cards lie and the camera's
    noise).  ``seed`` draws them; ``table_kind`` as for :func:`scene`."""

    seed: int
    table_kind: str | None = None
    tilt: float = 0.06

    def table(self, size: tuple[int, int]) -> np.ndarray:
        """The box's table top (a copy: each photo draws on its own)."""
        return _mounted_table(self.seed, self.table_kind, size).copy()

    def setting(self, size: tuple[int, int]) -> tuple[np.ndarray, Lighting, float]:
        """(the camera's tilt, the lamp, the cards' short side as a share of the frame width)."""
        rng = np.random.default_rng([self.seed, 6160])
        return _camera_tilt(rng, size, self.tilt), Lighting.random(rng), float(rng.uniform(0.11, 0.135))


@cache
def _mounted_table(seed: int, kind: str | None, size: tuple[int, int]) -> np.ndarray:
    """A mounted box's table top, drawn once (the same in every photo of that box)."""
    return table(np.random.default_rng([seed, 5150]), size, kind)


@dataclass
class CardScene:
    image: np.ndarray
    cards: list[PlacedCard] = field(default_factory=list)
    deck: str = "funfarm"


def _camera_tilt(rng: np.random.Generator, size: tuple[int, int], tilt: float) -> np.ndarray:
    """A homography for a camera slightly off vertical: the frame corners move inward
    unevenly by up to ``tilt`` of the frame."""
    w, h = size
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(0, tilt, (4, 2)) * np.array([w, h], np.float32)
    inward = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32)
    dst = src + jitter * inward
    # keep the scale about right: re-centre
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def scene(seed: int, deck: str = "funfarm", count: int | None = None, ids: list[str] | None = None,
          *, size: tuple[int, int] = FRAME_SIZE, card_px: float | None = None,
          tilt: float = 0.06, gap: tuple[float, float] = (0.05, 0.6),
          table_kind: str | None = None, overlap: float | None = None,
          mount: Mount | None = None) -> CardScene:
    """A frame from ``seed`` with ``count`` random cards of ``deck`` (or exactly ``ids``).

    Cards are laid on a jittered grid (so they come close but never overlap), turned any way.
    ``card_px`` is the card's short side in pixels (random 105..130 at 960x720 by default).
    With ``overlap`` (0..1), every second card is laid partly over the card before it, covering
    about that share of it (the later card lies on top).  With ``mount``, the table, lamp, camera
    tilt and card size are that box's (``table_kind``, ``tilt`` and ``card_px`` are its).
    """
    rng = np.random.default_rng(seed)
    cards = DECKS[deck]
    if ids is None:
        count = int(rng.integers(1, 13)) if count is None else count
        keys = list(cards)
        ids = [keys[i] for i in rng.choice(len(keys), size=count, replace=count > len(keys))]
    w, h = size
    if mount is not None:
        img = mount.table(size)
        tilt_h, light, share = mount.setting(size)
        short = share * w
    else:
        img = table(rng, size, table_kind)
        short = card_px if card_px is not None else rng.uniform(0.11, 0.135) * w
    long_ = short * FACE_SIZE[1] / FACE_SIZE[0]
    # a grid of cells each big enough for a card turned any way, shuffled
    cell = long_ * 1.02 + short * rng.uniform(*gap)
    cols, rows = int((w - 20) // cell), int((h - 20) // cell)
    if cols * rows < len(ids):
        # cards turned only a little can pack tighter
        cell = long_ * 1.0 + 6
        cols, rows = int((w - 10) // (short + 8)), int((h - 10) // cell)
    slots = [(c, r) for r in range(rows) for c in range(cols)]
    rng.shuffle(slots)
    if len(slots) < len(ids):
        raise ValueError(f"{len(ids)} cards do not fit a {w}x{h} frame at {short:.0f} px")
    face_mask = _rounded_mask()
    fw, fh = FACE_SIZE
    face_pts = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    if mount is None:
        tilt_h = _camera_tilt(rng, size, tilt)
    placed: list[PlacedCard] = []
    layers = []
    for card_id, (c, r) in zip(ids, slots):
        cw = w / cols
        ch = h / rows
        cx = (c + 0.5) * cw + rng.uniform(-0.08, 0.08) * cw
        cy = (r + 0.5) * ch + rng.uniform(-0.08, 0.08) * ch
        if overlap is not None and len(placed) % 2 == 1:
            below = placed[-1].corners.mean(axis=0)
            a = rng.uniform(0, 2 * np.pi)
            reach = (1.0 - overlap) * short
            cx = float(np.clip(below[0] + reach * np.cos(a), long_ / 2, w - long_ / 2))
            cy = float(np.clip(below[1] + reach * np.sin(a), long_ / 2, h - long_ / 2))
        room = min(cw, ch)
        # turn freely when the cell allows it, else stay near portrait or landscape
        if room >= np.hypot(short, long_) * 1.0:
            angle = rng.uniform(0, 2 * np.pi)
        else:
            angle = rng.choice([0, np.pi / 2, np.pi, 3 * np.pi / 2]) + rng.uniform(-0.12, 0.12)
            if np.cos(angle) ** 2 < 0.5 and cw < long_ * 1.02:
                angle -= np.pi / 2
        s = short / fw
        ca, sa = np.cos(angle) * s, np.sin(angle) * s
        affine = np.array([[ca, -sa, cx - (ca * fw / 2 - sa * fh / 2)],
                           [sa, ca, cy - (sa * fw / 2 + ca * fh / 2)],
                           [0, 0, 1]], np.float64)
        hom = tilt_h @ affine
        corners = cv2.perspectiveTransform(face_pts[None], hom)[0]
        placed.append(PlacedCard(card_id, corners))
        layers.append((card_face(deck, card_id), hom, corners))
    acc = img
    # shadows first, then the faces; each warped only inside its own bounding box
    for _face, hom, corners in layers:
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)) - 8, 0).astype(int)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)) + 8, [w, h]).astype(int)
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        off = np.array([[1, 0, rng.uniform(1, 4)], [0, 1, rng.uniform(1, 4)], [0, 0, 1]], np.float64)
        silhouette = cv2.warpPerspective(face_mask, shift @ off @ hom, (x1 - x0, y1 - y0)).astype(np.float32) / 255
        sm = cv2.GaussianBlur(silhouette, (0, 0), 2.5)
        acc[y0:y1, x0:x1] *= (1 - 0.35 * sm)[..., None]
    for face, hom, corners in layers:
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)) - 2, 0).astype(int)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)) + 2, [w, h]).astype(int)
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ hom
        box = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(face, shift, box, flags=cv2.INTER_AREA).astype(np.float32)
        m = cv2.warpPerspective(face_mask, shift, box).astype(np.float32)[..., None] / 255
        gloss = rng.uniform(0.9, 1.04)
        acc[y0:y1, x0:x1] = acc[y0:y1, x0:x1] * (1 - m) + warped * gloss * m
    acc = (Lighting.random(rng) if mount is None else light).apply(acc)
    return CardScene(camera_faults(rng, acc), placed, deck)


def enrollment_samples(root, deck: str = "funfarm", per_card: int = 2, seed: int = 0,
                       crops: bool = True) -> None:
    """Write ``root/<card_id>/*.jpg``: a tight crop of the card face (when ``crops``) and
    photos of the card alone on the table."""
    from pathlib import Path

    from ._common import write_image

    root = Path(root)
    rng = np.random.default_rng(seed)
    for i, card_id in enumerate(DECKS[deck]):
        d = root / card_id
        d.mkdir(parents=True, exist_ok=True)
        k = 0
        if crops:
            face = card_face(deck, card_id).astype(np.float32)
            lit_face = face * rng.uniform(0.9, 1.05) * (1 + rng.uniform(-0.05, 0.05, 3))
            write_image(d / "crop.jpg", camera_faults(rng, lit_face, blur=0.6, noise=2, jpeg=90))
            k = 1
        for j in range(per_card - k):
            s = scene(seed * 1_000_003 + i * 31 + j, deck, ids=[card_id])
            write_image(d / f"table{j}.jpg", s.image)
