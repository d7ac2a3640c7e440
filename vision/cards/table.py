"""The empty table, seen by the box's fixed camera, and the cards found as what differs from it.

The enrollment photos are shots of one card at a time on the same table through the same
camera: per pixel, the median of them is the table with no card on it.  Where a card's outline
is too faint to find (a white border on a white stripe of the cloth), the card still differs
from the empty table: its art, and its border wherever the table is not white.  That region
tells where the card lies; the card itself is the card-sized rectangle (the deck's proportions
and size, from the other photos) round it whose sides run best along the image's edges.

Each shot has its own exposure and white balance: it is matched to the table by one gain per
channel (the median ratio over the frame, which the card hardly moves) before comparing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .find import (
    _NEXT,
    PART_OF_CARD,
    SIDE_SAMPLES,
    _line_strengths,
    clipped,
    corners_of,
    median_of_rows,
    order_corners,
)

#: The table is kept, and compared, at this width (the finder's own work width).
TABLE_W = 640
#: Fewest photos of the same size to take the empty table from, the most used (a card covers
#: a pixel in a few of them), and the rows of the table made at a
#: time (memory: 48 photos at the table's size, 44 MB, and 48 rows of them as floats, 18 MB).
LEAST_PHOTOS = 6
MOST_PHOTOS = 48
TABLE_ROWS = 48
#: A pixel differs from the table when a channel differs by this share of the table's light
#: there (after a median over 5 x 5 pixels: sensor noise on a dark stripe is no card).
DIFFERS = 0.14
#: A shadow: the table dimmed to no less than this share of its light, every channel within
#: this of the others (ink dims it further, coloured ink unevenly).
SHADOW_DEPTH = 0.35
SHADOW_TINT = 0.08
#: The region that differs must cover at least this share of a card to be looked at.
LEAST_PART = 0.35
#: Card sizes tried round the enrolled one (a wide lens shows cards at the frame's corners
#: smaller), and turns (degrees) round the region's own (a region missing some of the card's
#: border leans a few degrees off it): a coarse search (2-pixel steps), then a fine one round
#: the best (a pixel, half a degree, 2.5% of the size).
SIZES = np.linspace(0.8, 1.15, 8)
TURNS = np.arange(-8.0, 8.1, 2.0)
STEP = 2.0
FINE_SIZES = np.array([-0.025, 0.0, 0.025])
FINE_TURNS = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
#: The card lying one way round must score this many times the other way to be taken.
CLEAR_WAY = 1.25


def _work(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The image at the table's width (float32 BGR) and the scale to it."""
    s = min(1.0, TABLE_W / image.shape[1])
    small = image if s == 1.0 else cv2.resize(image, (round(image.shape[1] * s), round(image.shape[0] * s)),
                                              interpolation=cv2.INTER_AREA)
    return small.astype(np.float32), s


def empty_table(photos: list[np.ndarray]) -> np.ndarray | None:
    """The table with no card on it (uint8 BGR, :data:`TABLE_W` wide) from photos of one card
    each through one fixed camera; None with fewer than :data:`LEAST_PHOTOS`, or photos of
    different sizes.  At most :data:`MOST_PHOTOS` of them, spread over the list, are used, and
    the median is taken a band of rows at a time: a Zero 2 W has 512 MB."""
    if len(photos) < LEAST_PHOTOS or len({p.shape for p in photos}) != 1:
        return None
    pick = np.unique(np.linspace(0, len(photos) - 1, min(len(photos), MOST_PHOTOS)).round().astype(int))
    stack = np.stack([np.clip(_work(photos[i])[0], 0, 255).astype(np.uint8) for i in pick])  # (N, H, W, 3)
    # each photo's exposure and white balance against a first, rough table (every 4th pixel)
    sample = stack[:, ::4, ::4].astype(np.float32)
    first = np.median(sample, axis=0)
    gains = np.median((sample + 1.0) / (first[None] + 1.0), axis=(1, 2))[:, None, None, :]  # (N, 1, 1, 3)
    h = stack.shape[1]
    table = np.empty(stack.shape[1:], np.uint8)
    for r in range(0, h, TABLE_ROWS):
        band = stack[:, r:r + TABLE_ROWS].astype(np.float32) / gains
        table[r:r + TABLE_ROWS] = np.clip(np.median(band, axis=0), 0, 255).astype(np.uint8)
    return table


def table_shot(shots: list[np.ndarray]) -> np.ndarray | None:
    """The empty table (as :func:`empty_table` gives it) from photos of the empty table itself:
    their median (None: no photos, or photos of different sizes)."""
    if not shots or len({s.shape for s in shots}) != 1:
        return None
    stack = np.stack([np.clip(_work(s)[0], 0, 255) for s in shots])
    return np.median(stack, axis=0).astype(np.uint8)


