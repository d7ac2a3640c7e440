"""Top-down camera frames of the two 12-sided Super Farmer picture dice.

The dice are true dodecahedra under a pinhole camera looking down at the table: the top face,
the five tilted side faces around it (showing other animals), flat shading from one light,
soft shadows, a wood or cloth table, uneven light, colour casts, blur, noise and JPEG.
The animal icons are our own simple drawings.

>>> image, truth = render_scene(7)
>>> image.shape, truth["faces"] is not None
((720, 960, 3), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from farmbox.vision.dice.faces import DICE, DIE_FACES, FACES
from farmbox.vision.render._common import FRAME_SIZE, Lighting, camera_faults, table, write_image

PHI = (1 + 5 ** 0.5) / 2
TEX = 160  # face texture size in pixels
_TEX_R = 76.0  # circumradius of the pentagon in the texture


def _dodecahedron() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices (edge length 1), faces (12 x 5 vertex indices, counter-clockwise seen from
    outside) and outward unit normals."""
    verts: list[tuple[float, float, float]] = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    for a in (-1, 1):
        for b in (-1, 1):
            verts += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (a * PHI, 0, b / PHI)]
    v = np.array(verts, float) * PHI / 2
    normals = []
    for a in (-1, 1):
        for b in (-1, 1):
            normals += [(0, a * PHI, b), (a, 0, b * PHI), (a * PHI, b, 0)]
    n = np.array(normals, float)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    faces = []
    for normal in n:
        idx = np.argsort(-(v @ normal))[:5]
        c = v[idx].mean(0)
        u = v[idx[0]] - c
        u /= np.linalg.norm(u)
        w = np.cross(normal, u)
        ang = np.arctan2((v[idx] - c) @ w, (v[idx] - c) @ u)
        faces.append(idx[np.argsort(ang)])
    return v, np.array(faces), n


VERTS, FACE_VERTS, NORMALS = _dodecahedron()
INRADIUS = float(VERTS[FACE_VERTS[0]].mean(0) @ NORMALS[0])  # 1.1135 for edge 1

#: Which picture sits on each of the 12 geometric faces, per die (a fixed arrangement).
LAYOUT: dict[str, tuple[str, ...]] = {
    "green": ("rabbit", "sheep", "rabbit", "wolf", "rabbit", "sheep", "pig", "rabbit", "cow",
              "rabbit", "sheep", "rabbit"),
    "red": ("rabbit", "pig", "rabbit", "fox", "sheep", "rabbit", "horse", "rabbit", "pig",
            "rabbit", "sheep", "rabbit"),
}
for _die in DICE:
    assert sorted(LAYOUT[_die]) == sorted(DIE_FACES[_die])

#: Body colours (BGR) of the two dice.
DIE_COLOURS = {"green": (60, 150, 40), "red": (45, 40, 185)}


# --------------------------------------------------------------------------- icons

def _pt(c: tuple[float, float], s: float, x: float, y: float) -> tuple[int, int]:
    return int(round(c[0] + x * s)), int(round(c[1] + y * s))


def _ell(img, c, s, x, y, ax, ay, colour, angle=0.0):
    cv2.ellipse(img, _pt(c, s, x, y), (max(1, int(ax * s)), max(1, int(ay * s))), angle, 0, 360,
                colour, -1, cv2.LINE_AA)


def _poly(img, c, s, pts, colour):
    arr = np.array([_pt(c, s, x, y) for x, y in pts], np.int32)
    cv2.fillPoly(img, [arr], colour, cv2.LINE_AA)


def _legs(img, c, s, xs, y0, y1, colour, width=0.07):
    for x in xs:
        _poly(img, c, s, [(x - width, y0), (x + width, y0), (x + width, y1), (x - width, y1)], colour)


