"""Learning a deck from a few shots per card, so that it holds under another light and camera.

Three ideas carry it:

* **Features that cancel the light.**  Each rectified card is divided by its own paper colour
  (a bright percentile of each channel), so white balance and exposure drop out; what is left
  is the ink: how much each channel is absorbed (its colour, independent of the lamp), where
  it lies (the layout: count and shape of symbols, at two scales), where each colour lies,
  how strong it is (fill: solid, striped, empty) and the hue of its coloured marks, and of its
  small colour details, in each half of the card.  (Gradient-orientation histograms of the ink
  made the real photos read worse, 95.7% best-card right against 88.8%: left out.)
* **Many made-up shots.**  Every enrollment shot is copied with the changes a different camera
  and room make: corner error and tilt, scale, white balance, exposure, gamma, a light
  gradient, a shadow, a lamp's glare, blur, noise and JPEG; a shot under the lamp's glare is
  copied with the glare's veil taken away (:func:`unveiled`).
* **A learned metric.**  Linear discriminant analysis over those copies keeps the directions
  in which cards differ and shrinks those in which one card's copies differ (the light).  A
  card is read as the class whose mean is nearest; thresholds come from leave-one-out over the
  enrollment shots, never from test scenes.

Each way a card can lie (two turns, four for a square card) is a class of its own, so an
asymmetric picture is never averaged with its upside-down self.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .find import clipped, median_of_rows
from .rectify import whole

#: Width of the rectified card the features are made from (height follows the ratio).
FEATURE_W = 80
#: Share of each side left out (the card's edge bleeds into the table).
TRIM = 0.06
#: Ink absorption chromaticity histogram: bins per axis.
CHROMA_BINS = 6
#: Ink strength histogram bins (fill).
INK_BINS = 8
#: Columns of the coarse grid of ink colour (rows: one and a half times as many).
SPOTS_W = 12
#: Whether that grid holds the paper-balanced colour (1) or the ink absorption (0).
SPOTS_BALANCED = 1
#: Hue of the coloured ink, and in which half of the card (top, bottom): bins around the colour
#: circle, and the grid (columns, rows) of card regions each with its own hue histogram.  The
#: small marks that tell two cards of one animal apart (the colours of its two dice) carry
#: little weight in the colour grid above; their hue, pooled over half a card, does not depend
#: on where exactly they lie.  A finer grid (2 x 3) read the real photos through a leaning
#: camera worse (94.8% against 99.7%), as it hangs on where a symbol lies.
HUE_BINS = 12
HUE_GRID = (1, 2)
#: Saturation (of the paper-balanced colour) below which a pixel has no hue.  At 0.12 the colour
#: a 640 px camera's JPEG bleeds round a symbol counted: the real photos through it read 94.5%
#: with 0.9% wrong (98.9%, 0 wrong without the hue block); at 0.2, 97.7% with 0.6%.
HUE_SATURATION = 0.2
#: The hue of the colour details too: each half's hue histogram (as above) of the card less
#: its colour blurred over this share of the card's width, so that a small mark counts by how
#: it stands out from what lies round it.  On a card whose art runs to its edge on a deep
#: ground of the animal's colour (the second renderer's "bleed" style) the ground fills each
#: half's histogram and two cards of one animal, dice marks of other colours, were read as each
#: other (wood 94.3% / 1.2% wrong, cloth 94.4%); with the details' hue 99.6% / 0 on both, the
#: twelve sets of the other two styles 9984 -> 10005 of 10098 right and 12 -> 3 wrong (the
#: surround blurred at full size: 10008 and 3), the real photos 347 -> 346.  The reach is no
#: knife edge: 0.05, 0.1, 0.2 and 0.3 of the width read the real photos through other cameras
#: alike (the evening table's slice 104 -> 99-100 right at each).  The details' own saturation
#: floor at 0.4 instead: the pale tiles' set lost 20 (docs/card-vision.md, "The hue of the
#: details").
DETAIL = 0.1
#: A photo of a card is washed out by the lamp's reflection on the glossy card (or a veil of
#: light) when over :data:`WASHED_OUT` of its face is clipped (a channel at :data:`WASHED_LEVEL`
#: or more, of 255) and its darkest ink (the 1st percentile of each pixel's weakest channel) is
#: lifted past :data:`WASHED_INK` of white.  A card whose every enrollment photo is washed out is
#: named weak (shoot it again away from the glare): its colours are not in the model, and the
#: leave-one-out check cannot see it (its photos agree with each other).  Clipping alone is no
#: sign: a camera exposing for a dark table clips a white card's paper and leaves its ink crisp
#: (the colour-dice renderer's cards on wood: two thirds clipped, ink at 0.11-0.14).  On the
#: twelve fresh second-renderer sets of 2026-12-06 (seeds 141-152): 2 of their 288 cards, which
#: carry 32 of the sets' 75 misses (a sheep whose both photos were 83% clipped with its ink at
#: 0.58 and 0.62: 29 misses, 5 of them read as its twin); the real photos (`set-cards-dev`) have
#: no clipped pixel in 10,000.
WASHED_LEVEL = 250
WASHED_OUT = 0.5
WASHED_INK = 0.35
#: A photo of a card under the lamp's glare, in part (a highlight brightest at one spot): its
#: darkest ink lifted past :data:`VEILED_INK` (linear light, the 1st percentile of each pixel's
#: weakest channel; ink without glare measures 0.001-0.02 on the second renderer's cards), at
#: least :data:`VEILED_CLIPPED` of its face clipped (:data:`WASHED_LEVEL`), and the lift rising
#: over the card (:data:`VEIL_RISE`).  Over six second-renderer sets (288 photos) the three took
#: 48 of the 61 photos whose renderer's glare covers half the card or more, and 4 of the 200 with
#: none; the lift alone takes the real photos' pale cards (`set-cards-dev`: a third of them past
#: 0.05, none clipped), clipping alone a card's white margin in a bright photo.
VEILED_INK = 0.03
VEILED_CLIPPED = 0.02
#: ... and rises over the card by this much of white (linear) or more: a veil even over the card
#: (a hazy lens, a faint reflection over all of it) is taken away by :func:`paper_balanced`.
#: The second renderer's glared photos rise by 0.3-0.8.
VEIL_RISE = 0.1
#: The veil is found as the lower envelope of the card's darkest light (each pixel's weakest
#: channel, linear) over a grid of :data:`VEIL_CELLS` cells across the card's shorter side:
#: a smooth surface (quadratic) under the cells' 5th percentiles, pushed down until it lies
#: under each of them.
VEIL_CELLS = 8
#: A cell whose darkest light is this share of the paper's (the 90th percentile of the card's
#: weakest channel) or more is bare paper, not ink under a veil: it takes no part.
PAPER_CELL = 0.6
#: Ridge added to the within-class scatter (share of its mean variance).
REG = 0.01
#: The most of the paper's light a card's darkest ink reflects (printed cards without glare
#: measure 0.1-0.26 of it); a lift beyond that is a glare's veil.
INK_REFLECTS = 0.25
#: Reach of the local paper estimate (share of the card's width; 0: no flattening).
FLATTEN = 0.4
#: Share of made-up shots with a shadow across the card.
SHADOWS = 0.4
#: Share of made-up shots under a lamp's glare: white light added over the card, even or
#: brightest at one spot, as a glossy card or a hazy lens shows it.
GLARE = 0.3
#: The camera's encoding: linear light is about its value to this power.  Reflected light adds
#: to the card's own in linear light and clips at white; added to the encoded values instead
#: (as before), the glare was one the veil removal undid exactly, and a strong real one paled
#: the card's marks past what enrollment had seen.  Hazy camera 95.7% / 1.7% wrong -> 97.4% /
#: 0.9%; flat art on wood under a lamp 99.2% / 0.6% -> 99.3% / 0.4%.
GAMMA = 2.2
#: The glare's light (linear) as a share of the card's bright paper's: 1 is a highlight as
#: bright as the paper itself.
GLARE_VEILS = (0.05, 0.8)
#: Most principal components kept before the discriminant analysis, and the share of the
#: made-up shots' variance they keep.  What tells two cards of one animal apart (their dice's
#: small marks) lies in the last components: at 300 components (99.5% of the variance, some
#: 350 on a 24-card deck) the wrong reads of such twins swung with the draw of made-up copies
#: (flat art on a striped cloth: 5-29 wrong at four draws).  Keeping 99.99% (as many as the
#: copies allow), over ten second-renderer boxes at two draws each, 16252 -> 16285 cards
#: right and 66 -> 14 wrong; the real photos 345 -> 347 of 348 right, 0 wrong, and through the
#: five other cameras 1711 -> 1720 right, 5 -> 3 wrong.
MAX_PCA = 1000
KEPT_VARIANCE = 0.9999
#: ... and at most this share of the copies' degrees of freedom within their classes (their
#: count less the classes'): with as many components as those, the within-class scatter is
#: singular and its weakest directions, blown up by the whitening, are noise.  A deck of 24
#: cards keeps some 850 components of 1632; a deck of 12 kept all it had (408) and read 10%
#: fewer cards than at 99.5%.
PER_DEGREE_OF_FREEDOM = 0.5
#: Most discriminant directions kept.
MAX_LDA = 64


def feature_size(ratio: float) -> tuple[int, int]:
    """(width, height) of the rectified card the features are made from."""
    return FEATURE_W, int(round(FEATURE_W / max(0.3, min(1.0, ratio))))


def feature_length(size: tuple[int, int]) -> int:
    """How many numbers :func:`features` makes for a card rectified to ``size``."""
    return int(features(np.full((size[1], size[0], 3), 200, np.uint8)).size)


def _channel_max(a: np.ndarray) -> np.ndarray:
    """The largest of the three channels per pixel (as ``a.max(axis=2)``, some 15x faster on
    a card-sized image)."""
    return np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])


def _channel_min(a: np.ndarray) -> np.ndarray:
    """The smallest of the three channels per pixel."""
    return np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])


def _channel_sum(a: np.ndarray) -> np.ndarray:
    """The sum of the three channels per pixel."""
    return a[..., 0] + a[..., 1] + a[..., 2]


def flattened(card: np.ndarray) -> np.ndarray:
    """The card (float32 BGR) with the light made even: each pixel divided by the local paper
    brightness (the brightest nearby, over a reach wider than any symbol's ink, smoothed), so a
    shadow falling across the card does not look like ink."""
    f = card.astype(np.float32)
    if not FLATTEN:
        return f
    h, w = card.shape[:2]
    # the paper's light is smooth: it is found at half size (a quarter of the work) and
    # brought back up
    lum = cv2.resize(f, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    lum = _channel_sum(lum) / 3.0
    k = max(3, int(round(FLATTEN * w / 2)) | 1)
    paper = cv2.dilate(lum, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    paper = cv2.GaussianBlur(paper, (0, 0), k / 3)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    gain = float(paper.max()) / np.maximum(paper, 8.0)
    return cv2.multiply(f, cv2.merge((gain, gain, gain)))


def paper_balanced(card: np.ndarray) -> np.ndarray:
    """The card (BGR) divided by its paper colour: float32, paper near 1 in every channel."""
    f = flattened(card)
    sample = _sample(f)
    white = _paper(sample)
    # a lamp's reflection on a glossy card adds the same light everywhere on it (a veil): its
    # darkest ink is lifted far above what ink reflects, and every colour is paled; the part
    # of the lift above that is taken away (a card without glare is left as it is)
    dark = float(percentile(sample.T, 1).min())
    veil = dark - INK_REFLECTS * float(white.sum()) / 3
    if veil > 0:
        f = np.maximum(f - veil, 0.0)
        white = _paper(_sample(f))
    # each channel divided by the paper's: OpenCV's multiply by a scalar (four doubles, as
    # every OpenCV version takes one) is twice as fast as numpy's broadcast on a card this small
    return cv2.multiply(f, (*(1.0 / np.maximum(white, 8.0).astype(np.float64)).tolist(), 0.0))


def _sample(f: np.ndarray) -> np.ndarray:
    """Every fourth pixel of a card (float BGR; plenty for a median of its paper), as three
    rows (blue, green, red): each channel's values side by side, for sorting."""
    return np.ascontiguousarray(f[::2, ::2].reshape(-1, 3).T)


def _paper(sample: np.ndarray) -> np.ndarray:
    """The paper colour of a card (float BGR) from its :func:`_sample`: the median of its
    brightest quarter."""
    lum = sample[0] + sample[1] + sample[2]
    bright = sample.compress(lum >= percentile(lum, 75), axis=1)
    return median_of_rows(bright) if bright.shape[1] else sample.max(axis=1)


def percentile(a: np.ndarray, q: float) -> np.ndarray:
    """``np.percentile(a, q, axis=0)`` of a float array without NaN and of two rows or more, as
    numpy makes it (its linear interpolation between the two values round the ``q``-th
    percentile of a partition, in the array's type), without its overhead (a card's
    features ask for three)."""
    n = len(a)
    at = (n - 1) * (q / 100)
    low = math.floor(at)
    if low + 1 >= n:
        return np.percentile(a, q, axis=0)
    part = np.partition(a, (low, low + 1), axis=0)
    below, above = part[low], part[low + 1]
    t = at - low
    step = above - below
    return above - step * (1 - t) if t >= 0.5 else below + step * t


def _surround(b: np.ndarray, reach: float) -> np.ndarray:
    """The colour round each pixel of ``b``: blurred over ``reach`` pixels (a Gaussian's sigma),
    at a quarter of the size (a tenth of the time; the blur leaves no detail to lose)."""
    h, w = b.shape[:2]
    small = cv2.resize(b, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), reach / 4), (w, h), interpolation=cv2.INTER_LINEAR)


