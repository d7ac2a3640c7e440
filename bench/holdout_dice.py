"""A second, independent dice renderer: held-out sets no reader here was developed on.

    .venv/bin/python bench/holdout_dice.py OUT [--sets 3] [--scenes 120] [--odd 12] [--seed 1] [--style line]
                                           [--table checked]
                                           [--sticker 0.62]
    .venv/bin/python bench/bench_vision.py dice OUT/<set>

``vision/render/dice.py`` draws the frames the readers were built and tuned on; judging a
reader only on its own renderer measures how well it fits that renderer. This file shares no
code with it: each pixel is ray-cast (a camera that may lean up to 12 degrees, with barrel
distortion, looks at dice that are true dodecahedra with bevelled edges, Blinn-Phong
highlights and soft ray-traced shadows) over procedural tables (wood, cloth weave, felt,
tiles; with ``--table checked`` a gingham cloth of red, blue or green checks on white, the
dice's own body colours among them) under a white balance, exposure, vignetting, noise and
JPEG of its own. The face art is drawn here too, in styles of its own: "stamp" (dark animal
shapes on a round light sticker), "painted" (light animals painted straight on the die's body) and "line" (``--style
line``: the animal's outline as a thin dark line on a cream pentagonal sticker).

Each set is one mounted box (one camera, one table, one art style): ``enroll/`` holds what
``farmbox vision enroll dice`` learns from (``background.png`` and ``<face>/<die>-<k>.png``,
3 shots per face per die), ``scenes/`` the throws, ``labels.json`` the truth (``[green, red]``,
or a refusal with its reason for a die partly out of the frame).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from counts import Parser, at_least

PHI = (1 + 5 ** 0.5) / 2
#: The faces of each die (the game's dice: Granna's Super Farmer).
DIE_FACES = {
    "green": ("rabbit",) * 6 + ("sheep",) * 3 + ("pig", "cow", "wolf"),
    "red": ("rabbit",) * 6 + ("sheep",) * 2 + ("pig",) * 2 + ("horse", "fox"),
}
ANIMALS = ("rabbit", "sheep", "pig", "cow", "horse", "fox", "wolf")
SIZE = (960, 720)
TEX = 256

# ------------------------------------------------------------------------------ geometry

_N = []
for _a in (-1, 1):
    for _b in (-1, 1):
        _N += [(0, _a, _b * PHI), (_a, _b * PHI, 0), (_a * PHI, 0, _b)]
NORMALS = np.array(_N, float) / np.linalg.norm(_N[0])
#: Inradius and circumradius of a face, per unit edge.
INRADIUS = (250 + 110 * 5 ** 0.5) ** 0.5 / 20
FACE_R = 1 / (2 * np.sin(np.pi / 5))


def _face_bases() -> np.ndarray:
    """An orthonormal (u, v) pair in each face's plane (fixed: the art is glued on)."""
    out = []
    for n in NORMALS:
        helper = np.array([0.3, 0.5, 0.81])
        u = np.cross(n, helper)
        u /= np.linalg.norm(u)
        out.append((u, np.cross(n, u)))
    return np.array(out)


BASES = _face_bases()


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def face_up(index: int) -> np.ndarray:
    """The rotation that turns face ``index`` to point straight up."""
    n, z = NORMALS[index], np.array([0.0, 0.0, 1.0])
    axis = np.cross(n, z)
    if np.linalg.norm(axis) < 1e-9:
        return np.eye(3) if n[2] > 0 else rotation(np.array([1.0, 0, 0]), np.pi)
    return rotation(axis, float(np.arccos(np.clip(n @ z, -1, 1))))


@dataclass
class Die:
    name: str
    face: int          # which of the 12 faces is up
    centre: np.ndarray  # world cm
    rot: np.ndarray    # body -> world
    edge: float
    colour: np.ndarray  # linear RGB body colour

    @property
    def picture(self) -> str:
        return DIE_FACES[self.name][self.face]


def place(name: str, face: int, x: float, y: float, yaw: float, edge: float,
          colour: np.ndarray) -> Die:
    rot = rotation(np.array([0, 0, 1.0]), yaw) @ face_up(face)
    return Die(name, face, np.array([x, y, INRADIUS * edge]), rot, edge, colour)


