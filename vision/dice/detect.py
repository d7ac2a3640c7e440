"""Find the dice in a frame by their learned colours, at a quarter of the frame's width."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from farmbox.vision.dice.colour import balance_gains, balanced, classify

#: Width of the working image used to find the dice.
WORK_WIDTH = 320
#: Pieces of a die's colour closer than this (twice it, in shares of a small die's radius) are
#: one die: on art with large stickers the die's own colour shows only as rims, which the top
#: face's sticker parts.
JOIN = 0.45


@dataclass(frozen=True)
class Blob:
    """One die's silhouette, in full-frame pixels."""

    centre: tuple[float, float]
    radius: float  # radius of the disc with the same area as the silhouette
    area: float
    elongation: float  # long / short axis of the silhouette (1 for a disc)
    touches_border: bool
    hull: np.ndarray  # convex hull points (N, 2), full-frame pixels
    #: found by what differs from the empty table, not by the die's colour
    by_table: bool = False


#: Chromaticity distance from the empty table that marks a die pixel (at least; more where
#: the frame's own split of its steps, Otsu's, says so).
MIN_CHROMA_STEP = 0.03


def chromaticity(img: np.ndarray) -> np.ndarray:
    """The g and r chromaticity (G and R over R + G + B) of every pixel of a BGR image."""
    s = img.sum(axis=2, keepdims=True) + 1e-3
    return img[..., 1:] / s  # g, r


def changed_from_table(small: np.ndarray, table_chroma: np.ndarray) -> np.ndarray:
    """Working-image mask of what differs in colour from the empty table (``small``: a frame in
    the working image, white-balanced; ``table_chroma``: the empty table's :func:`chromaticity`
    there): the dice, not their shadows (a shadow darkens the table and keeps its colour)."""
    step = np.abs(chromaticity(small) - table_chroma).sum(axis=2)
    step[(small.sum(axis=2) < 45)] = 0
    u8 = np.clip(step * 1000, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(u8, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return step > max(MIN_CHROMA_STEP, otsu / 1000)


def work_scale(frame: np.ndarray) -> float:
    return WORK_WIDTH / frame.shape[1]


def shrink(frame: np.ndarray) -> np.ndarray:
    s = work_scale(frame)
    return cv2.resize(frame, (WORK_WIDTH, max(1, int(round(frame.shape[0] * s)))),
                      interpolation=cv2.INTER_AREA)


def label_dice(frame: np.ndarray, densities: np.ndarray, floor: float,
               gains: np.ndarray | None = None) -> np.ndarray:
    """Per-pixel labels of the working image (0 other, 1 green, 2 red)."""
    small = shrink(frame)
    gains = balance_gains(frame) if gains is None else gains
    return classify(balanced(small, gains), densities, floor)


def blob_of(mask: np.ndarray, scale: float, min_area: float) -> Blob | None:
    """The largest die-sized region of a working-image mask, as a filled hull.

    A die's colour often shows only as a ring around each face's picture, so nearby pieces are
    joined (a dilation of :data:`JOIN` times a small die's radius) before picking the largest.
    """
    found = blobs_of(mask, scale, min_area, 1)
    return found[0] if found else None


def blobs_of(mask: np.ndarray, scale: float, min_area: float, most: int = 3) -> list[Blob]:
    """Up to ``most`` die-sized regions of a working-image mask, largest first (see
    :func:`blob_of`)."""
    m = mask.astype(np.uint8)  # no opening: a die's colour may be only thin rings
    r = max(1, int(round(JOIN * np.sqrt(min_area / np.pi) * scale)))
    joined = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out: list[Blob] = []
    for k in 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA]):
        if len(out) >= most:
            break
        piece = (lab == k) & (m > 0)
        if piece.sum() < min_area * scale * scale * 0.15:
            break
        b = _hull_blob(piece, scale, min_area)
        if b is not None:
            out.append(b)
    return out