def draw_rabbit(img, c, s):
    fur, pink = (95, 120, 150), (150, 130, 225)
    _ell(img, c, s, -0.05, 0.25, 0.48, 0.33, fur)
    _ell(img, c, s, -0.5, 0.15, 0.12, 0.12, (245, 245, 245))
    _ell(img, c, s, 0.35, -0.1, 0.24, 0.22, fur)
    _ell(img, c, s, 0.25, -0.55, 0.08, 0.3, fur, -12)
    _ell(img, c, s, 0.45, -0.55, 0.08, 0.3, fur, 12)
    _ell(img, c, s, 0.25, -0.55, 0.035, 0.2, pink, -12)
    _ell(img, c, s, 0.45, -0.55, 0.035, 0.2, pink, 12)
    _ell(img, c, s, 0.42, -0.13, 0.04, 0.04, (20, 20, 20))
    _ell(img, c, s, 0.57, -0.05, 0.04, 0.03, pink)


def draw_sheep(img, c, s):
    wool = (235, 240, 242)
    for x, y in [(-0.35, 0.0), (-0.1, -0.15), (0.15, -0.1), (-0.3, 0.3), (0.0, 0.3), (0.25, 0.2),
                 (-0.05, 0.08)]:
        _ell(img, c, s, x, y, 0.22, 0.2, wool)
    _legs(img, c, s, (-0.3, -0.1, 0.1, 0.25), 0.35, 0.65, (30, 30, 30), 0.05)
    _ell(img, c, s, 0.5, -0.05, 0.15, 0.22, (35, 35, 35), -20)
    _ell(img, c, s, 0.38, -0.22, 0.1, 0.05, (35, 35, 35), 30)


def draw_pig(img, c, s):
    pink, dark = (180, 160, 245), (140, 110, 215)
    _legs(img, c, s, (-0.35, -0.15, 0.1, 0.3), 0.2, 0.55, dark, 0.07)
    _ell(img, c, s, -0.05, 0.05, 0.52, 0.33, pink)
    _ell(img, c, s, 0.45, -0.05, 0.26, 0.25, pink)
    _ell(img, c, s, 0.68, 0.0, 0.09, 0.12, dark)
    _ell(img, c, s, 0.66, -0.04, 0.025, 0.03, (60, 40, 90))
    _ell(img, c, s, 0.66, 0.05, 0.025, 0.03, (60, 40, 90))
    _poly(img, c, s, [(0.3, -0.25), (0.42, -0.5), (0.5, -0.22)], dark)
    _ell(img, c, s, 0.48, -0.12, 0.04, 0.04, (20, 20, 20))
    cv2.ellipse(img, _pt(c, s, -0.62, -0.05), (int(0.1 * s), int(0.1 * s)), 0, 0, 300, dark,
                max(1, int(0.04 * s)), cv2.LINE_AA)


def draw_cow(img, c, s):
    white, black = (240, 240, 240), (25, 25, 25)
    _legs(img, c, s, (-0.45, -0.25, 0.15, 0.35), 0.1, 0.6, black, 0.07)
    _poly(img, c, s, [(-0.6, -0.25), (0.45, -0.25), (0.5, 0.2), (-0.6, 0.25)], white)
    _ell(img, c, s, -0.3, -0.05, 0.16, 0.14, black, 20)
    _ell(img, c, s, 0.15, 0.05, 0.12, 0.16, black)
    _ell(img, c, s, -0.05, 0.35, 0.1, 0.06, (190, 170, 250))
    _ell(img, c, s, 0.6, -0.3, 0.18, 0.22, white)
    _ell(img, c, s, 0.65, -0.2, 0.12, 0.1, (170, 170, 235))
    _poly(img, c, s, [(0.45, -0.45), (0.35, -0.7), (0.52, -0.5)], (190, 225, 240))
    _poly(img, c, s, [(0.72, -0.48), (0.85, -0.7), (0.78, -0.45)], (190, 225, 240))
    _ell(img, c, s, 0.58, -0.35, 0.035, 0.035, black)