#: A photo of the one table through the one camera differs from it by its card and little
#: more (the card's edge, spread by the blur): over twelve second-renderer boxes, the median
#: photo differed over 0.77-1.16 times its card's share of the frame.  Photos of one card each on
#: tables of their own (our renderer's) differ over 3.9 times it: their median is no table.
ONE_TABLE = 2.0
#: A photo of the empty table, given with the cards' photos, is of their table when the median
#: photo differs from it over at most this many times a card's share (0.77-1.16 on one table;
#: a wood table's photos against a tiled table's photo, 1.8).
GIVEN_TABLE = 1.4
#: Photos looked at for it, spread over those given.
ONE_TABLE_PHOTOS = 16


def one_table(photos: list[np.ndarray], table: np.ndarray, card_share: float, most: float = ONE_TABLE) -> bool:
    """Whether ``photos`` (of one card each) are of the empty ``table`` through one fixed
    camera: the median of them differs from it over at most ``most`` (:data:`ONE_TABLE`) times
    a card's share of the frame."""
    pick = np.unique(np.linspace(0, len(photos) - 1, min(len(photos), ONE_TABLE_PHOTOS)).round().astype(int))
    empty = EmptyTable(table)
    masks = [differing(photos[i], empty) for i in pick]
    return float(np.median([1.0 if m is None else (m > 0).mean() for m in masks])) <= most * card_share


def differing(image: np.ndarray, table: np.ndarray | EmptyTable) -> np.ndarray | None:
    """Where ``image`` differs from the empty ``table`` (uint8 mask at the table's size); None
    when the image is not of that table through that camera (another size, or most of it
    differs: the camera was moved)."""
    return _differing(_work(image)[0], table)


class EmptyTable:
    """The empty table (uint8 BGR, :data:`TABLE_W` wide) and what comparing a frame with it
    takes of the table alone (:func:`_differing`), made once: a reader compares every frame
    with one table, some 2 ms a frame when made each time."""

    def __init__(self, table: np.ndarray) -> None:
        self.table = table
        self.shape = table.shape
        empty = table.astype(np.float32)
        self.sampled = empty[::4, ::4] + 1.0
        self.blurred = cv2.GaussianBlur(empty, (0, 0), 1.0)
        self.spread = self.blurred + 24.0           # a difference counts against the light there
        self.lit = self.blurred + 4.0
        self._glances: dict[tuple[int, int], EmptyTable] = {}

    def glance(self, size: tuple[int, int]) -> EmptyTable:
        """The table shrunk to ``size`` (width, height), made when first asked and kept."""
        if size not in self._glances:
            self._glances[size] = EmptyTable(cv2.resize(self.table, size, interpolation=cv2.INTER_AREA))
        return self._glances[size]


class TableFrame:
    """One frame's views that the steps comparing it with the empty table share, each made
    when first asked and kept for the rest of the frame's reading: the frame at the table's
    width (:func:`_work`, some 4 ms), where it differs from the table (:func:`differing`, some
    12 ms; read-only: a step that clears parts of it clears a copy), and the work frame's
    gradients.  On white cards on pale tiles each step made its own: the frame shrunk two or
    three times, and compared with the table twice.  ``table``: None where only the frame's
    own views are asked for."""

    def __init__(self, image: np.ndarray, table: np.ndarray | EmptyTable | None) -> None:
        self.image = image
        self.table = table if table is None or isinstance(table, EmptyTable) else EmptyTable(table)
        self._work: tuple[np.ndarray, float] | None = None
        self._mask: np.ndarray | None = None
        self._masked = False
        self._gradients: tuple[np.ndarray, np.ndarray] | None = None

    def work(self) -> tuple[np.ndarray, float]:
        """The frame at the table's width (float32 BGR) and the scale to it."""
        if self._work is None:
            self._work = _work(self.image)
        return self._work

    def difference(self) -> np.ndarray | None:
        """Where the frame differs from the empty table (:func:`differing`; read-only)."""
        if not self._masked:
            self._mask = None if self.table is None else _differing(self.work()[0], self.table)
            if self._mask is not None:
                self._mask.flags.writeable = False
            self._masked = True
        return self._mask

    def gradients(self) -> tuple[np.ndarray, np.ndarray]:
        """The 3x3 Sobel gradients (x, y; int16) of the work frame's grey, lightly blurred."""
        if self._gradients is None:
            gray = cv2.GaussianBlur(cv2.cvtColor(self.work()[0].astype(np.uint8), cv2.COLOR_BGR2GRAY), (3, 3), 0)
            self._gradients = cv2.spatialGradient(gray)
        return self._gradients