def _hull_blob(piece: np.ndarray, scale: float, min_area: float) -> Blob | None:
    """The filled convex hull of one piece of mask, in full-frame pixels."""
    pts = cv2.findNonZero(piece.astype(np.uint8))
    hull = cv2.convexHull(pts).reshape(-1, 2).astype(np.float32)
    area = float(cv2.contourArea(hull)) / (scale * scale)
    if area < min_area:
        return None
    mom = cv2.moments(hull)
    cx, cy = mom["m10"] / mom["m00"], mom["m01"] / mom["m00"]
    cov = np.array([[mom["mu20"], mom["mu11"]], [mom["mu11"], mom["mu02"]]]) / mom["m00"]
    ev = np.linalg.eigvalsh(cov)
    elong = float(np.sqrt(ev[1] / max(ev[0], 1e-9)))
    h, w = piece.shape
    x, y, bw, bh = cv2.boundingRect(hull.astype(np.int32))
    border = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
    return Blob(centre=((cx + 0.5) / scale - 0.5, (cy + 0.5) / scale - 0.5),
                radius=float(np.sqrt(area / np.pi)), area=area, elongation=elong,
                touches_border=bool(border), hull=(hull + 0.5) / scale - 0.5)


def find_dice(frame: np.ndarray, densities: np.ndarray, floor: float, min_area: float,
              gains: np.ndarray | None = None, apart: bool = True) -> list[Blob | None]:
    """The green and the red die's blobs (None where a die is not seen).

    Two dice never overlap: when the largest region of each die's colour is the same object
    (a die whose own colour is only a thin ring, next to a die whose shading passes for that
    colour), the object goes to the die whose colour covers more of it, and the other die takes
    its next region apart from it (or is not seen).  ``apart=False`` skips that (enrollment:
    one die per photo, known which)."""
    labels = label_dice(frame, densities, floor, gains)
    scale = work_scale(frame)
    candidates = [blobs_of(labels == k + 1, scale, min_area) for k in range(len(densities) - 1)]
    chosen: list[Blob | None] = [c[0] if c else None for c in candidates]
    a, b = (chosen + [None, None])[:2]
    if apart and a is not None and b is not None and same_object(a, b):
        share = [_colour_share(labels, a, scale, k + 1) for k in range(2)]
        keep = int(np.argmax(share))
        kept = (a, b)[keep]
        rest = [c for c in candidates[1 - keep][1:] if not same_object(c, kept)]
        chosen[1 - keep] = rest[0] if rest else None
    return chosen


def same_object(a: Blob, b: Blob) -> bool:
    """Whether two silhouettes are one object (their centres closer than the smaller radius:
    two real dice, even touching, are about two radii apart)."""
    return float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])) < min(a.radius, b.radius)


def _colour_share(labels: np.ndarray, blob: Blob, scale: float, label: int) -> float:
    """Share of the working-image pixels inside ``blob`` labelled ``label``."""
    mask = np.zeros(labels.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round((blob.hull + 0.5) * scale - 0.5).astype(np.int32), (1,))
    inside = mask > 0
    return float((labels[inside] == label).sum()) / max(1, int(inside.sum()))


def sharpness(frame: np.ndarray, blob: Blob) -> float:
    """Edge contrast inside a die, relative to its brightness spread (drops with motion blur)."""
    x, y, w, h = cv2.boundingRect(blob.hull.astype(np.int32))
    x, y = max(x, 0), max(y, 0)
    grey = cv2.cvtColor(frame[y:y + h, x:x + w], cv2.COLOR_BGR2GRAY).astype(np.float32)
    if grey.size < 16:
        return 0.0
    z = 32.0 / max(w, h)
    roi = cv2.resize(grey, (max(4, int(w * z)), max(4, int(h * z))), interpolation=cv2.INTER_AREA)
    gx = cv2.Sobel(roi, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(roi, cv2.CV_32F, 0, 1)
    return float(np.sqrt(gx ** 2 + gy ** 2).mean() / (roi.std() + 1.0))
