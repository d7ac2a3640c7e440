"""Rectifying a found card and describing its face for matching.

A card is warped to a canonical portrait size; its description is made of colour patches
(each channel normalised for the card, so light level and colour cast cancel) at two scales
and a grid of gradient-orientation histograms.  Descriptions are unit vectors: a dot product
is the similarity.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Canonical width of a rectified card in pixels (height follows the deck's proportions).
CANON_W = 48
#: Share of each side trimmed before describing (edges bleed into the table).
TRIM = 0.06
_BINS = 8
_CELL = 6
#: Most iterations of the ECC alignment of near-duplicates.
ECC_STEPS = 3
ECC_MOTION = cv2.MOTION_AFFINE


def canon_size(ratio: float) -> tuple[int, int]:
    """(width, height) of the rectified portrait card for a short/long ``ratio``."""
    return CANON_W, int(round(CANON_W / max(0.3, min(1.0, ratio))))


def rectify(image: np.ndarray, corners: np.ndarray, ratio: float) -> np.ndarray:
    """Warp the card inside ``corners`` (clockwise) to a portrait canonical image.

    The first corner becomes the top left; the longer sides become the vertical ones (the
    result may be upside down: the matcher tries both ways).
    """
    return rectify_to(image, corners, canon_size(ratio))


def rectify_to(image: np.ndarray, corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """:func:`rectify` to a given (width, height) portrait size."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    d = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    if d[0] + d[2] > d[1] + d[3]:
        q = np.roll(q, -1, axis=0)  # landscape: start from the next corner
    w, h = size
    # warp at twice the size, then shrink with area averaging (no aliasing of fine print)
    W, H = 2 * w, 2 * h
    dst = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    big = cv2.warpPerspective(image, m, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


def _trim(card: np.ndarray) -> np.ndarray:
    h, w = card.shape[:2]
    dy, dx = int(round(h * TRIM)), int(round(w * TRIM))
    return card[dy:h - dy, dx:w - dx]


def normalised(card: np.ndarray) -> np.ndarray:
    """float32 card with each colour channel at zero mean and unit spread."""
    f = card.astype(np.float32)
    mean, std = cv2.meanStdDev(f)
    return (f - mean.reshape(1, 1, 3).astype(np.float32)) / np.maximum(std.reshape(1, 1, 3), 4.0).astype(np.float32)


def _gradients(gray: np.ndarray) -> np.ndarray:
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag, ang = cv2.cartToPolar(gx, gy)
    h, w = gray.shape
    ch, cw = h // _CELL, w // _CELL
    mag = mag[:ch * _CELL, :cw * _CELL]
    b = np.minimum((ang[:ch * _CELL, :cw * _CELL] * (_BINS / (2 * np.pi))).astype(np.intp), _BINS - 1)
    # one histogram bin per (cell row, cell column, orientation): a single bincount
    cell = (np.arange(ch * _CELL) // _CELL)[:, None] * cw + (np.arange(cw * _CELL) // _CELL)[None, :]
    hist = np.bincount((cell * _BINS + b).ravel(), weights=mag.ravel(), minlength=ch * cw * _BINS)
    return np.sqrt(hist).astype(np.float32)  # tame strong edges


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-6)


def describe(card: np.ndarray) -> np.ndarray:
    """The unit description vector of a rectified card image."""
    t = _trim(card)
    n = normalised(t)
    h, w = n.shape[:2]
    coarse = cv2.resize(n, (8, max(2, round(8 * h / w))), interpolation=cv2.INTER_AREA)
    fine = cv2.resize(n, (20, max(2, round(20 * h / w))), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(t, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gray = (gray - gray.mean()) / max(float(gray.std()), 4.0)
    grads = _gradients(gray)
    return _unit(np.concatenate([
        0.8 * _unit(coarse.ravel()), 1.0 * _unit(fine.ravel()), 0.8 * _unit(grads),
    ])).astype(np.float32)


def turned(card: np.ndarray, square: bool) -> list[np.ndarray]:
    """The card as seen the two ways up (four ways for a square card, as portraits)."""
    out = [card, cv2.rotate(card, cv2.ROTATE_180)]
    if square:
        for r in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE):
            out.append(cv2.resize(cv2.rotate(card, r), (card.shape[1], card.shape[0]),
                                  interpolation=cv2.INTER_AREA))
    return out


def align_target(target: np.ndarray) -> np.ndarray:
    """A rectified card prepared as the fixed image of :func:`align` (gray, float, half size)."""
    return cv2.pyrDown(cv2.cvtColor(target, cv2.COLOR_BGR2GRAY).astype(np.float32))


def align(target: np.ndarray | None, moving: np.ndarray, prepared: np.ndarray | None = None) -> np.ndarray:
    """``moving`` (a rectified card) warped onto ``target`` by the affine map that best lines
    up their shapes (ECC); unchanged if that fails to converge.  ``prepared`` is
    :func:`align_target` of the target, when already computed (``target`` may then be None)."""
    if prepared is not None:
        ts = prepared
    elif target is not None:
        ts = align_target(target)
    else:
        raise ValueError("align needs the target card or its align_target()")
    m = cv2.cvtColor(moving, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # solve at half size (four times cheaper), then scale the shift back up
    ms = cv2.pyrDown(m)
    start = np.eye(2, 3, dtype=np.float32)
    # the whole image counts: the same as no mask (which the stub's 7-argument form cannot say)
    whole = np.ones(ms.shape[:2], np.uint8)
    try:
        _, solved = cv2.findTransformECC(ts, ms, start, ECC_MOTION,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ECC_STEPS, 1e-3),
                                       whole, 3)
    except cv2.error:
        return moving
    warp = np.asarray(solved, np.float32)
    warp[:, 2] *= 2
    if np.abs(warp[:, :2] - np.eye(2)).max() > 0.15 or np.abs(warp[:, 2]).max() > 0.1 * m.shape[1]:
        return moving
    return cv2.warpAffine(moving, warp, (m.shape[1], m.shape[0]),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def detail_form(card: np.ndarray) -> np.ndarray:
    """A rectified card prepared for :func:`detail_distances` (normalised, trimmed, softened)."""
    return cv2.GaussianBlur(normalised(_trim(card)), (0, 0), 0.8)


def detail_region(candidates: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Where near-duplicate ``candidates`` (aligned, in :func:`detail_form`) differ most: the
    mask of those pixels, the candidates' values there (k, n, 3) and each pixel's weight (its
    spread).  None when they do not differ anywhere.  It depends only on the candidates, so a
    reader computes it once per set of candidates."""
    stack = np.stack(candidates)
    spread = np.abs(stack - stack.mean(axis=0)).sum(axis=3).max(axis=0)
    flat = spread.ravel()
    k = int(0.96 * (flat.size - 1))
    thr = max(float(np.partition(flat, k)[k]), 0.3)
    region = spread >= thr
    if region.sum() < 4:
        return None
    return region, stack[:, region], spread[region]


def region_distances(region: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
                     query: np.ndarray, count: int) -> np.ndarray:
    """How far ``query`` (aligned, in :func:`detail_form`) is from each of ``count``
    candidates inside their :func:`detail_region` (weighted mean absolute difference)."""
    if region is None:
        return np.zeros(count)
    mask, values, wgt = region
    d = np.abs(values - query[mask][None]).sum(axis=2)
    return (d * wgt[None]).sum(axis=1) / wgt.sum()


def detail_distances(candidates: list[np.ndarray], query: np.ndarray) -> np.ndarray:
    """How far ``query`` is from each candidate where the candidates differ most.

    Near-duplicate cards (same art, another number, colour or fill of a symbol) differ in a
    small area; comparing only there decides between them.  The candidates and the query must
    be aligned with each other (see :func:`align`) and in :func:`detail_form`.
    """
    return region_distances(detail_region(candidates), query, len(candidates))