def _differing(shot: np.ndarray, table: np.ndarray | EmptyTable) -> np.ndarray | None:
    """:func:`differing` of a frame already at the table's width (:func:`_work`)."""
    if shot.shape != table.shape:
        return None
    empty = table if isinstance(table, EmptyTable) else EmptyTable(table)
    gain = np.median((shot[::4, ::4] + 1.0) / empty.sampled, axis=(0, 1))
    a = cv2.GaussianBlur(shot * (1.0 / gain).astype(np.float32)[None, None, :], (0, 0), 1.0)
    b = empty.blurred
    diff = cv2.absdiff(a, b) / empty.spread
    d = np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2])
    # a shadow dims the table, every channel alike: it is no card
    r = (a + 4.0) / empty.lit
    lo = np.minimum(np.minimum(r[..., 0], r[..., 1]), r[..., 2])
    hi = np.maximum(np.maximum(r[..., 0], r[..., 1]), r[..., 2])
    d[(hi < 1.0 - 0.5 * DIFFERS) & (lo > SHADOW_DEPTH) & (hi - lo < SHADOW_TINT)] = 0.0
    d = cv2.medianBlur((np.clip(d, 0.0, 1.0) * 255).astype(np.uint8), 5)
    mask = np.where(d >= DIFFERS * 255, 255, 0).astype(np.uint8)
    if (mask > 0).mean() > 0.5:
        return None
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def differs_inside(mask: np.ndarray, quad: np.ndarray, image: np.ndarray) -> float:
    """The share of a card's corners ``quad`` (pixels of ``image``) where ``image`` differs
    from the empty table (``mask``, :func:`differing` of ``image``)."""
    return _differs(mask, quad * (mask.shape[1] / image.shape[1]))


def matching(mask: np.ndarray, quad: np.ndarray, image: np.ndarray) -> float:
    """How well a card's corners ``quad`` (pixels of ``image``) match what differs from the
    empty table (``mask``, :func:`differing` of ``image``): intersection over union."""
    a, b = _inside(mask, quad * (mask.shape[1] / image.shape[1])), mask > 0
    return float((a & b).sum() / max(int((a | b).sum()), 1))


