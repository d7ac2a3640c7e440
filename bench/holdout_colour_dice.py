"""A second, independent Fun Farm colour-dice renderer: held-out sets no reader here was tuned on.

    .venv/bin/python bench/holdout_colour_dice.py OUT [--sets 3] [--scenes 120] [--seed 1]
    .venv/bin/python bench/bench_vision.py colour-dice OUT/<set>

``vision/render/colour_dice.py`` draws the frames the colour-dice reader was built and tuned on;
judging the reader only on its own renderer measures how well it fits that renderer.  This file
shares no code with it (nor with anything in ``vision/``).  The dice are the game's: a
white-bodied and a black-bodied cube, each face carrying one of six colours (red, orange,
yellow, green, blue, purple), each die with its own fixed layout of the colours on its faces.
The paints are our own (a dark red, an orange and a golden yellow close to each other, a teal
green, a mid blue, a violet), with the mark art in four styles of its own:

* "disc": a filled round colour disc in the middle of each face;
* "square": a rounded colour square;
* "pips": five colour dots, as the five of an ordinary die;
* "painted": the whole face painted, the body showing only in a band at the edges.

Each pixel of a frame is ray-cast (2x2 rays per pixel on the dice) from a mounted camera (28-45
cm over the table, leaning up to 12 degrees, radial lens distortion of either sign, 960x720) at
rounded cubes (sphere-traced signed distance, bevel radius of its own per box), lying flat (a
few tilted a little), turned any way, both wholly in view, in some boxes often with edges
touching (slid in until they meet).  A lamp of its own colour temperature (2700-6500 K, a bulb
of 0.4-1.2 cm radius: soft ray-traced shadows on the table and from die to die, distance
falloff) and a daylight ambient of another colour light them, with contact darkening at the
dice's feet, the bulb mirrored by the glossy plastic (a soft glint where the geometry puts it)
and a faint satin sheen.  Tables: wood planks, coloured cloth weave, felt, tiles and a
near-white linen (on which the white die is hard to see); with ``--table checked`` a gingham of
red, blue, green or yellow checks on white, the dice's own colours among them.  Each shot has
its own white balance (the camera's automatic white balance corrects the lamp only partly),
exposure, blur, sensor noise and JPEG 65-95, under the lens's vignetting.

Each set is one mounted box (one camera, one table, one art style, one lamp):
``enroll/<white|black>/<colour>/<k>.jpg`` holds the owner's enrollment shots (one die alone,
that colour up, 3 per colour and die), ``enroll/table/0.jpg`` the empty table, ``scenes/`` the
throws and ``labels.json`` the truth (scene file -> ``{"white": colour, "black": colour}``);
``centres.json`` adds, for every image, where each die's top face centre is in the frame and
its side in pixels (for looking at failures).

``--cards N`` lays Fun Farm cards round every throw, as they lie in the game's circle: a deck
of N cards drawn here (cream paper, an animal in thick dark outlines, and a small white die and
a small black die printed in the dice's own colours), 1-4 of them per throw, flat on the table
and lit with it, apart, none under a die, half of them close beside one.  ``enroll-cards/<id>/``
holds each card alone on the table (2 photos: what ``farmbox vision enroll cards`` learns from)
and ``enroll-cards/table/`` the empty table,
and the throws are the same as without cards.  ``bench/bench_vision.py colour-dice`` then
enrolls the deck too and reads the dice with ``--cards``, as the box does in Fun Farm.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from counts import Parser, at_least

SIZE = (960, 720)
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
DICE = ("white", "black")
#: Paint of the six colours, sRGB (our own values; each box varies them a little).
PAINT = {
    "red": (168, 24, 36), "orange": (236, 128, 16), "yellow": (238, 196, 30),
    "green": (18, 150, 112), "blue": (30, 84, 196), "purple": (118, 58, 178),
}
#: Body plastic, sRGB.
BODY = {"white": (236, 233, 226), "black": (30, 29, 31)}
STYLES = ("disc", "square", "pips", "painted")
#: The six face normals in the die's own frame: +x, -x, +y, -y, +z, -z.
FACE_N = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)], float)
#: Lamp colour (linear RGB, green 1) by colour temperature, interpolated between.
KELVIN = [(2700, (1.0, 0.74, 0.45)), (3500, (1.0, 0.83, 0.62)), (4500, (1.0, 0.92, 0.8)),
          (5500, (1.0, 0.98, 0.94)), (6500, (0.96, 1.0, 1.06))]


def _srgb_table() -> np.ndarray:
    """Linear 0..1 in 4096 steps -> sRGB 0..255 (the camera's tone curve)."""
    x = np.linspace(0, 1, 4096)
    y = np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055)
    return np.clip(y * 255 + 0.5, 0, 255).astype(np.uint8)


SRGB = _srgb_table()


