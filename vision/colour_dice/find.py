"""Finding a colour die on the table and the colour mark on its top face.

Everything works on a frame shrunk to :data:`WORK_W` pixels wide, in 8-bit Lab.  The box's
camera is fixed, so when the model holds a shot of the empty table the frame is first *relit* to
that shot's light (a smooth per-channel gain field: exposure, colour cast, lamp gradients), and a
die is what then differs from the empty table: this holds on striped cloths and for a white die
on a near-white cloth, where no colour threshold can.  Without a usable table shot (another
table, a moved camera) the table is estimated by a coarse median of the frame itself (dice are
small next to it).  A die is made of foreground pixels close to its enrolled body colour, with
the holes (its face mark) filled in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

#: Working width in pixels.
WORK_W = 480
#: Lab chroma (8-bit, around 128) below which a pixel counts as uncoloured.
GREY_CHROMA = 22.0


@dataclass
class Frame:
    """One frame prepared for reading."""

    bgr: np.ndarray        # uint8 BGR, WORK_W wide
    lab: np.ndarray        # uint8 Lab, WORK_W wide
    chroma: np.ndarray     # float32 distance from grey in a,b
    foreground: np.ndarray  # uint8 0/255: differs from the table, or is enclosed by what does
    scale: float           # work pixels per frame pixel
    #: True when the frame was relit to the enrolled empty-table shot (its colours are then
    #: those of the table shot's light, and the foreground is the difference from that table).
    relit: bool = False
    #: The empty table (8-bit Lab) where each pixel is, in this frame's light (the relit table
    #: shot, or the frame's own coarse estimate).
    table_lab: np.ndarray | None = None
    #: The foreground before die-sized parts were made convex, and the size limit used.
    loose: np.ndarray | None = None
    die_area: float = 0.0
    #: float32 BGR, the relit frame before it was clipped at 255 (None: not relit): a colour
    #: the light divided out brought past 255 keeps its hue here (:func:`patch_colour`) ...
    unclipped: np.ndarray | None = None
    #: ... where the camera, whose frame this is (BGR at the working size), did not clip it.
    camera: np.ndarray | None = None

    def without(self, keep_out: np.ndarray, join: int = 5) -> "Frame":
        """This frame with the pixels of ``keep_out`` (bool) taken out of the foreground; the
        parts left are made convex again (a die that touched the one taken out is a part of
        its own now), fragments up to ``join`` pixels apart counting as one part."""
        if self.loose is None:
            fg = self.foreground.copy()
            fg[keep_out] = 0
        else:
            loose = self.loose.copy()
            loose[keep_out] = 0
            fg = convex_parts(loose, self.die_area, join)
            fg[keep_out] = 0
        return replace(self, foreground=fg)


@dataclass
class DieBlob:
    mask: np.ndarray   # uint8 0/255, the die with its mark, inside ``box``
    area: float
    centre: tuple[float, float]  # work pixels
    box: tuple[int, int, int, int]  # x, y, w, h in work pixels

    @property
    def window(self) -> tuple[slice, slice]:
        x, y, w, h = self.box
        return slice(y, y + h), slice(x, x + w)


def shrink(image: np.ndarray) -> np.ndarray:
    """The BGR frame at the working width."""
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("expected a colour image")
    h, w = image.shape[:2]
    scale = WORK_W / w
    return cv2.resize(image, (WORK_W, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


#: Cell size (work pixels) of the light field: several cells per die, so a median of 5 x 5
#: cells ignores the dice and keeps only the light.
LIGHT_CELL = 20
#: A frame whose difference from the relit table covers more than this share is of another
#: table (or a moved camera): the table shot is not used.
TABLE_CHANGED = 0.2
#: ... and so is one whose typical pixel differs from the relit table by more than this (Lab):
#: the same table under the same camera differs by its noise only.
SAME_TABLE = 6.0


#: A channel value (8-bit) at which a camera has clipped.
CLIPPED = 250


def masked_median(cells: np.ndarray, hidden: np.ndarray, k: int = 5) -> np.ndarray:
    """For each cell of a coarse grid (H x W x C), the median of the cells not ``hidden`` (bool
    H x W) in the smallest square round it, ``k`` wide or wider, that holds at least half of
    ``k`` x ``k`` of them: :func:`cv2.medianBlur` with the hidden cells left out and as many
    cells voting (a die's cell is outvoted by the table's, however much a card hides)."""
    values = cells.astype(np.float32).copy()
    values[hidden] = np.nan
    if hidden.all():
        return cells.astype(np.float32)
    need = (k * k + 1) // 2
    out = np.full_like(values, np.nan)
    todo = np.ones(hidden.shape, bool)
    while todo.any():
        r = k // 2
        padded = np.pad(values, ((r, r), (r, r), (0, 0)), constant_values=np.nan)
        windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(0, 1))  # type: ignore[call-overload, unused-ignore]
        ys, xs = np.nonzero(todo)
        near = windows[ys, xs]                       # N x C x k x k
        enough = (~np.isnan(near[:, 0])).sum(axis=(-2, -1)) >= need
        if k >= 2 * max(hidden.shape) + 1:
            enough[:] = True                         # the whole grid: all there is
        if enough.any():
            voting = near[enough]
            out[ys[enough], xs[enough]] = _nan_median(voting.reshape(*voting.shape[:2], -1))
            todo[ys[enough], xs[enough]] = False
        k += 2
    return out


def _nan_median(rows: np.ndarray) -> np.ndarray:
    """The median of each row of ``rows`` (N x C x M, float32) leaving NaN out, NaN where a row
    is all NaN: ``np.nanmedian(rows, axis=-1)``'s values, without its masked arrays (three
    quarters of the light's time)."""
    ordered = np.sort(rows, axis=-1)                 # NaN last
    n = (~np.isnan(rows)).sum(axis=-1)
    lo = np.take_along_axis(ordered, np.maximum((n - 1) // 2, 0)[..., None], axis=-1)[..., 0]
    hi = np.take_along_axis(ordered, np.maximum(n // 2, 0)[..., None], axis=-1)[..., 0]
    out = np.where(n % 2 == 1, lo, (lo + hi) / np.float32(2))
    return np.where(n > 0, out, np.float32(np.nan))


#: A light-field cell more than this share under cards (kept out) takes its gain from the
#: cells round it: a large white card on a green felt otherwise moved its cells' gain, and
#: the card and the dice beside it were relit with a tint.
HIDDEN_CELL = 0.5


#: A cell whose gain (log, any channel) is this far off the light field found round it is no
#: table (a die, a shadow) when cards are kept out of the light.
OFF_THE_LIGHT = 0.2
#: The square (cells) whose median light a cell is compared with for that where no card is
#: kept out.  Over 32 of the second renderer's boxes (seeds 1-6, 11-16, 21-26, 31-32, 41-46,
#: 51-56) 7627 -> 7644 of 7680 dice read, 5 wrong -> 0 (painted/linen 54: 229 -> 238).
OFF_WIDE = 9


def relight(small: np.ndarray, table: np.ndarray,
            away: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``small`` (work-size BGR) under the light of the empty-table shot ``table`` (divided by
    the smooth per-channel gain field that maps the table shot onto it; float, not clipped at
    255: a face lit more strongly than the table round it goes past it), and the empty table
    as this frame's camera would show it (the table shot times that field, clipped where the
    camera clips: a lamp's glare on a pale cloth then cancels instead of looking like a die).
    ``away`` (bool, work size): pixels that are not the table (cards), left out of the light."""
    f = small.astype(np.float32) + 1.0
    t = table.astype(np.float32) + 1.0
    log_ratio = np.log(f / t)
    hh, ww = log_ratio.shape[:2]
    cells = (max(5, ww // LIGHT_CELL), max(5, hh // LIGHT_CELL))
    # a pixel clipped in the table shot or in the frame says only that the light there is at
    # least so bright, not how bright: a cell's gain is the mean over the pixels clipped in
    # neither (a cream stripe clipped in the table shot, not in a darker frame, pulled its
    # cells' gain down, and the stripe then differed from the table as much as a die)
    valid = ((small < CLIPPED) & (table < CLIPPED)).astype(np.float32)
    if away is not None:
        valid[away] = 0
    total = cv2.resize(log_ratio * valid, cells, interpolation=cv2.INTER_AREA)
    share = cv2.resize(valid, cells, interpolation=cv2.INTER_AREA)
    whole = cv2.resize(log_ratio, cells, interpolation=cv2.INTER_AREA)
    cell_gain = np.where(share > 0.2, total / np.maximum(share, 1e-6), whole).astype(np.float32)
    if away is not None and away.any():
        hidden = cv2.resize(away.astype(np.float32), cells, interpolation=cv2.INTER_AREA) > HIDDEN_CELL
        coarse = masked_median(cell_gain, hidden)
        # with the cards out, fewer cells vote: a die near the frame's edge could outvote the
        # table there; the cells far off the light found (a die, its shadow) are left out too
        off = (np.abs(cell_gain - coarse) > OFF_THE_LIGHT).any(axis=2)
        coarse = masked_median(cell_gain, hidden | off)
    else:
        # the cells far off the light of a wider square round them (the dice and their
        # shadows) are left out too: two dice touching and their shadows fill most of a
        # 5-cell square, and where a pale cloth clips round them their cells alone count (the
        # light there was taken for theirs, and an orange face relit as yellow)
        off = (np.abs(cell_gain - masked_median(cell_gain, np.zeros(cell_gain.shape[:2], bool), OFF_WIDE))
               > OFF_THE_LIGHT).any(axis=2)
        coarse = masked_median(cell_gain, off) if off.any() else \
            cv2.merge([cv2.medianBlur(np.ascontiguousarray(cell_gain[..., i]), 5) for i in range(3)])
    gain = np.exp(cv2.resize(coarse, (ww, hh), interpolation=cv2.INTER_LINEAR))
    unclipped = f / gain - 1.0
    lit_table = np.clip(t * gain - 1.0, 0, 255)
    # where the table shot clipped, the table is at least that bright: a frame brighter there
    # is the table, not a die
    expected = np.where((table >= CLIPPED) & (small > lit_table), small, lit_table).astype(np.uint8)
    return unclipped, expected


def _lab_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a.astype(np.float32) - b.astype(np.float32)
    return np.sqrt(0.5 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def prepare(image: np.ndarray, table: np.ndarray | None = None, die_area: float | None = None,
            away: np.ndarray | None = None) -> Frame:
    """Shrink, convert and separate the foreground from the table (``table``: the enrolled
    empty-table shot at work size, used when the frame still shows that table).  ``die_area``
    (work pixels) is the largest one die with its sides and shadow covers: larger parts are
    not made convex (two dice close together are two convex parts, not one).  ``away`` (bool,
    work size): what lies on the table and is no die (the cards read in the same frame): never
    foreground, and left out of the light."""
    small = shrink(image)
    scale = WORK_W / image.shape[1]
    if away is not None and away.shape != small.shape[:2]:
        raise ValueError(f"the mask kept out is {away.shape[1]}x{away.shape[0]}, the frame "
                         f"{small.shape[1]}x{small.shape[0]} at work size")
    if table is not None and table.shape == small.shape:
        unclipped, expected = relight(small, table, away)
        # a pixel the camera clipped in every channel is white in any light: divided by a
        # tinted gain, a white die's clipped body took the light's tint (202, 252, 211) and
        # was taken for a pale green mark
        b, g, r = cv2.split(small)
        white = (cv2.min(cv2.min(b, g), r) >= CLIPPED).astype(np.uint8) * np.uint8(255)
        relit = cv2.max(np.clip(unclipped, 0, 255).astype(np.uint8), cv2.merge([white, white, white]))
        lab = cv2.cvtColor(relit, cv2.COLOR_BGR2LAB)
        # smoothed before they are compared: a pixel's noise then cancels instead of adding to
        # the difference (a dim lamp's noise made every pixel differ by 7-9)
        dist = _lab_distance(*(cv2.GaussianBlur(cv2.cvtColor(x, cv2.COLOR_BGR2LAB).astype(np.float32), (0, 0), 0.8)
                               for x in (small, expected)))
        # the threshold adapts to what does not cancel: noise, JPEG, clipped highlights (of the
        # table: the cards kept out differ from it, and a fifth of the frame under cards raised
        # the median by a third, past a black die on a navy felt under a dim lamp)
        sample = dist[::3, ::3] if away is None else dist[::3, ::3][~away[::3, ::3]]
        typical = float(np.median(sample if sample.size else dist[::3, ::3]))
        differs = dist > max(10.0, 5.0 * typical)
        if away is not None:
            differs &= ~away
        if typical < SAME_TABLE and float(np.count_nonzero(differs)) < TABLE_CHANGED * differs.size:
            fg = cv2.morphologyEx(differs.astype(np.uint8) * np.uint8(255), cv2.MORPH_OPEN,
                                  np.ones((2, 2), np.uint8))
            limit = CONVEX_MAX * fg.size if die_area is None else die_area
            loose = enclosed(fg)
            return Frame(relit, lab, _chroma(lab), convex_parts(loose, limit), scale, relit=True,
                         table_lab=cv2.cvtColor(table, cv2.COLOR_BGR2LAB), loose=loose,
                         die_area=limit, unclipped=unclipped, camera=small)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    hh, ww = lab.shape[:2]
    grid = (max(8, ww // 12), max(6, hh // 12))
    coarse = cv2.resize(lab, grid, interpolation=cv2.INTER_AREA)
    if away is not None and away.any():
        hidden = cv2.resize(away.astype(np.float32), grid, interpolation=cv2.INTER_AREA) > HIDDEN_CELL
        coarse = np.clip(np.round(masked_median(coarse, hidden)), 0, 255).astype(np.uint8)
    else:
        coarse = cv2.medianBlur(coarse, 5)
    estimate = cv2.resize(coarse, (ww, hh), interpolation=cv2.INTER_LINEAR)
    dist = _lab_distance(lab, estimate)
    # the threshold adapts to the table's own texture (grain, weave, noise)
    thr = max(16.0, 4.0 * float(np.median(dist[::3, ::3])))
    differs = dist > thr
    if away is not None:
        differs &= ~away
    fg = cv2.morphologyEx(differs.astype(np.uint8) * np.uint8(255), cv2.MORPH_OPEN,
                          np.ones((2, 2), np.uint8))
    loose = enclosed(fg)
    if die_area is None:
        return Frame(small, lab, _chroma(lab), loose, scale, table_lab=estimate)
    return Frame(small, lab, _chroma(lab), convex_parts(loose, die_area), scale, table_lab=estimate,
                 loose=loose, die_area=die_area)


def table_difference(frame: Frame) -> np.ndarray:
    """How far (Lab) each pixel of ``frame`` is from the table there (the relit table shot, or
    the frame's own estimate of its table)."""
    if frame.table_lab is None:
        raise ValueError("the frame has no table")
    return _lab_distance(frame.lab, frame.table_lab)


#: Largest region (share of the frame) that :func:`enclosed` fills.
ENCLOSED_MAX = 0.03


def enclosed(fg: np.ndarray) -> np.ndarray:
    """The foreground with the small regions it encloses filled in: a white die on a near-white
    cloth differs from the cloth only along its outline (side faces, shadow) and at its mark,
    but that outline encloses the whole top face.  The holes of the outline closed across a
    pixel's gap are filled, and the foreground's own: a mark's blurred rim the colour of the
    table (red pips on a black die on a red felt) is a thin ring that the closing seals, so
    it was no hole of the closed outline and stayed out of the die."""
    closed = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    out = fg.copy()
    for outline in (closed, fg):
        holes = cv2.bitwise_and(fill_holes(outline), cv2.bitwise_not(outline))
        # the holes lie round the dice: their regions are counted within the box round them
        # (the same regions; the whole frame's took a millisecond a pass)
        x, y, w, h = cv2.boundingRect(holes)
        if not w:
            continue
        n, labels, stats, _ = cv2.connectedComponentsWithStats(holes[y:y + h, x:x + w], connectivity=4)
        small = np.zeros(n, bool)
        small[1:] = stats[1:, cv2.CC_STAT_AREA] <= ENCLOSED_MAX * fg.size
        out[y:y + h, x:x + w][small[labels]] = 255
    return out


#: Largest part (share of the frame) that :func:`convex_parts` replaces by its hull: two
#: dice touching, with their sides and shadows.
CONVEX_MAX = 0.05


def convex_parts(fg: np.ndarray, limit: float, join: int = 5) -> np.ndarray:
    """The foreground with each small part replaced by its convex hull.  A die seen from above
    (top face, the sides that show, its shadow) is convex, but a white top face on a white
    cloth differs from the cloth only along part of its outline: the sides on one side, the
    shadow on another.  Fragments up to ``join`` pixels apart are one part; parts larger than
    ``limit`` pixels are kept as they are."""
    joined = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((join, join), np.uint8))
    contours, _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = fg.copy()
    for c in contours:
        if cv2.contourArea(c) <= limit:
            cv2.fillConvexPoly(out, cv2.convexHull(c), (255,))
    return out


def hull_within(mask: np.ndarray, parts: np.ndarray, limit: float) -> np.ndarray:
    """``mask`` made convex within each part of ``parts`` (uint8 0/255) no larger than ``limit``
    pixels: the hull of all its pixels there, however far apart (outside such parts: nothing)."""
    out = np.zeros_like(mask)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(parts, connectivity=8)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] > limit:
            continue
        x, y, w, h = (int(v) for v in stats[i, :4])
        inside = (labels[y:y + h, x:x + w] == i) & (mask[y:y + h, x:x + w] > 0)
        points = cv2.findNonZero(inside.astype(np.uint8))
        if points is not None and len(points) >= 3:
            cv2.fillConvexPoly(out, cv2.convexHull(points + np.array([x, y], np.int32)), (255,))
    return out


def _chroma(lab: np.ndarray) -> np.ndarray:
    ab = lab[..., 1:].astype(np.float32) - 128.0
    return np.sqrt(ab[..., 0] ** 2 + ab[..., 1] ** 2)


#: The level (8-bit BGR) a white die's body is brought to by :func:`balanced`.
WHITE_LEVEL = 230.0


def balanced(frame: Frame, white: np.ndarray) -> Frame:
    """The frame with its colour cast removed, taking the BGR pixels ``white`` (a white die's
    body, N x 3) as neutral white at :data:`WHITE_LEVEL`.  The cast of a lamp or a camera's
    white balance and its exposure hold over the whole frame, so the gains found on the white
    die serve the black die too."""
    pix = white.astype(np.float32)
    if len(pix) < 10:
        return frame
    ref = np.median(pix, axis=0)
    # the white body is the one known white: its level sets the exposure as well as the cast
    gains = WHITE_LEVEL / np.maximum(ref, 1.0)
    bgr = np.clip(frame.bgr.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
    return replace(frame, bgr=bgr, lab=lab, chroma=_chroma(lab))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, (255,), -1)
    return out


def blobs(mask: np.ndarray, min_area: float) -> list[DieBlob]:
    """Connected parts of ``mask`` (holes filled) at least ``min_area`` large."""
    filled = fill_holes(mask)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(filled, connectivity=8)
    out = []
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area >= min_area:
            x, y, w, h = (int(v) for v in stats[i, :4])
            mask = (labels[y:y + h, x:x + w] == i).astype(np.uint8) * 255
            out.append(DieBlob(mask, area, (float(cents[i][0]), float(cents[i][1])), (x, y, w, h)))
    return out


#: A pixel darker than this share of the table's lightness there is in a shadow.
SHADOW_DARKER = 0.85


def body_mask(frame: Frame, body: tuple[float, float, float], other: tuple[float, float, float] | None,
              grey_chroma: float = GREY_CHROMA) -> np.ndarray:
    """Foreground pixels closer in lightness to ``body`` than to the other die's body (or the
    table), and uncoloured."""
    L = frame.lab[..., 0].astype(np.float32)
    grey = frame.chroma < grey_chroma
    if other is not None:
        mid = (body[0] + other[0]) / 2
        near = L > mid if body[0] > other[0] else L < mid
        # keep well away from the midpoint: side faces and shadows are in between
        near &= np.abs(L - body[0]) < 0.7 * abs(body[0] - other[0])
    else:
        near = np.abs(L - body[0]) < 60
    if frame.table_lab is not None and (other is None or body[0] > other[0]):
        # the pale die's body is not darker than the table around it: what is, is a shadow
        # (the dark die's, on a pale cloth) or the pale die's own side faces
        near &= L >= SHADOW_DARKER * frame.table_lab[..., 0].astype(np.float32)
    body_like = grey & near & (frame.foreground > 0)
    if frame.table_lab is not None and other is not None and body[0] < other[0]:
        # the dark die's body is grey; a shadow on a tinted table keeps the table's tint
        body_like &= ~shadow(frame, body_like)
    m = body_like.astype(np.uint8) * 255
    return cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


#: The least tint (:func:`tint`) of a table on which a shadow can be told from a black body.
TINTED_TABLE = 0.3


def tint(lab: np.ndarray) -> np.ndarray:
    """The colour of 8-bit Lab pixels with their shading taken out: a and b over L + 16 (L on
    its 0-100 scale).  Lab's a, b and L + 16 all scale with the cube root of the light, so a
    shadow keeps the tint of the table it falls on, while a black or grey body has none."""
    f = lab.astype(np.float32)
    return (f[..., 1:] - 128.0) / (f[..., :1] * (100.0 / 255.0) + 16.0)


def shadow(frame: Frame, where: np.ndarray) -> np.ndarray:
    """Which pixels of ``where`` (bool) look like a shadow on a tinted table: their tint nearer
    the table's there than no tint at all.  None of them on a table of little tint (a grey or
    white cloth, where a shadow and a dark body are both grey)."""
    out = np.zeros(where.shape, bool)
    if frame.table_lab is None:
        return out
    table = tint(frame.table_lab[where])
    pixel = tint(frame.lab[where])
    tinted = np.linalg.norm(table, axis=-1) >= TINTED_TABLE
    out[where] = tinted & (np.linalg.norm(pixel - table, axis=-1) < np.linalg.norm(pixel, axis=-1))
    return out


def mark_patch(frame: Frame, blob: DieBlob, convex: bool = True) -> np.ndarray | None:
    """The largest coloured patch inside the die (bool, in the blob's window), or None.
    With ``convex`` the patch is looked for in the die's hull (for a pale die: the hull of its
    body holds the top face's mark even where the mark reaches the die's edge or a clipped
    highlight breaks the body around it); else inside the die's body and what it encloses (a
    dark die's body encloses its mark, while its hull may take in a shadow reaching another
    die)."""
    win = blob.window
    hull = np.zeros_like(blob.mask)
    if convex:
        contours, _ = cv2.findContours(blob.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            cv2.fillConvexPoly(hull, cv2.convexHull(c), (255,))
    else:
        hull = blob.mask
    inner = cv2.erode(cv2.bitwise_and(hull, frame.foreground[win]), np.ones((3, 3), np.uint8))
    chroma = frame.chroma[win]
    coloured = ((chroma >= GREY_CHROMA + 6) & (inner > 0)).astype(np.uint8) * 255
    n, labels, stats, _ = cv2.connectedComponentsWithStats(coloured, connectivity=4)
    if n <= 1:
        return None
    # the top face's mark: the largest patch, nearer the die's centre breaking close calls
    cx, cy = blob.centre[0] - blob.box[0], blob.centre[1] - blob.box[1]
    best, best_score = 0, -1.0
    for i in range(1, n):
        x, y, w, h, a = stats[i]
        px, py = x + w / 2, y + h / 2
        r = np.hypot(px - cx, py - cy) / max(1.0, np.sqrt(blob.area))
        score = a * (1.0 - 0.5 * min(1.0, r))
        if score > best_score:
            best, best_score = i, score
    # ... with the patches of its colour round it, each within reach of one already taken: a
    # mark of several dots (the largest may be one at the edge), or one a glint cuts in two
    # (each face of a die has a colour of its own)
    ab = frame.lab[win][..., 1:].astype(np.float32)
    mine = labels == best
    colour = np.median(ab[mine], axis=0)
    reach = MARK_REACH * np.sqrt(blob.area)
    centres = stats[:, :2] + stats[:, 2:4] / 2
    alike = [i for i in range(1, n) if i != best
             and np.linalg.norm(np.median(ab[labels == i], axis=0) - colour) <= SAME_MARK]
    taken = [best]
    while True:
        near = [i for i in alike if min(np.hypot(*(centres[i] - centres[j])) for j in taken) <= reach]
        if not near:
            break
        taken += near
        alike = [i for i in alike if i not in near]
    for i in taken[1:]:
        mine |= labels == i
    return np.asarray(mine)


#: Patches of a colour within this (Lab a, b units, 8-bit) of the mark's, their centres within
#: this share of the die's size of the mark's centre, are the same mark (the dots of a face).
SAME_MARK = 10.0
MARK_REACH = 0.6


def patch_colour(frame: Frame, blob: DieBlob, patch: np.ndarray) -> tuple[tuple[float, float, float], float]:
    """The median Lab colour of a die's mark ``patch`` (bool, in the blob's window; its core
    when it has one, away from the blurred rim) and its share of the die."""
    share = float(patch.sum()) / blob.area
    core = cv2.erode(patch.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if core.sum() >= 6:
        patch = core
    pix = frame.lab[blob.window][patch].astype(np.float32)
    if frame.unclipped is not None and frame.camera is not None:
        bright = frame.unclipped[blob.window][patch]
        # a pixel the camera clipped is at least so bright, not how bright: clipped as it is
        over = (bright > 255).any(axis=1) & (frame.camera[blob.window][patch] < CLIPPED).all(axis=1)
        if over.any():
            pix[over] = _hue_kept(bright[over])
    lightness, green_red, blue_yellow = (float(x) for x in np.median(pix, axis=0))
    return ((lightness, green_red, blue_yellow), share)


def _hue_kept(bgr: np.ndarray) -> np.ndarray:
    """BGR pixels (N x 3, float, some past 255) as Lab (8-bit scale, float), each past 255
    brought down to it whole instead of clipped channel by channel: an orange face lit more
    strongly than the table round it has its red past 255 once relit, and clipped, its green
    alone grew with the light and it turned yellow."""
    top = np.maximum(bgr.max(axis=1, keepdims=True), 255.0)
    x = (np.clip(bgr, 0, None) * (255.0 / top) / 255.0).astype(np.float32).reshape(-1, 1, 3)
    lab = cv2.cvtColor(x, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return lab * np.array([255 / 100, 1, 1], np.float32) + np.array([0, 128, 128], np.float32)


def patch_surround(frame: Frame, blob: DieBlob, patch: np.ndarray) -> float | None:
    """The median lightness (Lab L) of the uncoloured pixels of the foreground just round a
    die's mark ``patch``: the body the mark is printed on (a face painted to its edges has the die's body round it as
    a thin frame only, between the painted side faces).  None when there is too little round it."""
    ring = (cv2.dilate(patch.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0) & ~patch
    ring &= (frame.chroma[blob.window] < GREY_CHROMA) & (frame.foreground[blob.window] > 0)
    if ring.sum() < 4:
        return None
    return float(np.median(frame.lab[blob.window][..., 0][ring]))