def _inside(mask: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Where ``quad`` (pixels of ``mask``) lies, as a bool array of the mask's size."""
    inside = np.zeros_like(mask)
    cv2.fillPoly(inside, [np.rint(quad).astype(np.int32)], (255,))
    return inside > 0


def _rectangles(centre: np.ndarray, angle: float, w: float, h: float, sizes: list[tuple[float, float]],
                turns: np.ndarray, step: float) -> np.ndarray:
    """Rectangles (R, 4, 2) holding a region whose rotated box is (``centre``, ``w`` x ``h``,
    ``angle`` degrees): each (width, height) of ``sizes`` (along the box's own axes), turned
    by each of ``turns``, at every ``step`` where it still holds the region."""
    grids, shapes = [], []
    for turn in turns:
        a = np.radians(angle + turn)
        u = (np.cos(a), np.sin(a))
        v = (-np.sin(a), np.cos(a))
        for cw, ch in sizes:
            rx, ry = max(0.0, (cw - w) / 2) + step, max(0.0, (ch - h) / 2) + step
            grids.append((np.arange(-rx, rx + 1e-6, step), np.arange(-ry, ry + 1e-6, step)))
            shapes.append((*u, *v, cw / 2, ch / 2))
    # every place of every grid at once: its offset along the axes and its rectangle's shape
    dx, dy, k = _places(grids)
    ux, uy, vx, vy, half_w, half_h = np.array(shapes).T[:, k]
    cx = centre[0] + dx * ux + dy * vx
    cy = centre[1] + dx * uy + dy * vy
    x = _corners(cx, half_w * ux, half_h * vx)
    y = _corners(cy, half_w * uy, half_h * vy)
    return np.stack([x, y], axis=-1).astype(np.float32)


def _places(grids: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The places of grids given by their offsets along x and along y, one grid after the
    other and in each row by row (as ``np.meshgrid(x, y)`` flattened): their x offset, y
    offset and grid (three arrays of the number of places)."""
    nx = np.array([len(x) for x, _ in grids])
    ny = np.array([len(y) for _, y in grids])
    count = nx * ny
    k = np.repeat(np.arange(len(grids)), count)
    place = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)   # within its grid
    xs = np.concatenate([x for x, _ in grids])
    ys = np.concatenate([y for _, y in grids])
    dx = xs[(np.cumsum(nx) - nx)[k] + place % nx[k]]
    dy = ys[(np.cumsum(ny) - ny)[k] + place // nx[k]]
    return dx, dy, k


#: The corners of a rectangle from its centre, in order: minus or plus half its width along
#: its first axis, then half its height along its second.
_ALONG = np.array([-1.0, 1.0, 1.0, -1.0])
_ACROSS = np.array([-1.0, -1.0, 1.0, 1.0])


def _corners(c: np.ndarray, hu: np.ndarray, hv: np.ndarray) -> np.ndarray:
    """One coordinate (K, 4) of the corners of rectangles centred at ``c`` (K,) whose half
    axes have that coordinate ``hu`` and ``hv`` (K,)."""
    return c[:, None] + _ALONG * hu[:, None] + _ACROSS * hv[:, None]


#: What differs from the table reaches this many pixels (at the table's width) past the card:
#: the camera's blur and the difference's own (a Gaussian, a 5-pixel median, a closing) spread
#: a card's edge 2-4.5 pixels onto a dark felt.  With a pixel to spare, the card's own
#: rectangle held a fifth of the region's outline and a rectangle 15% too long, one side out on
#: bare felt, held half of it: that won, and the card was learned with a band of felt.  Over
#: the 473 enrollment photos of ten second-renderer boxes, corners found more than 8 pixels off
#: 130 -> 50, more than 15 pixels off 56 -> 6.
BLEED = 5.0


def _held(rects: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The share of ``points`` (P, 2) inside each rectangle (R, 4, 2; corners in order), with
    :data:`BLEED` pixels to spare."""
    e = rects[:, _NEXT] - rects                            # (R, 4, 2)
    px, py = points[:, 0], points[:, 1]
    inside = np.ones((len(rects), len(points)), bool)
    # side by side, x and y apart: (R, P) arrays, not one (R, P, 4, 2)
    for i in range(4):
        ex, ey = e[:, i, :1], e[:, i, 1:]                  # (R, 1) each
        ax, ay = rects[:, i, :1], rects[:, i, 1:]
        cross = ex * (py - ay) - ey * (px - ax)           # >= 0 inside for corners clockwise
        length = np.sqrt(ex * ex + ey * ey)
        inside &= cross >= -BLEED * length
    return np.count_nonzero(inside, axis=1) / len(points)


_GRID = (np.arange(8, dtype=np.float32) + 0.5) / 8


def _filled(rects: np.ndarray, region: np.ndarray) -> np.ndarray:
    """The share of each rectangle (R, 4, 2) that the ``region`` (a mask) covers, on an 8 x 8
    grid of points in it."""
    h, w = region.shape
    at = []
    for i, size in ((0, w), (1, h)):      # x, then y: (R, 8, 8) each
        a, b, d = rects[:, 0, i, None, None], rects[:, 1, i, None, None], rects[:, 3, i, None, None]
        p = a + _GRID[:, None] * (b - a) + _GRID[None, :] * (d - a)
        at.append(clipped(np.rint(p).astype(np.intp), 0, size - 1))
    covered = np.count_nonzero(region.ravel().take(at[1] * w + at[0]).reshape(len(rects), -1), axis=1)
    return covered / (_GRID.size * _GRID.size)


def _best(rects: np.ndarray, gx: np.ndarray, gy: np.ndarray, points: np.ndarray,
          region: np.ndarray) -> tuple[np.ndarray, float]:
    """The rectangle that holds the region (its outline ``points``), is filled by it
    (``region``, a mask) and whose sides run best along the image's edges (mean over its sides
    of the median gradient across each): a side may not stray onto a stripe of the table.
    Returns it and its score."""
    g = _line_strengths(gx, gy, rects.reshape(-1, 2), rects[:, _NEXT].reshape(-1, 2), SIDE_SAMPLES)
    score = (median_of_rows(g).reshape(-1, 4).mean(axis=1) * _held(rects, points) ** 4
             * _filled(rects, region) ** 2)
    k = int(np.argmax(score))
    return rects[k], float(score[k])


@dataclass(frozen=True)
class Search:
    """The card sizes (shares of the enrolled size) and turns (degrees round the region's own)
    tried, and the step (pixels at the table's width) between the places tried."""

    sizes: tuple[float, ...] = tuple(SIZES.tolist())
    turns: tuple[float, ...] = tuple(TURNS.tolist())
    step: float = STEP


#: In play, where a missed card's region is most often the whole card (what differs from the
#: table is its face and border) and a frame may hold several: every second size and turn, a
#: step half as long again.  On two second-renderer boxes (pale tiles, stripes), 1537 of 1543
#: cards found by the full search, in 0.38 of its time.
QUICK = Search(tuple(SIZES[::2].tolist()), tuple(TURNS[::2].tolist()), 1.5 * STEP)


def card_by_difference(image: np.ndarray, table: np.ndarray | EmptyTable, card_share: float, ratio: float,
                       mask: np.ndarray | None = None, search: Search = Search(),
                       pairs: list[np.ndarray] | None = None, frame: TableFrame | None = None) -> list[np.ndarray]:
    """Corners (frame pixels) of the cards found as regions differing from the empty
    ``table``, each the card-sized rectangle round its region whose sides run best along the
    image's edges; ``card_share`` and ``ratio``: one card's share of the frame and its short
    over long side.  ``mask``: the regions where cards may be (default: all that differs);
    ``search``: the rectangles tried round each region.  ``pairs``, when given: the rectangle
    round each region too large for one card that two could make (:func:`_pair_sized`) is
    appended to it, for the reader to part (two white cards touching on pale tiles differ from
    them as one region).  ``frame``: the frame's views already made (:class:`TableFrame`)."""
    frame = frame or TableFrame(image, table)
    if mask is None:
        mask = frame.difference()
        if mask is None:
            return []
    s = frame.work()[1]
    gx, gy = frame.gradients()
    area = card_share * gx.shape[0] * gx.shape[1]
    long_side = float(np.sqrt(area / ratio))
    card = (long_side * ratio, long_side)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    found: list[np.ndarray] = []
    for k in range(1, n):
        pixels = float(stats[k, cv2.CC_STAT_AREA])
        if pixels < LEAST_PART * area or pixels > PAIR_AREA * area:
            continue
        region = (labels == k).astype(np.uint8)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        hull = cv2.convexHull(contours[0])
        (cx, cy), (w, h), angle = cv2.minAreaRect(hull)
        if max(w, h) > 1.2 * card[1] or pixels > 1.6 * area:
            if pairs is not None and _pair_sized(w, h, pixels, card):
                pairs.append(_pair_outline(region, hull, gx, gy) / s)
            continue                            # more than one card, or no card
        points = hull.reshape(-1, 2).astype(np.float32)
        points = points[np.linspace(0, len(points) - 1, min(len(points), 64)).astype(int)]
        # the card one way round and the other: a region about as wide as long (a chick's
        # panel) may fit both, and then the card is not known
        ways = [_best(_rectangles(np.array([cx, cy]), angle, w, h, [(a * f, b * f) for f in search.sizes],
                                  np.asarray(search.turns), search.step), gx, gy, points, region) for a, b in (card, card[::-1])]
        if max(ways[0][1], ways[1][1]) < CLEAR_WAY * min(ways[0][1], ways[1][1]):
            continue
        coarse = max(ways, key=lambda t: t[1])[0]
        # round the best: its own centre, axes and size
        (cx, cy), (bw, bh), angle = cv2.minAreaRect(coarse)
        fine = [(bw * (1 + f), bh * (1 + g)) for f in FINE_SIZES for g in FINE_SIZES]
        best = _best(_rectangles(np.array([cx, cy]), angle, bw + 2, bh + 2, fine, FINE_TURNS, 1.0), gx, gy, points, region)[0]
        found.append(_refit_sides(order_corners(best) / s, image))
    return found


#: A region of what differs that two cards touching make: at most this many cards' area, and
#: its rectangle no longer than two cards end to end and no wider than two cards side by side
#: (each with :data:`PAIR_SLACK` for the difference's spread and a leaning camera).
PAIR_AREA = 2.2
PAIR_SLACK = 1.15


def _pair_outline(region: np.ndarray, hull: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """The outline (corners in order) round a region two touching cards make (``region``, a
    mask; ``hull``, its convex hull), its sides along the cards' own: the two directions the
    image's edges there (``gx``, ``gy``) run along most, the cards' borders, title bands and
    dividers (:func:`_skewed_outline`).  Two cards slid along each other lie in its opposite
    corners.  The least rectangle round the region may run askew of both (two cards slid by a
    third of a card at the frame's foot, bent by the lens: 25 degrees off), and then no card's
    size at its corners reads as a card."""
    on = region.astype(bool)
    return _skewed_outline(hull.reshape(-1, 2), gx[on], gy[on])


#: The edges' directions are counted in bins of a degree, smoothed over five; a card's short
#: sides run at least this many degrees off its long sides however the camera leans.
SKEW_SMOOTHING = np.array([1.0, 2.0, 3.0, 2.0, 1.0]) / 9.0
SKEW_APART = 45


def _skewed_outline(points: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """The parallelogram round ``points`` (N x 2) whose sides run along the two directions
    the edges there run along most (``gx``, ``gy``: the gradients of its pixels, each counted
    by its strength): a card's long sides and its short sides.  A camera leaning over a card
    near the frame's corner, through a wide lens, shows them 75-80 degrees apart (a rectangle
    along the edges' mean turn, as until 2026-12-05, ran 8 degrees off both, and no card's size
    in it read as a card)."""
    x, y = gx.astype(np.float64), gy.astype(np.float64)
    across = np.degrees(np.arctan2(y, x)) % 180.0           # each edge's normal, a degree a bin
    hist = np.bincount(np.minimum(across.astype(np.intp), 179), weights=np.sqrt(x * x + y * y), minlength=180)
    hist = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), SKEW_SMOOTHING, mode="valid")
    first = int(np.argmax(hist))
    off = np.abs((np.arange(180) - first + 90) % 180 - 90)
    second = int(np.argmax(np.where(off >= SKEW_APART, hist, -1.0)))
    normals = np.array([[np.cos(t), np.sin(t)] for t in np.radians([first + 0.5, second + 0.5])])
    reach = points.astype(np.float64) @ normals.T            # (N, 2): how far along each normal
    lo, hi = reach.min(axis=0), reach.max(axis=0)
    corners = [np.linalg.solve(normals, np.array([a, b])) for a, b in
               ((lo[0], lo[1]), (hi[0], lo[1]), (hi[0], hi[1]), (lo[0], hi[1]))]
    return order_corners(np.array(corners, np.float32))


def _pair_sized(w: float, h: float, region: float, card: tuple[float, float]) -> bool:
    """Whether a region of ``region`` pixels whose rectangle is ``w`` x ``h`` may be two cards
    (``card``: a card's short and long side) touching."""
    short, long = sorted((w, h))
    return region <= PAIR_AREA * card[0] * card[1] and long <= PAIR_SLACK * 2 * card[1] \
        and short <= PAIR_SLACK * max(card[1], 2 * card[0])


#: The frame is first compared with the table at this share of its width (a sixteenth of its
#: pixels): a frame whose every card was found is left at that.
GLANCE = 0.25
#: Round each card found, this many pixels (at the table's width) are not looked at again:
#: its edge, spread by the camera's blur and the difference's own.
FOUND_RIM = 7
#: A card found where less than this share of it differs from the empty table is a piece of
#: the table (a tile framed by its grout, a patch of felt between cards).  Over twelve
#: second-renderer boxes, 720 frames: the cards found differed over 0.31-1.0 of them (1 in 100
#: under 0.61; a white card on pale tiles differs by its art only), the 16 finds that were no
#: card over 0-0.29, 13 of them under this.
NOT_A_CARD = 0.15


def on_the_table(image: np.ndarray, found: list[np.ndarray], table: np.ndarray | EmptyTable, card_share: float,
                 ratio: float, doubtful: list[np.ndarray] | None = None,
                 pairs: list[np.ndarray] | None = None, frame: TableFrame | None = None) -> list[np.ndarray]:
    """The cards ``found`` by their outlines (corners in frame pixels) checked against the empty
    ``table``: those where the frame hardly differs from it are left out (:data:`NOT_A_CARD`;
    appended to ``doubtful`` when given: a cream card on a near-white cloth differs by its art only),
    and the cards that differ from it outside those found are added (a white card on pale
    tiles, whose outline runs into the grout; a card on a striped cloth whose border meets a
    stripe of its colour).  An outline far smaller than a card (:data:`.find.PART_OF_CARD`:
    a panel of a card's art) explains nothing, and gives way to the card found round it.
    ``pairs``, when given, gets the outlines round regions that differ as two touching cards
    would (:func:`card_by_difference`).  ``found`` as it is when the frame is not of that table
    through that camera (another size, or most of it differs).  ``frame``: the frame's views
    already made (:class:`TableFrame`; kept for the rest of the frame's reading)."""
    frame = frame or TableFrame(image, table)
    empty = frame.table
    assert empty is not None
    s = min(1.0, TABLE_W / image.shape[1])
    if (round(image.shape[0] * s), round(image.shape[1] * s)) != empty.shape[:2]:
        return found
    size = (max(1, round(empty.shape[1] * GLANCE)), max(1, round(empty.shape[0] * GLANCE)))
    glance = _differing(cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32), empty.glance(size))
    if glance is None:
        return found
    g = size[0] / image.shape[1]
    card = [_differs(glance, q * g) >= NOT_A_CARD for q in found]
    kept = [q for q, c in zip(found, card) if c]
    if doubtful is not None:
        doubtful.extend(q for q, c in zip(found, card) if not c)
    least = PART_OF_CARD * card_share * image.shape[0] * image.shape[1]
    whole = [q for q in kept if cv2.contourArea(q) >= least]
    if not _unexplained(glance, whole, g, card_share, max(1, round(FOUND_RIM * GLANCE))):
        return kept
    mask = frame.difference()
    if mask is None:
        return kept
    mask = mask.copy()              # the cards found are cleared from it
    if not _unexplained(mask, whole, s, card_share, FOUND_RIM):
        return kept
    more = card_by_difference(image, empty, card_share, ratio, mask=mask, search=QUICK, pairs=pairs, frame=frame)
    # a part of a card within a card found round it is that card's
    return [q for q in kept if cv2.contourArea(q) >= least or not any(_holds(c, q) for c in more)] + more


def _holds(card: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the centre of ``quad`` lies within ``card`` (both corners in frame pixels)."""
    x, y = np.asarray(quad, np.float64).mean(axis=0)
    return cv2.pointPolygonTest(np.asarray(card, np.float32), (float(x), float(y)), False) >= 0


def card_round(image: np.ndarray, quad: np.ndarray, others: list[np.ndarray], table: np.ndarray | EmptyTable,
               card_share: float, ratio: float, frame: TableFrame | None = None) -> np.ndarray | None:
    """The card (corners, frame pixels) round ``quad``, an outline smaller than a card (a
    panel of its art, the border lost on a stripe of its colour), found as what differs from
    the empty ``table`` there: the region that ``quad`` touches once the ``others`` found (and
    a rim round them) are cleared.  ``frame``: the frame's views already made
    (:class:`TableFrame`, what differs from the table among them).  None: no card-sized
    region there, or a frame not of that table."""
    frame = frame or TableFrame(image, table)
    mask = frame.difference()
    if mask is None:
        return None
    region = _region_round(mask, quad, others, mask.shape[1] / image.shape[1])
    if region is None:
        return None
    found = card_by_difference(image, table, card_share, ratio, mask=region.astype(np.uint8) * 255, search=QUICK,
                               frame=frame)
    return found[0] if len(found) == 1 else None


def _region_round(mask: np.ndarray, quad: np.ndarray, others: list[np.ndarray], s: float) -> np.ndarray | None:
    """The region of ``mask`` (what differs from the empty table; left as it is) that ``quad``
    (frame pixels; ``s``: the mask's scale) touches once the ``others`` found and a rim round
    them are cleared, as a bool array; None where it touches none."""
    mask = mask.copy()
    _clear(mask, others, s, FOUND_RIM)
    _, labels = cv2.connectedComponents(mask)
    touched = np.unique(labels[_inside(mask, quad * s)])
    touched = touched[touched > 0]
    return np.isin(labels, touched) if len(touched) else None


def pair_round(image: np.ndarray, quad: np.ndarray, others: list[np.ndarray], frame: TableFrame) -> np.ndarray | None:
    """The outline (corners, frame pixels) round two touching cards that ``quad`` was found
    round askew, its sides along neither card's: the region of what differs from the empty
    table (``frame``'s difference, :class:`TableFrame`) that ``quad`` touches once the
    ``others`` found are cleared (:func:`_region_round`), its sides along the image's edges
    there (:func:`_skewed_outline`).  None where no region is touched, or the frame is not
    of the table."""
    mask = frame.difference()
    if mask is None:
        return None
    s = mask.shape[1] / image.shape[1]
    on = _region_round(mask, quad, others, s)
    if on is None:
        return None
    gx, gy = frame.gradients()
    contours, _ = cv2.findContours(on.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return _skewed_outline(cv2.convexHull(np.concatenate(contours)).reshape(-1, 2), gx[on], gy[on]) / s


def _differs(mask: np.ndarray, quad: np.ndarray) -> float:
    """The share of ``quad`` (pixels of ``mask``) that ``mask`` covers."""
    inside = _inside(mask, quad)
    n = int(np.count_nonzero(inside))
    return float(np.count_nonzero(mask[inside])) / n if n else 0.0


def _unexplained(mask: np.ndarray, found: list[np.ndarray], s: float, card_share: float, rim: int) -> bool:
    """Clears from ``mask`` (in place) the cards ``found`` (frame pixels; ``s``: the mask's
    scale) and ``rim`` pixels round them; whether a region of it as large as a card's least
    part (:data:`LEAST_PART`) is left."""
    return _left(mask, found, s, rim) >= LEAST_PART * card_share * mask.size


def _left(mask: np.ndarray, found: list[np.ndarray], s: float, rim: int) -> int:
    """The largest region (pixels) of ``mask`` left when the cards ``found`` and ``rim``
    pixels round them are cleared from it (in place)."""
    _clear(mask, found, s, rim)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0


def _clear(mask: np.ndarray, found: list[np.ndarray], s: float, rim: int) -> None:
    """Clears from ``mask`` (in place) the cards ``found`` (frame pixels; ``s``: the mask's
    scale) and ``rim`` pixels round them, and the specks left."""
    for q in found:
        pts = [np.rint(q * s).astype(np.int32)]
        cv2.fillPoly(mask, pts, (0,))
        cv2.polylines(mask, pts, True, (0,), rim)
    cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8), dst=mask)


def differs_beside(frame: TableFrame, cards: list[np.ndarray], quads: list[np.ndarray]) -> list[tuple[float, float]] | None:
    """For each outline of ``quads`` (frame pixels): the share of it off the ``cards`` read
    (and :data:`FOUND_RIM` pixels round them), and the share of that part where the frame
    differs from the empty table (:meth:`TableFrame.difference`); None where the frame is not
    compared with the table."""
    mask = frame.difference()
    if mask is None:
        return None
    s = frame.work()[1]
    off = np.full(mask.shape, 255, np.uint8)
    _clear(off, cards, s, FOUND_RIM)
    out: list[tuple[float, float]] = []
    for q in quads:
        inside = _inside(mask, q * s)
        n = int(np.count_nonzero(inside))
        seen = inside & (off > 0)
        m = int(np.count_nonzero(seen))
        out.append((m / n if n else 0.0, float(np.count_nonzero(mask[seen])) / m if m else 0.0))
    return out


def unexplained(mask: np.ndarray, quad: np.ndarray, image: np.ndarray, card_share: float) -> float:
    """The largest region of what differs from the empty table (``mask``, :func:`differing`
    of ``image``) that a card's corners ``quad`` (pixels of ``image``) leave out, as a share
    of a card: the title band of a card found cut at it."""
    return _left(mask.copy(), [quad], mask.shape[1] / image.shape[1], FOUND_RIM) / (card_share * mask.size)


#: How far (frame pixels) from a side of the rectangle found its edge pixels are looked for, how
#: far (degrees) their gradient may turn from the side's normal, and how many a side needs.
REFIT_REACH = 10.0
REFIT_TURN = 20.0
REFIT_LEAST = 20
#: ... and a line of them must run along this share of the side: scattered edge pixels of a
#: noisy felt lie in a line by chance (20 of them in 3 pixels' width along a 150-pixel side),
#: and taken for the outermost line they pushed every side out to the farthest reach, so the
#: card was learned with a frame of felt round it.  On three dark-felt boxes of the second
#: renderer the card was found within 0.85 of its own outline in 3 of 36 enrollment photos,
#: now in 32; on the nine other sets the photos looked at again are found about as well as
#: before (19 photos; 1 under 0.85 of its card, 2 before).
REFIT_COVER = 0.35


def _refit_sides(quad: np.ndarray, image: np.ndarray) -> np.ndarray:
    """``quad`` (frame pixels, corners in order) with each side fitted to the edge pixels of
    the frame along it: those within :data:`REFIT_REACH` whose gradient is across the side
    (a stripe's edge crossing the side is not); a side with too few keeps its place."""
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - 2 * REFIT_REACH).astype(int), 0)
    x1, y1 = np.ceil(quad.max(axis=0) + 2 * REFIT_REACH).astype(int)
    crop = image[y0:y1, x0:x1]
    gray = cv2.GaussianBlur(crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    med = float(np.median(gray))
    edges = cv2.Canny(gray, max(10, 0.2 * med), max(30, 0.5 * med), L2gradient=True)
    ys, xs = np.nonzero(edges)
    if not len(xs):
        return quad
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)[ys, xs]
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)[ys, xs]
    pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
    g = np.stack([gx, gy], axis=1).astype(np.float32)
    g = g / np.maximum(np.sqrt((g * g).sum(axis=1, keepdims=True)), 1e-6)
    q = quad.astype(np.float64)
    lines = np.empty((4, 4))
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        length = max(float(np.linalg.norm(b - a)), 1e-9)
        u = (b - a) / length
        n = np.array([-u[1], u[0]])
        rel = pts - a
        t = rel @ u / length
        dist = rel @ n
        across = np.abs(g @ n) >= np.cos(np.radians(REFIT_TURN))
        near = (t > 0.08) & (t < 0.92) & (np.abs(dist) <= REFIT_REACH) & across
        # the card's own edge is the outermost line of edge pixels along the side (its art's
        # frame runs a few pixels inside it); dist < 0 is outside, the corners run clockwise
        hist = np.bincount(np.rint(dist[near] + REFIT_REACH).astype(int), minlength=int(2 * REFIT_REACH) + 1)
        least = max(REFIT_LEAST, REFIT_COVER * 0.84 * length)   # 0.84: the side less its ends
        lines_at = [k for k in range(len(hist)) if hist[max(k - 1, 0):k + 2].sum() >= least]
        sel = pts[near & (np.abs(dist - (lines_at[0] - REFIT_REACH)) <= 1.5)] if lines_at else pts[:0]
        if len(sel) >= least:
            vx, vy, px, py = cv2.fitLine(sel, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines[i] = (vx, vy, px, py)
        else:
            lines[i] = (u[0], u[1], a[0], a[1])
    out = corners_of(lines)
    if out is None or np.abs(out - quad).max() > 3 * REFIT_REACH:
        return quad
    return out