def linear(srgb: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    """sRGB 0..255 -> linear RGB 0..1."""
    c = np.asarray(srgb, np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def lamp_colour(kelvin: float) -> np.ndarray:
    """Linear RGB of a lamp of ``kelvin`` (green 1)."""
    ks = [k for k, _ in KELVIN]
    rgb = [np.interp(kelvin, ks, [c[i] for _, c in KELVIN]) for i in range(3)]
    rgb = np.array(rgb, np.float32)
    return rgb / rgb[1]


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues' rotation about ``axis`` by ``angle`` radians."""
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def face_up(index: int) -> np.ndarray:
    """The rotation that turns face ``index`` of the die's own frame to point straight up."""
    n, z = FACE_N[index], np.array([0.0, 0.0, 1.0])
    if n[2] > 0.5:
        return np.eye(3)
    if n[2] < -0.5:
        return rotation(np.array([1.0, 0, 0]), np.pi)
    return rotation(np.cross(n, z), np.pi / 2)


def rounded_distance(x: np.ndarray, y: np.ndarray, hw: float, hh: float, r: float) -> np.ndarray:
    """Signed distance (< 0 inside) to a rounded rectangle of half sizes hw, hh centred at 0."""
    qx, qy = np.abs(x) - (hw - r), np.abs(y) - (hh - r)
    return np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r


# ------------------------------------------------------------------------------ the dice

def mark_cover(style: str, u: np.ndarray, v: np.ndarray, soft: float = 0.03) -> np.ndarray:
    """How much of face point (u, v) (face half-widths, -1..1) is under the colour mark."""
    def inside(d: np.ndarray) -> np.ndarray:
        return np.clip(0.5 - d / soft, 0, 1)

    if style == "disc":
        return inside(np.hypot(u, v) - 0.6)
    if style == "square":
        return inside(rounded_distance(u, v, 0.6, 0.6, 0.2))
    if style == "pips":
        d = np.hypot(u, v) - 0.21
        for sx in (-0.5, 0.5):
            for sy in (-0.5, 0.5):
                d = np.minimum(d, np.hypot(u - sx, v - sy) - 0.21)
        return inside(d)
    if style == "painted":
        return inside(rounded_distance(u, v, 0.82, 0.82, 0.22))
    raise ValueError(style)


@dataclass
class Die:
    """One die on the table: which body, which colour is up, centre (world cm), body -> world
    rotation."""

    body: str
    top: str
    centre: np.ndarray
    rot: np.ndarray
    yaw: float = 0.0

    def local(self, p: np.ndarray) -> np.ndarray:
        """World points (N, 3) in the die's own frame."""
        return (p - self.centre) @ self.rot


def rounded_box_sdf(p: np.ndarray, half: float, bevel: float) -> np.ndarray:
    """Signed distance of own-frame points (N, 3) to a cube of half side ``half`` rounded by
    ``bevel``."""
    q = np.abs(p) - (half - bevel)
    qx, qy, qz = q[:, 0], q[:, 1], q[:, 2]
    out = np.sqrt(np.maximum(qx, 0) ** 2 + np.maximum(qy, 0) ** 2 + np.maximum(qz, 0) ** 2)
    return out + np.minimum(np.maximum(np.maximum(qx, qy), qz), 0) - bevel


def surface_points(half: float, bevel: float, n: int = 9) -> np.ndarray:
    """Points (6 n n, 3) on the rounded cube's surface, own frame, rounded edges included."""
    g = np.linspace(-1, 1, n)
    u, v = (a.ravel() for a in np.meshgrid(g, g))
    cube = np.concatenate([np.roll(np.stack([u, v, np.full_like(u, s)]), k, 0).T
                           for k in range(3) for s in (-1.0, 1.0)]) * half
    core = np.clip(cube, -(half - bevel), half - bevel)
    out = cube - core
    return core + bevel * out / np.linalg.norm(out, axis=1, keepdims=True)


def slab_local(ol: np.ndarray, dl: np.ndarray, half: float) -> tuple[np.ndarray, np.ndarray]:
    """Entry and exit ray parameters of rays (own frame, (N, 3)) through the cube of half side
    ``half`` (exit < entry: a miss)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / dl
        t1, t2 = (-half - ol) * inv, (half - ol) * inv
    lo, hi = np.fmin(t1, t2), np.fmax(t1, t2)  # fmin/fmax: a NaN (ray in a slab's plane) loses
    t_in = np.fmax(np.fmax(lo[:, 0], lo[:, 1]), lo[:, 2])
    t_out = np.fmin(np.fmin(hi[:, 0], hi[:, 1]), hi[:, 2])
    return t_in, t_out


def trace(o: np.ndarray, d: np.ndarray, dice: list[Die], half: float, bevel: float,
          steps: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Nearest hit of rays (from one point ``o`` (3,), directions ``d`` (N, 3)) with the
    rounded dice: t and die index (-1: none)."""
    n = d.shape[0]
    best_t, best = np.full(n, np.inf), np.full(n, -1)
    for k, die in enumerate(dice):
        ol = np.broadcast_to((o - die.centre) @ die.rot, d.shape)
        dl = d @ die.rot
        t_in, t_out = slab_local(ol, dl, half)
        cand = np.flatnonzero((t_out > np.maximum(t_in, 0)) & (t_in < best_t))
        if cand.size == 0:
            continue
        t = np.maximum(t_in[cand], 0)
        stop = t_out[cand]
        live = np.arange(cand.size)
        hit = np.zeros(cand.size, bool)
        for _ in range(steps):  # sphere tracing from the bounding cube inwards
            dist = rounded_box_sdf(ol[cand[live]] + dl[cand[live]] * t[live, None], half, bevel)
            t[live] += dist
            done = dist < 0.004 * half
            hit[live[done]] = True
            live = live[~done & (t[live] < stop[live])]
            if live.size == 0:
                break
        hit &= t < stop + 1e-6
        sel = cand[hit]
        better = t[hit] < best_t[sel]
        best_t[sel[better]], best[sel[better]] = t[hit][better], k
    return best_t, best


def blocked(o: np.ndarray, d: np.ndarray, dice: list[Die], half: float,
            skip: int = -1) -> np.ndarray:
    """Whether rays (o, d: world, (N, 3)) towards the lamp pass through a die (its cube shrunk
    a little for the rounding; a soft shadow does not need more)."""
    out = np.zeros(d.shape[0], bool)
    for k, die in enumerate(dice):
        if k == skip:
            continue
        t_in, t_out = slab_local((o - die.centre) @ die.rot, d @ die.rot, 0.96 * half)
        out |= t_out > np.maximum(t_in, 0)
    return out


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
    "wood": [(160, 110, 66), (110, 72, 44), (196, 156, 108)],
    "cloth": [(60, 80, 140), (150, 50, 48), (70, 110, 70), (200, 180, 120)],
    "felt": [(28, 86, 50), (40, 44, 70), (52, 50, 48), (110, 30, 36)],
    "tiles": [(222, 216, 204), (168, 140, 118), (120, 150, 160)],
    "linen": [(238, 235, 226), (232, 232, 230), (240, 234, 220)],
    "checked": [(190, 40, 44), (44, 80, 170), (50, 130, 64), (225, 190, 40)],
}


def table_albedo(kind: str, tint: np.ndarray, rng: np.random.Generator, x: np.ndarray,
                 y: np.ndarray) -> np.ndarray:
    """The table's colour (linear RGB) at world (x, y) cm."""
    if kind == "wood":  # planks along x, grain with knots, dark joints
        warp = _value_noise(rng, x, y, 4.0) * 2.0
        grain = 0.5 + 0.5 * np.sin((y * 3.1 + warp * 3.0 + 0.4 * np.sin(x * 0.3)) * 1.9)
        fibre = _value_noise(rng, x * 0.1, y * 5, 0.25)
        plank = np.floor(y / 9.0)
        shade = 0.9 + 0.2 * ((plank * 0.618) % 1.0)
        v = (0.6 + 0.2 * grain + 0.15 * fibre) * shade
        v = np.where(np.abs((y % 9.0) - 4.5) > 4.42, v * 0.4, v)
        return v[..., None] * tint
    if kind == "cloth":  # a coarse two-colour weave
        warp = 0.5 + 0.5 * np.sin(x * 26)
        weft = 0.5 + 0.5 * np.sin(y * 26)
        over = (np.floor(x * 26 / np.pi) + np.floor(y * 26 / np.pi)) % 2
        v = np.where(over > 0, 0.75 + 0.2 * warp, 0.72 + 0.2 * weft)
        v = v * (0.92 + 0.1 * _value_noise(rng, x, y, 0.3) - 0.08 * _value_noise(rng, x, y, 8.0))
        return v[..., None] * tint
    if kind == "felt":
        v = 0.78 + 0.22 * _value_noise(rng, x, y, 0.12) + 0.1 * _value_noise(rng, x, y, 5.0)
        return v[..., None] * tint
    if kind == "tiles":  # square tiles, a pale grout, a mottled glaze
        size = 7.0
        grout = np.maximum(np.abs((x % size) - size / 2), np.abs((y % size) - size / 2)) > size / 2 - 0.15
        mottle = 0.88 + 0.1 * _value_noise(rng, x, y, 1.5) + 0.04 * _value_noise(rng, x, y, 0.2)
        col = mottle[..., None] * tint
        return np.where(grout[..., None], linear((185, 180, 170)), col)
    if kind == "linen":  # near-white linen: a fine weave, slubs, soft folds
        weave = 0.03 * np.sin(x * 45) * np.sin(y * 45)
        slub = 0.05 * _value_noise(rng, x * 0.2, y * 3.0, 0.3)
        fold = 0.05 * _value_noise(rng, x, y, 9.0)
        v = 0.9 + weave + slub - fold
        return v[..., None] * tint
    if kind == "checked":  # gingham: the tint woven both ways over white, turned any way
        turn, period = rng.uniform(0, np.pi / 2), rng.uniform(2.0, 5.0)
        u, w = x * np.cos(turn) + y * np.sin(turn), -x * np.sin(turn) + y * np.cos(turn)
        share = (((u % period) < period / 2).astype(np.float32) + ((w % period) < period / 2)) / 2
        white = linear((238, 235, 226))
        v = 0.92 + 0.05 * np.sin(x * 40) * np.sin(y * 40) + 0.06 * _value_noise(rng, x, y, 0.5)
        return v[..., None] * (white + share[..., None] * (tint - white))
    raise ValueError(kind)


# ------------------------------------------------------------------------------ Fun Farm cards

#: A card's face texture, pixels (portrait), and its long over short side.
CARD_TEX = (200, 290)
CARD_LONG = CARD_TEX[1] / CARD_TEX[0]


def card_face(paints: dict[str, np.ndarray], seed: int, card: int) -> np.ndarray:
    """Card ``card`` of a box's Fun Farm-like deck (linear RGB albedo, portrait): cream paper in
    a grey rim, an animal drawn in thick dark outlines over a flat colour, and along the bottom
    a small white die and a small black die, each showing one of the game's colours (printed in
    the dice's own paints: the card's icons look like the dice)."""
    rng = np.random.default_rng([seed, 7177, card])
    w, h = CARD_TEX
    face = np.ones((h, w, 3), np.float32) * linear((240, 236, 226)) * np.float32(rng.uniform(0.9, 1.02))
    cv2.rectangle(face, (3, 3), (w - 4, h - 4), tuple(float(v) for v in linear((150, 150, 150))), 4)
    ink = tuple(float(v) for v in linear((30, 30, 32)))
    fill = tuple(float(v) for v in linear(tuple(int(c) for c in rng.integers(90, 230, 3))))
    bx, by = int(rng.integers(85, 115)), int(rng.integers(120, 150))
    ax, ay = int(rng.integers(45, 65)), int(rng.integers(28, 42))
    cv2.ellipse(face, (bx, by), (ax, ay), 0, 0, 360, fill, -1, cv2.LINE_AA)
    cv2.ellipse(face, (bx, by), (ax, ay), 0, 0, 360, ink, 4, cv2.LINE_AA)
    hx = bx + int(rng.choice([-1, 1])) * (ax + 5)
    cv2.circle(face, (hx, by - ay), int(rng.integers(16, 25)), fill, -1, cv2.LINE_AA)
    cv2.circle(face, (hx, by - ay), int(rng.integers(16, 25)), ink, 4, cv2.LINE_AA)
    for k in range(4):
        x = bx - ax // 2 + k * ax // 3
        cv2.line(face, (x, by + ay - 6), (x, by + ay + 30), ink, 5, cv2.LINE_AA)
    colours = list(paints)
    size = 46
    for x0, body in ((28, (235, 235, 230)), (w - 28 - size, (35, 35, 38))):
        y0 = h - 26 - size
        cv2.rectangle(face, (x0, y0), (x0 + size, y0 + size), tuple(float(v) for v in linear(body)), -1)
        cv2.rectangle(face, (x0, y0), (x0 + size, y0 + size), ink, 2)
        mark = tuple(float(v) for v in paints[colours[int(rng.integers(len(colours)))]])
        cv2.circle(face, (x0 + size // 2, y0 + size // 2), 14, mark, -1, cv2.LINE_AA)
    return face


@dataclass
class Card:
    """A card lying on the table: which of the deck, its centre (world cm), turn and short side."""

    card: int
    x: float
    y: float
    yaw: float
    short: float

    def corners(self) -> np.ndarray:
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        hw, hh = self.short / 2, self.short * CARD_LONG / 2
        return np.array([[self.x + a * c - b * s, self.y + a * s + b * c, 0.0]
                         for a, b in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))])

    def gap(self, x: float, y: float) -> float:
        """How far world point (x, y) is from the card (0 on it)."""
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        u, v = (x - self.x) * c + (y - self.y) * s, -(x - self.x) * s + (y - self.y) * c
        return float(np.hypot(max(abs(u) - self.short / 2, 0), max(abs(v) - self.short * CARD_LONG / 2, 0)))


# ------------------------------------------------------------------------------ the box

@dataclass
class Box:
    """One mounted box: camera (height, lean, focal length, lens), table, lamp, the two dice in
    one art style."""

    height: float
    focal: float
    lean: np.ndarray
    k1: float
    kind: str
    style: str
    edge: float
    bevel: float
    paints: dict[str, np.ndarray]          # colour -> linear RGB
    bodies: dict[str, np.ndarray]          # die -> linear RGB
    layout: dict[str, dict[str, int]]      # die -> colour -> face index (own frame)
    lamp: np.ndarray                       # lamp position, world cm
    lamp_rgb: np.ndarray
    lamp_size: float                       # radius of the lamp's bulb, cm
    sky_rgb: np.ndarray
    gloss: float                           # share of the lamp the plastic mirrors
    rough: float                           # blur of the mirrored bulb, in bulb radii
    balance: np.ndarray                    # the camera's white balance gains
    exposure: float
    vignette: float
    touching: float
    ground: np.ndarray = field(repr=False)  # (H, W, 2) world cm under each pixel
    table: np.ndarray = field(repr=False)   # (H, W, 3) linear albedo
    direct: np.ndarray = field(repr=False)  # (H, W) lamp light on the bare table
    _vignette: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def from_seed(cls, seed: int, style: str, kind: str) -> "Box":
        rng = np.random.default_rng([seed, 6161])
        lean = rotation(np.array([rng.normal(), rng.normal(), 0.0]), np.radians(rng.uniform(0, 12)))
        height = float(rng.uniform(28, 45))
        edge = float(rng.uniform(1.5, 2.1))
        side_px = float(rng.uniform(60, 92))          # a die's top face in the frame
        focal = side_px * (height - edge) / edge
        k1 = float(rng.choice([-1, 1]) * rng.uniform(0.02, 0.12))
        paints = {}
        for name, srgb in PAINT.items():  # each box's print run: hue, saturation, value
            hsv = cv2.cvtColor(np.uint8([[srgb]]), cv2.COLOR_RGB2HSV_FULL)[0, 0].astype(float)
            hsv = hsv + [rng.uniform(-3, 3), rng.uniform(-20, 5), rng.uniform(-15, 5)]
            hsv = np.clip(np.round(hsv), 0, 255)
            rgb = cv2.cvtColor(np.uint8([[hsv]]), cv2.COLOR_HSV2RGB_FULL)[0, 0]
            paints[name] = linear(rgb)
        bodies = {d: linear(BODY[d]) * np.float32(rng.uniform(0.93, 1.03)) for d in DICE}
        layout = {d: {c: int(i) for c, i in zip(COLOURS, rng.permutation(6), strict=True)}
                  for d in DICE}
        az = rng.uniform(0, 2 * np.pi)
        reach = rng.uniform(5, 35)
        lamp = np.array([reach * np.cos(az), reach * np.sin(az), rng.uniform(45, 95)])
        kelvin = float(rng.uniform(2700, 6500))
        lamp_rgb = lamp_colour(kelvin)
        sky_rgb = lamp_colour(float(rng.uniform(5500, 6500))) * np.float32(rng.uniform(0.2, 0.4))
        # the camera's automatic white balance: it corrects the lamp only partly
        correct = float(rng.uniform(0.55, 0.9))
        balance = (1 / lamp_rgb) ** correct
        balance = (balance / balance[1]).astype(np.float32)
        box = cls(height, focal, lean, k1, kind, style, edge, edge * float(rng.uniform(0.08, 0.2)),
                  paints, bodies, layout, lamp, lamp_rgb, float(rng.uniform(0.4, 1.2)), sky_rgb,
                  float(rng.uniform(0.02, 0.06)), float(rng.uniform(0.6, 1.5)), balance,
                  float(rng.uniform(0.85, 1.1)), float(rng.uniform(0.15, 0.4)),
                  touching=0.3 if seed % 2 == 0 else 0.0,
                  ground=np.zeros(0), table=np.zeros(0), direct=np.zeros(0))
        box.ground = box._ground()
        tint = linear(TABLES[kind][int(rng.integers(len(TABLES[kind])))])
        gx, gy = box.ground[..., 0], box.ground[..., 1]
        box.table = table_albedo(kind, tint, np.random.default_rng([seed, 17]), gx, gy).astype(np.float32)
        to_lamp = np.dstack([lamp[0] - gx, lamp[1] - gy, np.full(gx.shape, lamp[2])])
        dist2 = (to_lamp ** 2).sum(2)
        box.direct = (lamp[2] / np.sqrt(dist2) * lamp[2] ** 2 / dist2).astype(np.float32)
        return box

    # -- camera
    def rays(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """World directions (N, 3, unit) of the rays through pixel positions (px, py)."""
        w, h = SIZE
        u, v = px - w / 2, py - h / 2
        r2 = (u * u + v * v) / (w / 2) ** 2
        u, v = u * (1 + self.k1 * r2), v * (1 + self.k1 * r2)
        d = np.stack([u / self.focal, -v / self.focal, -np.ones_like(u)], -1) @ self.lean.T
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    @property
    def eye(self) -> np.ndarray:
        return np.array([0.0, 0.0, self.height])

    def _ground(self) -> np.ndarray:
        w, h = SIZE
        py, px = np.mgrid[0:h, 0:w].astype(np.float64) + 0.5
        d = self.rays(px, py)
        t = self.height / -d[..., 2]
        return np.stack([t * d[..., 0], t * d[..., 1]], -1).astype(np.float32)

    def project(self, p: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) of world points ``p`` (N, 3), through the lens."""
        c = (np.atleast_2d(p) - self.eye) @ self.lean
        uu, vv = c[:, 0] / -c[:, 2] * self.focal, -c[:, 1] / -c[:, 2] * self.focal
        u, v = uu.copy(), vv.copy()
        w, h = SIZE
        for _ in range(30):  # invert u_ideal = u (1 + k1 r2)
            r2 = (u * u + v * v) / (w / 2) ** 2
            u, v = uu / (1 + self.k1 * r2), vv / (1 + self.k1 * r2)
        return np.column_stack([u + w / 2, v + h / 2])

    # -- the dice
    @property
    def half(self) -> float:
        return self.edge / 2

    def corners(self, die: Die) -> np.ndarray:
        """World corners (8, 3) of the die's bounding cube."""
        s = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        return die.centre + (s * self.half) @ die.rot.T

    def top_centre(self, die: Die) -> tuple[float, float]:
        """Where the middle of the die's top face is in the frame."""
        n = die.rot @ FACE_N[self.layout[die.body][die.top]]
        x, y = self.project(die.centre + n * self.half)[0]
        return float(x), float(y)

    def side_px(self, die: Die) -> float:
        top = self.corners(die)
        q = self.project(top[top[:, 2] > die.centre[2]])
        return float(np.sqrt(cv2.contourArea(cv2.convexHull(q.astype(np.float32)))))

    def place(self, body: str, top: str, x: float, y: float, yaw: float,
              tilt: np.ndarray | None = None) -> Die:
        """The die with ``top`` up at (x, y), turned by ``yaw``, resting on the table."""
        rot = rotation(np.array([0, 0, 1.0]), yaw) @ face_up(self.layout[body][top])
        if tilt is not None:
            rot = tilt @ rot
        # its lowest point touches the table
        low = self.half - self.bevel
        z = np.abs(rot[2]).sum() * low + self.bevel
        return Die(body, top, np.array([x, y, z]), rot, yaw)

    def gap(self, a: Die, b: Die) -> float:
        """The distance (cm) between dice ``a`` and ``b`` (< 0: they overlap)."""
        on_b = b.centre + surface_points(self.half, self.bevel, 15) @ b.rot.T
        return float(rounded_box_sdf(a.local(on_b), self.half, self.bevel).min())

    def in_view(self, die: Die, margin: float = 6.0) -> bool:
        q = self.project(self.corners(die))
        w, h = SIZE
        return bool((q[:, 0] > margin).all() and (q[:, 0] < w - margin).all()
                    and (q[:, 1] > margin).all() and (q[:, 1] < h - margin).all())

    def throw(self, rng: np.random.Generator, tops: dict[str, str],
              touching: bool = False) -> list[Die]:
        """The dice of ``tops`` (die -> colour up) thrown on the table: turned any way, apart
        (or the second against the first), wholly in view."""
        w, h = SIZE
        for _ in range(200):
            dice: list[Die] = []
            for body, top in tops.items():
                tilt = None
                if rng.random() < 0.12:  # resting on a crumb, a fold of the cloth
                    tilt = rotation(np.array([rng.normal(), rng.normal(), 0.0]),
                                    np.radians(rng.uniform(1.5, 5)))
                for _ in range(100):
                    yaw = float(rng.uniform(0, 2 * np.pi))
                    if touching and dice:  # edges touching: against a side of the first
                        first = dice[0]
                        side = float(rng.integers(4)) * np.pi / 2
                        turn = float(rng.uniform(-0.35, 0.35)) if rng.random() < 0.6 else 0.0
                        fx = first.yaw + side
                        reach = self.half + self.half * (abs(np.cos(turn)) + abs(np.sin(turn))) + 0.01
                        slide = float(rng.uniform(-0.6, 0.6)) * self.edge
                        x = first.centre[0] + reach * np.cos(fx) - slide * np.sin(fx)
                        y = first.centre[1] + reach * np.sin(fx) + slide * np.cos(fx)
                        yaw = fx + turn
                        tilt = None
                    else:
                        g = self.ground[int(rng.uniform(0.08, 0.92) * h), int(rng.uniform(0.08, 0.92) * w)]
                        x, y = float(g[0]), float(g[1])
                    die = self.place(body, top, x, y, yaw, tilt)
                    if touching and dice:  # slide it in until the two touch
                        for _ in range(3):
                            gap = self.gap(dice[0], die)
                            x, y = x - (gap - 0.003) * np.cos(fx), y - (gap - 0.003) * np.sin(fx)
                            die = self.place(body, top, x, y, yaw, tilt)
                    far = all(np.hypot(*(die.centre[:2] - o.centre[:2])) > self.edge * 1.5 for o in dice)
                    if (far or (touching and dice)) and self.in_view(die):
                        dice.append(die)
                        break
                else:
                    break
            if len(dice) == len(tops):
                return dice
        raise RuntimeError("could not throw the dice into view")

    # -- one frame
    def render(self, dice: list[Die], rng: np.random.Generator, cards: list[Card] | None = None,
               deck: list[np.ndarray] | None = None) -> np.ndarray:
        """The frame the camera takes of ``dice`` on the table (BGR uint8, JPEG-decoded), with
        ``cards`` of the ``deck`` (card faces, :func:`card_face`) lying on it."""
        table = self.with_cards(cards, deck or []) if cards else None
        return self._sensor(self.radiance(dice, rng, table), rng)

    def draw_as_rendered(self, rng: np.random.Generator) -> None:
        """Take from ``rng`` what :meth:`render` takes (the light's, then the sensor's random
        numbers, in that order) and render nothing: a throw left out of a set leaves the
        others as they are (:func:`write_set`'s ``only``)."""
        w, h = SIZE
        rng.uniform(0.92, 1.08), rng.uniform(0.8, 1.2)                  # radiance: power, sky
        rng.normal(0, 0.5, 3), rng.normal(0, self.lamp_size / 2, (6, 3))  # the lamp, its points
        rng.uniform(0.93, 1.07, 3), rng.uniform(0.82, 1.18), rng.uniform(0.4, 1.1)  # _sensor
        rng.standard_normal((h, w, 3), dtype=np.float32)
        rng.uniform(0.003, 0.012), rng.integers(65, 96)

    def with_cards(self, cards: list[Card], deck: list[np.ndarray]) -> np.ndarray:
        """The table's albedo with the cards lying on it (flat: paper has no height to speak of)."""
        table = self.table.copy()
        gx, gy = self.ground[..., 0], self.ground[..., 1]
        for card in cards:
            face = deck[card.card]
            c, s = np.cos(card.yaw), np.sin(card.yaw)
            u = (gx - card.x) * c + (gy - card.y) * s
            v = -(gx - card.x) * s + (gy - card.y) * c
            long = card.short * CARD_LONG
            on = (np.abs(u) < card.short / 2) & (np.abs(v) < long / 2)
            mx = ((u / card.short + 0.5) * CARD_TEX[0]).astype(np.float32)
            my = ((v / long + 0.5) * CARD_TEX[1]).astype(np.float32)
            seen = cv2.remap(face, mx, my, cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
            table[on] = seen[on]
        return table

    def lay_cards(self, rng: np.random.Generator, dice: list[Die], deck: int, most: int) -> list[Card]:
        """Up to ``most`` cards of a ``deck`` of cards laid round the dice (the Fun Farm circle):
        apart, none under a die, some close beside one, all wholly in view."""
        w, h = SIZE
        want = int(rng.integers(1, most + 1))
        ids = rng.permutation(deck)[:want]
        out: list[Card] = []
        for card in ids:
            for _ in range(200):
                short = self.edge * float(rng.uniform(2.8, 3.6))
                yaw = float(rng.uniform(0, 2 * np.pi))
                if dice and rng.random() < 0.5:  # close beside a die
                    d = dice[int(rng.integers(len(dice)))]
                    ang = float(rng.uniform(0, 2 * np.pi))
                    reach = short * CARD_LONG / 2 + self.edge * float(rng.uniform(0.9, 2.0))
                    x, y = d.centre[0] + reach * np.cos(ang), d.centre[1] + reach * np.sin(ang)
                else:
                    g = self.ground[int(rng.uniform(0.1, 0.9) * h), int(rng.uniform(0.1, 0.9) * w)]
                    x, y = float(g[0]), float(g[1])
                new = Card(int(card), float(x), float(y), yaw, short)
                if any(new.gap(d.centre[0], d.centre[1]) < 1.2 * self.edge for d in dice):
                    continue  # a die's foot and its shadow stay off the card
                if any(np.hypot(new.x - o.x, new.y - o.y) < (new.short + o.short) * CARD_LONG / 2 + 0.5
                       for o in out):
                    continue
                q = self.project(new.corners())
                if (q[:, 0] > 4).all() and (q[:, 0] < w - 4).all() and (q[:, 1] > 4).all() \
                        and (q[:, 1] < h - 4).all():
                    out.append(new)
                    break
        return out

    def radiance(self, dice: list[Die], rng: np.random.Generator,
                 table: np.ndarray | None = None) -> np.ndarray:
        """Light reaching the lens (linear RGB, H x W x 3), before the sensor (``table``: the
        table's albedo when not the bare table's)."""
        w, h = SIZE
        power = float(rng.uniform(0.92, 1.08))
        sky = self.sky_rgb * np.float32(rng.uniform(0.8, 1.2))
        lamp = self.lamp + rng.normal(0, 0.5, 3)
        samples = lamp + rng.normal(0, self.lamp_size / 2, (6, 3))  # points of the area light
        light = np.ones((h // 2, w // 2), np.float32)  # lamp visibility, every other pixel
        contact = np.ones((h, w), np.float32)
        g, g2 = self.ground, self.ground[::2, ::2]
        for die in dice:  # the shadow and the contact darkening around each die
            top = 2 * die.centre[2]
            tip = die.centre[:2] + (die.centre[:2] - lamp[:2]) * top / (lamp[2] - top)
            width = 0.75 * self.edge + 1.5 * self.lamp_size * top / lamp[2] + 0.2
            lo, hi = np.minimum(die.centre[:2], tip) - width, np.maximum(die.centre[:2], tip) + width
            q = self.project(np.array([[lo[0], lo[1], 0], [hi[0], lo[1], 0], [hi[0], hi[1], 0],
                                       [lo[0], hi[1], 0]]))
            x0, y0 = np.clip(np.floor(q.min(0)).astype(int) - 2, 0, None)
            x1, y1 = np.ceil(q.max(0)).astype(int) + 2
            x1, y1 = min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            gx, gy = g[y0:y1, x0:x1, 0] - die.centre[0], g[y0:y1, x0:x1, 1] - die.centre[1]
            c, s = np.cos(die.yaw), np.sin(die.yaw)
            d = rounded_distance(gx * c + gy * s, -gx * s + gy * c, self.half, self.half, self.bevel)
            contact[y0:y1, x0:x1] *= 1 - 0.5 * np.exp(-np.maximum(d, 0) / (0.1 * self.edge))
            # the soft shadow: rays from the table to points of the lamp, near the segment
            # from the die to its shadow's tip
            x0, y0, x1, y1 = x0 // 2, y0 // 2, (x1 + 1) // 2, (y1 + 1) // 2
            rel = g2[y0:y1, x0:x1] - die.centre[:2]
            axis = tip - die.centre[:2]
            along = np.clip((rel @ axis) / max(float(axis @ axis), 1e-9), 0, 1)
            gap = rel - along[..., None] * axis
            zone = np.flatnonzero((np.hypot(gap[..., 0], gap[..., 1]) < width).ravel())
            if zone.size == 0:
                continue
            yy, xx = np.unravel_index(zone, rel.shape[:2])
            pts = np.column_stack([g2[y0 + yy, x0 + xx].astype(float), np.zeros(zone.size)])
            seen = np.zeros(zone.size, np.float32)
            for lp in samples:
                to = lp - pts
                to /= np.linalg.norm(to, axis=1, keepdims=True)
                seen += ~blocked(pts + to * 1e-3, to, dice, self.half)
            part = light[y0:y1, x0:x1]
            part[yy, xx] = np.minimum(part[yy, xx], seen / len(samples))
        light = cv2.resize(light, SIZE, interpolation=cv2.INTER_LINEAR)
        lit = (sky[None, None] * contact[..., None]
               + (self.lamp_rgb * power)[None, None] * (self.direct * light * np.sqrt(contact))[..., None])
        img = (self.table if table is None else table) * lit
        if dice:
            self._dice(img, dice, lamp, samples, power, sky)
        return img.astype(np.float32)

    def _dice(self, img: np.ndarray, dice: list[Die], lamp: np.ndarray, samples: np.ndarray,
              power: float, sky: np.ndarray) -> None:
        """Cast 2x2 rays per pixel at the dice (the table already in ``img``) and shade them."""
        w, h = SIZE
        mask = np.zeros((h, w), np.uint8)
        for die in dice:  # the outline of its bounding cube, grown by two pixels
            hull = cv2.convexHull(np.round(self.project(self.corners(die)) * 4).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 2)
        mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
        py, px = np.nonzero(mask)
        sub = np.array([(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)])
        sx = (px[:, None] + 0.5 + sub[:, 0]).ravel()
        sy = (py[:, None] + 0.5 + sub[:, 1]).ravel()
        dirs = self.rays(sx, sy)
        t, which = trace(self.eye, dirs, dice, self.half, self.bevel)
        table = np.repeat(img[py, px], 4, axis=0)
        colour = table.copy()
        for k, die in enumerate(dice):
            mine = np.flatnonzero(which == k)
            if mine.size == 0:
                continue
            p = self.eye + dirs[mine] * t[mine, None]
            loc = die.local(p)
            # the normal of the rounded cube: the direction from its inner core
            q = np.abs(loc) - (self.half - self.bevel)
            nl = np.sign(loc) * np.maximum(q, 0)
            flat = np.linalg.norm(nl, axis=1) < 1e-9
            axis_ = np.abs(loc).argmax(1)
            nl[flat] = 0
            nl[flat, axis_[flat]] = np.sign(loc[flat, axis_[flat]])
            nl /= np.linalg.norm(nl, axis=1, keepdims=True)
            n = nl @ die.rot.T
            # the art: which face, where on it
            albedo = np.repeat(self.bodies[die.body][None], mine.size, 0)
            on_face = {i: c for c, i in self.layout[die.body].items()}
            face = axis_ * 2 + (np.take_along_axis(loc, axis_[:, None], 1)[:, 0] < 0)
            for fi in range(6):
                sel = np.flatnonzero(face == fi)
                if sel.size == 0:
                    continue
                others = [a for a in range(3) if a != fi // 2]
                u, v = loc[sel, others[0]] / self.half, loc[sel, others[1]] / self.half
                colour_name = on_face[fi]
                cover = mark_cover(self.style, u, v)[:, None]
                albedo[sel] = albedo[sel] * (1 - cover) + self.paints[colour_name] * cover
            # light: the lamp (soft shadow from the other die), the room, highlights
            to_lamp = lamp - p
            dist = np.linalg.norm(to_lamp, axis=1)
            ldir = to_lamp / dist[:, None]
            seen = np.zeros(mine.size, np.float32)
            for lp in samples[:4]:
                to = lp - p
                to /= np.linalg.norm(to, axis=1, keepdims=True)
                seen += ~blocked(p + n * 1e-3, to, dice, self.half, skip=k)
            seen /= 4
            fall = lamp[2] ** 2 / dist ** 2
            lambert = np.clip((n * ldir).sum(1), 0, 1)
            low = np.clip(p[:, 2] / (0.6 * self.edge), 0, 1)  # the table darkens the foot
            ambient = (0.55 + 0.45 * n[:, 2]) * (0.55 + 0.45 * low)
            # the glint: the bulb mirrored by the plastic (a disc as wide as the bulb looks from
            # there, blurred by the finish), over a faint satin sheen
            ray = dirs[mine]
            mirror = ray - 2 * (ray * n).sum(1)[:, None] * n
            theta = np.arccos(np.clip((mirror * ldir).sum(1), -1, 1))
            alpha = self.lamp_size / dist
            inside = np.clip((alpha - theta) / (alpha * self.rough + 0.003) + 0.5, 0, 1)
            bulb = self.gloss * lamp[2] ** 2 / (np.pi * self.lamp_size ** 2)
            half_v = ldir - ray
            half_v /= np.linalg.norm(half_v, axis=1, keepdims=True)
            nh = np.clip((n * half_v).sum(1), 0, 1)
            spec = np.minimum(bulb, 1.5) * inside * seen + 0.012 * nh ** 20 * fall * seen
            direct = lambert * fall * seen * power
            colour[mine] = (albedo * (sky[None] * ambient[:, None] + self.lamp_rgb * direct[:, None])
                            + (self.lamp_rgb * power)[None] * spec[:, None])
        img[py, px] = colour.reshape(-1, 4, 3).mean(1)

    def _sensor(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if self._vignette is None:
            w, h = SIZE
            yy, xx = np.mgrid[0:h, 0:w]
            fall = 1 - self.vignette * (((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w / 2) ** 2)
            self._vignette = fall[..., None].astype(np.float32)
        balance = self.balance * rng.uniform(0.93, 1.07, 3).astype(np.float32)
        exposure = self.exposure * float(rng.uniform(0.82, 1.18))
        img = img * self._vignette
        img *= (balance * exposure).astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.1)))
        noise = rng.standard_normal(img.shape, dtype=np.float32)
        # sigma = floor + 0.02 * sqrt(max(img, 0)), then img + noise * sigma: worked in place
        sigma = np.maximum(img, 0)
        np.sqrt(sigma, out=sigma)
        sigma *= np.float32(0.02)
        sigma += np.float32(rng.uniform(0.003, 0.012))
        sigma *= noise
        img += sigma
        img *= 4095
        img += 0.5
        np.clip(img, 0, 4095, out=img)
        bgr = cv2.cvtColor(SRGB[img.astype(np.uint16)], cv2.COLOR_RGB2BGR)
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(65, 96))])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if frame is None:
            raise RuntimeError("JPEG decoding failed")
        return frame


#: Enrollment photos per card (one card alone on the table), and the most cards beside a throw.
CARD_SHOTS = 2
MOST_CARDS = 4


def write_set(folder: Path, seed: int, style: str, kind: str, scenes: int, shots: int = 3,
              progress: bool = True, cards: int = 0, only: Collection[int] | None = None) -> dict[str, dict[str, str]]:
    """Render one set (one box) into ``folder``; returns its labels.  ``cards``: a deck of that
    many Fun Farm-like cards, 1-4 of them lying round every throw, and ``enroll-cards/`` with
    each card alone on the table (the same throws as without cards: the cards take their own
    random numbers).  ``only``: the throws written (by number; all when None), each as in the
    whole set, the others thrown and not rendered (labels and centres for those written)."""
    box = Box.from_seed(seed, style, kind)
    rng = np.random.default_rng([seed, 53])
    card_rng = np.random.default_rng([seed, 71])
    deck = [card_face(box.paints, seed, k) for k in range(cards)]
    enroll = folder / "enroll"
    (folder / "scenes").mkdir(parents=True, exist_ok=True)
    (enroll / "table").mkdir(parents=True, exist_ok=True)
    total = 1 + len(DICE) * len(COLOURS) * shots + scenes + cards * CARD_SHOTS
    done = 0
    where: dict[str, dict[str, object]] = {}

    def note(name: str, dice: list[Die]) -> None:
        where[name] = {d.body: {"top": d.top, "centre": [round(v, 1) for v in box.top_centre(d)],
                                "side_px": round(box.side_px(d), 1)} for d in dice}

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            bar = "#" * int(30 * done / total)
            print(f"\r  {folder.name} [{bar:<30}] {done}/{total}", end="", file=sys.stderr, flush=True)

    cv2.imwrite(str(enroll / "table" / "0.jpg"), box.render([], rng))
    tick()
    for body in DICE:
        for colour in COLOURS:
            (enroll / body / colour).mkdir(parents=True, exist_ok=True)
            for k in range(shots):
                alone = box.throw(rng, {body: colour})
                cv2.imwrite(str(enroll / body / colour / f"{k}.jpg"), box.render(alone, rng))
                note(f"enroll/{body}/{colour}/{k}.jpg", alone)
                tick()
    if cards:  # the empty table, as the box's camera sees it (its own random numbers)
        (folder / "enroll-cards" / "table").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / "enroll-cards" / "table" / "0.jpg"),
                    box.render([], np.random.default_rng([seed, 72])))
    for k in range(cards):
        (folder / "enroll-cards" / f"card-{k:02d}").mkdir(parents=True, exist_ok=True)
        for j in range(CARD_SHOTS):
            alone = box.lay_cards(card_rng, [], cards, 1)
            alone = [Card(k, c.x, c.y, c.yaw, c.short) for c in alone]
            path = folder / "enroll-cards" / f"card-{k:02d}" / f"{j}.jpg"
            cv2.imwrite(str(path), box.render([], card_rng, alone, deck))
            tick()
    labels: dict[str, dict[str, str]] = {}
    for i in range(scenes):
        tops = {body: COLOURS[int(rng.integers(6))] for body in DICE}
        dice = box.throw(rng, tops, touching=bool(rng.random() < box.touching))
        name = f"throw-{i:04d}.jpg"
        laid = box.lay_cards(card_rng, dice, cards, MOST_CARDS) if cards else []
        if only is not None and i not in only:
            box.draw_as_rendered(rng)
            tick()
            continue
        cv2.imwrite(str(folder / "scenes" / name), box.render(dice, rng, laid, deck))
        labels[name] = tops
        note(f"scenes/{name}", dice)
        if laid:
            where[f"scenes/{name}"]["cards"] = [f"card-{c.card:02d}" for c in laid]
        tick()
    (folder / "labels.json").write_text(json.dumps(labels, indent=1))
    (folder / "centres.json").write_text(json.dumps(where))
    if progress:
        print(file=sys.stderr)
    return labels


SETS = [("disc", "wood"), ("painted", "felt"), ("square", "linen"), ("pips", "tiles"),
        ("disc", "cloth"), ("painted", "linen"), ("square", "wood"), ("pips", "felt")]


def main() -> int:
    parser = Parser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sets", type=at_least(1), default=3)
    parser.add_argument("--scenes", type=at_least(1), default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shots", type=at_least(1), default=3, help="enrollment shots per colour and die")
    parser.add_argument("--cards", type=at_least(0), default=0,
                        help="a deck of this many Fun Farm-like cards, 1-4 lying round each throw")
    parser.add_argument("--table", choices=sorted(TABLES), help="every set on this kind of table")
    args = parser.parse_args()
    for k in range(args.sets):
        style, kind = SETS[(args.seed - 1 + k) % len(SETS)]  # seed 1: the first kind
        kind = args.table or kind
        folder = args.out / f"{style}-{kind}-{args.seed + k}"
        write_set(folder, args.seed + k, style, kind, args.scenes, args.shots, cards=args.cards)
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