def hit_dice(origin: np.ndarray, dirs: np.ndarray, dice: list[Die]) -> tuple[np.ndarray, ...]:
    """Nearest hit of rays (origin (3,) or (N, 3), dirs (N, 3)) with the dice: t, die index,
    face index, second-nearest plane's slack (for the bevel) and that plane."""
    n = dirs.shape[0]
    best_t = np.full(n, np.inf)
    best_die = np.full(n, -1)
    best_face = np.zeros(n, int)
    slack = np.full(n, np.inf)
    other = np.zeros(n, int)
    o = np.broadcast_to(origin, dirs.shape)
    for k, die in enumerate(dice):
        normals = NORMALS @ die.rot.T                     # (12, 3) world normals
        r = INRADIUS * die.edge
        rel = o - die.centre
        denom = dirs @ normals.T                          # (N, 12)
        num = r - rel @ normals.T
        with np.errstate(divide="ignore", invalid="ignore"):
            t = num / denom
        enter = np.where(denom < 0, t, -np.inf)
        leave = np.where(denom > 0, t, np.inf)
        outside_parallel = (denom == 0) & (num < 0)
        t_in = enter.max(1)
        t_out = leave.min(1)
        ok = (t_in <= t_out) & (t_in > 0) & ~outside_parallel.any(1) & (t_in < best_t)
        if not ok.any():
            continue
        face = enter.argmax(1)
        p = rel[ok] + dirs[ok] * t_in[ok, None]
        gaps = r - p @ normals.T                          # >= 0 inside, 0 on the hit face
        gaps[np.arange(gaps.shape[0]), face[ok]] = np.inf
        best_t[ok], best_die[ok], best_face[ok] = t_in[ok], k, face[ok]
        slack[ok], other[ok] = gaps.min(1) / die.edge, gaps.argmin(1)
    return best_t, best_die, best_face, slack, other


# ------------------------------------------------------------------------------ face art

def _pts(xy: list[tuple[float, float]]) -> np.ndarray:
    return np.array([(TEX / 2 + x * TEX / 2, TEX / 2 + y * TEX / 2) for x, y in xy], np.int32)


def _blob(img: np.ndarray, x: float, y: float, ax: float, ay: float, angle: float = 0.0) -> None:
    cv2.ellipse(img, (int(TEX / 2 + x * TEX / 2), int(TEX / 2 + y * TEX / 2)),
                (max(1, int(ax * TEX / 2)), max(1, int(ay * TEX / 2))), angle, 0, 360, 1.0, -1,
                cv2.LINE_AA)


def _leg(img: np.ndarray, x: float, y0: float, y1: float, w: float = 0.05) -> None:
    cv2.line(img, (int(TEX / 2 + x * TEX / 2), int(TEX / 2 + y0 * TEX / 2)),
             (int(TEX / 2 + x * TEX / 2), int(TEX / 2 + y1 * TEX / 2)), 1.0,
             max(1, int(w * TEX / 2)), cv2.LINE_AA)