def draw_horse(img, c, s):
    coat, mane = (40, 80, 140), (20, 30, 50)
    _legs(img, c, s, (-0.45, -0.3, 0.15, 0.3), 0.1, 0.7, coat, 0.06)
    _ell(img, c, s, -0.1, 0.05, 0.5, 0.25, coat)
    _poly(img, c, s, [(0.2, -0.1), (0.35, -0.6), (0.55, -0.55), (0.45, 0.05)], coat)
    _ell(img, c, s, 0.6, -0.5, 0.25, 0.11, coat, 30)
    _poly(img, c, s, [(0.2, -0.15), (0.33, -0.62), (0.38, -0.6), (0.28, -0.1)], mane)
    _poly(img, c, s, [(-0.58, -0.05), (-0.8, 0.45), (-0.62, 0.4), (-0.55, 0.05)], mane)
    _ell(img, c, s, 0.55, -0.58, 0.035, 0.035, (10, 10, 10))


def draw_fox(img, c, s):
    orange, white, black = (30, 110, 235), (235, 240, 245), (20, 20, 20)
    _poly(img, c, s, [(-0.55, -0.7), (-0.15, -0.3), (-0.5, -0.1)], orange)
    _poly(img, c, s, [(0.55, -0.7), (0.15, -0.3), (0.5, -0.1)], orange)
    _poly(img, c, s, [(-0.48, -0.62), (-0.3, -0.42), (-0.45, -0.35)], black)
    _poly(img, c, s, [(0.48, -0.62), (0.3, -0.42), (0.45, -0.35)], black)
    _poly(img, c, s, [(-0.65, -0.3), (0.65, -0.3), (0.0, 0.65)], orange)
    _poly(img, c, s, [(-0.6, -0.05), (-0.1, 0.1), (0.0, 0.6)], white)
    _poly(img, c, s, [(0.6, -0.05), (0.1, 0.1), (0.0, 0.6)], white)
    _ell(img, c, s, 0.0, 0.55, 0.09, 0.07, black)
    _ell(img, c, s, -0.25, -0.1, 0.06, 0.04, black)
    _ell(img, c, s, 0.25, -0.1, 0.06, 0.04, black)


def draw_wolf(img, c, s):
    grey, light, dark = (120, 120, 125), (200, 200, 205), (60, 60, 65)
    _poly(img, c, s, [(-0.6, -0.75), (-0.2, -0.35), (-0.6, -0.2)], dark)
    _poly(img, c, s, [(0.6, -0.75), (0.2, -0.35), (0.6, -0.2)], dark)
    _poly(img, c, s, [(-0.7, -0.35), (0.7, -0.35), (0.55, 0.2), (0.2, 0.55), (-0.2, 0.55),
                      (-0.55, 0.2)], grey)
    _poly(img, c, s, [(-0.25, 0.05), (0.25, 0.05), (0.18, 0.6), (-0.18, 0.6)], light)
    _ell(img, c, s, 0.0, 0.55, 0.12, 0.08, (10, 10, 10))
    _ell(img, c, s, -0.3, -0.12, 0.09, 0.06, (30, 210, 240))
    _ell(img, c, s, 0.3, -0.12, 0.09, 0.06, (30, 210, 240))
    _ell(img, c, s, -0.3, -0.12, 0.03, 0.05, (10, 10, 10))
    _ell(img, c, s, 0.3, -0.12, 0.03, 0.05, (10, 10, 10))
    _poly(img, c, s, [(-0.12, 0.62), (0.12, 0.62), (0.0, 0.72)], (40, 40, 200))


ICONS = {"rabbit": draw_rabbit, "sheep": draw_sheep, "pig": draw_pig, "cow": draw_cow,
         "horse": draw_horse, "fox": draw_fox, "wolf": draw_wolf}
assert set(ICONS) == set(FACES)

_PENTAGON = np.array([[TEX / 2 + _TEX_R * np.sin(2 * np.pi * k / 5),
                       TEX / 2 - _TEX_R * np.cos(2 * np.pi * k / 5)] for k in range(5)], np.float32)