@functools.lru_cache(maxsize=8)
def _hue_cells(h: int, w: int) -> np.ndarray:
    """For each pixel of an ``h`` x ``w`` card (flat index), where its region's histogram
    starts in :func:`_hue_grid`'s (the region of :data:`HUE_GRID` times :data:`HUE_BINS`):
    the same for every card of a size, made once."""
    gc, gr = HUE_GRID
    ys, xs = np.divmod(np.arange(h * w), w)
    cells = (np.minimum(ys * gr // h, gr - 1) * gc + np.minimum(xs * gc // w, gc - 1)) * HUE_BINS
    cells.flags.writeable = False
    return cells


def _hue_grid(b: np.ndarray) -> np.ndarray:
    """Where each hue of coloured ink lies: per region of a coarse grid, a histogram of hue
    (soft-binned around the colour circle) weighted by saturation, over the whole card's
    coloured ink (a pale or hazy card keeps its hues)."""
    h, wd = b.shape[:2]
    gc, gr = HUE_GRID
    n = gc * gr * HUE_BINS
    sat = (_channel_max(b) - _channel_min(b)).ravel()
    at = np.flatnonzero(sat > HUE_SATURATION)  # only coloured pixels have a hue (a few %)
    if not len(at):
        return np.zeros(n, np.float32)
    px = b.reshape(-1, 3).take(at, axis=0)
    w = sat.take(at) - HUE_SATURATION
    blue, green, red = px[:, 0], px[:, 1], px[:, 2]
    hue = np.arctan2(0.8660254 * (green - blue), red - 0.5 * (green + blue))
    pos = (hue + np.pi) * (HUE_BINS / (2 * np.pi))
    lo = np.floor(pos)
    frac = (pos - lo).astype(np.float32)
    lo = lo.astype(np.intp) % HUE_BINS
    hi = (lo + 1) % HUE_BINS
    cell = _hue_cells(h, wd).take(at)
    hist = (np.bincount(cell + lo, weights=w * (1 - frac), minlength=n)
            + np.bincount(cell + hi, weights=w * frac, minlength=n))
    return np.sqrt(hist / (float(w.sum()) + 1e-3)).astype(np.float32)


def _fill(ink: np.ndarray) -> np.ndarray:
    """The share of a card's pixels in each of :data:`INK_BINS` even steps of ink from 0.05 to 1
    (``np.histogram(ink, INK_BINS, (0.05, 1.0))`` over the pixel count, in a quarter of its
    time: OpenCV's histogram leaves out the top edge, which numpy's last step takes in; ink
    is at most 1).  A value exactly on an inner step's edge may fall a step low."""
    counts = cv2.calcHist([ink], [0], None, [int(INK_BINS)], [0.05, 1.0]).ravel().astype(np.float64)
    counts[-1] += np.count_nonzero(ink == np.float32(1.0))
    return counts / ink.size


def _face(card: np.ndarray) -> np.ndarray:
    """A rectified card less :data:`TRIM` of each side (its edge bleeds into the table)."""
    h, w = card.shape[:2]
    dy, dx = int(round(h * TRIM)), int(round(w * TRIM))
    return card[dy:h - dy, dx:w - dx]


def washed(card: np.ndarray) -> bool:
    """Whether a rectified card (BGR uint8; its edge trimmed as :func:`features` trims it) is
    washed out by a reflection (:data:`WASHED_OUT`, :data:`WASHED_INK`)."""
    face = _face(card)
    clipped_share = float(np.count_nonzero(_channel_max(face) >= WASHED_LEVEL)) / max(face.shape[0] * face.shape[1], 1)
    if clipped_share <= WASHED_OUT:
        return False
    return float(np.percentile(_channel_min(face), 1)) > WASHED_INK * 255


def veiled(card: np.ndarray) -> bool:
    """Whether a rectified card (BGR uint8) shows the lamp's glare over part of it: light added
    (:data:`VEILED_INK`, :data:`VEILED_CLIPPED`) that rises over the card by :data:`VEIL_RISE`
    or more (an even veil, a hazy lens, is taken away by :func:`paper_balanced`)."""
    face = _face(card)
    clipped_share = float(np.count_nonzero(_channel_max(face) >= WASHED_LEVEL)) / max(face.shape[0] * face.shape[1], 1)
    if clipped_share < VEILED_CLIPPED or float(np.percentile(_channel_min(face), 1)) <= 255.0 * VEILED_INK ** (1.0 / GAMMA):
        return False
    veil = _veil(_channel_min((card.astype(np.float32) / 255.0) ** GAMMA), whole(card))
    return veil is not None and float(veil.max()) >= VEIL_RISE


def _veil(darkest: np.ndarray, q: np.ndarray) -> np.ndarray | None:
    """The glare's veil (linear light, the shape of ``darkest``) over the card inside ``q`` in
    an image whose weakest channel per pixel (linear) is ``darkest``: the lower envelope of
    :data:`VEIL_CELLS` cells across the card's shorter side (a quadratic surface under each
    cell's 5th percentile, of the cells that hold ink: :data:`PAPER_CELL`), less its least;
    None when the card holds too few such cells."""
    ch, cw = darkest.shape
    inside = np.zeros((ch, cw), np.uint8)
    centre = q.mean(axis=0)
    cv2.fillConvexPoly(inside, np.round(centre + 0.9 * (q - centre)).astype(np.int32), 1)
    cell = max(2, int(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])) / VEIL_CELLS))
    rows, cols = ch // cell, cw // cell
    if rows < 2 or cols < 2:
        return None
    blocks = darkest[:rows * cell, :cols * cell].reshape(rows, cell, cols, cell).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
    full = inside[:rows * cell, :cols * cell].reshape(rows, cell, cols, cell).mean(axis=(1, 3)) >= 0.9
    r, c = np.nonzero(full)
    if len(r) < 12:
        return None
    v = np.percentile(blocks[r, c], 5, axis=1)
    # cells of bare paper hold no ink to lift: left out (a white card's margins would be taken
    # for a veil the height of its paper)
    inked = v < PAPER_CELL * float(np.percentile(darkest[inside > 0], 90))
    if np.count_nonzero(inked) < 12:
        return None
    r, c, v = r[inked], c[inked], v[inked]
    x, y = (c + 0.5) / cols, (r + 0.5) / rows
    terms = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)
    under = v.copy()
    for _ in range(30):   # the least-squares surface, pushed under each cell in turn
        coef = np.linalg.lstsq(terms, under, rcond=None)[0]
        under = np.minimum(under, terms @ coef)
    at = terms @ coef
    least = max(float(at.min()), 0.0)
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    xx /= cols * cell
    yy /= rows * cell
    veil = coef[0] + coef[1] * xx + coef[2] * yy + coef[3] * xx * xx + coef[4] * xx * yy + coef[5] * yy * yy
    return np.clip(veil - least, 0.0, float(at.max()) - least) * cv2.GaussianBlur(inside.astype(np.float32), (0, 0), 2)


