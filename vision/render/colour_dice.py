"""Synthetic top-down frames of the Fun Farm colour dice: a white and a black cube whose faces
carry colour discs, on a wood or cloth table, with perspective side faces, shadows, uneven
light, colour casts, noise and JPEG.

>>> s = scene(3)
>>> s.image.shape, sorted(s.dice)
((720, 960, 3), ['black', 'white'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ._common import FRAME_SIZE, Lighting, camera_faults, table

#: Our own paint colours (BGR) for the six face colours of the provisional Fun Farm dice.
PAINT = {
    "red": (45, 40, 205),
    "orange": (30, 125, 240),
    "yellow": (45, 215, 235),
    "green": (70, 165, 45),
    "blue": (200, 105, 35),
    "purple": (150, 50, 125),
}
COLOURS = tuple(PAINT)
#: Body paint of the two dice (BGR).
BODY = {"white": (232, 236, 238), "black": (32, 30, 30)}


@dataclass
class ColourDiceScene:
    image: np.ndarray
    #: Die -> colour up (dice not in the scene are absent).
    dice: dict[str, str] = field(default_factory=dict)
    #: Die -> (x, y) centre of its top face in the frame.
    centres: dict[str, tuple[float, float]] = field(default_factory=dict)


def _side_colours(rng: np.random.Generator, top: str) -> list[str]:
    others = [c for c in COLOURS if c != top]
    return [others[i] for i in rng.permutation(len(others))[:4]]


#: Art styles: "disc" (a colour disc on each face, soft shadow) and "tile" (a rounded colour
#: square filling most of each face, a hard shadow and a specular glint).
ARTS = ("disc", "tile")


def draw_die(canvas: np.ndarray, rng: np.random.Generator, body: str, top: str,
             centre: tuple[float, float], size: float, angle: float,
             lean: tuple[float, float], art: str = "disc") -> None:
    """Paint one die into ``canvas`` (float32 BGR) with its shadow first."""
    cx, cy = centre
    c, s = np.cos(angle), np.sin(angle)
    half = size / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float32)
    rot = np.array([[c, -s], [s, c]], np.float32)
    top_pts = corners @ rot.T + np.array([cx, cy], np.float32)
    base_pts = top_pts - np.array(lean, np.float32)
    # the shadow, the glint and the glow are blurred inside a window round the die that holds
    # every blur's reach (outside it they are nought): the same pixels as over the whole frame
    h, w = canvas.shape[:2]
    reach = int(np.ceil(4 * size * 0.2)) + 12 + int(np.ceil(np.abs(lean).max()))
    x0, y0 = max(0, int(cx - half * 1.5) - reach), max(0, int(cy - half * 1.5) - reach)
    x1, y1 = min(w, int(cx + half * 1.5) + reach + 1), min(h, int(cy + half * 1.5) + reach + 1)
    at = np.array([x0, y0], np.float32)
    window = canvas[y0:y1, x0:x1]
    # shadow: a blurred dark blob offset away from the light
    outline = np.zeros(window.shape[:2], np.float32)
    off = np.array([rng.uniform(2, 8), rng.uniform(2, 8)], np.float32)
    cv2.fillConvexPoly(outline, (np.round(np.vstack([top_pts, base_pts]) + off) - at).astype(np.int32)[[0, 1, 2, 3]],
                       (1.0,), cv2.LINE_AA)
    if art == "tile":  # a lamp close by: a hard, darker shadow
        shadow = cv2.GaussianBlur(outline, (0, 0), 1.2) * rng.uniform(0.35, 0.6)
    else:
        shadow = cv2.GaussianBlur(outline, (0, 0), size * 0.12) * 0.45
    window *= (1 - shadow)[..., None]
    body_bgr = np.array(BODY[body], np.float32) * rng.uniform(0.92, 1.05)
    sides = _side_colours(rng, top)
    # side faces (the ones that stick out beyond the top face are what stays visible)
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([top_pts[i], top_pts[j], base_pts[j], base_pts[i]])
        shade = 0.55 + 0.25 * ((i % 2) == 0)
        cv2.fillConvexPoly(canvas, np.round(quad * 16).astype(np.int32),
                           (body_bgr * shade).tolist(), cv2.LINE_AA, shift=4)
        mid = quad.mean(axis=0)
        sub = mid + (quad - mid) * (0.5 if art == "disc" else 0.75)
        cv2.fillConvexPoly(canvas, np.round(sub * 16).astype(np.int32),
                           (np.array(PAINT[sides[i]], np.float32) * shade).tolist(), cv2.LINE_AA, shift=4)
    cv2.fillConvexPoly(canvas, np.round(top_pts * 16).astype(np.int32), body_bgr.tolist(),
                       cv2.LINE_AA, shift=4)
    paint = np.array(PAINT[top], np.float32) * rng.uniform(0.9, 1.08)
    if art == "tile":
        inner = (corners * rng.uniform(0.62, 0.74)) @ rot.T + np.array([cx, cy], np.float32)
        cv2.fillConvexPoly(canvas, np.round(inner * 16).astype(np.int32), paint.tolist(),
                           cv2.LINE_AA, shift=4)
        # rounded corners: the body paint cuts small discs off each corner of the tile
        cut = size * 0.06
        for q in inner:
            toward = (np.array([cx, cy], np.float32) - q)
            toward /= max(1e-6, float(np.linalg.norm(toward)))
            pt = q - toward * cut * 0.2
            cv2.circle(canvas, (int(round(pt[0] * 16)), int(round(pt[1] * 16))), int(round(cut * 16)),
                       body_bgr.tolist(), -1, cv2.LINE_AA, shift=4)
        # a specular glint: a small bright ellipse somewhere on the face
        gx, gy = cx + rng.uniform(-0.3, 0.3) * size, cy + rng.uniform(-0.3, 0.3) * size
        glint = np.zeros(window.shape[:2], np.float32)
        cv2.ellipse(glint, (int(gx) - x0, int(gy) - y0), (max(1, int(size * 0.12)), max(1, int(size * 0.05))),
                    float(rng.uniform(0, 180)), 0, 360, (1.0,), -1, cv2.LINE_AA)
        glint = cv2.GaussianBlur(glint, (0, 0), size * 0.03) * rng.uniform(0.0, 0.5)
        window += (glint * 255)[..., None] * (1 - window / 300.0)
    else:
        r = size * rng.uniform(0.28, 0.34)
        cv2.circle(canvas, (int(round(cx * 16)), int(round(cy * 16))), int(round(r * 16)),
                   paint.tolist(), -1, cv2.LINE_AA, shift=4)
    # a gentle highlight across the top face
    glow = np.zeros(window.shape[:2], np.float32)
    cv2.fillConvexPoly(glow, (np.round(top_pts) - at).astype(np.int32), (1.0,), cv2.LINE_AA)
    glow = cv2.GaussianBlur(glow, (0, 0), size * 0.2) * rng.uniform(0.0, 0.08)
    window *= (1 + glow)[..., None]


def scene(seed: int, dice: dict[str, str] | None = None, *, size: tuple[int, int] = FRAME_SIZE,
          die_px: float | None = None, table_kind: str | None = None, art: str = "disc",
          table_seed: int | None = None, touching: bool = False) -> ColourDiceScene:
    """A frame from ``seed``.  ``dice`` maps "white"/"black" to the colour up (random both when
    None; pass one key for a die alone, as enrollment wants).

    ``table_seed`` fixes the table top (the box's fixed camera over the same table: only the
    light, the dice and the camera's noise change from frame to frame); by default each seed
    has its own table.  With ``touching`` the second die is laid against the first.
    """
    if art not in ARTS:
        raise ValueError(f"unknown colour-dice art {art!r}")
    rng = np.random.default_rng(seed)
    if dice is None:
        dice = {"white": COLOURS[rng.integers(6)], "black": COLOURS[rng.integers(6)]}
    w, h = size
    if table_seed is None:
        img = table(rng, size, table_kind)
    else:
        img = table(np.random.default_rng(table_seed), size, table_kind)
    die_px = die_px if die_px is not None else rng.uniform(0.075, 0.095) * w
    placed: list[np.ndarray] = []
    centres: dict[str, tuple[float, float]] = {}
    for body in ("white", "black"):
        if body not in dice:
            continue
        for _ in range(100):
            p = np.array([rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h])
            if touching and placed:
                a = rng.uniform(0, 2 * np.pi)
                p = placed[0] + die_px * rng.uniform(1.12, 1.25) * np.array([np.cos(a), np.sin(a)])
                if 0.1 * w < p[0] < 0.9 * w and 0.1 * h < p[1] < 0.9 * h:
                    break
            elif all(np.linalg.norm(p - q) > die_px * 1.6 for q in placed):
                break
        placed.append(p)
        lean = (p - np.array([w / 2, h / 2])) * rng.uniform(0.06, 0.11) * (die_px / (0.085 * w))
        draw_die(img, rng, body, dice[body], (float(p[0]), float(p[1])), die_px,
                 float(rng.uniform(0, np.pi / 2)), (float(lean[0]), float(lean[1])), art)
        centres[body] = (float(p[0]), float(p[1]))
    img = Lighting.random(rng).apply(img)
    return ColourDiceScene(camera_faults(rng, img), dict(dice), centres)


def empty_table(seed: int, table_seed: int, table_kind: str | None = None, *,
                size: tuple[int, int] = FRAME_SIZE) -> np.ndarray:
    """The fixed camera's shot of the empty table ``table_seed`` under the light of ``seed``."""
    return scene(seed, {}, size=size, table_kind=table_kind, table_seed=table_seed).image


def enrollment_samples(root, per_colour: int = 3, seed: int = 0, table_kind: str | None = None,
                       art: str = "disc", table_seed: int | None = None) -> None:
    """Write ``root/<white|black>/<colour>/*.jpg``: one die alone per image (on tables of
    ``table_kind``, any when None).  With ``table_seed`` every shot is of that one table, as the
    box's fixed camera sees it, and ``root/table/0.jpg`` is the empty table."""
    from pathlib import Path

    from ._common import write_image

    root = Path(root)
    n = 0
    if table_seed is not None:
        (root / "table").mkdir(parents=True, exist_ok=True)
        write_image(root / "table" / "0.jpg", empty_table(seed * 100003 + 99991, table_seed, table_kind))
    for body in ("white", "black"):
        for colour in COLOURS:
            d = root / body / colour
            d.mkdir(parents=True, exist_ok=True)
            for k in range(per_colour):
                write_image(d / f"{k}.jpg", scene(seed * 100003 + n, {body: colour},
                                                  table_kind=table_kind, art=art,
                                                  table_seed=table_seed).image)
                n += 1
