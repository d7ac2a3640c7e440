"""Rotation-invariant description of a die's top face.

The top face of a die resting on the table is parallel to the image plane of a camera looking
down, so it appears as a scaled and rotated copy of itself. We sample a disc around its centre
(radius ``rho`` times the die's radius) on a polar grid: rotating the die only shifts the polar
image along the angle axis, so comparing against every cyclic shift (one FFT) is rotation
invariant. Each descriptor is Lab colour, zero mean and unit norm (gain and offset invariant),
at two scales: as sharp as the frame gives it (flat silhouettes differ in fine outline), and
smoothed by about a pixel (a thin ink line drawing then survives the sparse polar grid and
small misplacements instead of aliasing in and out of the samples).
"""

from __future__ import annotations

import cv2
import numpy as np

RINGS = 12
ANGLES = 48
#: Disc radius in pixels after rescaling every die to the same size.
DISC = 24.0
#: Share of the broad picture taken away (a high-pass of that reach, in pixels of the disc).
DETAIL = 0.75
DETAIL_SIGMA = 4.0
#: Gaussian blur (pixels of the disc) of each scale of the descriptor: sharp, and smoothed.
SCALES = (0.0, 1.0)
#: Channels of a descriptor: Lab at each scale.
CHANNELS = 3 * len(SCALES)


def polar_patches(frame: np.ndarray, gains: np.ndarray, centre: tuple[float, float], radius: float,
                  offsets: np.ndarray, disc: float, stretch: tuple[float, float] | None = None) -> np.ndarray:
    """Descriptors (len(offsets), ANGLES, RINGS, CHANNELS) of discs of radius ``disc`` (frame pixels)
    centred at ``centre + offsets * radius``.

    ``frame`` is the raw BGR frame, ``radius`` the die's radius in frame pixels. Seen straight
    down through an ideal lens, the top face is parallel to the image plane and has the same
    size anywhere; a real lens enlarges or shrinks it towards the frame's edges (the caller's
    ``disc`` follows that) and more along the radius than across it: ``stretch`` = (angle of
    the direction from the frame's centre, how many times longer the face looks along it),
    undone before sampling.
    """
    ratio = 1.0 if stretch is None else float(stretch[1])
    reach = disc * max(1.0, ratio) + float(np.abs(offsets).max(initial=0.0)) * radius + 3
    zoom = DISC / disc
    h, w = frame.shape[:2]
    x0, y0 = int(max(0, np.floor(centre[0] - reach))), int(max(0, np.floor(centre[1] - reach)))
    x1, y1 = int(min(w, np.ceil(centre[0] + reach))), int(min(h, np.ceil(centre[1] + reach)))
    roi = frame[y0:y1, x0:x1]
    size = (max(2, int(round((x1 - x0) * zoom))), max(2, int(round((y1 - y0) * zoom))))
    if stretch is None or abs(ratio - 1.0) < 0.01:
        small = cv2.resize(roi, size, interpolation=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR)

        def place(x: float, y: float) -> tuple[float, float]:
            return (x - x0) * size[0] / (x1 - x0), (y - y0) * size[1] / (y1 - y0)
    else:
        # zoom, and squeeze along the radial direction, about the patch's centre
        c, s = np.cos(stretch[0]), np.sin(stretch[0])
        rot = np.array([[c, s], [-s, c]])
        a = zoom * rot.T @ np.diag([1.0 / ratio, 1.0]) @ rot
        mid = np.array([(centre[0] - x0), (centre[1] - y0)])
        out_mid = np.array([size[0] / 2, size[1] / 2])
        m = np.hstack([a, (out_mid - a @ mid)[:, None]]).astype(np.float64)
        if zoom < 1:  # smooth first as INTER_AREA would
            roi = cv2.GaussianBlur(roi, (0, 0), 0.5 / zoom)
        small = cv2.warpAffine(roi, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

        def place(x: float, y: float) -> tuple[float, float]:
            q = a @ np.array([x - x0, y - y0]) + m[:, 2]
            return float(q[0]), float(q[1])
    small = np.clip(small.astype(np.float32) * gains / 255.0, 0, 1)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    if DETAIL:
        # outlines count more than the broad blob of a picture (silhouettes of one colour)
        lab = lab - DETAIL * cv2.GaussianBlur(lab, (0, 0), DETAIL_SIGMA)
    lab = np.concatenate([cv2.GaussianBlur(lab, (0, 0), sigma) if sigma else lab for sigma in SCALES],
                         axis=2)
    out = np.empty((len(offsets), ANGLES, RINGS, CHANNELS), np.float32)
    for i, (dx, dy) in enumerate(offsets):
        cx, cy = place(centre[0] + dx * radius, centre[1] + dy * radius)
        out[i] = cv2.warpPolar(lab, (RINGS, ANGLES), (cx, cy), DISC,
                               cv2.INTER_LINEAR | cv2.WARP_POLAR_LINEAR | cv2.WARP_FILL_OUTLIERS)
    return normalise(out)


def normalise(desc: np.ndarray) -> np.ndarray:
    """Zero mean per channel and unit norm per descriptor (gain and offset of the light do not
    matter); outer rings weigh more (they cover more area)."""
    d = desc - desc.mean(axis=(1, 2), keepdims=True)
    d = d * np.sqrt((np.arange(RINGS, dtype=np.float32) + 0.5) / RINGS)[None, None, :, None]
    n = np.sqrt((d ** 2).sum(axis=(1, 2, 3), keepdims=True))
    return (d / np.maximum(n, 1e-3)).astype(np.float32)


def spectra(desc: np.ndarray) -> np.ndarray:
    """FFT along the angle axis of descriptors (N, ANGLES, RINGS, CHANNELS) ->
    (N, ANGLES//2+1, RINGS*CHANNELS)."""
    return np.fft.rfft(desc.reshape(len(desc), ANGLES, -1), axis=1)


def best_rotation_scores(query: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """Correlation of each query with each template at its best rotation: (Q, K) in -1..1.

    Both arguments are outputs of :func:`spectra`.
    """
    # per frequency, a (Q x M) by (M x K) product: one batched matrix multiply
    cross = np.matmul(query.transpose(1, 0, 2), np.conj(templates).transpose(1, 2, 0))  # F, Q, K
    return np.fft.irfft(cross, n=ANGLES, axis=0).max(axis=0)
