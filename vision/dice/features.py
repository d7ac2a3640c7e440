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


def drawn_out(angle: float, ratio: float) -> np.ndarray:
    """The look (2x2) of a face drawn out ``ratio`` times along the direction ``angle``
    (radians, image coordinates) and left as it is across it."""
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, s], [-s, c]])
    return rot.T @ np.diag([ratio, 1.0]) @ rot


def polar_patches(frame: np.ndarray, gains: np.ndarray, centre: tuple[float, float], radius: float,
                  offsets: np.ndarray, disc: float, stretch: np.ndarray | None = None) -> np.ndarray:
    """Descriptors (len(offsets), ANGLES, RINGS, CHANNELS) of discs of radius ``disc`` (frame pixels)
    centred at ``centre + offsets * radius``.

    ``frame`` is the raw BGR frame, ``radius`` the die's radius in frame pixels. Seen straight
    down through an ideal lens, the top face is parallel to the image plane and has the same
    size anywhere; a real lens enlarges or shrinks it towards the frame's edges (the caller's
    ``disc`` follows that) and more along the radius than across it, and a leaning camera
    draws it out along the lean: ``stretch`` is the face's look there (2x2: a vector ``v`` on
    the flat face seen as ``stretch @ v``, up to the size; see
    :meth:`~farmbox.vision.dice.model.DiceModel.stretch_at`), undone before sampling.
    """
    look = np.eye(2) if stretch is None else np.asarray(stretch, np.float64)
    axes = np.linalg.svd(look, compute_uv=False)       # how far the face is drawn out each way
    reach = disc * max(1.0, float(axes[0])) + float(np.abs(offsets).max(initial=0.0)) * radius + 3
    zoom = DISC / disc
    h, w = frame.shape[:2]
    x0, y0 = int(max(0, np.floor(centre[0] - reach))), int(max(0, np.floor(centre[1] - reach)))
    x1, y1 = int(min(w, np.ceil(centre[0] + reach))), int(min(h, np.ceil(centre[1] + reach)))
    roi = frame[y0:y1, x0:x1]
    size = (max(2, int(round((x1 - x0) * zoom))), max(2, int(round((y1 - y0) * zoom))))
    if float(np.abs(axes - 1.0).max()) < 0.01:
        small = cv2.resize(roi, size, interpolation=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR)

        def place(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return np.stack([(x - x0) * size[0] / (x1 - x0), (y - y0) * size[1] / (y1 - y0)], axis=-1)
    else:
        # zoom, and undo the face's look, about the patch's centre
        a = zoom * np.linalg.inv(look)
        mid = np.array([(centre[0] - x0), (centre[1] - y0)])
        out_mid = np.array([size[0] / 2, size[1] / 2])
        m = np.hstack([a, (out_mid - a @ mid)[:, None]]).astype(np.float64)
        if zoom < 1:  # smooth first as INTER_AREA would
            roi = cv2.GaussianBlur(roi, (0, 0), 0.5 / zoom)
        small = cv2.warpAffine(roi, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

        def place(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return (a @ np.stack([x - x0, y - y0]) + m[:, 2:]).T
    # the gains (and 1/255) applied along whole rows: a product broadcast over 3 channels is slow
    h_, w_ = small.shape[:2]
    small = small.astype(np.float32).reshape(h_, w_ * 3)
    small *= np.tile(np.float32(gains) / np.float32(255), w_)
    np.minimum(small, 1, out=small)       # and never below 0: a BGR frame times a gain
    lab = cv2.cvtColor(small.reshape(h_, w_, 3), cv2.COLOR_BGR2Lab).astype(np.float32, copy=False)
    if DETAIL:
        # outlines count more than the broad blob of a picture (silhouettes of one colour)
        lab -= DETAIL * cv2.GaussianBlur(lab, (0, 0), DETAIL_SIGMA)
    scales = cv2.merge([cv2.GaussianBlur(lab, (0, 0), sigma) if sigma else lab for sigma in SCALES])
    # every disc's polar grid sampled in one remap (as cv2.warpPolar samples one: its centre
    # in single precision, the grid's points added in double, outside the patch black)
    offsets = np.asarray(offsets)
    spots = place(centre[0] + offsets[:, 0] * radius, centre[1] + offsets[:, 1] * radius)
    spots = spots.astype(np.float32).astype(np.float64)
    xs = (_POLAR_X[None] + spots[:, :1]).astype(np.float32).reshape(-1, RINGS)
    ys = (_POLAR_Y[None] + spots[:, 1:]).astype(np.float32).reshape(-1, RINGS)
    out = np.empty((len(offsets) * ANGLES, RINGS, CHANNELS), np.float32)
    for k in range(0, len(xs), _REMAP_ROWS):   # a remap's map is under 32767 rows
        out[k:k + _REMAP_ROWS] = cv2.remap(scales, xs[k:k + _REMAP_ROWS], ys[k:k + _REMAP_ROWS], cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_CONSTANT).reshape(-1, RINGS, CHANNELS)
    return normalise(out.reshape(len(offsets), ANGLES, RINGS, CHANNELS))


#: The polar grid of a disc of radius DISC about (0, 0), x and y (ANGLES * RINGS, angle major),
#: as ``cv2.warpPolar`` lays it: ring r at r * DISC / RINGS in single precision, angle a at
#: 2 pi a / ANGLES.
_RADII = (np.arange(RINGS) * (DISC / RINGS)).astype(np.float32).astype(np.float64)
_TURNS = np.arange(ANGLES) * (2 * np.pi / ANGLES)
_POLAR_X = (_RADII[None, :] * np.cos(_TURNS)[:, None]).ravel()
_POLAR_Y = (_RADII[None, :] * np.sin(_TURNS)[:, None]).ravel()
_REMAP_ROWS = 32000 // ANGLES * ANGLES


def normalise(desc: np.ndarray) -> np.ndarray:
    """Zero mean per channel and unit norm per descriptor (gain and offset of the light do not
    matter); outer rings weigh more (they cover more area)."""
    n, angles, rings, channels = desc.shape
    d = desc.astype(np.float32).reshape(n, angles, rings * channels)
    # the mean over the disc as a product, taken away along whole rows (a reduction over two
    # middle axes, or a difference broadcast over a few channels, is far slower)
    mean = np.matmul(np.full(angles * rings, 1 / (angles * rings), np.float32),
                     d.reshape(n, angles * rings, channels))
    d -= np.tile(mean, rings)[:, None, :]
    d *= np.repeat(np.sqrt((np.arange(rings, dtype=np.float32) + 0.5) / rings), channels)
    flat = d.reshape(n, -1)
    d /= np.maximum(np.sqrt(np.einsum("ij,ij->i", flat, flat)), 1e-3)[:, None, None]
    return d.reshape(n, angles, rings, channels)


def spectra(desc: np.ndarray) -> np.ndarray:
    """FFT along the angle axis of descriptors (N, ANGLES, RINGS, CHANNELS) ->
    (N, ANGLES//2+1, RINGS*CHANNELS)."""
    x = desc.reshape(len(desc), ANGLES, -1).astype(np.float32, copy=False)
    out = np.empty((len(desc), ANGLES // 2 + 1, x.shape[2]), np.complex64)
    # a transform this short is quicker as one matrix product than as thousands of FFTs
    out.real = np.matmul(_DFT_COS, x)
    out.imag = np.matmul(_DFT_SIN, x)
    return out


def best_rotation_scores(query: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """Correlation of each query with each template at its best rotation: (Q, K) in -1..1.

    Both arguments are outputs of :func:`spectra`.
    """
    # per frequency, a (Q x M) by (M x K) product: one batched matrix multiply
    cross = np.matmul(query.transpose(1, 0, 2), np.conj(templates).transpose(1, 2, 0))  # F, Q, K
    return np.fft.irfft(cross, n=ANGLES, axis=0).max(axis=0)


#: The real DFT of ANGLES samples as two matrices (F, ANGLES): rfft(x) = (C + i S) x.
_PHASES = 2 * np.pi * np.outer(np.arange(ANGLES // 2 + 1), np.arange(ANGLES)) / ANGLES
_DFT_COS, _DFT_SIN = np.cos(_PHASES).astype(np.float32), (-np.sin(_PHASES)).astype(np.float32)
