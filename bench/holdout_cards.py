"""A second, independent Fun Farm card renderer: held-out card sets no reader here was tuned on.

    .venv/bin/python bench/holdout_cards.py OUT [--sets 3] [--seed 1] [--tables 120] [--shots 2]
    .venv/bin/python bench/bench_vision.py cards OUT/<set>

``vision/render/cards.py`` draws the frames the card reader was built and tuned on; judging the
reader only on its own renderer measures how well it fits that renderer.  This file shares no
code with it.  The deck is the box's own (``firmware/rules/funfarm/deck.toml``: 24 cards, one
animal each and the colours of a small black and a small white die), with art drawn here in
styles of its own:

* "flat": a vector animal on a coloured meadow panel inside a white border, the two dice stacked
  in the panel's top right corner, each a rounded body with a coloured face;
* "printed": an outline drawing with a pale wash on a paper texture, a title band with the
  animal's name, the two dice side by side in a band under the picture, each a colour diamond.
* "bleed" (``--style bleed``): the art to the card's edge, no border: a deep ground of the
  animal's own colour, a pale disc behind the animal, a thin cream frame line, the two dice side
  by side at the foot; the card's edge is its dark ground against the table.

Each pixel of a frame is cast from a mounted camera (35-60 cm over the table, leaning up to 12
degrees, radial lens distortion of either sign, 960x720) onto the table plane; cards lie flat
(each bent a little, so its glare moves), turned any way, 2-12 per table, close together but
not overlapping (some sets have touching cards), wholly in view.  The table (wood, cloth,
striped, tiles, dark felt, or with ``--table checked`` a gingham cloth: red, blue, green or
black checks on white, turned any way) is lit by a lamp (distance falloff, soft shadows of the
cards, specular glare on the glossy cards); each shot shifts white balance and exposure and
adds vignetting, blur, sensor noise and JPEG 70-95.

Each set is one mounted box (one camera, one table, one art style): ``enroll/<card-id>/<k>.jpg``
holds the owner's enrollment shots (the card alone on the table, same camera), ``scenes/`` the
tables and ``labels.json`` the truth (scene file -> the card ids on it, a multiset);
``corners.json`` adds, for every image, where each card's four corners are in the frame (for
looking at failures: which card a found outline is, and whether it is the card's own outline)
and the share of the card under strong glare.
"""

from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from counts import Parser, at_least

SIZE = (960, 720)
ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "firmware" / "rules" / "funfarm" / "deck.toml"
#: Card size in cm (width, height) and corner radius.
CARD_W, CARD_H, CORNER = 5.9, 9.1, 0.45
#: Card art resolution, texels per cm.
TEXELS = 48
#: Paint of the dice faces, sRGB (our own values).
PAINT = {
    "red": (214, 38, 40), "orange": (244, 138, 22), "yellow": (250, 222, 40),
    "green": (40, 160, 70), "blue": (30, 90, 200), "purple": (128, 52, 160),
}