def animal_shape(animal: str) -> np.ndarray:
    """Our own silhouette of ``animal`` in a TEX x TEX float mask (1 = ink), about 0.6 wide."""
    m = np.zeros((TEX, TEX), np.float32)
    if animal == "rabbit":      # sitting, facing left: round body, head, two tall ears
        _blob(m, 0.08, 0.2, 0.3, 0.24)
        _blob(m, -0.2, -0.08, 0.15, 0.14)
        _blob(m, -0.24, -0.4, 0.05, 0.2, -10)
        _blob(m, -0.1, -0.42, 0.05, 0.2, 15)
        _blob(m, 0.38, 0.22, 0.08, 0.08)
    elif animal == "sheep":     # a cloud of wool, a dark oval head, four short legs
        for x, y in ((-0.2, 0.0), (0.0, -0.1), (0.2, 0.0), (0.05, 0.12), (-0.12, 0.14), (0.25, 0.15)):
            _blob(m, x, y, 0.16, 0.14)
        _blob(m, -0.42, -0.05, 0.1, 0.13, 20)
        for x in (-0.2, -0.05, 0.12, 0.26):
            _leg(m, x, 0.22, 0.42)
    elif animal == "pig":       # a fat round body, a round snout, a ring tail
        _blob(m, 0.05, 0.05, 0.36, 0.26)
        _blob(m, -0.38, -0.02, 0.1, 0.11)
        _blob(m, -0.12, -0.26, 0.07, 0.09, -30)
        cv2.circle(m, (int(TEX / 2 + 0.48 * TEX / 2), int(TEX / 2 - 0.05 * TEX / 2)),
                   int(0.07 * TEX / 2), 1.0, max(1, int(0.035 * TEX / 2)), cv2.LINE_AA)
        for x in (-0.18, 0.22):
            _leg(m, x, 0.22, 0.42, 0.08)
    elif animal == "cow":       # a boxy body, a head with two horns, an udder, tail
        cv2.fillPoly(m, [_pts([(-0.35, -0.15), (0.4, -0.18), (0.42, 0.2), (-0.33, 0.22)])], 1.0,
                     cv2.LINE_AA)
        _blob(m, -0.48, -0.2, 0.11, 0.13)
        _leg(m, -0.56, -0.36, -0.48, 0.04)
        _leg(m, -0.4, -0.36, -0.48, 0.04)
        for x in (-0.28, -0.12, 0.2, 0.35):
            _leg(m, x, 0.2, 0.46, 0.06)
        _leg(m, 0.44, -0.12, 0.2, 0.025)
    elif animal == "horse":     # long body, raised neck and head, four long legs, a tail
        _blob(m, 0.05, 0.0, 0.32, 0.15)
        cv2.fillPoly(m, [_pts([(-0.25, -0.05), (-0.38, -0.45), (-0.24, -0.5), (-0.1, -0.08)])],
                     1.0, cv2.LINE_AA)
        _blob(m, -0.42, -0.44, 0.14, 0.07, 30)
        for x in (-0.2, -0.08, 0.18, 0.3):
            _leg(m, x, 0.05, 0.5, 0.05)
        cv2.line(m, (int(TEX / 2 + 0.36 * TEX / 2), int(TEX / 2 - 0.05 * TEX / 2)),
                 (int(TEX / 2 + 0.55 * TEX / 2), int(TEX / 2 + 0.3 * TEX / 2)), 1.0,
                 max(1, int(0.06 * TEX / 2)), cv2.LINE_AA)
    elif animal == "fox":       # a pointed head with big ears, a long bushy tail
        cv2.fillPoly(m, [_pts([(-0.5, -0.1), (-0.2, -0.2), (-0.12, 0.05), (-0.3, 0.08)])], 1.0,
                     cv2.LINE_AA)
        cv2.fillPoly(m, [_pts([(-0.32, -0.16), (-0.28, -0.42), (-0.18, -0.18)])], 1.0, cv2.LINE_AA)
        cv2.fillPoly(m, [_pts([(-0.22, -0.2), (-0.1, -0.42), (-0.06, -0.12)])], 1.0, cv2.LINE_AA)
        _blob(m, 0.05, 0.1, 0.24, 0.12)
        _blob(m, 0.42, 0.0, 0.2, 0.08, -25)
        for x in (-0.1, 0.18):
            _leg(m, x, 0.15, 0.38, 0.05)
    elif animal == "wolf":      # a big head howling up, a shaggy neck, sharp ears
        cv2.fillPoly(m, [_pts([(-0.05, 0.45), (-0.3, 0.1), (-0.22, -0.2), (-0.36, -0.5),
                               (-0.12, -0.3), (0.05, -0.5), (0.08, -0.22), (0.3, 0.0),
                               (0.32, 0.45)])], 1.0, cv2.LINE_AA)
        cv2.fillPoly(m, [_pts([(0.05, -0.25), (0.45, -0.45), (0.5, -0.35), (0.2, -0.05)])], 1.0,
                     cv2.LINE_AA)
    else:
        raise ValueError(animal)
    return m


#: The "line" style's sticker: its corners' distance from the face's centre, in the face's
#: circumradius (the drawing is scaled with it).
LINE_STICKER = 0.62


