"""Colour model of the dice and the table, learned at enrollment.

Frames are first white-balanced on their own median (the table fills most of the frame), so a
colour cast or a dimmer room moves the table and the dice alike; pixels are then compared by
chromaticity r = R/(R+G+B), g = G/(R+G+B), which ignores brightness (shadows, uneven light).
"""

from __future__ import annotations

import cv2
import numpy as np

BINS = 32
#: Pixels darker than this (sum of BGR, 0..765) have no reliable colour.
DARK = 45.0
#: A die's colour must be at least this share of its commonest colour's density.
PEAK_SHARE = 0.04


def balance_gains(frame: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the frame's median grey (BGR float32, 3 values)."""
    sample = frame[::8, ::8].reshape(-1, 3).astype(np.float32)
    med = np.median(sample, axis=0) + 1.0
    return (med.mean() / med).astype(np.float32)


def balanced(frame: np.ndarray, gains: np.ndarray | None = None) -> np.ndarray:
    """The frame white-balanced on its median, as float32 BGR 0..255."""
    gains = balance_gains(frame) if gains is None else gains
    return frame.astype(np.float32) * gains


def chroma_index(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Histogram bin (flat index into BINS x BINS) of every pixel, and a mask of pixels bright
    enough to have a colour."""
    s = img.sum(axis=2) + 1e-3
    r = np.minimum((img[..., 2] / s * BINS).astype(np.int32), BINS - 1)
    g = np.minimum((img[..., 1] / s * BINS).astype(np.int32), BINS - 1)
    return r * BINS + g, s > DARK


def histogram(img: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Chromaticity histogram (BINS x BINS, counts) of the masked bright pixels of ``img``."""
    idx, bright = chroma_index(img)
    sel = idx[mask & bright]
    return np.bincount(sel, minlength=BINS * BINS).reshape(BINS, BINS).astype(np.float32)


def density(counts: np.ndarray, smooth: float = 1.0) -> np.ndarray:
    """A smoothed probability table from histogram counts."""
    h = cv2.GaussianBlur(counts.astype(np.float32), (0, 0), smooth)
    return h / max(float(h.sum()), 1e-9)


def classify(img: np.ndarray, densities: np.ndarray, floor: float) -> np.ndarray:
    """Label of each pixel of a balanced image: 0 table/other, 1 + k for die k.

    ``densities`` is (1 + dice, BINS, BINS): table first. A pixel is a die's when that die's
    density beats the table's, the other die's and a uniform ``floor`` (colours never seen),
    and is at least PEAK_SHARE of that die's commonest colour (its body, not a picture's tail).
    """
    idx, bright = chroma_index(img)
    flat = densities.reshape(len(densities), -1).copy()
    flat[1:][flat[1:] < PEAK_SHARE * flat[1:].max(axis=1, keepdims=True)] = 0
    table = np.maximum(flat[0], floor)
    best = np.argmax(flat[1:], axis=0)
    win = flat[1:].max(axis=0) > table
    lut = np.where(win, best + 1, 0).astype(np.uint8)
    labels = lut[idx]
    labels[~bright] = 0
    return labels
