"""Finding cards lying flat on a table: bright-ish quadrilaterals that contrast with the table.

Nothing here knows any card art.  Three cues make candidates:

* edges: every closed outline in the edge map (the inner side of a card's own outline, so two
  cards touching still give two outlines);
* brightness: the frame split by Otsu's threshold, cut along edges (so touching cards part);
* fine outlines: the insides of closed outlines of the whole frame's edge map, not thickened
  (a card's faint outline on a white stripe, close to its art's frame, still closes there).

Each candidate outline must be a convex quadrilateral filling its own outline, with a card's
proportions and a plausible size, every side running along an edge of the image; nested and
duplicate candidates keep the largest.  Two cards touching side by side and slid along each
other make one bright region no quad fits: it is cut along the seam into two cards.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: Detection runs on a frame shrunk to at most this width.
WORK_W = 640


@dataclass(frozen=True)
class FindOptions:
    """Limits on what counts as a card (fractions of the frame area; short/long side ratio)."""

    min_area: float = 0.004
    max_area: float = 0.35
    min_ratio: float = 0.42
    max_ratio: float = 1.0
    #: Expected short/long side ratio from enrollment (None: any in the range).
    ratio: float | None = None
    ratio_tolerance: float = 0.14
    #: One card's share of the frame in the enrollment photos, taken on the table with the
    #: same camera (None: not known).  It tells a card's size where the frame has few others.
    card_share: float | None = None


_FOUR = np.arange(4)
_NEXT = np.array([1, 2, 3, 0])
_PREV = np.array([3, 0, 1, 2])


def order_corners(q: np.ndarray) -> np.ndarray:
    """Corners clockwise (in image coordinates) starting from the one nearest the top left."""
    pts = np.asarray(q, np.float32).reshape(4, 2)
    xy = pts.tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = xy
    cx, cy = (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4
    # clockwise on screen (y grows downwards)
    angle = [math.atan2(y - cy, x - cx) for x, y in xy]
    idx = sorted(range(4), key=angle.__getitem__)
    sums = [xy[i][0] + xy[i][1] for i in idx]
    start = sums.index(min(sums))
    return pts[idx[start:] + idx[:start]]


def side_ratio(q: np.ndarray) -> float:
    """Short over long side, averaging opposite sides."""
    e = q - q[_NEXT]
    d = np.sqrt((e * e).sum(axis=1))
    a, b = (d[0] + d[2]) / 2, (d[1] + d[3]) / 2
    return float(min(a, b) / max(a, b, 1e-6))


def sides_apart(q: np.ndarray) -> float:
    """The larger of the angles (degrees) between the two pairs of opposite sides of ``q``
    (corners in order): 0 for a parallelogram."""
    e = (q[_NEXT] - q).astype(np.float64)
    turn = np.degrees(np.arctan2(e[:, 1], e[:, 0]))
    apart = np.abs((turn[:2] - turn[2:]) % 360.0 - 180.0)      # opposite sides run back
    return float(apart.max())


def median_of_rows(g: np.ndarray) -> np.ndarray:
    """``np.median(g, axis=1)`` of a 2-D float array without NaN, as numpy makes it (the middle
    one or two of a partition, their mean in the array's type), without its overhead."""
    n = g.shape[1]
    half = n // 2
    if n % 2:
        return np.partition(g, half, axis=1)[:, half]
    part = np.partition(g, (half - 1, half), axis=1)
    return (part[:, half - 1] + part[:, half]) / 2


def median_of_bytes(a: np.ndarray) -> float:
    """``float(np.median(a))`` of a uint8 array, as numpy makes it (the middle value, or the
    mean of the middle two), from a count of each of the 256 values: a tenth of the time."""
    flat = a.ravel()
    n = flat.size
    cum = np.cumsum(np.bincount(flat, minlength=256))
    high = int(np.searchsorted(cum, n // 2 + 1))          # the value at sorted index n // 2
    if n % 2:
        return float(high)
    low = int(np.searchsorted(cum, n // 2))                # at sorted index n // 2 - 1
    return (low + high) / 2


def clipped(a: np.ndarray, low: float, high: float | None) -> np.ndarray:
    """``np.clip(a, low, high)``, the same values (a floor, then a ceiling when ``high`` is
    not None), without its overhead: some 10 us a call, thousands of calls a frame."""
    a = np.maximum(a, low)
    return a if high is None else np.minimum(a, high)


def _quad(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    if peri < 20:
        return None
    for eps in (0.015, 0.025, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            break
    # rounded or chipped corners: the best-fitting rectangle, if the outline is nearly one
    rect = cv2.minAreaRect(hull)
    w, h = rect[1]
    if w * h > 0 and cv2.contourArea(hull) / (w * h) > 0.88:
        return cv2.boxPoints(rect).astype(np.float32)
    return None


def _refine(quad: np.ndarray, contour: np.ndarray, fixed: int | None = None) -> np.ndarray:
    """Fit a line to the outline points along each side and intersect neighbours: corners of
    rounded cards then land on the card's true corners.  Side ``fixed`` stays where it is."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    ab = quad[_NEXT] - quad                                        # (4, 2)
    L2 = (ab * ab).sum(axis=1)
    if L2.min() < 1e-6:
        return quad
    nrm = np.stack([-ab[:, 1], ab[:, 0]], axis=1) / np.sqrt(L2)[:, None]
    # position along (t, 0..1 between the corners) and distance from each side, one product
    axes = np.concatenate([ab / L2[:, None], nrm]).astype(np.float32)   # (8, 2)
    proj = pts @ axes.T - np.einsum("ij,ij->i", np.concatenate([quad, quad]), axes)[None, :]
    t, dist = proj[:, :4].T, np.abs(proj[:, 4:].T)                # (4, N) each
    near = (t > 0.15) & (t < 0.85) & (dist < np.maximum(2.0, 0.04 * np.sqrt(L2))[:, None])
    lines = np.empty((4, 4), np.float64)                          # (vx, vy, x0, y0) per side
    for i in range(4):
        if i == fixed:
            lines[i] = (*(ab[i] / np.sqrt(L2[i])), *quad[i])
            continue
        sel = pts[near[i]]
        if len(sel) < 5:
            return quad
        # least squares, then again without the points far off that line (robust and much
        # cheaper than an M-estimator)
        vx, vy, x0, y0 = cv2.fitLine(sel, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        off = np.abs((sel[:, 0] - x0) * vy - (sel[:, 1] - y0) * vx)
        keep = off <= 2.0
        if 5 <= keep.sum() < len(sel):
            vx, vy, x0, y0 = cv2.fitLine(sel[keep], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines[i] = (vx, vy, x0, y0)
    out = corners_of(lines)
    if out is None or np.abs(out - quad).max() > 0.1 * np.sqrt(cv2.contourArea(quad)):
        return quad
    return out


def corners_of(lines: np.ndarray) -> np.ndarray | None:
    """The corners (4x2 float32) of the quad whose side i lies on ``lines[i]`` (vx, vy, x0,
    y0, as ``cv2.fitLine`` gives them): corner i where sides i-1 and i meet; None when two
    neighbouring sides are parallel."""
    u, p = lines[_PREV, :2], lines[_PREV, 2:]
    v, q = lines[:, :2], lines[:, 2:]
    det = -u[:, 0] * v[:, 1] + v[:, 0] * u[:, 1]
    if np.abs(det).min() < 1e-6:
        return None
    r = q - p
    s = (-r[:, 0] * v[:, 1] + v[:, 0] * r[:, 1]) / det
    return (p + s[:, None] * u).astype(np.float32)


def offset(quad: np.ndarray, d: float) -> np.ndarray:
    """The quad with every side moved outward (d > 0) by ``d`` pixels along its normal."""
    return _offset(order_corners(quad), d)


def _offset(quad: np.ndarray, d: float | np.ndarray) -> np.ndarray:
    """:func:`offset` of a quad whose corners are already in order; ``d`` one distance for
    every side or one per side (side i runs from corner i to corner i+1)."""
    q = quad.astype(np.float64)
    u = q[_NEXT] - q
    u /= np.maximum(np.sqrt((u * u).sum(axis=1, keepdims=True)), 1e-9)
    n = np.stack([u[:, 1], -u[:, 0]], axis=1)   # outward for clockwise corners (y down)
    dist = np.broadcast_to(np.asarray(d, np.float64), (4,))[:, None]
    p = q + n * dist                            # a point on each moved side i (from corner i)
    # corner i = intersection of side i-1 and side i
    pp, up = p[_PREV], u[_PREV]
    det = -up[:, 0] * u[:, 1] + u[:, 0] * up[:, 1]
    if np.abs(det).min() < 1e-9:
        return quad
    r = p - pp
    s = (-r[:, 0] * u[:, 1] + u[:, 0] * r[:, 1]) / det
    return (pp + s[:, None] * up).astype(np.float32)


#: Where along each side :func:`_snap_out` looks at the edge (shaped to broadcast over its
#: offsets, sides and points).
_SNAP_ALONG = np.linspace(0.12, 0.88, 16, dtype=np.float32)[None, None, :, None]


def snap_out(quad: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """Move the sides outward to the card's own edge when ``quad`` is a frame printed inside
    the card: the outermost offset, within a tenth of the short side, whose edge (the median
    gradient across each side) is a local peak about as strong as the first one."""
    return _snap_out(order_corners(quad), gx, gy)


def _snap_out(quad: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """:func:`snap_out` of a quad whose corners are already in order."""
    e = quad - quad[_NEXT]
    d_sides = np.sqrt((e * e).sum(axis=1))
    reach = int(0.10 * float(d_sides.min()))
    if reach < 2:
        return quad
    step = _offset(quad, 1.0) - quad                       # corners move linearly with d
    # the sides stay parallel as they move: one normal per side for every offset
    u = quad[_NEXT] - quad
    u /= np.maximum(np.sqrt((u * u).sum(axis=1, keepdims=True)), 1e-9)
    nrm = np.stack([u[:, 1], -u[:, 0]], axis=1)           # (4, 2)
    ds = np.arange(0, reach + 2, dtype=np.float32)
    a = quad[None] + ds[:, None, None] * step[None]       # (D, 4, 2)
    pts = a[:, :, None, :] + _SNAP_ALONG * (a[:, _NEXT] - a)[:, :, None, :]  # (D, 4, T, 2)
    h, w = gx.shape
    xi = clipped(np.rint(pts[..., 0]).astype(np.intp), 0, w - 1)
    yi = clipped(np.rint(pts[..., 1]).astype(np.intp), 0, h - 1)
    at = yi * w + xi                       # a flat index: take() is some 4x faster than [yi, xi]
    g = np.abs(gx.ravel().take(at) * nrm[None, :, None, 0] + gy.ravel().take(at) * nrm[None, :, None, 1])
    mid = g.shape[2] // 2                                   # the upper median of 16 per side
    strengths = np.partition(g, mid, axis=2)[:, :, mid].mean(axis=1).tolist()
    base = max(strengths[0], strengths[1])
    best = 0
    for d in range(2, reach + 1):
        s = strengths[d]
        if s >= 0.55 * base and s >= strengths[d - 1] and s >= strengths[d + 1] \
                and min(strengths[1:d]) < 0.7 * s:
            best = d
    return order_corners(quad + best * step) if best else quad


def _grow(quad: np.ndarray, px: float) -> np.ndarray:
    """Move every side outward by ``px`` (undo the width of an edge line)."""
    c = quad.mean(axis=0)
    d = quad - c
    r = np.linalg.norm(d, axis=1, keepdims=True)
    return (c + d * (r + px * 1.3) / np.maximum(r, 1e-6)).astype(np.float32)


def _candidates(gray: np.ndarray, min_points: float = 0.0) -> list[tuple[np.ndarray, float, float]]:
    """(contour, how much to grow, base score) for every closed outline; of the edge map's
    and the cut regions' outlines only those of ``min_points`` points or more (a felt's
    edge map has thousands of specks), of the bright regions all (touching cards are looked
    for among them)."""
    out: list[tuple[np.ndarray, float, float]] = []
    med = median_of_bytes(gray[::4, ::4])
    edges = cv2.Canny(gray, max(10, 0.4 * med), max(30, 1.0 * med), L2gradient=True)
    thick = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    # inner outlines (holes) of the edge map: a card's own outline from inside
    contours, hier = cv2.findContours(thick, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hier is not None:
        for k in np.flatnonzero(_lengths(contours) >= min_points).tolist():
            # outer boundaries sit just outside an outline, holes just inside it
            out.append((contours[k], -1.0, 1.0) if hier[0][k, 3] < 0 else (contours[k], 1.5, 0.95))
    # bright regions cut along edges
    _, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cut = cv2.bitwise_and(bright, cv2.bitwise_not(thick))
    cut = cv2.morphologyEx(cut, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out.extend((c, 1.5, 0.9) for c in contours if len(c) >= min_points)
    # and uncut: a card's thin margin survives (touching cards merge here, the cut ones don't)
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out.extend((c, 0.0, 0.9) for c in contours)
    return out

#: Weight of the fine outlines against the others (a little under the work frame's holes),
#: and how far they are grown (half a work-frame pixel: the outline's own width at full size;
#: it also tells them from the other candidates).
FINE_BASE = 0.93
FINE_GROW = 0.5
#: Canny's thresholds for the fine outlines, as shares of the frame's median brightness: half
#: the work frame's.  A white border's line on a white stripe is some 10 levels deep at full
#: size; the work frame's thresholds (0.4 and 1.0) let most of it go, and the ring round the
#: card did not close.  An outline that closes on noise still has to be a card's shape, size
#: and sides.
FINE_LOW = 0.2
FINE_HIGH = 0.5
#: The outside of a ring of the whole frame's edge map thickened by a pixel lies a pixel (at
#: full size) outside the card's outline: grown by minus that in work-frame pixels.  Such a
#: ring is taken last, where no card was found (:func:`_alone_rings`): round two cards
#: overlapping it is one larger outline, which would win over theirs.
RING_GROW = -0.7
#: The hole of such a ring lies inside the card's outline by the ring's width (the line and the
#: pixel it was thickened by, each way): grown by that in work-frame pixels.  Where a card
#: touches another at a corner, the outside of the ring goes round both; the hole is the card's
#: (taken only then: inside a ring round one card the hole is cut where the art comes near).
RING_HOLE_GROW = 2.0


def _fine_holes(full: np.ndarray, scale: float, options: FindOptions) -> list[tuple[np.ndarray, float, float]]:
    """The insides of closed outlines of the edge map of the whole frame, not thickened, in
    work-frame pixels.  A card whose white border meets a white table (a striped cloth)
    shows only a faint line round it, close to the line of its art's frame: in the shrunk,
    thickened edge map the two merge and the card's own outline is lost; at full size it
    still closes a ring."""
    gray = cv2.GaussianBlur(full, (3, 3), 0)
    med = median_of_bytes(gray[::4, ::4])
    edges = cv2.Canny(gray, max(10, FINE_LOW * med), max(30, FINE_HIGH * med), L2gradient=True)
    h, w = full.shape[:2]
    lo, hi = options.min_area * w * h * 0.7, options.max_area * w * h
    textured = cv2.countNonZero(edges) > TEXTURED * edges.size
    picked = [(c, FINE_GROW, FINE_BASE) for c in _holes(edges, lo, textured)]
    # a card's thin dark outline on a table as pale as its face (a cream card on linen): its
    # hole inside is cut where the art comes near it, and its ring closes only thickened by a
    # pixel: then its outside is the card's
    # (only for a reader that knows its cards' shape and size: :func:`_alone_rings`; and not on
    # a textured table, where the thickened map is one web of the texture: a ring round a card
    # is glued to it, and its outside is the web's)
    if options.ratio is not None and options.card_share and not textured:
        rings, ring_hier = cv2.findContours(cv2.dilate(edges, np.ones((3, 3), np.uint8)), cv2.RETR_CCOMP,
                                            cv2.CHAIN_APPROX_NONE)
        if ring_hier is not None:
            lengths, parent = _lengths(rings), ring_hier[0][:, 3]
            large = LARGEST_CARD * options.card_share * w * h
            holed = [k for k in np.unique(parent[parent >= 0])
                     if _may_enclose(lengths[k], large) and cv2.contourArea(rings[int(k)]) > large]
            kept = ((parent < 0) | np.isin(parent, holed)) & _may_enclose(lengths, lo)
            picked += [(rings[int(k)], RING_GROW if parent[k] < 0 else RING_HOLE_GROW, 0.0)
                       for k in np.flatnonzero(kept)]
    out: list[tuple[np.ndarray, float, float]] = []
    for c, grow, base in picked:
        a = cv2.contourArea(c)
        if lo <= a <= hi:
            # back to the work frame; densely enough for the outline-length test
            pts = (c.reshape(-1, 2).astype(np.float32) * scale)
            out.append((np.round(pts).astype(np.int32).reshape(-1, 1, 2), grow, base))
    return out


#: An edge map with more than this share of edge pixels (a felt's or a coarse cloth's texture,
#: drawn at full size: 0.25-0.38 on the second renderer's felts, 0.02-0.09 on smooth tables and
#: our renderer's) has thousands of small holes; its large ones are found as regions of the
#: background instead (:func:`_large_holes`): the same outlines, in a third of the time there
#: (and in more on a smooth table); and its thickened map's rings are not traced (a ring round
#: a card is glued to the texture's web: on the 28 second-renderer sets and the five linen
#: boxes no ring on such a frame was ever taken, and tracing them was some 11 ms of a felt's).
TEXTURED = 0.1


def _holes(edges: np.ndarray, lo: float, textured: bool | None = None) -> list[np.ndarray]:
    """The holes of the edge map ``edges`` (the insides of its closed outlines) that may close
    ``lo`` pixels or more, in the order of their first points (top to bottom, left to right).
    ``textured``: whether more than :data:`TEXTURED` of the map is edges (counted when not
    given)."""
    if textured is None:
        textured = cv2.countNonZero(edges) > TEXTURED * edges.size
    if textured:
        holes = _large_holes(edges, lo)
    else:
        contours, hier = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        if hier is None:
            return []
        holes = [contours[int(k)] for k in np.flatnonzero((hier[0][:, 3] >= 0) & _may_enclose(_lengths(contours), lo))]
    return sorted(holes, key=lambda c: (int(c[0, 0, 1]), int(c[0, 0, 0])))


def _large_holes(edges: np.ndarray, lo: float) -> list[np.ndarray]:
    """The holes of ``edges`` whose outlines may close ``lo`` pixels or more, each traced
    alone.  A hole is a region of the background (4-connected, the edges being 8-connected)
    that does not reach the frame's border; its outline runs through the edge pixels next to
    it, inside its box grown by a pixel, so a region whose grown box is smaller than ``lo``
    holds none (the region itself may be a thin gap round the card's art).  Each outline is
    traced in the region's box with every pixel but the region's set: pixel for pixel the
    whole edge map's (the tracing turns round each outline pixel from the region's side and
    stops at the first edge pixel, so it sees no other pixel of the background)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(edges), connectivity=4)
    x, y, bw, bh = (stats[:, k] for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    h, w = edges.shape
    inside = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    out: list[np.ndarray] = []
    for r in np.flatnonzero(inside & ((bw + 2) * (bh + 2) >= lo)):
        x0, y0 = max(0, int(x[r]) - 2), max(0, int(y[r]) - 2)
        box = labels[y0:int(y[r] + bh[r]) + 2, x0:int(x[r] + bw[r]) + 2]
        others = cv2.compare(box, np.array([float(r)]), cv2.CMP_NE)   # 255 but for the region's pixels
        contours, hier = cv2.findContours(others, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE, offset=(x0, y0))
        if hier is not None:
            out += [contours[int(k)] for k in np.flatnonzero(hier[0][:, 3] >= 0)]
    return out


def _lengths(contours: Sequence[np.ndarray]) -> np.ndarray:
    """How many points each contour has."""
    return np.fromiter(map(len, contours), np.int64, len(contours))


def _may_enclose(points: np.ndarray, area: float) -> np.ndarray:
    """Whether contours of unapproximated edge pixels (each a step of 1 or 1.41 pixels from the
    last) of ``points`` points each are long enough to close ``area`` pixels: n points run at
    most 1.41 n round, and no outline closes more than its length squared over 4 pi (a
    circle's).  Most of a frame's edge contours are specks: this spares them
    :func:`cv2.contourArea` (and the outlines found are the same)."""
    n = np.asarray(points, np.float64)
    return n * n >= 2 * np.pi * area


#: An outline covering less than this share of what one card covered in the enrollment photos
#: is a part of a card.  A wide lens makes cards at the frame's edge some 0.75 of one at its
#: centre; the parts found (half an art panel) are 0.3-0.5.
PART_OF_CARD = 0.55

#: The largest a card may look against what one covered in the enrollment photos: the near
#: cards under a leaning camera with a wide lens came to 1.3 on the second renderer's boxes.
LARGEST_CARD = 1.5

#: Degrees a card's corner may be off a right angle (a card seen from nearly above).
SQUARE = 16.0
#: Leeway on the enrolled side ratio, at half the frame's width from its centre and beyond: a
#: wide lens's barrel or pincushion bends a card's shape there (on a made-up camera with
#: k1 = 0.1 its side ratio is off by up to 0.21).  A quad that fits only with it gives way to a
#: nested one that fits without it (:data:`OUTDONE`): else a quad with one corner off won over
#: the card's own (nested outlines keep the largest).
RATIO_OFF_CENTRE = 0.08
#: Likewise, degrees more a corner may be off a right angle there: a card near the frame's
#: corner through a wide lens on a leaning camera (the second renderer's printed cloth 2) has
#: corners 15-18 degrees off, and was not found at all.
SQUARE_OFF_CENTRE = 8.0
#: Overlap (intersection over union) past which two quads are one card's, and how much
#: less well (:func:`_support`) the one with the lens's leeway must follow the image's edges to
#: give way to the other.
OUTDONE = 0.8
OUTDONE_SUPPORT = 0.6
#: How far refining an outline (its sides fitted, grown and snapped out to the card's edge)
#: may move its side ratio, at most: an outline whose ratio lies farther than this beyond
#: any a card may show (the enrolled ratio, its tolerance and the lens's leeway) is not
#: refined, and is no card.  On five second-renderer sets the refined outlines that came to a
#: card's ratio had moved by 0.067 at most; on white cards on pale tiles most outlines are the
#: tiles' squares (341 of 524 refined a frame, ratio 0.9-1.0 against the cards' 0.65).
REFINE_RATIO = 0.1


def _support(q: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> float:
    """How well the least-followed side of ``q`` (corners in order) runs along an edge of the
    image: the lower quartile of the gradient across it (a side running off the card for a
    stretch, as next to a corner that is off, is low there)."""
    g = _line_strengths(gx, gy, q.astype(np.float32), q[_NEXT].astype(np.float32), SIDE_SAMPLES)
    return float(np.percentile(g, 25, axis=1).min())


def common_area(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex quads have in common."""
    return float(cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))[0])


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter = common_area(a, b)
    return inter / max(float(cv2.contourArea(a)) + float(cv2.contourArea(b)) - inter, 1e-9)


def _sizes(quads: list[np.ndarray]) -> list[float]:
    """The area of each quad."""
    return [float(cv2.contourArea(q)) for q in quads]


def square_enough(q: np.ndarray, tolerance: float = SQUARE) -> bool:
    """Every corner within ``tolerance`` degrees of a right angle (a card seen from nearly
    above)."""
    xy = q.tolist()
    limit = math.sin(math.radians(tolerance))
    for i in range(4):
        (px, py), (x, y), (nx, ny) = xy[i - 1], xy[i], xy[(i + 1) % 4]
        ux, uy, vx, vy = px - x, py - y, nx - x, ny - y
        norm = math.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy))
        if abs(ux * vx + uy * vy) > limit * max(norm, 1e-9):
            return False
    return True


#: Each side of a card must run along an edge of the image.  A side is seen when the gradient
#: across it (its median along the side) is at least :data:`SIDE_RIDGE` times that of the
#: quieter of two bands :data:`RIDGE_REACH` pixels to either side (a ridge: an edge, not a
#: texture), or at least :data:`SIDE_STRONG` of the card's strongest side (an edge as clear as
#: the card's others, with a tile's grout or a printed frame close beside it), or at least
#: :data:`SIDE_RIDGE` times the louder of two bands twice as far with the side at the top of
#: the gradient's hump (a soft edge: a side out of focus, or lifted off the table, fades over a
#: dozen pixels, its gradient as strong 4 pixels off it; the real photos through a webcam with
#: bands of flicker or a player's shadow lost one such card in every frame it lay in, and a
#: hazy one two; the louder band, so that a line on a felt's texture beside a card's quiet face
#: is not one: with the quieter, outlines off the cards were taken on the second renderer's
#: felt; the top of the hump, so that a line between two cards' edges is not one: the table
#: between cream cards on linen was ringed as a card).  An outline bent round table noise, a
#: shadow or the next card's face runs off the card's edge and is none of these.
SIDE_RIDGE = 2.0
SIDE_STRONG = 0.5
RIDGE_REACH = 4.0
#: Points sampled along each side for it.
SIDE_SAMPLES = np.linspace(0.1, 0.9, 16, dtype=np.float32)


def _sides_seen(q: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> bool:
    """Whether every side of ``q`` runs along an edge of the image (see :data:`SIDE_RIDGE`)."""
    return bool(_seen_sides(q, gx, gy).all())


def _seen_sides(q: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """Which sides of ``q`` (4 booleans, side i from corner i) run along an edge of the image."""
    a, b = q.astype(np.float32), q[_NEXT].astype(np.float32)
    n = _normals(a, b) * np.float32(RIDGE_REACH)
    # the side itself and the lines beside it, near and twice as far, in one pass: (5 x 4
    # sides, samples)
    g = _line_strengths(gx, gy, np.concatenate([a, a + n, a - n, a + 2 * n, a - 2 * n]),
                        np.concatenate([b, b + n, b - n, b + 2 * n, b - 2 * n]), SIDE_SAMPLES)
    on, left, right, far_left, far_right = median_of_rows(g).reshape(5, 4)
    strong = on >= SIDE_STRONG * float(on.max())
    # a soft edge: the side on the top of a wide hump of the gradient, gone by the far lines
    soft = (on >= np.maximum(left, right)) & _ridge(on, np.maximum(far_left, far_right))
    return _ridge(on, np.minimum(left, right)) | soft | strong


def _ridge(on: np.ndarray, beside: np.ndarray) -> np.ndarray:
    """Whether a line's gradient ``on`` stands out of the quieter of the lines beside it
    (``beside``) as a ridge (see :data:`SIDE_RIDGE`; 4 levels more, so flat paper is none)."""
    return on >= SIDE_RIDGE * beside + 4.0


def _normals(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The unit normal of each segment a[i]-b[i] (a, b: (S, 2)), to its left in image
    coordinates: (S, 2)."""
    u = b - a
    ux, uy = u[:, 0], u[:, 1]
    # the two coordinates apart: a sum over an axis of length 2 is slow in numpy
    length = np.maximum(np.sqrt(ux * ux + uy * uy), 1e-6)
    out = np.empty(u.shape, np.result_type(u.dtype, length.dtype))   # np.stack's, without its overhead
    out[:, 0] = -uy / length
    out[:, 1] = ux / length
    return out


def find_cards(image: np.ndarray, options: FindOptions = FindOptions(),
               passed: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Corners (4x2 float32, frame pixels, clockwise from top-left) of every card found.
    ``passed``, when given and the enrolled size known, gets the outlines passed over that
    have a card's shape and size (:data:`PART_OF_CARD` to :data:`LARGEST_CARD` of it) whatever
    the image's edges along them, and each outline cut in two along a seam (:func:`_seam`)
    as it was: where an outline found reads as no card, the reader reads those round it."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_W / w)
    full = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = full
    if scale != 1.0:
        gray = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    frame_area = gray.shape[0] * gray.shape[1]
    gx, gy = cv2.spatialGradient(gray)  # 3x3 Sobel, int16
    found: list[tuple[float, np.ndarray, np.ndarray, float]] = []
    # n outline points (steps of at most sqrt(2) px) enclose at most n^2 / (2 pi) px^2
    min_points = 2.4 * np.sqrt(options.min_area * frame_area * 0.7)
    blobs: list[np.ndarray] = []   # bright regions, uncut: two cards touching make one
    extra = _fine_holes(full, scale, options)
    rings: list[tuple[np.ndarray, np.ndarray, float]] = []   # (quad, contour, grow): see _alone_rings
    for contour, grow, base in _candidates(gray, min_points) + extra:
        if grow == 0.0:
            blobs.append(contour)
        if len(contour) < min_points:  # too short an outline to enclose a card
            continue
        area = cv2.contourArea(contour)
        if not options.min_area * frame_area * 0.7 <= area <= options.max_area * frame_area:
            continue
        quad = _quad(contour)
        if quad is None:
            continue
        quad = order_corners(quad)
        qa = cv2.contourArea(quad)
        if qa <= 0 or area / qa < 0.82 or not square_enough(quad, 30.0):
            continue
        if grow in (RING_GROW, RING_HOLE_GROW):
            rings.append((quad, contour, grow))
            continue
        found.append((qa * base, quad, contour, grow))
    found.sort(key=lambda t: -t[0])
    refined: dict[int, np.ndarray | None] = {}

    half_w, half_h = gray.shape[1] / 2, gray.shape[0] / 2

    def fits(q: np.ndarray, leeway: bool = False, sides: bool = True) -> bool:
        ratio = side_ratio(q)
        slack, bent = 0.0, 0.0
        if leeway:  # off the frame's centre a wide lens bends a card's shape: more leeway there
            cx, cy = q.mean(axis=0).tolist()
            off = min(1.0, ((cx - half_w) ** 2 + (cy - half_h) ** 2) / (half_w * half_w))
            slack, bent = RATIO_OFF_CENTRE * off, SQUARE_OFF_CENTRE * off
        return (square_enough(q, SQUARE + bent) and (not sides or _sides_seen(q, gx, gy))
                and options.min_ratio <= ratio <= options.max_ratio
                and cv2.contourArea(q) >= options.min_area * frame_area
                and (options.ratio is None or abs(ratio - options.ratio) <= options.ratio_tolerance + slack))

    strict: dict[int, bool] = {}
    shaped: dict[int, np.ndarray] = {}
    enrolled = options.card_share * frame_area if options.card_share else None

    def beyond_two(area: float) -> bool:
        """Whether an outline of ``area`` is larger than two of the largest cards (where the
        enrolled size is known): no card, nor two touching."""
        return enrolled is not None and area > 2 * LARGEST_CARD * enrolled

    def card_size(sizes: list[float]) -> float | None:
        """One card's size: the median of ``sizes`` (of the cards found) when there are three
        or more or the enrolled size is not known, else the enrolled size.  Where the enrolled
        size is known, outlines far smaller than it (:data:`PART_OF_CARD`: a card's art panel
        found alone) are no cards: else, on a table where many cards were found only in part,
        the whole cards looked twice a card's size and were dropped as pairs; outlines larger
        than two of the largest cards (:data:`LARGEST_CARD`) are none either (squares of pale
        tiles ringed by grout, found where the white cards on them were not)."""
        if enrolled is not None:
            sizes = [a for a in sizes if PART_OF_CARD * enrolled <= a and not beyond_two(a)]
        if len(sizes) >= 3 or (enrolled is None and sizes):
            return float(statistics.median(sizes))   # np.median's value, without its overhead
        return enrolled

    def two_cards(sizes: list[float], n: int) -> bool:
        """Whether the n-th of the cards found (``sizes``) is the size of two of the others."""
        one = card_size(sizes[:n] + sizes[n + 1:])
        return one is not None and sizes[n] >= SEAM_PAIR * one

    def never_fits(q: np.ndarray) -> bool:
        """Whether ``q``, however its refinement moves it, is too far off a card's side ratio."""
        return options.ratio is not None and \
            abs(side_ratio(q) - options.ratio) > options.ratio_tolerance + RATIO_OFF_CENTRE + REFINE_RATIO

    def final(i: int) -> np.ndarray | None:
        if i not in refined:
            _, q, contour, grow = found[i]
            if never_fits(q):
                strict[i], refined[i] = False, None
                return None
            q = _snap_out(order_corners(_grow(_refine(q, contour), grow)), gx, gy)
            shaped[i] = q
            strict[i] = fits(q)
            refined[i] = q if strict[i] or (options.ratio is not None and fits(q, leeway=True)) else None
        return refined[i]

    def outdone(i: int, q: np.ndarray) -> bool:
        """Whether ``q`` (outline i, a card's shape only with the lens's leeway) is nearly
        the same quad as a later outline inside it that is a card's shape without it, and runs
        along the image's edges far less well (a quad with one corner off, against the card's
        own; a card bent by the lens against its part without the title band is not)."""
        if strict[i]:
            return False
        for j in range(i + 1, len(found)):
            if j in banned or cv2.pointPolygonTest(q, centres[j], False) < 0:
                continue
            other = final(j)
            if other is not None and strict[j] and _overlap(q, other) > OUTDONE \
                    and _support(q, gx, gy) < OUTDONE_SUPPORT * _support(other, gx, gy):
                return True
        return False

    banned: set[int] = set()
    too_big: set[int] = set()   # banned as two cards' size (not for a seam across them)
    centres: list[tuple[float, ...]] = [_centre(f[1]) for f in found]
    for _ in range(3):
        # keep the largest of nested or repeated outlines
        kept_i: list[int] = []
        kept: list[np.ndarray] = []
        for i, (_, q, _, _) in enumerate(found):
            if i in banned:
                continue
            c = centres[i]
            if any(cv2.pointPolygonTest(k, c, False) >= 0 for k in kept):
                continue
            if any(cv2.pointPolygonTest(q, centres[j], False) >= 0 for j in kept_i):
                continue
            fq = final(i)
            if fq is None or outdone(i, fq):
                continue
            kept_i.append(i)
            kept.append(fq)
        # two cards touching along a side can make one bigger quad: drop it, look again
        seamed: set[int] = set()
        if options.ratio is not None:
            # a quad of two cards' size cut across by a seam into two halves that are not cards
            # is not one card either (two cards slid along each other, less their title bands);
            # nor are the other outlines of that region (nearly as large, round its centre)
            sizes = _sizes(kept)
            for n, k in enumerate(kept):
                if two_cards(sizes, n):
                    halves, seam = _seam(k, gx, gy, options, paired=True)
                    if halves is None and seam:
                        seamed |= {j for j, f in enumerate(found) if cv2.contourArea(f[1]) >= ALIKE * sizes[n]
                                   and cv2.pointPolygonTest(k, centres[j], False) >= 0}
        big: set[int] = set()
        one = card_size(_sizes(kept))
        if one is not None and (len(kept) >= 3 or enrolled is not None):
            big = {i for i, k in zip(kept_i, kept) if cv2.contourArea(k) > 1.65 * one}
        if not big and not seamed:
            break
        banned |= big | seamed
        too_big |= big
    else:       # those of more than two cards' size banned in the last round are not kept either
        kept = [k for i, k in zip(kept_i, kept) if not (i in banned and beyond_two(cv2.contourArea(k)))]
    one = card_size(_sizes(kept))
    if options.ratio is not None and one is not None:
        against, parts = _against_cards(shaped, refined, banned, kept, fits, gx, gy, one)
        kept = [k for j, k in enumerate(kept) if j not in parts] + against
    pairs = [q for q in (refined.get(i) for i in banned) if q is not None]
    one = card_size(_sizes(kept))
    if one is not None:
        kept += _split_pairs(pairs, kept, options, one)
    one = card_size(_sizes(kept))
    if options.ratio is not None and one is not None:  # only a reader that knows its cards' shape
        kept = _split_touching(blobs, kept, fits, gx, gy, one, options.ratio)
        if enrolled is not None:
            # last, where nothing else was found: a card whose fourth side is faint on its own
            # (a white border on a white stripe), closed round at full size; measured against
            # the enrolled size (the same camera): the frame's cards found may be few, or parts
            fine = _lone_outlines(found, banned, centres, kept, enrolled)
            for i in fine:  # also those passed over in the search, round a card's part kept there
                final(i)
            alone, parts = _against_cards(shaped, refined, banned, kept, fits, gx, gy, enrolled, fine)
            kept = [k for j, k in enumerate(kept) if j not in parts] + alone
    if options.ratio is not None and enrolled is not None:
        kept += _left_whole([q for q in (refined.get(i) for i in sorted(too_big))
                             if q is not None and cv2.contourArea(q) <= LARGEST_CARD * enrolled], kept)
        kept += _alone_rings(rings, kept, fits, never_fits, gx, gy, enrolled)
    if options.ratio is None:       # only a reader that knows its cards' shape cuts along seams
        return [k / scale for k in kept]
    sizes = _sizes(kept)
    out: list[tuple[np.ndarray, bool]] = []      # (outline, a half of one cut along a seam)
    for n, q in enumerate(kept):
        halves = _split_seam(q, gx, gy, options, paired=two_cards(sizes, n))
        if passed is not None and enrolled is not None and len(halves) == 2:
            passed.append(q / scale)
        out += [(h, len(halves) == 2) for h in halves]
    if passed is not None and enrolled is not None:
        passed += [q / scale for q in shaped.values() if not any(q is k for k in kept)
                   and PART_OF_CARD * enrolled <= cv2.contourArea(q) <= LARGEST_CARD * enrolled and fits(q, sides=False)]
    return [q / scale for q in _one_of_alike(out, gx, gy)]


def _one_of_alike(quads: list[tuple[np.ndarray, bool]], gx: np.ndarray, gy: np.ndarray) -> list[np.ndarray]:
    """The outlines of ``quads`` (each with whether it is a half of an outline cut along a seam,
    :func:`_seam`) less each that is nearly the same quad as another (:data:`OUTDONE`): one
    card's two outlines.  A half gives way to an outline found whole; else the one whose sides
    follow the image's edges better (:func:`_support`) is kept.  A pair's outline cut into two
    halves may give a half that is a card found whole on its own too (on the second renderer's
    bleed/tiles 196 the same chick-3 twice, 0.84 alike, both read: the half with a band of the
    table along one side)."""
    dropped: set[int] = set()
    # two quads whose boxes do not meet share nothing: only those whose boxes do are compared
    # (the common area of two quads is the costlier test: some 0.5 ms of twelve cards' pairs)
    lo = np.array([q.min(axis=0) for q, _ in quads]).reshape(-1, 2)
    hi = np.array([q.max(axis=0) for q, _ in quads]).reshape(-1, 2)
    meet = np.asarray(((lo[:, None] <= hi[None]) & (lo[None] <= hi[:, None])).all(axis=2))
    for i, j in itertools.combinations(range(len(quads)), 2):
        (a, half_a), (b, half_b) = quads[i], quads[j]
        if not meet[i, j] or i in dropped or j in dropped or _overlap(a, b) <= OUTDONE:
            continue
        if half_a != half_b:
            dropped.add(i if half_a else j)
        else:
            dropped.add(j if _support(a, gx, gy) >= _support(b, gx, gy) else i)
    return [q for k, (q, _) in enumerate(quads) if k not in dropped]


#: Two cards lying against each other found nowhere else: their size against the frame's
#: cards', and how much of one the other may cover.
AGAINST_SIZE = (0.6, 1.4)
AGAINST_COVERED = 0.25
#: A card found before that is at most this share of such a card, inside it, is a part of it.
AGAINST_PART = 0.7
#: How far (in card sizes) from the other card each unseen side's middle may lie.
AGAINST_REACH = 0.05


def _lone_outlines(found: list[tuple[float, np.ndarray, np.ndarray, float]], banned: set[int],
                   centres: list[tuple[float, ...]], kept: list[np.ndarray], card_area: float) -> set[int]:
    """The fine outlines (indices into ``found``) that may be a card alone: about a card's size
    (:data:`AGAINST_SIZE`, a tenth wider: they are not grown yet), not banned, and not round
    the centre of a card found (a part of a card found there does not count)."""
    lo, hi = AGAINST_SIZE[0] * card_area * 0.9, AGAINST_SIZE[1] * card_area * 1.1
    whole = [k for k in kept if cv2.contourArea(k) >= AGAINST_PART * card_area]
    return {i for i, (score, _, _, grow) in enumerate(found)
            if grow == FINE_GROW and i not in banned and lo <= score / FINE_BASE <= hi
            and not any(cv2.pointPolygonTest(k, centres[i], False) >= 0 for k in whole)}


def _against_cards(shaped: dict[int, np.ndarray], refined: dict[int, np.ndarray | None], banned: set[int],
                   kept: list[np.ndarray], fits: Callable[..., bool], gx: np.ndarray,
                   gy: np.ndarray, card_area: float, alone: frozenset[int] | set[int] = frozenset()
                   ) -> tuple[list[np.ndarray], set[int]]:
    """Two cards lying against each other, or one a little over the other, where no card was
    found: two outlines of a card's shape and size, each with three sides along edges of the
    image and the fourth against the other's fourth (a card's white border on or beside
    another white card leaves only a faint edge).  Returns them, and which of ``kept`` were
    parts of them (a card's art, found where its whole outline was not).

    The outlines in ``alone`` (indices into ``shaped``) need no other card against them: a
    ring the edge map closed round the card at full size, whose fourth side is faint only
    there (a card's white border on a white stripe of the cloth)."""
    lo, hi = AGAINST_SIZE[0] * card_area, AGAINST_SIZE[1] * card_area
    reach = AGAINST_REACH * math.sqrt(card_area)
    # outlines of a card's shape and size with one side unseen: (quad, area, that side's middle)
    open_sided: list[tuple[np.ndarray, float, tuple[float, float], int]] = []
    for i, q in shaped.items():
        if i in banned or refined.get(i) is not None:
            continue
        area = float(cv2.contourArea(q))
        if not lo <= area <= hi or not fits(q, sides=False):
            continue
        seen = _seen_sides(q, gx, gy)
        if int(seen.sum()) == 3:
            k = int(np.argmin(seen))
            mid = (q[k] + q[(k + 1) % 4]) / 2
            open_sided.append((q, area, (float(mid[0]), float(mid[1])), i))
    out: list[np.ndarray] = []
    parts: set[int] = set()
    kept_areas = _sizes(kept)
    for a, (q, area, mid, i) in enumerate(open_sided):
        centre = tuple(float(v) for v in q.mean(axis=0))
        against = any(cv2.pointPolygonTest(o, mid, True) >= -reach and cv2.pointPolygonTest(q, other_mid, True) >= -reach
                      and common_area(q, o) <= AGAINST_COVERED * min(area, other_area)
                      for b, (o, other_area, other_mid, _) in enumerate(open_sided) if b != a)
        if not against and i not in alone:
            continue
        # a card found only in part (its art, where the whole outline was not seen) gives way
        inner = {j for j, (o, o_area) in enumerate(zip(kept, kept_areas))
                 if o_area <= AGAINST_PART * area and common_area(q, o) >= 0.9 * o_area}
        others = [o for j, o in enumerate(kept) if j not in inner] + out
        if any(cv2.pointPolygonTest(o, centre, False) >= 0 for o in others):
            continue
        if any(common_area(q, o) > AGAINST_COVERED * area for o in others):
            continue
        out.append(q)
        parts |= inner
    return out, parts


#: Points sampled along a possible seam between two cards, and the share of them that must
#: cross an edge as strong as :data:`SEAM_STRENGTH` of the quad's own outline.
SEAM_SAMPLES = 40
SEAM_SHARE = 0.85
SEAM_STRENGTH = 0.45
#: How far (a share of the long side) the seam's two ends may lie apart along it, in a quad of
#: two cards' size: two cards side by side, turned a little from each other.
SEAM_LEAN = 0.04
#: A quad at least this many times the size of the frame's other cards (their median) may be
#: two cards (a wide lens makes a card near the frame's corners up to 1.4 times one at its
#: centre).
SEAM_PAIR = 1.6


def _seam_ends(lean: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the possible seams of :func:`_seam` end on a quad's two long sides (shares of
    each, (N, 1) each): near the sides' middles, the two ends at most ``lean`` apart along them
    (in a quad of two cards' size the seam may lean a little)."""
    f = np.linspace(0.44 - lean, 0.56 + lean, 7 + 4 * round(lean / 0.02), dtype=np.float32)
    f0, f1 = (a.ravel()[:, None] for a in np.meshgrid(f, f, indexing="ij"))
    keep = (np.abs(f0 - f1) <= lean + 1e-6).ravel()
    return f0[keep], f1[keep]


#: The points along each possible seam, and its ends on the long sides for a quad of a card's
#: size (False) and one of two cards' size (True): the same for every quad, made once.
_SEAM_ALONG = np.linspace(0.04, 0.96, SEAM_SAMPLES, dtype=np.float32)
_SEAM_ENDS = {False: _seam_ends(0.0), True: _seam_ends(SEAM_LEAN)}

#: An outline round a quad's centre at least this share of its size is another outline of the
#: same region.
ALIKE = 0.8


def _line_strengths(gx: np.ndarray, gy: np.ndarray, a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The gradient across each segment a[i]-b[i] (a, b: (S, 2)) at the points ``t`` (0..1)
    along it: (S, T), the strongest of the line and its two neighbours (a seam is a line, not
    a stripe)."""
    at_once = max(1, SAMPLES_AT_ONCE // max(len(t), 1))
    if len(a) > at_once:   # in blocks that stay in the processor's cache
        return np.concatenate([_line_strengths(gx, gy, a[i:i + at_once], b[i:i + at_once], t)
                               for i in range(0, len(a), at_once)])
    n = _normals(a, b)                                                          # (S, 2)
    nx, ny = n[:, :1], n[:, 1:]                                                 # (S, 1) each
    # x and y apart, (lines, S, T) each: numpy is slow over a last axis of length 2
    ax, ay = a[:, :1], a[:, 1:]
    x = ax + t * (b[:, :1] - ax) + _BESIDE * nx
    y = ay + t * (b[:, 1:] - ay) + _BESIDE * ny
    h, w = gx.shape
    xi = clipped(np.rint(x).astype(np.intp), 0, w - 1)
    yi = clipped(np.rint(y).astype(np.intp), 0, h - 1)
    at = yi * w + xi                       # a flat index: take() is some 4x faster than [yi, xi]
    g = np.abs(gx.ravel().take(at) * nx + gy.ravel().take(at) * ny)
    return np.maximum(np.maximum(g[0], g[1]), g[2])


#: Most points along segments whose gradient is looked up in one go (:func:`_line_strengths`):
#: the thousands of rectangles :func:`.table.card_by_difference` tries (some 100 000 points)
#: went three times faster in blocks of this many than all at once.
SAMPLES_AT_ONCE = 16384
#: The line a pixel to one side of a segment, the segment itself and the line a pixel to the
#: other side (:func:`_line_strengths`), as multiples of its normal.
_BESIDE = np.array([-1.0, 0.0, 1.0], np.float32)[:, None, None]


def _split_seam(q: np.ndarray, gx: np.ndarray, gy: np.ndarray, options: FindOptions,
                paired: bool = False) -> list[np.ndarray]:
    """``q`` cut in two along a seam between two cards (see :func:`_seam`), or ``q`` alone."""
    return _seam(q, gx, gy, options, paired)[0] or [q]


def _seam(q: np.ndarray, gx: np.ndarray, gy: np.ndarray, options: FindOptions,
          paired: bool = False) -> tuple[list[np.ndarray] | None, str]:
    """Two cards lying long side to long side, level with each other, make one quad of a
    card's own proportions (two portraits side by side are a landscape of nearly the same
    ratio).  What gives them away is the seam: a straight edge from one long side's middle to
    the other's, as strong as the outline along nearly its whole length, with each half a card.
    A quad the size of two of the frame's other cards (``paired``) is cut along a fainter seam
    too (two white borders side by side make only a thin line, darker than both): a line along
    nearly its whole length, with each half nearer a card's shape than the whole.
    Returns the two halves (or None), and the seam seen: "strong" (as strong as the outline),
    "faint" (a fainter line, looked for in a quad of two cards' size) or "" (none)."""
    q = order_corners(q)
    d = np.sqrt(((q - q[_NEXT]) ** 2).sum(axis=1))
    if d[0] + d[2] < d[1] + d[3]:
        q = q[_NEXT]  # make 0-1 and 3-2 the long sides
    t = _SEAM_ALONG
    f0, f1 = _SEAM_ENDS[paired]
    a, b = q[0] + f0 * (q[1] - q[0]), q[3] + f1 * (q[2] - q[3])
    g = _line_strengths(gx, gy, np.concatenate([q, a]).astype(np.float32),
                        np.concatenate([q[_NEXT], b]).astype(np.float32), t)
    base = float(median_of_rows(g[:4].reshape(1, -1))[0])
    if base <= 0:
        return None, ""
    strength = median_of_rows(g[4:]) / base
    shares = (g[4:] >= SEAM_STRENGTH * base).mean(axis=1)
    # of lines seen as far along, the strongest (a seam leaning across it is weaker)
    k = int(np.argmax(shares + 1e-3 * strength))
    faint = float(shares[k]) < SEAM_SHARE
    if faint and paired:
        n = _normals(a, b) * np.float32(RIDGE_REACH)
        beside = _line_strengths(gx, gy, np.concatenate([a + n, a - n]).astype(np.float32),
                                 np.concatenate([b + n, b - n]).astype(np.float32), t)
        lines = _ridge(g[4:], np.minimum(beside[:len(a)], beside[len(a):]))
        shares = lines.mean(axis=1)
        k = int(np.argmax(shares + 1e-3 * strength))
    if float(shares[k]) < SEAM_SHARE:
        return None, ""
    seen = "faint" if faint else "strong"
    m01, m32 = a[k], b[k]
    halves = [order_corners(np.array(h, np.float32)) for h in ([q[0], m01, m32, q[3]], [m01, q[1], q[2], m32])]
    for half in halves:
        r = side_ratio(half)
        if not options.min_ratio <= r <= options.max_ratio or \
                (options.ratio is not None and abs(r - options.ratio) > options.ratio_tolerance):
            return None, seen
        if faint and options.ratio is not None and abs(r - options.ratio) >= abs(side_ratio(q) - options.ratio):
            return None, seen
    return halves, seen


def _snap_sides(q: np.ndarray, gx: np.ndarray, gy: np.ndarray, reach: int = 3) -> np.ndarray:
    """Each side of ``q`` (corners in order) moved along its normal, by at most ``reach``
    pixels, onto the strongest edge there (a quad drawn from a region's extent, not from an
    outline, lands within a pixel or two of the card's sides)."""
    u = q[_NEXT] - q
    u /= np.maximum(np.sqrt((u * u).sum(axis=1, keepdims=True)), 1e-9)
    nrm = np.stack([u[:, 1], -u[:, 0]], axis=1).astype(np.float32)
    ds = np.arange(-reach, reach + 1, dtype=np.float32)
    a = (q[None] + ds[:, None, None] * nrm[None]).reshape(-1, 2)           # (D*4, 2)
    b = (q[_NEXT][None] + ds[:, None, None] * nrm[None]).reshape(-1, 2)
    g = median_of_rows(_line_strengths(gx, gy, a, b, SIDE_SAMPLES)).reshape(len(ds), 4)
    return _offset(q, ds[np.argmax(g, axis=0)])


#: A quad found in a bright region the size of two cards and larger than this many cards is
#: no card of its own there: it may take in both cards of a pair touching (a card and a
#: half, slanted across their seam, on the second renderer's printed cloth).
ONE_OF_A_PAIR = 1.35


def _pair_regions(blobs: list[np.ndarray], kept: list[np.ndarray], areas: list[float],
                  card_area: float) -> list[tuple[np.ndarray, list[int]]]:
    """Bright regions the size of two cards that no card of a card's size found explains, each
    with the found quads inside it (a quad taking in both cards).  A larger cluster of cards
    touching is looked at without the cards found in it: what is left may be such a pair."""
    out: list[tuple[np.ndarray, list[int]]] = []
    for blob in blobs:
        area = cv2.contourArea(blob)
        if area < 1.6 * card_area:
            continue
        inside = [i for i, k in enumerate(kept)
                  if cv2.pointPolygonTest(blob, tuple(float(v) for v in k.mean(axis=0)), False) >= 0]
        single = [i for i in inside if areas[i] < ONE_OF_A_PAIR * card_area]
        if not single:
            if area <= 2.6 * card_area:
                out.append((blob, inside))
            continue
        if area < 2.4 * card_area:   # no room for a pair beside the cards found
            continue
        # the cluster without the cards found in it (a little grown: their outline and shadow)
        x, y, w, h = cv2.boundingRect(blob)
        mask = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(mask, [blob - [x - 1, y - 1]], -1, (255,), -1)
        for i in inside:
            cv2.fillConvexPoly(mask, np.round(offset(kept[i], 2.0) - [x - 1, y - 1]).astype(np.int32), (0,))
        left = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        rest, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for c in rest:
            if 1.6 * card_area <= cv2.contourArea(c) <= 2.6 * card_area:
                out.append((c + [x - 1, y - 1], []))
    return out


def _split_touching(blobs: list[np.ndarray], kept: list[np.ndarray], fits: Callable[[np.ndarray], bool],
                    gx: np.ndarray, gy: np.ndarray, card_area: float, card_ratio: float) -> list[np.ndarray]:
    """``kept`` with two cards lying side by side and touching told apart.  Slid along each
    other, they make one bright region that no quad fits (or, slid a little, one quad twice a
    card's size).  The region is cut across, one card's width (or length) from either end or
    in the middle; each part's rectangle, its sides snapped onto the edges, is a card when
    both parts pass every check a card does (``fits``).  Regions holding a card of a card's
    size found already are left alone.  Where the two cards' white borders touch there may be
    no edge between them: a part whose one unseen side is the one facing the other part is
    closed there at the card's own length (:func:`_closed_at_the_seam`)."""
    areas = [cv2.contourArea(k) for k in kept]
    out: list[np.ndarray] = []
    gone: set[int] = set()
    ratio = float(np.median([side_ratio(k) for k in kept])) if kept else card_ratio
    short, long_ = math.sqrt(card_area * ratio), math.sqrt(card_area / ratio)
    for region, inside in _pair_regions(blobs, kept, areas, card_area):
        if any(cv2.pointPolygonTest(region, tuple(float(v) for v in k.mean(axis=0)), False) >= 0 for k in out):
            continue
        pts = region.reshape(-1, 2).astype(np.float32)
        if not _room_for_a_pair(pts, short, long_) or not _holds_art(pts, gx, gy):
            continue
        # the cards' turn (modulo a right angle) along the outline
        halves = _best_cut(pts, _turn_of(pts), short, long_, fits, gx, gy, card_area, card_ratio)
        if halves:
            out.extend(halves)
            gone.update(inside)   # a quad taking in both cards, if one was found
    return [k for i, k in enumerate(kept) if i not in gone] + out


#: A region holding two cards side by side is at least this share of a card's short side wide
#: (a region holding a rectangle is as wide as it; one of :func:`_pair_regions`' size, 1.6 cards
#: or more, holds no card much smaller than the frame's), and reaches at most this many of a
#: card's diagonals (two cards' diagonals end to end, each card at most 1.3 of the frame's in
#: area, 1.14 across).  A stripe of a striped table cut short by the cards on it is a region of
#: two cards' area, half a card wide and four or five long: the cuts tried across it (8 ms of
#: work a region) never part it into cards.
PAIR_WIDTH = 0.8
PAIR_REACH = 2.5


def _room_for_a_pair(pts: np.ndarray, short: float, long_: float) -> bool:
    """Whether the region whose outline is ``pts`` (N x 2) has the width and reach of two
    cards ``short`` x ``long_`` touching (:data:`PAIR_WIDTH`, :data:`PAIR_REACH`)."""
    _, (a, b), _ = cv2.minAreaRect(pts)
    return min(a, b) >= PAIR_WIDTH * short and max(a, b) <= PAIR_REACH * math.hypot(short, long_)


#: Two cards hold their art: of a region's inside (:data:`ART_INSET` pixels in from its outline,
#: past the cards' own edges) at least :data:`ART_SHARE` has an edge a :data:`ART_EDGE` as
#: strong as the outline's own (its median), where a pale tile ringed by grout has none.  The
#: second renderer's printed/tiles 52: 28 of the 35 regions looked at in 20 frames had no such
#: edge, every pair of cards found there and on printed/felt 32 7.6-36% (white cards on pale
#: tiles among them), the regions of card-sized tiles' art-less squares the rest.
ART_INSET = 3
ART_EDGE = 0.25
ART_SHARE = 0.02


def _holds_art(pts: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> bool:
    """Whether the region whose outline is ``pts`` (N x 2, work pixels) has edges inside it
    (:data:`ART_SHARE`): a pair of cards has, a pale tile ringed by grout has not."""
    x, y, w, h = cv2.boundingRect(pts)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, gx.shape[1]), min(y + h, gx.shape[0])
    if x1 <= x0 or y1 <= y0:
        return False
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(pts - [x0, y0]).astype(np.int32)], (1,))
    k = 2 * ART_INSET + 1
    inside = cv2.erode(inside, np.ones((k, k), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    strength = cv2.magnitude(gx[y0:y1, x0:x1].astype(np.float32), gy[y0:y1, x0:x1].astype(np.float32))
    at = np.clip(np.round(pts).astype(np.intp) - [x0, y0], 0, [x1 - x0 - 1, y1 - y0 - 1])
    outline = float(np.median(strength[at[:, 1], at[:, 0]]))
    n = int(np.count_nonzero(inside))
    return n > 0 and int(np.count_nonzero((strength > ART_EDGE * outline) & (inside > 0))) >= ART_SHARE * n


def _best_cut(pts: np.ndarray, theta: float, short: float, long_: float, fits: Callable[..., bool],
              gx: np.ndarray, gy: np.ndarray, card_area: float, card_ratio: float) -> list[np.ndarray] | None:
    """The two cards of the region whose outline is ``pts``, cut across along the turn
    ``theta`` (see :func:`_split_touching`), or None."""
    axes = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]], np.float32)
    proj = pts @ axes.T                                   # (N, 2): along each axis
    best: tuple[float, list[np.ndarray]] | None = None
    for k in (0, 1):
        lo, hi = float(proj[:, k].min()), float(proj[:, k].max())
        # where the seam may lie: one card's width (or length) in from either end
        for cut in (lo + short, hi - short, lo + long_, hi - long_, (lo + hi) / 2):
            if not lo + 0.3 * short < cut < hi - 0.3 * short:
                continue
            halves, raw, own_points = [], [], []
            for side in (proj[:, k] < cut, proj[:, k] >= cut):
                if side.sum() < 10:
                    break
                p = proj[side]
                own_points.append(pts[side])
                box_lo, box_hi = p.min(axis=0), p.max(axis=0)
                # its length from its own outline, away from the seam (near the seam the
                # other card's corner may poke out)
                own = p[np.abs(p[:, k] - cut) > 0.2 * short]
                if len(own) >= 10:
                    box_lo[1 - k], box_hi[1 - k] = own[:, 1 - k].min(), own[:, 1 - k].max()
                if p[:, k].mean() < cut:
                    box_hi[k] = cut
                else:
                    box_lo[k] = cut
                corners = np.array([[box_lo[0], box_lo[1]], [box_hi[0], box_lo[1]],
                                    [box_hi[0], box_hi[1]], [box_lo[0], box_hi[1]]], np.float32) @ axes
                raw.append(order_corners(corners))
                halves.append(_snap_sides(raw[-1], gx, gy))
            if len(halves) == 2 and not all(fits(h) for h in halves):
                halves = _parted(raw, own_points, fits, gx, gy, card_area, card_ratio)
            if len(halves) == 2 and common_area(*halves) <= AGAINST_COVERED * min(_sizes(halves)):
                spread = abs(cv2.contourArea(halves[0]) - cv2.contourArea(halves[1]))
                if best is None or -spread > best[0]:
                    best = (-spread, halves)
    return None if best is None else best[1]


def _turn_of(pts: np.ndarray) -> float:
    """The turn (radians, modulo a right angle) of the cards whose outline is ``pts`` (N x 2, in
    order round): the commonest direction of its steps, then the mean of those steps within
    :data:`TURN_NEAR` of it (an outline's pixel steps come in a few directions only: the
    commonest is up to 9 degrees off a card's side)."""
    step = np.roll(pts, -5, axis=0) - pts
    length = np.hypot(step[:, 0], step[:, 1])
    turn = np.arctan2(step[:, 1], step[:, 0]) % (np.pi / 2)
    hist, edges = np.histogram(turn, bins=45, range=(0, np.pi / 2), weights=length)
    peak = float(edges[int(np.argmax(hist))] + np.pi / 180)
    # modulo a right angle: as angles times four, near the peak
    off = np.angle(np.exp(4j * (turn - peak))) / 4
    near = np.abs(off) <= TURN_NEAR
    if not near.any():
        return peak
    return peak + float(np.angle((length[near] * np.exp(4j * off[near])).sum())) / 4


#: How far (radians) from an outline's commonest direction its steps count towards the turn.
TURN_NEAR = np.radians(12.0)


def _parted(raw: list[np.ndarray], own_points: list[np.ndarray], fits: Callable[..., bool],
            gx: np.ndarray, gy: np.ndarray, card_area: float, card_ratio: float) -> list[np.ndarray]:
    """Two cards touching whose white borders leave no edge between them, from the two parts
    ``raw`` (rectangles, corners in order) of the region cut across: each part's sides fitted
    to its own stretch of the region's outline (``own_points``; two cards touching are seldom
    turned quite alike), the side facing the other part left where the cut put it, then
    (:func:`_closed_at_the_seam`) placed at the card's own length.  Both, each of a card's
    size (:data:`AGAINST_SIZE` of ``card_area``) and touching the other
    (:data:`PARTED_GAP`), or none."""
    lo, hi = AGAINST_SIZE[0] * card_area, AGAINST_SIZE[1] * card_area
    out, closed_any = [], False
    for q, points, other in zip(raw, own_points, raw[::-1]):
        middles = (q + q[_NEXT]) / 2
        facing = int(np.argmin(np.linalg.norm(middles - other.mean(axis=0), axis=1)))
        q = _snap_sides(_refine(q, points, fixed=facing), gx, gy)
        if not fits(q):
            closed = _closed_at_the_seam(q, facing, fits, gx, gy, card_ratio)
            if closed is None:
                return []
            q, closed_any = closed, True
        if not lo <= cv2.contourArea(q) <= hi:
            return []
        out.append(q)
    # no edge between them, and touching (two parts with an edge all round, or apart, are
    # tiles their grout frames, or a card and one, on a pale table); a part closed at the
    # card's length may lie over the other: a card partly under it, told so by the reader
    if not closed_any or common_area(_offset(out[0], PARTED_GAP), out[1]) <= 0:
        return []
    return out


#: The widest gap (work pixels) between the two parts of a pair parted (:func:`_parted`).
PARTED_GAP = 3.0


def _closed_at_the_seam(half: np.ndarray, facing: int, fits: Callable[..., bool], gx: np.ndarray,
                        gy: np.ndarray, card_ratio: float) -> np.ndarray | None:
    """``half``, one part of a region cut in two, when three of its sides run along edges of
    the image and the fourth, side ``facing`` (the other part), is unseen: that side moved to
    where the card's own sides put it (the deck's side ratio), when it is then a card's shape
    and size.  None otherwise."""
    seen = _seen_sides(half, gx, gy)
    if int(seen.sum()) != 3 or seen[facing]:
        return None
    k = facing
    e = np.linalg.norm(half[_NEXT] - half, axis=1)
    across, along = (e[k] + e[(k + 2) % 4]) / 2, (e[(k + 1) % 4] + e[(k + 3) % 4]) / 2
    want = across / card_ratio if across < along else across * card_ratio
    moves = np.zeros(4)
    moves[k] = want - along
    closed = _offset(half, moves)
    return closed if fits(closed, sides=False) else None


def _centre(q: np.ndarray) -> tuple[float, float]:
    x, y = (float(v) for v in q.sum(axis=0) / 4)
    return x, y


def _apart(q: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether the quad ``q`` holds the centre of none of ``others`` and its centre lies in none."""
    c = _centre(q)
    return not any(cv2.pointPolygonTest(k, c, False) >= 0 or cv2.pointPolygonTest(q, _centre(k), False) >= 0
                   for k in others)


def _alone_rings(rings: list[tuple[np.ndarray, np.ndarray, float]], kept: list[np.ndarray], fits: Callable[..., bool],
                 never_fits: Callable[[np.ndarray], bool], gx: np.ndarray, gy: np.ndarray,
                 enrolled: float) -> list[np.ndarray]:
    """The cards found only as a ring of the whole frame's edge map thickened by a pixel
    (``rings``: quad, outline and how much to grow it, :func:`_fine_holes`), largest first: a card's shape along
    the image's edges and a card's size against the ``enrolled`` one (:data:`PART_OF_CARD` to
    :data:`LARGEST_CARD`: between cards lying close the table is ringed too),
    :func:`_apart` from the cards found and overlapping none by more than :data:`AGAINST_COVERED`;
    a ring that ``never_fits`` a card's shape however refined is not refined (a tile's square)."""
    out: list[np.ndarray] = []
    for quad, contour, grow in sorted(rings, key=lambda r: -cv2.contourArea(r[0])):
        if never_fits(quad) or not _apart(quad, kept + out):    # most rings are round a card found
            continue
        q = _snap_out(order_corners(_grow(_refine(quad, contour), grow)), gx, gy)
        area = cv2.contourArea(q)
        if fits(q) and PART_OF_CARD <= area / enrolled <= LARGEST_CARD and _apart(q, kept + out) and \
                all(common_area(q, k) <= AGAINST_COVERED * min(area, cv2.contourArea(k)) for k in kept + out):
            out.append(q)
    return out


def _left_whole(big: list[np.ndarray], kept: list[np.ndarray]) -> list[np.ndarray]:
    """The outlines left out as two cards' size (``big``: those no larger than
    :data:`LARGEST_CARD`) :func:`_apart` from the cards found, largest first, each only where
    no other such outline was kept: one card near a leaning camera is 1.7 times the size of
    the far ones (the median it was measured against), and no finder step found two cards in
    it.  The reader reads it as one card, else looks at it as two
    (:meth:`.read.CardReader._split`)."""
    out: list[np.ndarray] = []
    for q in sorted(big, key=lambda q: -cv2.contourArea(q)):
        if _apart(q, kept + out):
            out.append(q)
    return out


def _split_pairs(big: list[np.ndarray], kept: list[np.ndarray], options: FindOptions,
                 med: float) -> list[np.ndarray]:
    """Two cards lying long side to long side, found only as one quad about twice a card's
    size (``med``): cut it in two across its long sides (where nothing else was found)."""
    if not big:
        return []
    out: list[np.ndarray] = []
    for q in big:
        if not 1.7 <= cv2.contourArea(q) / med <= 2.4:
            continue
        q = order_corners(q)
        d = np.sqrt(((q - q[_NEXT]) ** 2).sum(axis=1))
        if d[0] + d[2] < d[1] + d[3]:
            q = q[_NEXT]  # make 0-1 and 3-2 the long sides
        m01, m32 = (q[0] + q[1]) / 2, (q[3] + q[2]) / 2
        for half in (np.array([q[0], m01, m32, q[3]]), np.array([m01, q[1], q[2], m32])):
            half = order_corners(half.astype(np.float32))
            r = side_ratio(half)
            if options.ratio is not None and abs(r - options.ratio) > options.ratio_tolerance:
                continue
            if not options.min_ratio <= r <= options.max_ratio:
                continue
            if _apart(half, kept + out):
                out.append(half)
    return out