def face_texture(animal: str, style: str, body: np.ndarray, corner: float = LINE_STICKER) -> np.ndarray:
    """A face's picture, TEX x TEX linear RGB, in face coordinates [-1, 1] (circumradius 1)."""
    shape = cv2.GaussianBlur(animal_shape(animal), (0, 0), 0.8)
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = body
    yy, xx = (np.mgrid[0:TEX, 0:TEX] - TEX / 2 + 0.5) / (TEX / 2)
    if style == "stamp":
        sticker = np.clip((0.74 - np.hypot(xx, yy)) * TEX / 4, 0, 1)[..., None]
        paper = np.array([0.82, 0.8, 0.72], np.float32)
        ink = np.array([0.05, 0.05, 0.07], np.float32)
        tex = tex * (1 - sticker) + paper * sticker
        tex = tex * (1 - shape[..., None] * sticker) + ink * (shape[..., None] * sticker)
    elif style == "line":
        # a cream sticker cut as a rounded pentagon (the face's own shape, inset), and on it
        # the animal drawn as a thin dark line: its outline only, plus an eye
        angles = np.pi / 2 + 2 * np.pi * np.arange(5) / 5
        corners = [(corner * np.cos(a), -corner * np.sin(a)) for a in angles]
        cut = np.zeros((TEX, TEX), np.uint8)
        cv2.fillPoly(cut, [_pts(corners)], 1, cv2.LINE_AA)
        cut = cv2.dilate(cut, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
        sticker = cv2.GaussianBlur(cut.astype(np.float32), (0, 0), 1.0)[..., None]
        cream = np.array([0.85, 0.78, 0.6], np.float32)
        ink = np.array([0.12, 0.08, 0.06], np.float32)
        smaller = cv2.getRotationMatrix2D((TEX / 2, TEX / 2), 0.0, corner / LINE_STICKER * 0.8)  # inside it
        solid = (cv2.warpAffine(animal_shape(animal), smaller, (TEX, TEX)) > 0.5).astype(np.uint8)
        ring = cv2.morphologyEx(solid, cv2.MORPH_GRADIENT, np.ones((4, 4), np.uint8)).astype(np.float32)
        ys, xs = np.nonzero(solid)
        if len(xs):   # the eye: a dot a little in from the shape's leftmost point
            left = int(np.argmin(xs))
            cv2.circle(ring, (int(xs[left]) + 10, int(ys[left]) - 3), 2, 1.0, -1, cv2.LINE_AA)
        line = cv2.GaussianBlur(np.clip(ring, 0, 1), (0, 0), 0.7)[..., None]
        tex = tex * (1 - sticker) + cream * sticker
        tex = tex * (1 - line * sticker) + ink * (line * sticker)
    elif style == "painted":
        paint = np.array([0.9, 0.88, 0.8], np.float32)
        outline = cv2.dilate(shape, np.ones((5, 5), np.uint8)) - shape
        tex = tex * (1 - shape[..., None]) + paint * shape[..., None]
        tex = tex * (1 - 0.6 * outline[..., None])
    else:
        raise ValueError(style)
    return tex


# ------------------------------------------------------------------------------ the table

def bilinear(grid: np.ndarray, x: np.ndarray, y: np.ndarray, wrap: bool = False) -> np.ndarray:
    """``grid`` (H, W[, C]) sampled at float pixel positions (x, y), bilinearly."""
    h, w = grid.shape[:2]
    if wrap:
        x, y = x % w, y % h
    else:
        x, y = np.clip(x, 0, w - 1.001), np.clip(y, 0, h - 1.001)
    x0, y0 = x.astype(int), y.astype(int)
    fx, fy = x - x0, y - y0
    x1, y1 = (x0 + 1) % w if wrap else x0 + 1, (y0 + 1) % h if wrap else y0 + 1
    if grid.ndim == 3:
        fx, fy = fx[..., None], fy[..., None]
    top = grid[y0, x0] * (1 - fx) + grid[y0, x1] * fx
    bottom = grid[y1, x0] * (1 - fx) + grid[y1, x1] * fx
    return top * (1 - fy) + bottom * fy


def _noise(rng: np.random.Generator, x: np.ndarray, y: np.ndarray, scale: float) -> np.ndarray:
    """Smooth value noise at world (x, y) cm with features ``scale`` cm wide."""
    grid = cv2.GaussianBlur(rng.random((64, 64)).astype(np.float32), (0, 0), 0.7)
    grid = (grid - grid.min()) / (np.ptp(grid) + 1e-6)
    return bilinear(grid, x / scale, y / scale, wrap=True)


@dataclass
class Table:
    kind: str
    seed: int
    tint: np.ndarray

    def colour(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        if self.kind == "wood":
            warp = _noise(rng, x, y, 6.0) * 4
            grain = 0.5 + 0.5 * np.sin((x * 0.9 + warp * 3 + 0.2 * y) * 2.2)
            fine = _noise(rng, x * 6, y * 0.5, 0.4)
            v = 0.55 + 0.25 * grain + 0.12 * fine
        elif self.kind == "cloth":
            weave = 0.5 + 0.25 * np.sin(x * 40) * np.sin(y * 40)
            v = 0.8 + 0.12 * weave + 0.08 * _noise(rng, x, y, 0.3)
        elif self.kind == "felt":
            v = 0.75 + 0.15 * _noise(rng, x, y, 0.2) + 0.1 * _noise(rng, x, y, 5.0)
        elif self.kind == "tiles":
            lines = (np.minimum(np.abs((x % 7.5) - 3.75), np.abs((y % 7.5) - 3.75)) > 3.6)
            v = 0.8 + 0.1 * _noise(rng, x, y, 3.0) - 0.35 * lines
        elif self.kind == "checked":
            # gingham: bands of the tint woven both ways over white, turned any way; a check
            # 1-2.5 cm wide, the full tint where two bands cross, half of it where one does
            turn, period = rng.uniform(0, np.pi / 2), rng.uniform(2.0, 5.0)
            u, w = x * np.cos(turn) + y * np.sin(turn), -x * np.sin(turn) + y * np.cos(turn)
            share = (((u % period) < period / 2).astype(np.float32) + ((w % period) < period / 2)) / 2
            white = np.array([0.85, 0.83, 0.78], np.float32)
            v = 0.92 + 0.05 * np.sin(x * 40) * np.sin(y * 40) + 0.06 * _noise(rng, x, y, 0.5)
            return v[..., None] * (white + share[..., None] * (self.tint - white))
        else:
            raise ValueError(self.kind)
        return v[..., None] * self.tint


TABLES = {  # kind -> linear RGB tints it may take
    "wood": [(0.55, 0.35, 0.18), (0.45, 0.3, 0.2), (0.7, 0.5, 0.3)],
    "cloth": [(0.85, 0.83, 0.78), (0.3, 0.35, 0.6), (0.75, 0.3, 0.28)],
    "felt": [(0.15, 0.4, 0.2), (0.2, 0.22, 0.35)],
    "tiles": [(0.8, 0.8, 0.8), (0.6, 0.55, 0.5)],
    "checked": [(0.55, 0.05, 0.06), (0.05, 0.12, 0.4), (0.07, 0.25, 0.08)],
}


# ------------------------------------------------------------------------------ the box

def _vignette() -> np.ndarray:
    """The lens's fall-off towards the frame's corners (H x W x 1, float64)."""
    w, h = SIZE
    yy, xx = np.mgrid[0:h, 0:w]
    return (1 - 0.35 * (((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w / 2) ** 2))[..., None]


_VIGNETTE = _vignette()


@dataclass
class Box:
    """One mounted box: camera pose and lens, the table, the art, the dice."""

    height: float
    focal: float
    lean: np.ndarray   # camera -> world rotation
    k1: float
    table: Table
    style: str
    edge: float
    bodies: dict[str, np.ndarray]
    textures: dict[tuple[str, str], np.ndarray]
    light: np.ndarray
    gloss: float = 0.15
    _fixed: tuple | None = None

    @classmethod
    def from_seed(cls, seed: int, style: str, kind: str, sticker: float = LINE_STICKER) -> "Box":
        rng = np.random.default_rng([seed, 77])
        lean = rotation(np.array([rng.normal(), rng.normal(), 0.0]), np.radians(rng.uniform(0, 12)))
        tint = np.array(TABLES[kind][int(rng.integers(len(TABLES[kind])))], np.float32)
        bodies = {"green": np.array([0.05, 0.35, 0.08]) * rng.uniform(0.8, 1.2),
                  "red": np.array([0.55, 0.04, 0.04]) * rng.uniform(0.8, 1.2)}
        textures = {(die, a): face_texture(a, style, bodies[die], sticker) for die in DIE_FACES
                    for a in set(DIE_FACES[die])}
        az, el = rng.uniform(0, 2 * np.pi), np.radians(rng.uniform(45, 80))
        return cls(height=float(rng.uniform(35, 50)), focal=float(rng.uniform(780, 1050)),
                   lean=lean, k1=float(rng.uniform(-0.12, 0.05)),
                   table=Table(kind, seed, tint), style=style, edge=float(rng.uniform(1.6, 2.3)),
                   bodies={k: v.astype(np.float32) for k, v in bodies.items()}, textures=textures,
                   light=np.array([np.cos(az) * np.cos(el), np.sin(az) * np.cos(el), np.sin(el)]),
                   gloss=float(rng.uniform(0.05, 0.25)))

    # -- camera
    def rays(self, supersample: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        w, h = SIZE
        s = supersample
        v, u = np.mgrid[0:h * s, 0:w * s].astype(np.float64)
        u, v = (u + 0.5) / s - w / 2, (v + 0.5) / s - h / 2
        pixels = np.stack([u + w / 2, v + h / 2], -1).reshape(-1, 2)
        r2 = (u * u + v * v) / (w / 2) ** 2
        u, v = u * (1 + self.k1 * r2), v * (1 + self.k1 * r2)
        d = np.stack([u / self.focal, v / self.focal, -np.ones_like(u)], -1).reshape(-1, 3)
        d = d @ self.lean.T
        d /= np.linalg.norm(d, axis=1, keepdims=True)
        return np.array([0.0, 0.0, self.height]), d, pixels

    def project(self, p: np.ndarray) -> tuple[float, float]:
        """Pixel (undistorted approximation refined) of world point ``p``."""
        c = (p - np.array([0.0, 0.0, self.height])) @ self.lean
        u, v = -c[0] / c[2] * self.focal, -c[1] / c[2] * self.focal
        for _ in range(5):  # invert the radial distortion
            r2 = (u * u + v * v) / (SIZE[0] / 2) ** 2
            u, v = -c[0] / c[2] * self.focal / (1 + self.k1 * r2), -c[1] / c[2] * self.focal / (1 + self.k1 * r2)
        return u + SIZE[0] / 2, v + SIZE[1] / 2

    def table_at(self, px: float, py: float) -> tuple[float, float]:
        """World (x, y) on the table seen at pixel (px, py)."""
        o, _ = np.array([0.0, 0.0, self.height]), None
        u, v = px - SIZE[0] / 2, py - SIZE[1] / 2
        r2 = (u * u + v * v) / (SIZE[0] / 2) ** 2
        u, v = u * (1 + self.k1 * r2), v * (1 + self.k1 * r2)
        d = np.array([u / self.focal, v / self.focal, -1.0]) @ self.lean.T
        t = -o[2] / d[2]
        return float(o[0] + t * d[0]), float(o[1] + t * d[1])

    def under(self, px: float, py: float, z: float) -> tuple[float, float]:
        """World (x, y) of the point at height ``z`` seen at pixel (px, py): a die's centre
        stands above the table, so perspective and the lean show it further out than its
        foot."""
        tx, ty = px, py
        x, y = self.table_at(tx, ty)
        for _ in range(8):
            qx, qy = self.project(np.array([x, y, z]))
            tx, ty = tx - (qx - px), ty - (qy - py)
            x, y = self.table_at(tx, ty)
        return x, y

    # -- one frame
    def render(self, dice: list[Die], rng: np.random.Generator, light_jitter: float = 0.25,
               supersample: int = 1) -> np.ndarray:
        if self._fixed is None or self._fixed[0] != supersample:  # the mounted camera's rays
            origin, dirs, pixels = self.rays(supersample)
            ground = origin + dirs * (-origin[2] / dirs[:, 2])[:, None]
            self._fixed = (supersample, origin, dirs, pixels, ground,
                           self.table.colour(ground[:, 0], ground[:, 1]))
        _, origin, dirs, pixels, ground, colour = self._fixed
        light = self.light + rng.normal(0, light_jitter, 3) * np.array([1, 1, 0.3])
        light[2] = abs(light[2]) + 0.2
        light /= np.linalg.norm(light)
        n = dirs.shape[0]
        t, which = np.full(n, np.inf), np.full(n, -1)
        face, slack, other = np.zeros(n, int), np.full(n, np.inf), np.zeros(n, int)
        near = np.zeros(n, bool)  # only rays near a die are tested against the dice
        reach = 1.9 * self.pixel_radius()
        for die in dice:
            cx, cy = self.project(die.centre)
            near |= (pixels[:, 0] - cx) ** 2 + (pixels[:, 1] - cy) ** 2 < reach ** 2
        idx = np.flatnonzero(near)
        for start in range(0, idx.size, 200_000):
            part = idx[start:start + 200_000]
            t[part], which[part], face[part], slack[part], other[part] = hit_dice(origin, dirs[part], dice)
        out = np.zeros((n, 3), np.float32)
        # the table (every ray reaches it: the camera leans 12 degrees at most)
        lit = np.ones(n, np.float32)
        ahead = light[:2] / light[2]
        shade_zone = np.zeros(n, bool)
        for die in dice:  # where a shadow can fall: behind each die, away from the light
            # (looked at only within the reach of its longest shadow)
            reach_cm = 1.6 * die.edge + 2 * die.centre[2] * float(np.hypot(*ahead)) + 1e-6
            box = np.flatnonzero((np.abs(ground[:, 0] - die.centre[0]) < reach_cm)
                                 & (np.abs(ground[:, 1] - die.centre[1]) < reach_cm))
            rel = ground[box, :2] - die.centre[:2]
            along = np.clip(-(rel @ ahead) / (ahead @ ahead + 1e-9), 0, 2 * die.centre[2])
            gap = rel + along[:, None] * ahead
            shade_zone[box] |= np.hypot(gap[:, 0], gap[:, 1]) < 1.6 * die.edge
        zone = np.flatnonzero(shade_zone & (which < 0))
        if zone.size:
            lit[zone] = 0.0
            for _ in range(4):  # a soft shadow: four points of an area light
                jitter = light + rng.normal(0, 0.05, 3)
                jitter /= np.linalg.norm(jitter)
                ray = np.broadcast_to(jitter, (zone.size, 3)).copy()
                _, blocked, *_ = hit_dice(ground[zone] + jitter * 1e-3, ray, dice)
                lit[zone] += (blocked < 0) * 0.25
        ambient = 0.45
        # the table everywhere (each die's own rays are shaded over it below)
        out[:] = colour * (ambient + (1 - ambient) * lit[:, None] * max(light[2], 0.3))
        # the dice
        for k, die in enumerate(dice):
            mine = which == k
            if not mine.any():
                continue
            p = origin + dirs[mine] * t[mine, None]
            rel = (p - die.centre) @ die.rot                  # body coordinates
            f = face[mine]
            centre = NORMALS[f] * INRADIUS * die.edge
            local = rel - centre
            uu = np.einsum("ij,ij->i", local, BASES[f, 0]) / (FACE_R * die.edge)
            vv = np.einsum("ij,ij->i", local, BASES[f, 1]) / (FACE_R * die.edge)
            albedo = np.zeros((p.shape[0], 3), np.float32)
            for fi in np.unique(f):
                sel = f == fi
                tex = self.textures[(die.name, DIE_FACES[die.name][fi])]
                albedo[sel] = bilinear(tex, (uu[sel] + 1) * TEX / 2 - 0.5,
                                       (vv[sel] + 1) * TEX / 2 - 0.5)
            # a bevel: near an edge the normal bends towards the neighbouring face
            bend = np.clip(1 - slack[mine] / 0.08, 0, 1)[:, None] * 0.7
            n = NORMALS[f] * (1 - bend) + NORMALS[other[mine]] * bend
            n = (n / np.linalg.norm(n, axis=1, keepdims=True)) @ die.rot.T
            view = -dirs[mine]
            half = light + view
            half /= np.linalg.norm(half, axis=1, keepdims=True)
            diffuse = np.clip(n @ light, 0, 1)[:, None]
            spec = (np.clip(np.einsum("ij,ij->i", n, half), 0, 1) ** 80)[:, None] * self.gloss
            out[mine] = albedo * (0.35 + 0.75 * diffuse) + spec
        w, h = SIZE
        img = out.reshape(h * supersample, w * supersample, 3)
        img = cv2.resize(img, SIZE, interpolation=cv2.INTER_AREA)
        return self._sensor(img, rng)

    def _sensor(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        balance = rng.uniform(0.85, 1.15, 3).astype(np.float32)
        exposure = float(rng.uniform(0.75, 1.3))
        img = img * _VIGNETTE     # float64 from here on
        img *= balance
        img *= exposure
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.3)))
        img += rng.normal(0, rng.uniform(0.005, 0.02), img.shape).astype(np.float32)
        # sRGB: 12.92 x below 0.0031308, else 1.055 x^(1/2.4) - 0.055 (worked in place)
        srgb = np.maximum(img, 0)
        np.power(srgb, 1 / 2.4, out=srgb)
        srgb *= 1.055
        srgb -= 0.055
        low = img <= 0.0031308
        srgb[low] = 12.92 * img[low]
        srgb *= 255
        np.clip(srgb, 0, 255, out=srgb)
        bgr = cv2.cvtColor(srgb.astype(np.uint8), cv2.COLOR_RGB2BGR)
        quality = int(rng.integers(70, 96))
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return cv2.imdecode(data, cv2.IMREAD_COLOR)

    # -- placing dice
    def pixel_radius(self) -> float:
        return 1.26 * self.edge * self.focal / self.height

    def throw(self, rng: np.random.Generator, faces: dict[str, int | None],
              out_of_view: str | None = None, touching: bool = False) -> list[Die]:
        dice: list[Die] = []
        r = self.pixel_radius()
        for name in ("green", "red"):
            index = faces[name]
            if index is None:
                index = int(rng.integers(12))
            for _ in range(300):
                if name == out_of_view:
                    side = int(rng.integers(4))
                    a = float(rng.uniform(0.25, 0.75))
                    inset = float(rng.uniform(0.1, 0.6)) * r
                    px, py = [(inset, a * SIZE[1]), (SIZE[0] - inset, a * SIZE[1]),
                              (a * SIZE[0], inset), (a * SIZE[0], SIZE[1] - inset)][side]
                elif touching and dice:
                    g = self.project(dice[0].centre)
                    ang = rng.uniform(0, 2 * np.pi)
                    px, py = g[0] + 2.05 * r * np.cos(ang), g[1] + 2.05 * r * np.sin(ang)
                else:
                    m = 1.3 * r
                    px, py = rng.uniform(m, SIZE[0] - m), rng.uniform(m, SIZE[1] - m)
                if name != out_of_view and not (1.2 * r < px < SIZE[0] - 1.2 * r
                                                and 1.2 * r < py < SIZE[1] - 1.2 * r):
                    continue
                x, y = self.under(px, py, INRADIUS * self.edge)
                if all(np.hypot(x - d.centre[0], y - d.centre[1]) > 2.1 * 1.26 * self.edge
                       for d in dice):
                    break
            colour = self.bodies[name]
            dice.append(place(name, index, x, y, float(rng.uniform(0, 2 * np.pi)), self.edge, colour))
        return dice


def write_set(folder: Path, seed: int, style: str, kind: str, scenes: int, odd: int,
              progress: bool = True, sticker: float = LINE_STICKER) -> None:
    box = Box.from_seed(seed, style, kind, sticker)
    rng = np.random.default_rng([seed, 5])
    enroll = folder / "enroll"
    (folder / "scenes").mkdir(parents=True, exist_ok=True)
    enroll.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(enroll / "background.png"), box.render([], rng))
    jobs = [(a, die) for a in ANIMALS for die in DIE_FACES if a in DIE_FACES[die]]
    total = len(jobs) * 3 + scenes + odd
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            bar = "#" * int(30 * done / total)
            print(f"\r  {folder.name} [{bar:<30}] {done}/{total}", end="", file=sys.stderr, flush=True)

    for animal, die in jobs:
        (enroll / animal).mkdir(exist_ok=True)
        choices = [i for i, f in enumerate(DIE_FACES[die]) if f == animal]
        for k in range(3):
            shot = box.throw(rng, {"green": None, "red": None})
            mine = [d for d in shot if d.name == die][0]
            alone = place(die, int(rng.choice(choices)), mine.centre[0], mine.centre[1],
                          float(rng.uniform(0, 2 * np.pi)), box.edge, box.bodies[die])
            cv2.imwrite(str(enroll / animal / f"{die}-{k + 1}.png"), box.render([alone], rng))
            tick()
    labels: dict[str, object] = {}
    for i in range(scenes):
        dice = box.throw(rng, {"green": None, "red": None}, touching=rng.random() < 0.15)
        name = f"throw-{i:04d}.jpg"
        cv2.imwrite(str(folder / "scenes" / name), box.render(dice, rng))
        labels[name] = [dice[0].picture, dice[1].picture]
        tick()
    for i in range(odd):
        who = ("green", "red")[i % 2]
        dice = box.throw(rng, {"green": None, "red": None}, out_of_view=who)
        name = f"edge-{i:04d}.jpg"
        cv2.imwrite(str(folder / "scenes" / name), box.render(dice, rng))
        labels[name] = {"faces": None, "reason": "die out of view"}
        tick()
    (folder / "labels.json").write_text(json.dumps(labels, indent=1))
    if progress:
        print(file=sys.stderr)


SETS = [("stamp", "wood"), ("painted", "cloth"), ("stamp", "felt"), ("painted", "tiles"),
        ("stamp", "cloth"), ("painted", "wood")]
STYLES = ("stamp", "painted", "line")
#: The tables a ``--style`` takes in turn.
TABLE_ORDER = ("wood", "cloth", "felt", "tiles")


def main() -> int:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sets", type=at_least(1), default=3)
    parser.add_argument("--scenes", type=at_least(1), default=120)
    parser.add_argument("--odd", type=at_least(0), default=12, help="scenes with a die partly out of view")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--style", choices=STYLES, help="every set in this art style (its tables in turn)")
    parser.add_argument("--table", choices=sorted(TABLES), help="every set on this kind of table")
    parser.add_argument("--sticker", type=float, default=LINE_STICKER,
                        help="the line style's sticker: its corners' distance from the face's centre, "
                             f"in face radii (default {LINE_STICKER})")
    args = parser.parse_args()
    if not 0.2 <= args.sticker <= 0.8:
        parser.error(f"--sticker {args.sticker}: give 0.2-0.8 face radii")
    for k in range(args.sets):
        style, kind = SETS[(args.seed - 1 + k) % len(SETS)]  # seed 1: the first kind
        if args.style is not None:
            style, kind = args.style, TABLE_ORDER[(args.seed - 1 + k) % len(TABLE_ORDER)]
        kind = args.table or kind
        folder = args.out / f"{style}-{kind}-{args.seed + k}"
        write_set(folder, args.seed + k, style, kind, args.scenes, args.odd, sticker=args.sticker)
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