def linear(srgb: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    """sRGB 0..255 -> linear RGB 0..1."""
    c = np.asarray(srgb, np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


@dataclass(frozen=True)
class Card:
    """One card of the deck: its id, animal and the colours of its two small dice."""

    id: str
    animal: str
    black: str
    white: str


def load_deck(path: Path = DECK) -> list[Card]:
    """The box's Fun Farm deck (card ids and colours) from its deck file."""
    data = tomllib.loads(path.read_text())
    return [Card(c["id"], c["animal"], c["black"], c["white"]) for c in data["cards"]]


# ------------------------------------------------------------------------------ card art

class Canvas:
    """A card face being drawn: linear RGB float image, drawing in card cm (0..CARD_W, 0..CARD_H)."""

    def __init__(self, paper: np.ndarray) -> None:
        self.w, self.h = int(CARD_W * TEXELS), int(CARD_H * TEXELS)
        self.img: np.ndarray = np.empty((self.h, self.w, 3), np.float32)
        self.img[:] = paper

    def pt(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * TEXELS * 8)), int(round(y * TEXELS * 8))

    def _draw(self, colour: np.ndarray, paint: object, alpha: float = 1.0) -> None:
        mask = np.zeros((self.h, self.w), np.uint8)
        paint(mask)  # type: ignore[operator]
        a = (mask.astype(np.float32) / 255.0 * alpha)[..., None]
        self.img = self.img * (1 - a) + np.asarray(colour, np.float32) * a

    def ellipse(self, colour: np.ndarray, x: float, y: float, ax: float, ay: float,
                angle: float = 0.0, thick: float = 0.0, alpha: float = 1.0) -> None:
        t = -1 if thick <= 0 else max(1, int(thick * TEXELS))
        self._draw(colour, lambda m: cv2.ellipse(
            m, self.pt(x, y), (int(ax * TEXELS * 8), int(ay * TEXELS * 8)), angle, 0, 360, 255, t,
            cv2.LINE_AA, 3), alpha)

    def poly(self, colour: np.ndarray, pts: list[tuple[float, float]], thick: float = 0.0,
             alpha: float = 1.0) -> None:
        arr = np.array([self.pt(x, y) for x, y in pts], np.int32)
        if thick <= 0:
            self._draw(colour, lambda m: cv2.fillPoly(m, [arr], 255, cv2.LINE_AA, 3), alpha)
        else:
            self._draw(colour, lambda m: cv2.polylines(m, [arr], True, 255, max(1, int(thick * TEXELS)),
                                                       cv2.LINE_AA, 3), alpha)

    def line(self, colour: np.ndarray, x0: float, y0: float, x1: float, y1: float, thick: float) -> None:
        self._draw(colour, lambda m: cv2.line(m, self.pt(x0, y0), self.pt(x1, y1), 255,
                                              max(1, int(thick * TEXELS)), cv2.LINE_AA, 3))

    def rounded(self, colour: np.ndarray, x0: float, y0: float, x1: float, y1: float, r: float,
                thick: float = 0.0) -> None:
        """A rounded rectangle, filled (thick 0) or outlined."""
        yy, xx = (np.mgrid[0:self.h, 0:self.w] + 0.5) / TEXELS
        cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        d = rounded_distance(xx - cx, yy - cy, hw, hh, r)
        if thick <= 0:
            a = np.clip(0.5 - d * TEXELS, 0, 1)
        else:
            a = np.clip(0.5 + thick * TEXELS / 2 - np.abs(d) * TEXELS, 0, 1)
        a = a[..., None].astype(np.float32)
        self.img = self.img * (1 - a) + np.asarray(colour, np.float32) * a


def rounded_distance(x: np.ndarray, y: np.ndarray, hw: float, hh: float, r: float) -> np.ndarray:
    """Signed distance (cm, < 0 inside) to a rounded rectangle of half sizes hw, hh centred at 0."""
    qx, qy = np.abs(x) - (hw - r), np.abs(y) - (hh - r)
    return np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r


INK = linear((30, 26, 24))


def draw_animal(c: Canvas, animal: str, cx: float, cy: float, s: float, style: str) -> None:
    """Our own drawing of ``animal`` centred at (cx, cy), about 4*s cm wide, facing right."""
    flat = style == "flat"
    fills = {
        "sheep": (linear((240, 238, 228)), linear((60, 52, 50))),
        "goat": (linear((176, 150, 120)), linear((110, 90, 70))),
        "pig": (linear((240, 160, 170)), linear((210, 110, 130))),
        "horse": (linear((140, 84, 44)), linear((50, 30, 20))),
        "cow": (linear((245, 245, 240)), linear((25, 25, 25))),
        "chick": (linear((252, 214, 40)), linear((240, 120, 20))),
    }
    body, second = fills[animal]
    if not flat:  # a pale wash under an ink outline
        body = 0.55 * body + 0.45 * linear((240, 232, 210))
        second = 0.6 * second + 0.4 * linear((240, 232, 210))

    def E(col: np.ndarray, x: float, y: float, ax: float, ay: float, ang: float = 0.0) -> None:
        c.ellipse(col, cx + x * s, cy + y * s, ax * s, ay * s, ang)
        if not flat:
            c.ellipse(INK, cx + x * s, cy + y * s, ax * s, ay * s, ang, thick=0.05)

    def P(col: np.ndarray, pts: list[tuple[float, float]]) -> None:
        q = [(cx + x * s, cy + y * s) for x, y in pts]
        c.poly(col, q)
        if not flat:
            c.poly(INK, q, thick=0.05)

    def L(col: np.ndarray, x0: float, y0: float, x1: float, y1: float, t: float) -> None:
        c.line(col, cx + x0 * s, cy + y0 * s, cx + x1 * s, cy + y1 * s, t * s)

    legs = INK if not flat else second
    if animal == "sheep":
        for x in (-0.9, -0.4, 0.4, 0.9):
            L(legs, x, 0.4, x, 1.4, 0.22)
        for x, y in ((-1.0, 0.0), (-0.4, -0.45), (0.35, -0.45), (1.0, -0.05), (0.5, 0.4), (-0.5, 0.4),
                     (0.0, 0.0)):
            E(body, x, y, 0.65, 0.55)
        E(second, 1.55, -0.5, 0.42, 0.55, -20)
        E(second, 1.25, -0.85, 0.3, 0.12, 30)
    elif animal == "goat":
        for x in (-0.9, -0.45, 0.45, 0.9):
            L(legs, x, 0.3, x, 1.5, 0.2)
        E(body, 0.0, 0.0, 1.3, 0.6)
        P(body, [(0.9, -0.3), (1.4, -1.1), (1.75, -0.9), (1.3, 0.1)])
        E(body, 1.6, -1.0, 0.45, 0.3, 30)
        P(second, [(1.35, -1.25), (1.0, -1.9), (1.2, -1.95), (1.55, -1.3)])   # horns
        P(second, [(1.8, -0.8), (1.9, -0.3), (2.0, -0.8)])                    # beard
        L(second, -1.25, -0.2, -1.6, -0.6, 0.15)
    elif animal == "pig":
        for x in (-0.8, -0.35, 0.35, 0.8):
            L(legs if not flat else second, x, 0.5, x, 1.3, 0.32)
        E(body, 0.0, 0.0, 1.5, 0.85)
        E(body, 1.45, -0.25, 0.6, 0.55)
        E(second, 2.0, -0.15, 0.22, 0.28)
        P(second, [(1.2, -0.7), (1.35, -1.2), (1.6, -0.75)])
        c.ellipse(second if flat else INK, cx - 1.6 * s, cy - 0.3 * s, 0.25 * s, 0.25 * s,
                  thick=0.12 * s)
    elif animal == "horse":
        for x in (-1.0, -0.6, 0.6, 1.0):
            L(legs, x, 0.2, x, 1.7, 0.22)
        E(body, 0.0, -0.1, 1.35, 0.55)
        P(body, [(0.8, -0.5), (1.25, -1.6), (1.65, -1.4), (1.3, -0.2)])
        E(body, 1.75, -1.45, 0.55, 0.25, 25)
        P(second, [(0.75, -0.6), (1.1, -1.7), (1.3, -1.65), (1.0, -0.5)])    # mane
        P(second, [(-1.3, -0.3), (-2.0, 0.6), (-1.7, 0.8), (-1.25, 0.0)])    # tail
    elif animal == "cow":
        for x in (-1.0, -0.55, 0.55, 1.0):
            L(legs, x, 0.3, x, 1.55, 0.26)
        P(body, [(-1.4, -0.6), (1.2, -0.65), (1.3, 0.5), (-1.35, 0.55)])
        for x, y, ax, ay in ((-0.6, -0.2, 0.4, 0.3), (0.4, 0.1, 0.35, 0.28), (-0.1, -0.45, 0.2, 0.12)):
            E(second, x, y, ax, ay)
        E(body, 1.65, -0.55, 0.45, 0.42)
        L(second, 1.45, -0.95, 1.25, -1.3, 0.12)
        L(second, 1.85, -0.95, 2.05, -1.3, 0.12)
        E(linear((240, 160, 170)), 0.2, 0.62, 0.25, 0.15)                      # udder
        L(second, -1.4, -0.5, -1.7, 0.4, 0.1)
    elif animal == "chick":
        L(second, -0.25, 0.8, -0.3, 1.4, 0.15)
        L(second, 0.25, 0.8, 0.3, 1.4, 0.15)
        E(body, 0.0, 0.2, 1.05, 0.85)
        E(body, 0.65, -0.75, 0.6, 0.55)
        P(second, [(1.15, -0.85), (1.65, -0.7), (1.15, -0.55)])
        E(body * 0.85, -0.2, 0.15, 0.55, 0.35, -15)                             # wing
        c.ellipse(INK, cx + 0.8 * s, cy - 0.85 * s, 0.09 * s, 0.09 * s)
    else:
        raise ValueError(animal)
    if animal != "chick":
        eye_x = {"sheep": 1.7, "goat": 1.75, "pig": 1.6, "horse": 1.9, "cow": 1.8}[animal]
        eye_y = {"sheep": -0.6, "goat": -1.05, "pig": -0.45, "horse": -1.55, "cow": -0.65}[animal]
        c.ellipse(INK if animal != "cow" or not flat else linear((250, 250, 250)),
                  cx + eye_x * s, cy + eye_y * s, 0.08 * s, 0.08 * s)


def draw_die(c: Canvas, x: float, y: float, size: float, body: str, colour: str, style: str) -> None:
    """A small die seen from above at (x, y) (its centre), ``size`` cm wide, showing ``colour``."""
    dark = body == "black"
    body_rgb = linear((22, 22, 24)) if dark else linear((246, 246, 242))
    paint = linear(PAINT[colour])
    h = size / 2
    c.rounded(linear((70, 70, 70)) * (0.6 if dark else 1.0), x - h - 0.04, y - h + 0.06,
              x + h + 0.04, y + h + 0.1, size * 0.22)                              # its side
    c.rounded(body_rgb, x - h, y - h, x + h, y + h, size * 0.22)
    if not dark:
        c.rounded(linear((60, 60, 60)), x - h, y - h, x + h, y + h, size * 0.22, thick=0.04)
    if style == "flat":
        f = size * 0.32
        c.rounded(paint, x - f, y - f, x + f, y + f, size * 0.1)
    else:
        f = size * 0.36
        c.poly(paint, [(x, y - f), (x + f, y), (x, y + f), (x - f, y)])
        c.poly(INK, [(x, y - f), (x + f, y), (x, y + f), (x - f, y)], thick=0.03)


MEADOW = {  # the flat style's panel: sky over grass, per animal a shade of its own
    "sheep": ((150, 200, 235), (120, 180, 80)), "goat": ((200, 220, 240), (150, 170, 80)),
    "pig": ((170, 215, 230), (110, 160, 70)), "horse": ((140, 190, 225), (140, 175, 70)),
    "cow": ((160, 205, 240), (100, 170, 90)), "chick": ((190, 220, 235), (130, 185, 70)),
}


GROUND = {  # the full-bleed style's ground, per animal (top, foot)
    "sheep": ((40, 110, 120), (20, 60, 70)), "goat": ((120, 120, 50), (70, 70, 30)),
    "pig": ((130, 50, 90), (80, 25, 55)), "horse": ((45, 60, 130), (25, 30, 75)),
    "cow": ((50, 110, 60), (25, 60, 35)), "chick": ((190, 100, 40), (120, 55, 25)),
}


def card_face(card: Card, style: str, paper: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face of ``card`` in ``style``: (H, W, 3) linear RGB, CARD_W x CARD_H cm at TEXELS."""
    c = Canvas(paper)
    if style == "flat":
        sky, grass = (linear(v) for v in MEADOW[card.animal])
        m = 0.32
        yy = (np.mgrid[0:c.h, 0:c.w][0] + 0.5) / TEXELS
        xx = (np.mgrid[0:c.h, 0:c.w][1] + 0.5) / TEXELS
        horizon = CARD_H * 0.6 + 0.25 * np.sin(xx * 1.3)
        panel = np.where((yy < horizon)[..., None], sky, grass).astype(np.float32)
        d = rounded_distance(xx - CARD_W / 2, yy - CARD_H / 2, CARD_W / 2 - m, CARD_H / 2 - m, 0.35)
        a = np.clip(0.5 - d * TEXELS, 0, 1)[..., None]
        c.img = c.img * (1 - a) + panel * a
        c.rounded(linear((90, 60, 40)), m, m, CARD_W - m, CARD_H - m, 0.35, thick=0.08)
        draw_animal(c, card.animal, CARD_W * 0.47, CARD_H * 0.6, 0.62, style)
        size = 1.05
        draw_die(c, CARD_W - m - 0.25 - size / 2, m + 0.3 + size / 2, size, "black", card.black, style)
        draw_die(c, CARD_W - m - 0.25 - size / 2, m + 0.55 + 1.5 * size, size, "white", card.white, style)
    elif style == "printed":
        # paper grain and a few fibres
        grain = cv2.GaussianBlur(rng.normal(0, 1, (c.h, c.w)).astype(np.float32), (0, 0), 1.2)
        c.img = c.img * (1 + 0.035 * grain[..., None])
        m = 0.25
        c.rounded(INK, m, m, CARD_W - m, CARD_H - m, 0.3, thick=0.05)
        band = linear((190, 60, 40)) if card.animal in ("pig", "cow", "chick") else linear((50, 90, 150))
        c.rounded(band, m + 0.15, m + 0.15, CARD_W - m - 0.15, m + 1.15, 0.2)
        text = np.zeros((c.h, c.w), np.uint8)
        name = card.animal.upper()
        scale = 0.028 * TEXELS
        (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_TRIPLEX, scale, max(1, int(TEXELS / 18)))
        cv2.putText(text, name, (int((c.w - tw) / 2), int((m + 0.65) * TEXELS + th / 2)),
                    cv2.FONT_HERSHEY_TRIPLEX, scale, 255, max(1, int(TEXELS / 18)), cv2.LINE_AA)
        a = (text.astype(np.float32) / 255)[..., None]
        c.img = c.img * (1 - a) + linear((250, 245, 230)) * a
        draw_animal(c, card.animal, CARD_W * 0.5, CARD_H * 0.47, 0.6, style)
        c.line(INK, m + 0.4, CARD_H * 0.72, CARD_W - m - 0.4, CARD_H * 0.72, 0.04)
        size = 1.2
        yd = CARD_H * 0.72 + 0.3 + size / 2
        draw_die(c, CARD_W * 0.5 - 0.9, yd, size, "black", card.black, style)
        draw_die(c, CARD_W * 0.5 + 0.9, yd, size, "white", card.white, style)
    elif style == "bleed":
        # the art to the card's edge: a deep ground darkening downwards, a pale disc behind the
        # animal, a thin cream frame line, the two dice side by side at the foot
        top, foot = (linear(v) for v in GROUND[card.animal])
        yy = (np.mgrid[0:c.h, 0:c.w][0] + 0.5) / (TEXELS * CARD_H)
        c.img = (top * (1 - yy[..., None]) + foot * yy[..., None]).astype(np.float32)
        m = 0.22
        c.rounded(linear((236, 226, 196)), m, m, CARD_W - m, CARD_H - m, 0.3, thick=0.05)
        c.ellipse(linear((236, 228, 200)), CARD_W * 0.5, CARD_H * 0.42, 2.1, 2.1)
        draw_animal(c, card.animal, CARD_W * 0.5, CARD_H * 0.46, 0.6, "flat")
        size = 1.1
        yd = CARD_H - m - 0.35 - size / 2
        draw_die(c, CARD_W * 0.5 - 1.0, yd, size, "black", card.black, "flat")
        draw_die(c, CARD_W * 0.5 + 1.0, yd, size, "white", card.white, "flat")
    else:
        raise ValueError(style)
    return np.clip(c.img, 0, 1).astype(np.float32)


# ------------------------------------------------------------------------------ the table

def _value_noise(rng: np.random.Generator, x: np.ndarray, y: np.ndarray, scale: float) -> np.ndarray:
    """Smooth noise in 0..1 at world (x, y) cm, features about ``scale`` cm wide."""
    grid = cv2.GaussianBlur(rng.random((48, 48)).astype(np.float32), (0, 0), 1.0)
    grid = (grid - grid.min()) / (np.ptp(grid) + 1e-6)
    big = cv2.resize(np.tile(grid, (3, 3)), (48 * 3 * 4, 48 * 3 * 4), interpolation=cv2.INTER_CUBIC)
    gx = ((x / scale) % 48) * 4 + 48 * 4
    gy = ((y / scale) % 48) * 4 + 48 * 4
    return cv2.remap(big, gx.astype(np.float32), gy.astype(np.float32), cv2.INTER_LINEAR)


TABLES = {  # kind -> sRGB tints it may take
    "wood": [(150, 100, 60), (120, 80, 50), (185, 140, 95)],
    "cloth": [(200, 195, 180), (70, 90, 150), (170, 60, 55)],
    "striped": [(200, 60, 60), (60, 110, 170), (90, 140, 80)],
    "tiles": [(215, 210, 200), (170, 150, 130)],
    "felt": [(30, 80, 45), (35, 38, 60), (40, 40, 40)],
    "checked": [(185, 35, 40), (40, 75, 160), (45, 120, 60), (60, 60, 60)],
}


def table_albedo(kind: str, tint: np.ndarray, rng: np.random.Generator, x: np.ndarray,
                 y: np.ndarray) -> np.ndarray:
    """The table's colour (linear RGB) at world (x, y) cm."""
    if kind == "wood":
        warp = _value_noise(rng, x, y, 5.0) * 3.0
        rings = 0.5 + 0.5 * np.sin((y + 0.15 * x + warp * 2.5) * 2.6)
        fibre = _value_noise(rng, x * 0.15, y * 4, 0.3)
        v = 0.62 + 0.22 * rings + 0.14 * fibre
        planks = (np.abs((y % 14.0) - 7.0) > 6.93)
        v = np.where(planks, v * 0.45, v)
        return v[..., None] * tint
    if kind == "cloth":
        weave = np.sin(x * 38) * np.sin(y * 38)
        v = 0.82 + 0.08 * weave + 0.1 * _value_noise(rng, x, y, 0.4) - 0.08 * _value_noise(rng, x, y, 7)
        return v[..., None] * tint
    if kind == "striped":
        stripe = ((x * 0.8 + y * 0.25) % 5.0) < 2.5
        weave = 0.06 * np.sin(x * 35) * np.sin(y * 35)
        base = np.where(stripe[..., None], tint, linear((235, 230, 215)))
        return base * (0.9 + weave + 0.08 * _value_noise(rng, x, y, 0.5))[..., None]
    if kind == "tiles":
        lines = np.maximum(np.abs((x % 10.0) - 5.0), np.abs((y % 10.0) - 5.0)) > 4.82  # grout
        v = 0.85 + 0.1 * _value_noise(rng, x, y, 2.5)
        col = v[..., None] * tint
        return np.where(lines[..., None], linear((110, 105, 100)), col)
    if kind == "felt":
        v = 0.8 + 0.2 * _value_noise(rng, x, y, 0.15) + 0.12 * _value_noise(rng, x, y, 6.0)
        return v[..., None] * tint
    if kind == "checked":
        # gingham: bands of the tint woven both ways over white, turned any way on the table;
        # a check 1-2.5 cm wide, where two bands cross the full tint, where one half of it
        turn = rng.uniform(0, np.pi / 2)
        period = rng.uniform(2.0, 5.0)
        u, v = x * np.cos(turn) + y * np.sin(turn), -x * np.sin(turn) + y * np.cos(turn)
        share = (((u % period) < period / 2).astype(np.float32) + ((v % period) < period / 2)) / 2
        white = linear((238, 235, 226))
        weave = 0.05 * np.sin(x * 40) * np.sin(y * 40) + 0.06 * _value_noise(rng, x, y, 0.5)
        base = white + share[..., None] * (tint - white)
        return base * (0.92 + weave)[..., None]
    raise ValueError(kind)


# ------------------------------------------------------------------------------ the box

def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues' rotation about ``axis`` by ``angle`` radians."""
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


@dataclass
class Placed:
    """A card on the table: centre (cm), turn (radians), the small bend of its normal."""

    card: Card
    x: float
    y: float
    turn: float
    normal: np.ndarray

    def corners(self) -> np.ndarray:
        """World (x, y) of the card's four (unrounded) corners, (4, 2)."""
        hw, hh = CARD_W / 2, CARD_H / 2
        c, s = np.cos(self.turn), np.sin(self.turn)
        local = np.array([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)])
        return local @ np.array([[c, s], [-s, c]]) + (self.x, self.y)

    def outline(self, n: int = 16) -> np.ndarray:
        """World (x, y) points around the card's rounded outline, (4 n, 2)."""
        pts = []
        hw, hh = CARD_W / 2 - CORNER, CARD_H / 2 - CORNER
        for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
            for a in np.linspace(0, np.pi / 2, n):
                ang = a + k * np.pi / 2
                pts.append((sx * hw + CORNER * np.cos(ang), sy * hh + CORNER * np.sin(ang)))
        p = np.array(pts)
        c, s = np.cos(self.turn), np.sin(self.turn)
        return p @ np.array([[c, s], [-s, c]]) + (self.x, self.y)


#: The art drawn for a box, by (seed, style, deck): a test that renders a set and then lays
#: cards on the same box draws its deck once (the paper and the texels per pixel follow from
#: the seed).
_FACES: dict[tuple, dict[str, np.ndarray]] = {}


def _faces(seed: int, style: str, deck: tuple[Card, ...], paper: np.ndarray,
           texel_px: float) -> dict[str, np.ndarray]:
    """Each card's face in ``style`` on ``paper``, blurred to the size a texel has in the
    frame (no aliasing when sampled); read-only arrays, drawn once per box."""
    key = (seed, style, deck)
    if key not in _FACES:
        faces = {c.id: card_face(c, style, paper, np.random.default_rng([seed, i]))
                 for i, c in enumerate(deck)}
        sigma = max(0.0, 0.45 / texel_px)
        if sigma > 0.3:
            faces = {k: cv2.GaussianBlur(v, (0, 0), sigma) for k, v in faces.items()}
        for v in faces.values():
            v.flags.writeable = False
        while len(_FACES) >= 4:   # a few boxes' art at a time (a deck's is some 36 MB)
            del _FACES[next(iter(_FACES))]
        _FACES[key] = faces
    return _FACES[key]


@dataclass
class Box:
    """One mounted box: the camera (height, lean, focal length, lens), the table, the lamp and
    the deck's art in one style."""

    height: float
    focal: float
    lean: np.ndarray
    k1: float
    kind: str
    style: str
    lamp: np.ndarray
    gloss: float
    shininess: float
    faces: dict[str, np.ndarray]
    ground: np.ndarray = field(repr=False)       # (H, W, 2) world cm under each pixel
    table: np.ndarray = field(repr=False)        # (H, W, 3) linear albedo
    touching: float = 0.0
    #: Share of each card of the last frame under strong glare (for looking at failures).
    glare: list[float] = field(default_factory=list, repr=False)
    _view: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def from_seed(cls, seed: int, style: str, kind: str, deck: list[Card]) -> "Box":
        rng = np.random.default_rng([seed, 4242])
        lean = rotation(np.array([rng.normal(), rng.normal(), 0.0]), np.radians(rng.uniform(0, 12)))
        height = float(rng.uniform(35, 60))
        # a card about 90-120 pixels wide: the focal length follows the height
        focal = float(rng.uniform(15, 20) * height)
        k1 = float(rng.choice([-1, 1]) * rng.uniform(0.03, 0.12))
        az = rng.uniform(0, 2 * np.pi)
        reach = rng.uniform(10, 35)
        lamp = np.array([reach * np.cos(az), reach * np.sin(az), rng.uniform(45, 90)])
        paper = linear(tuple(rng.uniform([232, 226, 205], [252, 248, 240])))
        faces = _faces(seed, style, tuple(deck), paper, focal / height / TEXELS)
        box = cls(height, focal, lean, k1, kind, style, lamp, float(rng.uniform(0.15, 0.6)),
                  float(rng.uniform(40, 160)), faces, np.zeros(0), np.zeros(0),
                  touching=0.3 if seed % 2 == 0 else 0.0)
        box.ground = box._ground()
        tint = linear(TABLES[kind][int(rng.integers(len(TABLES[kind])))])
        gx, gy = box.ground[..., 0].astype(np.float32), box.ground[..., 1].astype(np.float32)
        box.table = table_albedo(kind, tint, np.random.default_rng([seed, 9]), gx, gy).astype(np.float32)
        return box

    # -- camera
    def _ground(self) -> np.ndarray:
        w, h = SIZE
        v, u = np.mgrid[0:h, 0:w].astype(np.float64)
        u, v = u + 0.5 - w / 2, v + 0.5 - h / 2
        r2 = (u * u + v * v) / (w / 2) ** 2
        u, v = u * (1 + self.k1 * r2), v * (1 + self.k1 * r2)
        d = np.stack([u / self.focal, v / self.focal, -np.ones_like(u)], -1) @ self.lean.T
        t = self.height / -d[..., 2]
        return np.stack([t * d[..., 0], t * d[..., 1]], -1)

    def project(self, xy: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) of table points ``xy`` (N, 2) cm, through the lens."""
        p = np.column_stack([xy, np.zeros(len(xy))]) - (0, 0, self.height)
        c = p @ self.lean
        uu, vv = -c[:, 0] / c[:, 2] * self.focal, -c[:, 1] / c[:, 2] * self.focal
        u, v = uu.copy(), vv.copy()
        w, h = SIZE
        for _ in range(30):  # invert u_ideal = u (1 + k1 r2)
            r2 = (u * u + v * v) / (w / 2) ** 2
            u, v = uu / (1 + self.k1 * r2), vv / (1 + self.k1 * r2)
        return np.column_stack([u + w / 2, v + h / 2])

    def card_px(self) -> float:
        """A card's width in pixels near the frame's centre."""
        return CARD_W * self.focal / self.height

    # -- placing cards
    def in_view(self, p: Placed, margin: float) -> bool:
        q = self.project(p.outline())
        w, h = SIZE
        return bool((q[:, 0] > margin).all() and (q[:, 0] < w - margin).all()
                    and (q[:, 1] > margin).all() and (q[:, 1] < h - margin).all())

    def lay(self, rng: np.random.Generator, cards: list[Card], touching: bool = False) -> list[Placed]:
        """Cards turned any way, close together, not overlapping, wholly in view."""
        w, h = SIZE
        for _ in range(60):
            placed: list[Placed] = []
            for card in cards:
                for _ in range(300):
                    turn = float(rng.uniform(0, 2 * np.pi))
                    if touching and len(placed) == 1:  # side by side with the first, edges touching
                        first = placed[0]
                        turn = first.turn + float(rng.choice([0.0, np.pi]))
                        c, s = np.cos(first.turn), np.sin(first.turn)
                        side = float(rng.choice([-1.0, 1.0])) * (CARD_W + 0.02)
                        slide = float(rng.uniform(-0.4, 0.4)) * CARD_H
                        x, y = first.x + side * c - slide * s, first.y + side * s + slide * c
                    elif placed and rng.random() < 0.7:
                        near = placed[int(rng.integers(len(placed)))]
                        ang = rng.uniform(0, 2 * np.pi)
                        dist = rng.uniform(0.55, 1.0) * np.hypot(CARD_W, CARD_H)
                        x, y = near.x + dist * np.cos(ang), near.y + dist * np.sin(ang)
                    else:
                        g = self.ground[int(rng.uniform(0.1, 0.9) * h), int(rng.uniform(0.1, 0.9) * w)]
                        x, y = float(g[0]), float(g[1])
                    tilt = rotation(np.array([rng.normal(), rng.normal(), 0.0]),
                                    np.radians(rng.uniform(0, 4)))
                    cand = Placed(card, float(x), float(y), turn, tilt @ np.array([0.0, 0.0, 1.0]))
                    gap = 0.0 if touching else 0.25
                    if all(apart(cand, o, gap) for o in placed) and self.in_view(cand, 3.0):
                        placed.append(cand)
                        break
                else:
                    break
            if len(placed) == len(cards):
                return placed
        raise RuntimeError(f"could not lay {len(cards)} cards on this table")

    # -- one frame
    def render(self, placed: list[Placed], rng: np.random.Generator) -> np.ndarray:
        """The frame the camera takes of ``placed`` (BGR uint8, JPEG-decoded)."""
        return self._sensor(self.radiance(placed, rng), rng)

    def radiance(self, placed: list[Placed], rng: np.random.Generator) -> np.ndarray:
        """The light reaching the lens from ``placed`` on the table (linear RGB, H x W x 3),
        before the sensor."""
        w, h = SIZE
        g = self.ground
        albedo = self.table.copy()
        normal = np.zeros((h, w, 3), np.float32)
        normal[..., 2] = 1
        on_card = np.zeros((h, w), np.float32)
        shadow: np.ndarray = np.zeros((h, w), np.float32)
        lamp = self.lamp + rng.normal(0, 2.0, 3)
        px_cm = self.height / self.focal
        lift = float(rng.uniform(0.15, 0.4))  # how far a card's bent edges stand off the table
        bx0, by0, bx1, by1 = w, h, 0, 0        # the window holding every card
        for p in placed:
            q = self.project(p.outline(6))
            x0, y0 = np.floor(q.min(0)).astype(int) - 12
            x1, y1 = np.ceil(q.max(0)).astype(int) + 12
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            bx0, by0, bx1, by1 = min(bx0, x0), min(by0, y0), max(bx1, x1), max(by1, y1)
            gx, gy = g[y0:y1, x0:x1, 0] - p.x, g[y0:y1, x0:x1, 1] - p.y
            c, s = np.cos(p.turn), np.sin(p.turn)
            lx, ly = gx * c + gy * s, -gx * s + gy * c
            d = rounded_distance(lx, ly, CARD_W / 2, CARD_H / 2, CORNER)
            cover = np.clip(0.5 - d / px_cm, 0, 1).astype(np.float32)
            face = self.faces[p.card.id]
            th, tw = face.shape[:2]
            tex = cv2.remap(face, ((lx + CARD_W / 2) * TEXELS - 0.5).astype(np.float32),
                            ((ly + CARD_H / 2) * TEXELS - 0.5).astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            rim = np.clip(1 - np.abs(d + 0.03) / 0.04, 0, 1)[..., None] * 0.25  # the cut edge
            tex = tex * (1 - rim)
            a = cover[..., None]
            albedo[y0:y1, x0:x1] = albedo[y0:y1, x0:x1] * (1 - a) + tex * a
            normal[y0:y1, x0:x1] = normal[y0:y1, x0:x1] * (1 - a) + p.normal.astype(np.float32) * a
            on_card[y0:y1, x0:x1] = np.maximum(on_card[y0:y1, x0:x1], cover)
            # its shadow: the outline lifted by `lift`, cast away from the lamp onto the table
            ox = lift * (g[y0:y1, x0:x1, 0] - lamp[0]) / lamp[2]
            oy = lift * (g[y0:y1, x0:x1, 1] - lamp[1]) / lamp[2]
            sx, sy = gx - ox, gy - oy
            ds = rounded_distance(sx * c + sy * s, -sx * s + sy * c, CARD_W / 2, CARD_H / 2, CORNER)
            shadow[y0:y1, x0:x1] = np.maximum(shadow[y0:y1, x0:x1], (ds < 0).astype(np.float32))
        shadow = cv2.GaussianBlur(shadow, (0, 0), float(rng.uniform(1.5, 4.0)))
        # the lamp: inverse-square falloff, Lambert, Blinn-Phong glare on the card stock
        to_lamp = np.empty((h, w, 3), np.float32)   # filled channel by channel (no stacking)
        to_lamp[..., 0] = lamp[0] - g[..., 0]
        to_lamp[..., 1] = lamp[1] - g[..., 1]
        to_lamp[..., 2] = lamp[2]
        dist2 = _dot(to_lamp, to_lamp)
        ldir = to_lamp / np.sqrt(dist2)[..., None]
        # off the cards the table's normal is (0, 0, 1): its Lambert term is the lamp's height
        # over its distance, and it has no glare; the normals are worked out in the cards'
        # window only (the same numbers: 0 * x + 0 * y + 1 * z is z)
        lambert = np.clip(ldir[..., 2], 0, 1)
        spec = np.zeros((h, w), np.float32)
        if bx1 > bx0 and by1 > by0:
            win = (slice(by0, by1), slice(bx0, bx1))
            nrm = normal[win] / _norm(normal[win])[..., None]
            lambert[win] = np.clip(_dot(nrm, ldir[win]), 0, 1)
            half = ldir[win] + self._to_camera()[win]
            half /= _norm(half)[..., None]
            spec[win] = np.clip(_dot(nrm, half), 0, 1) ** self.shininess * self.gloss * on_card[win]
        fall = (lamp[2] ** 2) / dist2
        self.glare = [float((spec[mask > 0.5] * fall[mask > 0.5] > 0.12).mean()) for mask in
                      (self._footprint(p) for p in placed)]
        ambient = float(rng.uniform(0.25, 0.45))
        direct = (1 - ambient) * lambert * fall * (1 - 0.55 * shadow * (1 - on_card))
        light = (ambient * (1 - 0.25 * shadow * (1 - on_card)) + direct)[..., None]
        return (albedo * light + (spec * fall)[..., None]).astype(np.float32)

    def _to_camera(self) -> np.ndarray:
        """The unit vector from each pixel's table point to the camera (H x W x 3), the same
        for every frame of this box."""
        if self._view is None:
            w, h = SIZE
            g = self.ground
            cam = np.dstack([-g[..., 0], -g[..., 1], np.full((h, w), self.height)]).astype(np.float32)
            self._view = cam / _norm(cam)[..., None]
        return self._view

    def _footprint(self, p: Placed) -> np.ndarray:
        """Where card ``p`` is in the frame (H x W, 1 inside)."""
        m = np.zeros(SIZE[::-1], np.uint8)
        cv2.fillPoly(m, [np.round(self.project(p.outline(6))).astype(np.int32)], 1)
        return m

    def _sensor(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        vignette = 1 - rng.uniform(0.15, 0.4) * _RADIUS2
        balance = rng.uniform(0.85, 1.15, 3).astype(np.float32)
        exposure = float(rng.uniform(0.75, 1.3))
        img = img * vignette[..., None].astype(np.float32)
        img *= balance
        img *= exposure
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.2)))
        img += rng.normal(0, rng.uniform(0.004, 0.018), img.shape).astype(np.float32)
        np.clip(img, 0, 1, out=img)
        # sRGB: 12.92 x below 0.0031308, else 1.055 x^(1/2.4) - 0.055 (worked in place)
        srgb = np.power(img, 1 / 2.4)
        srgb *= 1.055
        srgb -= 0.055
        low = img <= 0.0031308
        srgb[low] = 12.92 * img[low]
        srgb *= 255
        srgb += 0.5
        np.clip(srgb, 0, 255, out=srgb)
        bgr = cv2.cvtColor(srgb.astype(np.uint8), cv2.COLOR_RGB2BGR)
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if frame is None:
            raise RuntimeError("JPEG decoding failed")
        return frame


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot product of two H x W x 3 vector fields (summed in the order ``.sum(2)`` sums)."""
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]


