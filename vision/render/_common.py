"""Pieces shared by the scene renderers: tables, light, and the camera's own faults.

All images are BGR ``uint8`` (or float32 in 0..255 while being composed).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Default camera frame size (width, height).
FRAME_SIZE = (960, 720)


def smooth_noise(rng: np.random.Generator, size: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth random field in about -1..1 of ``size`` (w, h) made from a ``cells`` (w, h) grid."""
    grid = rng.standard_normal((cells[1], cells[0])).astype(np.float32)
    return cv2.resize(grid, size, interpolation=cv2.INTER_CUBIC)


def wood_table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A wood-grain table top (float32 BGR)."""
    w, h = size
    base = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(120, 185)], np.float32)
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    warp = smooth_noise(rng, size, (4, 3)) * rng.uniform(20, 60)
    period = rng.uniform(14, 40)
    rings = np.sin((u + warp) * (2 * np.pi / period))
    # fine streaks along the grain: noise stretched along the grain direction
    streak = cv2.resize(rng.standard_normal((h // 2, 12)).astype(np.float32), (w, h))
    streak = cv2.warpAffine(streak, cv2.getRotationMatrix2D((w / 2, h / 2), -np.degrees(angle) + 90, 1.5),
                            (w, h), borderMode=cv2.BORDER_REFLECT)
    shade = 1.0 + 0.10 * rings + 0.06 * streak + 0.05 * smooth_noise(rng, size, (3, 3))
    return shade[..., None] * base


def cloth_table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A woven cloth table top (float32 BGR) in a colour far from the dice's."""
    w, h = size
    palette = [(200, 205, 210), (150, 120, 80), (170, 160, 150), (120, 90, 70),
               (180, 200, 215), (95, 95, 100), (210, 190, 160)]
    base = np.array(palette[rng.integers(len(palette))], np.float32) * rng.uniform(0.85, 1.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(3.0, 6.0)
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = smooth_noise(rng, size, (5, 4))
    grain = rng.standard_normal((h, w)).astype(np.float32)
    shade = 1.0 + 0.05 * weave + 0.06 * folds + 0.03 * grain
    return shade[..., None] * base


def white_cloth_table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A near-white woven tablecloth (float32 BGR): as pale as a white die's body."""
    w, h = size
    base = np.array([rng.uniform(215, 238), rng.uniform(220, 240), rng.uniform(222, 242)], np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(3.0, 6.0)
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = smooth_noise(rng, size, (5, 4))
    grain = rng.standard_normal((h, w)).astype(np.float32)
    shade = 1.0 + 0.03 * weave + 0.05 * folds + 0.02 * grain
    return shade[..., None] * base


def striped_table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A striped tablecloth (float32 BGR): two muted colours in bands a few cm wide."""
    w, h = size
    palette = [(200, 205, 210), (150, 120, 80), (170, 160, 150), (120, 90, 70), (210, 190, 160)]
    i, j = rng.choice(len(palette), 2, replace=False)
    a, b = (np.array(palette[k], np.float32) for k in (i, j))
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    period = rng.uniform(40, 110)
    band = (np.sin(u * 2 * np.pi / period) > 0).astype(np.float32)
    band = cv2.GaussianBlur(band, (0, 0), 1.2)
    shade = 1.0 + 0.05 * smooth_noise(rng, size, (5, 4)) + 0.02 * rng.standard_normal((h, w)).astype(np.float32)
    return shade[..., None] * (band[..., None] * a + (1 - band[..., None]) * b)


def table(rng: np.random.Generator, size: tuple[int, int] = FRAME_SIZE, kind: str | None = None) -> np.ndarray:
    """A table top: ``kind`` is "wood", "cloth", "striped", "white" (a near-white cloth) or None
    (wood or cloth)."""
    if kind is None:
        kind = "wood" if rng.random() < 0.6 else "cloth"
    if kind == "wood":
        return wood_table(rng, size)
    if kind == "cloth":
        return cloth_table(rng, size)
    if kind == "striped":
        return striped_table(rng, size)
    if kind == "white":
        return white_cloth_table(rng, size)
    raise ValueError(f"unknown table kind {kind!r}")


@dataclass(frozen=True)
class Lighting:
    """Uneven light over the frame and the camera's colour cast."""

    gradient: tuple[float, float]  # brightness change per half frame, x and y
    spot: tuple[float, float, float, float]  # x, y (0..1), radius (frame widths), strength
    cast: tuple[float, float, float]  # BGR gains
    exposure: float

    @classmethod
    def random(cls, rng: np.random.Generator, strength: float = 1.0) -> "Lighting":
        # drawn in this order: gradient, spot, cast, exposure
        gradient = (rng.uniform(-0.2, 0.2) * strength, rng.uniform(-0.2, 0.2) * strength)
        spot = (rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 0.8), rng.uniform(0, 0.25) * strength)
        blue, green, red = (float(g) for g in 1.0 + rng.uniform(-0.12, 0.12, 3) * strength)
        exposure = float(rng.uniform(0.85, 1.12))
        return cls(gradient=gradient, spot=spot, cast=(blue, green, red), exposure=exposure)

    def apply(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        gw, gh = 64, max(2, 64 * h // w)  # light varies slowly: compute it coarse, then resize
        yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
        xx, yy = (xx + 0.5) * w / gw, (yy + 0.5) * h / gh
        gain = 1.0 + self.gradient[0] * (xx / (w / 2) - 1) + self.gradient[1] * (yy / (h / 2) - 1)
        sx, sy, sr, ss = self.spot
        gain += ss * np.exp(-(((xx - sx * w) ** 2 + (yy - sy * h) ** 2) / (sr * w) ** 2))
        gain = cv2.resize(gain * self.exposure, (w, h), interpolation=cv2.INTER_LINEAR)
        gains = cv2.merge([gain * float(c) for c in self.cast])
        return cv2.multiply(image.astype(np.float32), gains)


def camera_faults(rng: np.random.Generator, image: np.ndarray, *, blur: float | None = None,
                  noise: float | None = None, jpeg: int | None = None) -> np.ndarray:
    """Mild lens blur, sensor noise and JPEG compression; returns a BGR uint8 frame."""
    blur = rng.uniform(0.0, 1.1) if blur is None else blur
    noise = rng.uniform(1.0, 4.0) if noise is None else noise
    jpeg = int(rng.integers(60, 96)) if jpeg is None else jpeg
    img = image.astype(np.float32)
    if blur > 0.2:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), blur), np.float32)
    grain = np.empty(img.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2 ** 31)))
    # mean and stddev as the (4, 1) Scalar OpenCV makes of a plain number: (x, 0, 0, 0), so
    # the grain lands in the first (blue) channel only, as it always has
    cv2.randn(grain, np.array([[0.0], [0.0], [0.0], [0.0]]), np.array([[float(noise)], [0.0], [0.0], [0.0]]))
    img += grain
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg < 100:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is None:
            raise RuntimeError(f"the JPEG round trip (quality {jpeg}) of a rendered frame failed")
        out = np.asarray(decoded, np.uint8)
    return out


def write_image(path, image: np.ndarray) -> None:
    """Write an image atomically (a temp file in the same folder, then rename)."""
    import os
    from pathlib import Path

    path = Path(path)
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    if not cv2.imwrite(str(tmp), image):
        raise OSError(f"cannot write image {path}")
    os.replace(tmp, path)