#: Art styles: "badge" draws each animal on a pale disc, "plain" straight on the die's colour,
#: "sticker" as a thin dark line drawing on a cream sticker covering most of the face, "flat"
#: as one flat pale silhouette on the die's colour.  Two more were never used while the reader
#: was developed (held out, to measure how it carries to art it has not seen): "cartoon", a
#: thick dark outline round a flat fill on dice of other body colours (teal and orange), and
#: "engraved", the animal pressed into a single-colour face and shown only by its lit and
#: shaded rims.
ARTS = ("badge", "plain", "sticker", "flat", "cartoon", "engraved")

#: Body colours (BGR) of the dice of each art style that has its own.
ART_COLOURS = {"cartoon": {"green": (120, 150, 30), "red": (30, 110, 225)},
               "engraved": {"green": (70, 125, 75), "red": (60, 55, 150)}}
#: Fill colours (BGR) of the "cartoon" animals.
CARTOON_FILLS = {"rabbit": (170, 190, 215), "sheep": (245, 245, 240), "pig": (190, 170, 250),
                 "cow": (235, 235, 235), "horse": (60, 110, 170), "fox": (40, 140, 250),
                 "wolf": (150, 145, 140)}

#: Ink and sticker colours of the "sticker" style, the silhouette colour of "flat".
STICKER_INK = (45, 40, 35)
STICKER_CREAM = (200, 232, 245)
FLAT_SILHOUETTE = (235, 240, 242)


def _icon_mask(face: str, r: float) -> np.ndarray:
    """Where the animal of ``face`` is drawn (TEX x TEX, 0/255)."""
    a = np.zeros((TEX, TEX, 3), np.uint8)
    b = np.full((TEX, TEX, 3), 255, np.uint8)
    ICONS[face](a, (TEX / 2, TEX / 2), r)
    ICONS[face](b, (TEX / 2, TEX / 2), r)
    return (np.abs(a.astype(np.int16) - b).sum(axis=2) < 30).astype(np.uint8) * 255