def unveiled(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8) with the glare's veil over the card inside ``corners`` (:func:`_veil`)
    taken away in linear light, where reflected light adds; what the glare clipped stays white.
    The made-up shots of a photo under the lamp's glare are made from it, so that the deck's
    model knows the card as play mostly shows it, without the glare."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(q.max(axis=0)).astype(int) + 1, (w, h))
    lin = (image[y0:y1, x0:x1].astype(np.float32) / 255.0) ** GAMMA
    veil = _veil(_channel_min(lin), q - (x0, y0))
    if veil is None:
        return image
    out = image.copy()
    out[y0:y1, x0:x1] = np.clip(255.0 * np.maximum(lin - veil[..., None], 0.0) ** (1.0 / GAMMA) + 0.5, 0, 255).astype(np.uint8)
    return out


def features(card: np.ndarray) -> np.ndarray:
    """The feature vector of a rectified card (BGR, any size; resized to the feature size)."""
    h0, w0 = card.shape[:2]
    w = FEATURE_W
    h = int(round(w * h0 / max(w0, 1)))
    if (w0, h0) != (w, h):
        card = cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA)
    card = _face(card)
    b = clipped(paper_balanced(card), 0.0, 1.2)
    absorb = clipped(1.0 - b, 0.0, 1.0)
    ink = _channel_max(absorb)
    # colour of the ink, whatever the lamp: chromaticity of the absorption, where there is ink
    total = _channel_sum(absorb) + 1e-3
    weight = clipped(ink - 0.12, 0.0, None)
    wsum = float(weight.sum()) + 1e-3
    cb = (absorb[..., 0] / total).ravel()
    cr = (absorb[..., 2] / total).ravel()
    ib = np.minimum((cb * CHROMA_BINS).astype(np.intp), CHROMA_BINS - 1)
    ir = np.minimum((cr * CHROMA_BINS).astype(np.intp), CHROMA_BINS - 1)
    chroma = np.bincount(ib * CHROMA_BINS + ir, weights=weight.ravel(),
                         minlength=CHROMA_BINS * CHROMA_BINS) / wsum
    mean_absorb = weight.ravel() @ absorb.reshape(-1, 3) / wsum
    mean_chroma = mean_absorb / (mean_absorb.sum() + 1e-3)
    # how strong the ink is (fill) and how much of it there is
    fill = _fill(ink)
    # where it is (count, shape, position) and where each colour is
    ch, cw = ink.shape
    layout = cv2.resize(ink, (8, 12), interpolation=cv2.INTER_AREA).ravel()
    fine = cv2.resize(ink, (16, 24), interpolation=cv2.INTER_AREA).ravel()
    spots = cv2.resize(b if SPOTS_BALANCED else absorb, (int(SPOTS_W), int(SPOTS_W * 3 // 2)),
                       interpolation=cv2.INTER_AREA).ravel()
    return np.concatenate([
        2.0 * chroma, 4.0 * mean_chroma, 2.0 * fill.astype(np.float32), layout, 0.5 * fine, spots,
        _hue_grid(b),
        _hue_grid(b - _surround(b, DETAIL * w)),
    ]).astype(np.float32)


#: How many of :func:`features`'s numbers, at its end, are the hue of the colour details.
DETAILS = HUE_GRID[0] * HUE_GRID[1] * HUE_BINS


def colour_details(row: np.ndarray) -> np.ndarray:
    """The hue of the colour details (the small marks that tell two cards of one animal apart)
    out of a card's :func:`features` ``row``: a glare pales them but leaves their hue."""
    return row[..., -DETAILS:]


# ---------------------------------------------------------------------------
# Made-up shots


def augmented(rng: np.random.Generator, image: np.ndarray, corners: np.ndarray, size: tuple[int, int],
              rectify: Callable[[np.ndarray, np.ndarray, tuple[int, int]], np.ndarray]) -> np.ndarray:
    """One copy of the card in ``image`` (inside ``corners``) as another camera, lamp and
    room would show it, rectified to ``size`` by ``rectify(image, corners, size)``."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    side = float(np.sqrt(max(cv2.contourArea(q), 1.0)))
    # scale: the card may be much smaller in a frame than in the enrollment shot
    s = float(rng.uniform(0.35, 1.1)) * min(1.0, 1.6 * size[0] / max(side * 0.8, 1.0))
    x0, y0 = np.floor(q.min(axis=0)).astype(int)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int)
    pad = int(0.08 * side) + 2
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    src = image[y0:y1, x0:x1]
    q = (q - [x0, y0]) * s
    small = cv2.resize(src, (max(8, int(round(src.shape[1] * s))), max(8, int(round(src.shape[0] * s)))),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
    # light: white balance, exposure, gamma, a gradient across the card (light direction)
    sh, sw = small.shape[:2]
    gains = rng.uniform(0.72, 1.28, 3).astype(np.float32)
    exposure = float(rng.uniform(0.55, 1.3))
    ang = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ramp = ((xx / sw - 0.5) * np.cos(ang) + (yy / sh - 0.5) * np.sin(ang))
    light = 1.0 + float(rng.uniform(0.0, 0.35)) * ramp
    if rng.random() < SHADOWS:
        # a shadow (a hand, a lamp arm, another card) across part of the card, hard or soft
        a2 = rng.uniform(0, 2 * np.pi)
        edge = ((xx / sw - 0.5) * np.cos(a2) + (yy / sh - 0.5) * np.sin(a2)) - rng.uniform(-0.3, 0.3)
        soft = float(rng.uniform(0.005, 0.12))
        light = light * (1.0 - float(rng.uniform(0.1, 0.45)) / (1.0 + np.exp(np.minimum(-edge / soft, 80.0))))
    small = small * (gains * exposure)[None, None, :] * light[..., None]
    if rng.random() < GLARE:
        # reflected light adds in linear light (the camera's values to the power GAMMA), and
        # the brightest of it clips
        lin = (np.clip(small, 0, 255) / 255.0) ** GAMMA
        veil = float(rng.uniform(*GLARE_VEILS)) * float(np.percentile(lin, 90))
        if rng.random() < 0.5:   # a highlight: brightest at one spot, fading over the card
            gx0, gy0 = rng.uniform(0, sw), rng.uniform(0, sh)
            reach = float(rng.uniform(0.3, 1.0)) * max(sw, sh)
            spot = np.exp(-((xx - gx0) ** 2 + (yy - gy0) ** 2) / (2 * reach * reach))
            lin = lin + (veil * spot)[..., None]
        else:
            lin = lin + veil
        small = 255.0 * np.clip(lin, 0.0, 1.0) ** (1.0 / GAMMA)
    gamma = float(rng.uniform(0.75, 1.3))
    small = 255.0 * (np.clip(small, 0, 255) / 255.0) ** gamma
    if rng.random() < 0.7:
        small = cv2.GaussianBlur(small, (0, 0), float(rng.uniform(0.3, 1.4)))
    small = small + rng.normal(0, rng.uniform(0, 7), small.shape).astype(np.float32)
    img = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    # corner error and perspective (a camera tilted up to about 15 degrees)
    c = q + rng.normal(0, 0.018 * side * s, q.shape).astype(np.float32)
    tilt = rng.uniform(-0.06, 0.06, 2) * side * s
    c[0] += tilt
    c[2] -= tilt
    return rectify(img, c.astype(np.float32), size)


# ---------------------------------------------------------------------------
# The classifier


@dataclass
class Discriminant:
    """Standardise, project (PCA then LDA) and compare with class means."""

    mean: np.ndarray          # (D,)
    scale: np.ndarray         # (D,)
    projection: np.ndarray    # (D, K)
    class_means: np.ndarray   # (C, K)

    def project(self, x: np.ndarray) -> np.ndarray:
        """Feature rows (N, D) in the discriminant space (N, K)."""
        return ((np.atleast_2d(x) - self.mean) / self.scale) @ self.projection

    def distances(self, z: np.ndarray, means: np.ndarray | None = None) -> np.ndarray:
        """Euclidean distances (N, C) of projected rows to the class means."""
        m = self.class_means if means is None else means
        d2 = (z * z).sum(axis=1)[:, None] - 2 * z @ m.T + (m * m).sum(axis=1)[None, :]
        return np.sqrt(np.maximum(d2, 0.0))


def fit(x: np.ndarray, classes: np.ndarray, reg: float | None = None) -> Discriminant:
    """Linear discriminant analysis of feature rows ``x`` (N, D) with class indices (N,)."""
    reg = REG if reg is None else reg
    x = x.astype(np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    n_classes = int(classes.max()) + 1
    # PCA: the leading directions of the data
    _, sv, vt = np.linalg.svd(z - z.mean(axis=0), full_matrices=False)
    enough = int(np.searchsorted(np.cumsum(sv ** 2) / np.sum(sv ** 2), KEPT_VARIANCE)) + 1
    k = min(int(MAX_PCA), len(sv), enough, max(1, int(PER_DEGREE_OF_FREEDOM * (len(x) - n_classes))))
    pca = vt[:k].T
    y = z @ pca
    counts = np.bincount(classes, minlength=n_classes).astype(np.float64)
    sums = np.zeros((n_classes, k))
    np.add.at(sums, classes, y)
    means = sums / np.maximum(counts, 1)[:, None]
    within = y - means[classes]
    sw = within.T @ within / max(len(y) - n_classes, 1)
    sw += reg * np.trace(sw) / k * np.eye(k)
    grand = y.mean(axis=0)
    mb = (means - grand) * np.sqrt(counts)[:, None]
    sb = mb.T @ mb / len(y)
    # whiten the within-class scatter, then the leading between-class directions
    ev, evec = np.linalg.eigh(sw)
    white = evec / np.sqrt(np.maximum(ev, 1e-9))[None, :]
    sbw = white.T @ sb @ white
    ev2, evec2 = np.linalg.eigh(sbw)
    top = np.argsort(-ev2)[:min(MAX_LDA, n_classes - 1, k)]
    proj = pca @ white @ evec2[:, top]
    dz = Discriminant(mean.astype(np.float32), scale.astype(np.float32), proj.astype(np.float32),
                      np.zeros((n_classes, len(top)), np.float32))
    zz = dz.project(x.astype(np.float32))
    cm = np.zeros((n_classes, zz.shape[1]))
    np.add.at(cm, classes, zz)
    dz.class_means = (cm / np.maximum(counts, 1)[:, None]).astype(np.float32)
    return dz


def card_distances(d: np.ndarray, class_card: np.ndarray, n_cards: int) -> np.ndarray:
    """Per-card distance (N, cards): the nearest of the card's classes (its turns)."""
    out = np.full((d.shape[0], n_cards), np.inf, np.float32)
    for c in range(d.shape[1]):
        k = class_card[c]
        out[:, k] = np.minimum(out[:, k], d[:, c])
    return out


@dataclass(frozen=True)
class ShotCheck:
    """Leave-one-out result of one enrollment shot: its card, what it was read as from the
    other shots, its distance to its own card and its lead over the nearest other card."""

    card: str
    shot: int
    read_as: str
    own: float
    lead: float


def leave_one_out(z: np.ndarray, sample_class: np.ndarray, sample_shot: np.ndarray,
                  class_card: np.ndarray, cards: list[str], shot_card: np.ndarray
                  ) -> tuple[list[ShotCheck], np.ndarray, np.ndarray]:
    """Each shot's samples read against class means made without that shot.

    Returns one :class:`ShotCheck` per shot (on its un-changed sample: the first of the shot),
    and, over all samples, the distance to their own card and their lead (nearest other
    card's distance minus their own; negative when read wrong).
    """
    n_classes = len(class_card)
    sums = np.zeros((n_classes, z.shape[1]))
    np.add.at(sums, sample_class, z)
    counts = np.bincount(sample_class, minlength=n_classes).astype(np.float64)
    checks: list[ShotCheck] = []
    own_all = np.zeros(len(z))
    lead_all = np.zeros(len(z))
    for s in range(int(sample_shot.max()) + 1):
        mine = np.flatnonzero(sample_shot == s)
        if not len(mine):
            continue
        s_sums = sums.copy()
        s_counts = counts.copy()
        np.add.at(s_sums, sample_class[mine], -z[mine])
        np.subtract.at(s_counts, sample_class[mine], 1)
        usable = s_counts > 0
        means = s_sums / np.maximum(s_counts, 1)[:, None]
        zz = z[mine]
        d2 = (zz * zz).sum(axis=1)[:, None] - 2 * zz @ means.T + (means * means).sum(axis=1)[None, :]
        d = np.sqrt(np.maximum(d2, 0.0))
        d[:, ~usable] = np.inf
        per = card_distances(d, class_card, len(cards))
        card = int(shot_card[s])
        own = per[:, card].copy()
        per[:, card] = np.inf
        other = per.min(axis=1)
        own_all[mine] = own
        lead_all[mine] = other - own
        first = 0
        read_as = cards[card] if other[first] > own[first] else cards[int(np.argmin(per[first]))]
        checks.append(ShotCheck(cards[card], s, read_as, float(own[first]), float(other[first] - own[first])))
    return checks, own_all, lead_all