def _norm(a: np.ndarray) -> np.ndarray:
    """The length of each vector of an H x W x 3 field."""
    return np.sqrt(_dot(a, a))


def _radius2() -> np.ndarray:
    """Each pixel's squared distance from the frame's centre, in half frame widths."""
    w, h = SIZE
    yy, xx = np.mgrid[0:h, 0:w]
    return ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w / 2) ** 2


_RADIUS2 = _radius2()


def apart(a: Placed, b: Placed, gap: float) -> bool:
    """Whether two cards' rectangles are at least ``gap`` cm apart (separating axis test, on
    the rectangles grown by gap/2: corners rounding only adds room)."""
    def corners(p: Placed) -> np.ndarray:
        hw, hh = CARD_W / 2 + gap / 2, CARD_H / 2 + gap / 2
        c, s = np.cos(p.turn), np.sin(p.turn)
        local = np.array([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)])
        return local @ np.array([[c, s], [-s, c]]) + (p.x, p.y)

    ca, cb = corners(a), corners(b)
    for p in (a, b):
        for ang in (p.turn, p.turn + np.pi / 2):
            axis = np.array([np.cos(ang), np.sin(ang)])
            pa, pb = ca @ axis, cb @ axis
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return True
    return False


def write_set(folder: Path, seed: int, style: str, kind: str, tables: int, shots: int,
              progress: bool = True, deck: list[Card] | None = None) -> dict[str, list[str]]:
    """Render one set (one box) into ``folder`` (the whole deck, or ``deck``); returns its
    labels."""
    deck = load_deck() if deck is None else deck
    box = Box.from_seed(seed, style, kind, deck)
    rng = np.random.default_rng([seed, 31])
    enroll, scenes = folder / "enroll", folder / "scenes"
    scenes.mkdir(parents=True, exist_ok=True)
    enroll.mkdir(parents=True, exist_ok=True)
    total = len(deck) * shots + tables
    done = 0
    where: dict[str, list[dict[str, object]]] = {}  # image -> the cards' corners in the frame

    def note(name: str, placed: list[Placed]) -> None:
        where[name] = [{"id": p.card.id, "corners": np.round(box.project(p.corners()), 1).tolist(),
                        "glare": round(g, 3)} for p, g in zip(placed, box.glare, strict=True)]

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            bar = "#" * int(30 * done / total)
            print(f"\r  {folder.name} [{bar:<30}] {done}/{total}", end="", file=sys.stderr, flush=True)

    for card in deck:
        (enroll / card.id).mkdir(exist_ok=True)
        for k in range(shots):
            alone = box.lay(rng, [card])
            cv2.imwrite(str(enroll / card.id / f"{k}.jpg"), box.render(alone, rng))
            note(f"enroll/{card.id}/{k}.jpg", alone)
            tick()
    labels: dict[str, list[str]] = {}
    for i in range(tables):
        count = int(rng.integers(2, min(12, len(deck)) + 1))
        cards = [deck[int(j)] for j in rng.choice(len(deck), count, replace=False)]
        placed = box.lay(rng, cards, touching=bool(rng.random() < box.touching))
        name = f"table-{i:04d}.jpg"
        cv2.imwrite(str(scenes / name), box.render(placed, rng))
        labels[name] = sorted(p.card.id for p in placed)
        note(f"scenes/{name}", placed)
        tick()
    (folder / "labels.json").write_text(json.dumps(labels, indent=1))
    (folder / "corners.json").write_text(json.dumps(where))
    if progress:
        print(file=sys.stderr)
    return labels


STYLES = ("flat", "printed", "bleed")
SETS = [("flat", "wood"), ("printed", "cloth"), ("flat", "felt"), ("printed", "tiles"),
        ("flat", "striped"), ("printed", "wood"), ("flat", "cloth"), ("printed", "felt")]


def main() -> int:
    parser = Parser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sets", type=at_least(1), default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=at_least(0), default=120)
    parser.add_argument("--shots", type=at_least(1), default=2, help="enrollment shots per card")
    parser.add_argument("--style", choices=STYLES, help="every set in this art style")
    parser.add_argument("--table", choices=sorted(TABLES), help="every set on this kind of table")
    args = parser.parse_args()
    for k in range(args.sets):
        style, kind = SETS[(args.seed - 1 + k) % len(SETS)]
        style, kind = args.style or style, args.table or kind
        folder = args.out / f"{style}-{kind}-{args.seed + k}"
        write_set(folder, args.seed + k, style, kind, args.tables, args.shots)
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