def face_texture(die: str, face: str, art: str = "badge") -> np.ndarray:
    """The picture on one face: die colour, a pale badge and the animal (TEX x TEX BGR)."""
    if art not in ARTS:
        raise ValueError(f"unknown art {art!r} (expected one of {', '.join(ARTS)})")
    body = np.array(ART_COLOURS.get(art, DIE_COLOURS)[die], np.float32)
    tex = np.zeros((TEX, TEX, 3), np.uint8)
    tex[:] = body.astype(np.uint8)
    inner = (TEX / 2 - _PENTAGON) * 0.1 + _PENTAGON
    cv2.polylines(tex, [inner.astype(np.int32)], True, tuple(int(v) for v in body * 1.2 + 20), 2,
                  cv2.LINE_AA)
    badge = tuple(int(v) for v in 0.25 * body + 0.75 * np.array([215, 235, 240]))
    r_in = _TEX_R * np.cos(np.pi / 5)
    if art == "badge":
        cv2.circle(tex, (TEX // 2, TEX // 2), int(r_in * 0.82), badge, -1, cv2.LINE_AA)
    if art in ("badge", "plain"):
        ICONS[face](tex, (TEX / 2, TEX / 2), r_in * 0.62)
        return tex
    if art == "cartoon":
        # no rim line: a thick ink outline round the flat-filled animal, drawn larger
        tex[:] = body.astype(np.uint8)
        mask = _icon_mask(face, r_in * 0.72)
        ink = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
        tex[ink > 0] = (30, 25, 25)
        tex[mask > 0] = CARTOON_FILLS[face]
        return tex
    if art == "engraved":
        # one colour: the animal pressed in, its upper-left rims shaded, lower-right rims lit
        tex[:] = body.astype(np.uint8)
        mask = _icon_mask(face, r_in * 0.68).astype(np.float32) / 255
        relief = cv2.GaussianBlur(mask, (0, 0), 1.5)
        gy, gx = np.gradient(relief)
        light = np.clip(1.0 + 2.2 * (gx + gy), 0.45, 1.6)
        return np.clip(tex.astype(np.float32) * (light * (1 - 0.12 * mask))[..., None], 0, 255).astype(np.uint8)
    mask = _icon_mask(face, r_in * 0.62)
    if art == "flat":
        tex[mask > 0] = FLAT_SILHOUETTE
        return tex
    # sticker: a cream pentagon almost as large as the face, the animal's outline in thin ink
    sticker = (TEX / 2 - _PENTAGON) * 0.18 + _PENTAGON
    cv2.fillConvexPoly(tex, sticker.astype(np.int32), STICKER_CREAM, cv2.LINE_AA)
    outline = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    tex[outline > 0] = STICKER_INK
    return tex


_TEXTURES: dict[tuple[str, str, str], np.ndarray] = {}


def _texture(die: str, face: str, art: str) -> np.ndarray:
    key = (die, face, art)
    if key not in _TEXTURES:
        _TEXTURES[key] = face_texture(die, face, art)
    return _TEXTURES[key]


# --------------------------------------------------------------------------- geometry

def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def _face_up(index: int) -> np.ndarray:
    """Rotation that turns geometric face ``index`` to face the camera (+z)."""
    n = NORMALS[index]
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(n, z)
    if np.linalg.norm(axis) < 1e-9:
        return np.eye(3) if n[2] > 0 else _rotation(np.array([1.0, 0, 0]), np.pi)
    return _rotation(axis, float(np.arccos(np.clip(n @ z, -1, 1))))


@dataclass(frozen=True)
class Camera:
    """A pinhole camera looking straight down from ``height`` (cm) with focal ``focal`` (px)."""

    size: tuple[int, int] = FRAME_SIZE
    focal: float = 900.0
    height: float = 40.0

    def project(self, pts: np.ndarray) -> np.ndarray:
        w, h = self.size
        depth = self.height - pts[:, 2]
        return np.stack([self.focal * pts[:, 0] / depth + w / 2,
                         self.focal * pts[:, 1] / depth + h / 2], axis=1)

    def table_point(self, u: float, v: float) -> tuple[float, float]:
        """World (x, y) on the table under image pixel (u, v)."""
        w, h = self.size
        return (u - w / 2) * self.height / self.focal, (v - h / 2) * self.height / self.focal


@dataclass
class DiePose:
    """Where one die lies and which face is up."""

    die: str
    face_index: int
    x: float
    y: float
    yaw: float
    tilt: float = 0.0  # radians away from resting on a face
    tilt_axis: float = 0.0
    edge: float = 2.0  # edge length in cm

    @property
    def face(self) -> str:
        return LAYOUT[self.die][self.face_index]

    def top_centre(self, cam: "Camera") -> list[float]:
        """Image position of the centre of the face facing the camera."""
        verts, normals = self.world()
        k = int(np.argmax(normals[:, 2]))
        return [float(v) for v in cam.project(verts[FACE_VERTS[k]].mean(0, keepdims=True))[0]]

    def world(self) -> tuple[np.ndarray, np.ndarray]:
        """World vertices and world face normals."""
        rot = _rotation(np.array([0, 0, 1.0]), self.yaw) @ _face_up(self.face_index)
        if self.tilt:
            rot = _rotation(np.array([np.cos(self.tilt_axis), np.sin(self.tilt_axis), 0]), self.tilt) @ rot
        v = VERTS @ rot.T * self.edge
        v[:, 2] -= v[:, 2].min()
        v[:, 0] += self.x
        v[:, 1] += self.y
        return v, NORMALS @ rot.T


def _draw_shadow(shade: np.ndarray, cam: Camera, verts: np.ndarray, light: np.ndarray,
                 strength: float) -> None:
    ground = verts - verts[:, 2:3] / light[2] * light
    ground[:, 2] = 0
    pts = cam.project(ground).astype(np.float32)
    hull = cv2.convexHull(pts).astype(np.int32)
    cv2.fillConvexPoly(shade, hull, (strength,), cv2.LINE_AA)


def _draw_die(img: np.ndarray, cam: Camera, pose: DiePose, light: np.ndarray, rng_shade: float,
              art: str = "badge") -> None:
    verts, normals = pose.world()
    eye = np.array([0.0, 0.0, cam.height])
    h, w = img.shape[:2]
    for k, fv in enumerate(FACE_VERTS):
        centre = verts[fv].mean(0)
        if normals[k] @ (eye - centre) <= 1e-6:
            continue
        dst = cam.project(verts[fv]).astype(np.float32)
        x0, y0 = np.floor(dst.min(0)).astype(int) - 1
        x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        hmat, _ = cv2.findHomography(_PENTAGON, dst - np.array([x0, y0], np.float32))
        patch = cv2.warpPerspective(_texture(pose.die, LAYOUT[pose.die][k], art), hmat, (x1 - x0, y1 - y0),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillConvexPoly(mask, (dst - [x0, y0]).astype(np.int32), (1.0,), cv2.LINE_AA)
        lambert = max(0.0, float(normals[k] @ light))
        shade = rng_shade * (0.3 + 0.62 * lambert)
        roi = img[y0:y1, x0:x1]
        roi[:] = roi * (1 - mask[..., None]) + patch.astype(np.float32) * shade * mask[..., None]


# --------------------------------------------------------------------------- scenes

@dataclass
class Setup:
    """What stays fixed while the box is mounted: camera, table, main light direction."""

    camera: Camera
    table: np.ndarray  # float32 BGR
    light: np.ndarray  # unit vector towards the light
    edge: float
    art: str = "badge"

    @classmethod
    def from_seed(cls, seed: int, size: tuple[int, int] = FRAME_SIZE, table_kind: str | None = None,
                  art: str = "badge") -> "Setup":
        """A mounted box from ``seed``: camera height and focal length, table, light."""
        rng = np.random.default_rng([seed, 1])
        cam = Camera(size=size, focal=float(rng.uniform(820, 1000)) * size[0] / 960,
                     height=float(rng.uniform(36, 48)))
        az, el = rng.uniform(0, 2 * np.pi), rng.uniform(np.radians(50), np.radians(80))
        light = np.array([np.cos(az) * np.cos(el), np.sin(az) * np.cos(el), np.sin(el)])
        return cls(cam, table(rng, size, table_kind), light, float(rng.uniform(1.9, 2.3)), art)


def _random_pose(rng: np.random.Generator, setup: Setup, die: str, face: str | None,
                 others: list[DiePose], margin: float = 115.0) -> DiePose:
    candidates = [i for i, f in enumerate(LAYOUT[die]) if face is None or f == face]
    if not candidates:
        raise ValueError(f"{face!r} is not on the {die} die")
    index = int(rng.choice(candidates))
    w, h = setup.camera.size
    # the silhouette radius is about 1.38 edges; touching dice are 2 radii apart
    min_dist = 2 * 1.38 * setup.edge * 1.02
    for _ in range(200):
        x, y = setup.camera.table_point(rng.uniform(margin, w - margin), rng.uniform(margin, h - margin))
        if all((x - o.x) ** 2 + (y - o.y) ** 2 >= min_dist ** 2 for o in others):
            break
    return DiePose(die, index, x, y, float(rng.uniform(0, 2 * np.pi)), edge=setup.edge)


def _compose(rng: np.random.Generator, setup: Setup, poses: list[DiePose], *, lighting: Lighting,
             motion: list[tuple[float, float, float]] | None = None, steps: int = 9,
             **faults) -> np.ndarray:
    """Render the poses on the table; ``motion`` gives (dx, dy, dyaw) per pose for motion blur."""
    light = setup.light
    strength = float(rng.uniform(0.35, 0.6))
    brightness = float(rng.uniform(0.85, 1.08))
    total: np.ndarray | None = None   # the frames at each offset, summed as they come
    offsets = np.linspace(-0.5, 0.5, steps) if motion else [0.0]
    for t in offsets:
        moved = []
        for i, p in enumerate(poses):
            if motion:
                dx, dy, dyaw = motion[i]
                p = DiePose(p.die, p.face_index, p.x + dx * t, p.y + dy * t, p.yaw + dyaw * t,
                            p.tilt, p.tilt_axis, p.edge)
            moved.append(p)
        shade = np.zeros(setup.camera.size[::-1], np.float32)
        for p in moved:
            _draw_shadow(shade, setup.camera, p.world()[0], light, strength)
        blurred = cv2.GaussianBlur(shade, (0, 0), 4.0)
        img = setup.table * (1 - blurred[..., None])
        for p in sorted(moved, key=lambda q: -(q.x ** 2 + q.y ** 2)):
            _draw_die(img, setup.camera, p, light, brightness, setup.art)
        if total is None:
            total = img
        else:
            total += img
    assert total is not None
    # their mean, without stacking them (nine frames of 16 MB each, allocated anew every time)
    img = total / len(offsets) if len(offsets) > 1 else total
    return camera_faults(rng, lighting.apply(img), **faults)


#: How far inside the frame's edge a die put near it (``render_scene(near_edge=...)``) keeps its
#: outermost corner, in pixels.
WHOLE_MARGIN = 1.0


def render_scene(seed: int, *, setup: Setup | int | None = None, faces: tuple[str, str] | None = None,
                 hidden: str | None = None, tilted: str | None = None, motion: bool = False,
                 touching: bool | None = None, near_edge: str | None = None, out_of_view: str | None = None,
                 size: tuple[int, int] = FRAME_SIZE) -> tuple[np.ndarray, dict]:
    """One frame with both dice thrown (BGR uint8) and its truth.

    ``setup`` is the mounted box (a Setup or a seed; default: from ``seed``). ``hidden`` leaves
    that die out of the frame, ``tilted`` leans that die on an edge, ``motion`` smears both dice
    as if still rolling, ``touching`` puts the dice side by side, ``near_edge`` puts that die
    close to the frame's edge but wholly in view, ``out_of_view`` puts it partly out of the
    frame (its centre a few pixels inside the edge). truth["faces"] is
    (green, red) for a readable roll and None otherwise.
    """
    if not isinstance(setup, Setup):
        setup = Setup.from_seed(seed if setup is None else setup, size)
    rng = np.random.default_rng([seed, 2])
    poses: list[DiePose] = []
    for i, die in enumerate(DICE):
        face = None if faces is None else faces[i]
        if die == hidden:
            continue
        pose = _random_pose(rng, setup, die, face, poses)
        if poses and (touching or (touching is None and rng.random() < 0.15)):
            # side by side: the silhouettes (radius 1.376 edges) almost meet; never overlap
            w, h = setup.camera.size
            lim_x, lim_y = setup.camera.table_point(w - 115, h - 115)
            d = 2 * 1.40 * setup.edge
            for _ in range(100):
                a = rng.uniform(0, 2 * np.pi)
                x, y = poses[0].x + d * np.cos(a), poses[0].y + d * np.sin(a)
                if abs(x) <= lim_x and abs(y) <= lim_y:
                    pose.x, pose.y = float(x), float(y)
                    break
        if die in (near_edge, out_of_view):
            w, h = setup.camera.size
            # the silhouette's radius in pixels: about 1.38 edges at the camera's scale
            r = 1.38 * setup.edge * setup.camera.focal / setup.camera.height
            inset = 1.15 * r + 4 if die == near_edge else float(rng.uniform(0.1, 0.5)) * r
            side = int(rng.integers(4))
            u = float(rng.uniform(0.3, 0.7))
            px, py = [(inset, u * h), (w - inset, u * h), (u * w, inset), (u * w, h - inset)][side]
            pose.x, pose.y = (float(c) for c in setup.camera.table_point(px, py))
            if die == near_edge:
                # wholly in view: its top stands out beyond its foot (the camera sees it from
                # the frame's centre), so the die is moved in until its outermost corner is
                # WHOLE_MARGIN pixels inside the edge
                for _ in range(3):
                    corners = setup.camera.project(pose.world()[0])
                    over = [-corners[:, 0].min(), corners[:, 0].max() - (w - 1),
                            -corners[:, 1].min(), corners[:, 1].max() - (h - 1)][side] + WHOLE_MARGIN
                    if over <= 0:
                        break
                    px, py = [(px + over, py), (px - over, py), (px, py + over), (px, py - over)][side]
                    pose.x, pose.y = (float(c) for c in setup.camera.table_point(px, py))
        if die == tilted:
            pose.tilt = float(rng.uniform(np.radians(22), np.radians(32)))
            pose.tilt_axis = float(rng.uniform(0, 2 * np.pi))
        poses.append(pose)
    moves = None
    if motion:
        moves = []
        for _ in poses:
            a = rng.uniform(0, 2 * np.pi)
            d = rng.uniform(1.0, 2.0) * setup.edge
            moves.append((d * np.cos(a), d * np.sin(a), float(rng.uniform(-1.0, 1.0))))
    image = _compose(rng, setup, poses, lighting=Lighting.random(rng), motion=moves)
    readable = hidden is None and tilted is None and not motion and out_of_view is None
    truth = {
        "faces": (poses[0].face, poses[1].face) if readable else None,
        "dice": {p.die: {"face": p.face, "top": p.top_centre(setup.camera), "tilted": bool(p.tilt)}
                 for p in poses},
        "hidden": hidden, "tilted": tilted, "motion": motion, "out_of_view": out_of_view,
    }
    return image, truth


def render_enrollment_sample(seed: int, die: str, face: str, *, setup: Setup | int = 0,
                             size: tuple[int, int] = FRAME_SIZE) -> np.ndarray:
    """One die alone on the empty table of ``setup`` with ``face`` up, as the mounted camera sees it."""
    if not isinstance(setup, Setup):
        setup = Setup.from_seed(setup, size)
    rng = np.random.default_rng([seed, 3])
    pose = _random_pose(rng, setup, die, face, [], margin=110.0)
    return _compose(rng, setup, [pose], lighting=Lighting.random(rng, strength=0.4))


def render_background(seed: int = 0, *, setup: Setup | int = 0, size: tuple[int, int] = FRAME_SIZE) -> np.ndarray:
    """The empty table of ``setup``."""
    if not isinstance(setup, Setup):
        setup = Setup.from_seed(setup, size)
    rng = np.random.default_rng([seed, 4])
    return _compose(rng, setup, [], lighting=Lighting.random(rng, strength=0.4))


def write_samples(folder: str | Path, *, setup: Setup | int = 0, per_face: int = 3, seed: int = 0,
                  size: tuple[int, int] = FRAME_SIZE) -> Path:
    """Write an enrollment SAMPLES folder: SAMPLES/<face>/*.png and SAMPLES/background.png.

    Faces found on both dice get ``per_face`` images of each die.
    """
    folder = Path(folder)
    if not isinstance(setup, Setup):
        setup = Setup.from_seed(setup, size)
    folder.mkdir(parents=True, exist_ok=True)
    write_image(folder / "background.png", render_background(seed, setup=setup))
    n = 0
    for face in FACES:
        (folder / face).mkdir(exist_ok=True)
        for die in DICE:
            if face not in DIE_FACES[die]:
                continue
            for k in range(per_face):
                n += 1
                img = render_enrollment_sample(seed * 1000 + n, die, face, setup=setup)
                write_image(folder / face / f"{die}-{k + 1}.png", img)
    return folder
