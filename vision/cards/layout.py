"""The layout every card of a deck shares, learned from its enrollment photos: its border, the
frame of its picture, a title band where the deck has one.

A card found in its enrollment photo by what differs from the empty table, not by its edges (a
white border on pale tiles hardly differs from them), may be learned through an outline a few
pixels off: a corner pulled in along the picture's frame, a side with a band of table.  The
cards of a deck are printed alike round their art, so each such outline is aligned to the
deck's shared layout (the median of every photo's card, :func:`aligned_to_the_deck`): the card's
picture is lined up with where the deck's cards have theirs, and its outline moved with it.
"""

from __future__ import annotations

import cv2
import numpy as np

#: The card's width in the crops compared (pixels; its height follows from the deck's side
#: ratio), and the table kept round it, a share of its width on every side.
CROP_W = 100
MARGIN = 0.1
#: The layout is learned from this many photos on the table at least (a median of fewer is
#: one card's art more than the deck's layout), and of cards whose short side is at most this
#: share of their long side: a square card lies any of four ways up, not one of two.
LEAST_PHOTOS = 8
SQUARE = 0.9
#: Each outline is aligned twice, by the card's inside alone (its border's outer rim, this
#: share of its width, left out: the table there differs from photo to photo) and by the
#: whole card; the outline is moved only when the two agree within this many frame pixels.
#: On twelve second-renderer boxes (576 photos), aligning by the inside alone moved the
#: outlines of flat decks (a sky over a meadow and no frame: only the horizon to line up,
#: and it lies higher on some cards than on others) off by 5-16 photos a box; by the whole
#: card, a striped cloth round the card pulled 17 of 48 photos off.  With both required (and
#: :data:`LEAST`, :data:`MOST`), of the outlines enrollment found by difference there, 14 came
#: nearer the card's own corners by more than 2 pixels and none went farther.
RIM = 0.03
AGREE = 2.5
#: An outline is moved when a corner moves this share of the card's short side at least (the
#: alignment's own noise: outlines on the card's own corners moved up to 0.03 of it on printed
#: decks, up to 0.046 on flat ones, 48 photos a box; 0.04 on a box of 12 printed photos) and
#: none more than this share (the outlines put right on pale tiles moved up to 0.12 of it).
LEAST = 0.04
MOST = 0.2
#: The alignment: OpenCV's ECC, a perspective warp, these many steps at most, down to this
#: change of its correlation, on crops smoothed by a Gaussian of this size.
STEPS = 100
EPS = 1e-5
SMOOTH = 5
#: An outline is moved only when the alignment by the whole card takes away this share at least
#: of what its crop failed to correlate with the deck's layout (``(after - before) / (1 -
#: before)``: the correlations the alignment reached and the one where the outline was found,
#: on the crops smoothed alike).  A card whose art runs to its edge (the ``bleed`` style)
#: shares little layout with the others but its edge: the alignment may line its art up a
#: little better with the median of the others' art, and move a right outline off.  Measured
#: against the renderer's own corners on 36 second-renderer boxes (2026-12-07, stop 63), of
#: the outlines moved: the 120 that came more than 2 pixels nearer their card took away
#: 0.28-0.98 of the mismatch, the 27 that went more than 2 pixels farther 0.08-0.54 (16 under
#: 0.2, bleed/striped 197's horse-3, moved from 2 to 13 pixels off, 0.08).
EXPLAINED = 0.2


def _crop_size(size: tuple[int, int]) -> tuple[int, int]:
    """(width, height) of the crop of a card ``size`` (card width, card height) with its table."""
    w, h = size
    return w + 2 * round(MARGIN * w), h + 2 * round(MARGIN * w)


def _card(size: tuple[int, int]) -> np.ndarray:
    """The card's corners in its crop (:func:`_crop_size`), clockwise from the top left: as far
    from the crop's edges on every side, so a crop turned upside down keeps its card in place."""
    w, h = _crop_size(size)
    m = round(MARGIN * size[0])
    return np.array([[m, m], [w - 1 - m, m], [w - 1 - m, h - 1 - m], [m, h - 1 - m]], np.float32)


def _portrait(quad: np.ndarray) -> np.ndarray:
    """``quad``'s corners clockwise (y down) from a corner of a short side, so its long sides run
    down the crop."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    x, y = q[:, 0], q[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
        q = q[::-1]
    d = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return np.roll(q, -1, axis=0) if d[0] + d[2] > d[1] + d[3] else q


def _to_crop(quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The perspective from the photo to the crop of the card in ``quad``."""
    return cv2.getPerspectiveTransform(_portrait(quad), _card(size))


def _crop(image: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The card in ``quad`` with some table round it, grey, smoothed, zero mean and unit spread."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    c = cv2.warpPerspective(gray.astype(np.float32), _to_crop(quad, size), _crop_size(size),
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    c = cv2.GaussianBlur(c, (0, 0), 1.0)
    return ((c - c.mean()) / (c.std() + 1e-3)).astype(np.float32)


def _layout(crops: list[np.ndarray]) -> tuple[np.ndarray, list[bool]]:
    """The deck's layout (the median of its cards' crops) and which crops are upside down in
    it: each crop is turned the way it correlates best with the layout, three times over."""
    layout = crops[0]
    turned = [False] * len(crops)
    for _ in range(3):
        turned = [float((c[::-1, ::-1] * layout).mean()) > float((c * layout).mean()) for c in crops]
        layout = np.median(np.stack([c[::-1, ::-1] if t else c for c, t in zip(crops, turned)]), axis=0)
        layout = layout.astype(np.float32)
    return layout, turned


def _aligned(layout: np.ndarray, crop: np.ndarray, turned: bool, quad: np.ndarray, size: tuple[int, int],
             grow: float) -> tuple[np.ndarray, float] | None:
    """``quad`` (frame pixels) moved so its card lines up with the deck's ``layout`` (its crop
    ``crop``, upside down in the layout when ``turned``), compared over the card grown by
    ``grow`` of its width (negative: its inside only), and the share of the crop's mismatch
    with the layout the move takes away (:data:`EXPLAINED`); None when the alignment fails."""
    w, h = _crop_size(size)
    card = _card(size)
    mask = np.zeros((h, w), np.uint8)
    g = grow * size[0]
    cv2.rectangle(mask, (int(card[0, 0] - g), int(card[0, 1] - g)), (int(card[2, 0] + g), int(card[2, 1] + g)), 255, -1)
    if turned:
        crop, mask = np.ascontiguousarray(crop[::-1, ::-1]), np.ascontiguousarray(mask[::-1, ::-1])
    try:
        after, warp = cv2.findTransformECC(layout, crop, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, STEPS, EPS), mask, SMOOTH)
    except cv2.error:
        return None                  # no alignment found (the correlation fell apart)
    # the correlation where the outline was found, on the crops smoothed as the ECC smooths them
    before = cv2.computeECC(_smoothed(layout), _smoothed(crop), mask)
    corners = cv2.perspectiveTransform(card[None], warp)[0]
    if turned:
        corners = np.roll(np.array([w - 1, h - 1], np.float32) - corners, 2, axis=0)   # back the right way up
    try:
        back = np.linalg.inv(_to_crop(quad, size))
    except np.linalg.LinAlgError:
        return None                  # an outline of no area: nothing to move
    moved = cv2.perspectiveTransform(corners[None].astype(np.float32), back)[0]
    return _same_order(moved, _portrait(quad), quad), (after - before) / max(1.0 - before, 1e-6)


def _smoothed(crop: np.ndarray) -> np.ndarray:
    """``crop`` smoothed as :func:`cv2.findTransformECC` smooths what it aligns (:data:`SMOOTH`)."""
    return cv2.GaussianBlur(crop, (SMOOTH, SMOOTH), 0)


def _same_order(moved: np.ndarray, portrait: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``moved`` (corners in the order of ``portrait``, :func:`_portrait` of ``quad``) in the
    order of ``quad``."""
    ways = [np.roll(w, k, axis=0) for w in (np.arange(4), np.arange(4)[::-1]) for k in range(4)]
    best = min(ways, key=lambda w: float(np.abs(portrait[w] - quad).sum()))
    return moved[best].astype(np.float32)


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two outlines are: the farthest of their corners (in the same order)."""
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def aligned_to_the_deck(photos: list[np.ndarray], outlines: list[np.ndarray], ratio: float,
                        which: list[bool]) -> list[np.ndarray]:
    """The ``outlines`` (one card's corners per photo, frame pixels) of the photos marked in
    ``which`` aligned to the layout the deck's cards share (learned from every photo given,
    each of one card on the table; ``ratio``: the deck's short over long side).  An outline is
    moved when its alignment by the card's inside and by the whole card agree
    (:data:`AGREE`) and it moves by more than the alignment's noise and less than a wrong
    alignment (:data:`LEAST`, :data:`MOST` of the card's short side); the others
    are returned as they are, as all are with fewer than :data:`LEAST_PHOTOS` photos or of
    square cards (:data:`SQUARE`)."""
    if len(photos) < LEAST_PHOTOS or ratio > SQUARE or not any(which):
        return list(outlines)
    size = (CROP_W, int(round(CROP_W / max(0.3, min(1.0, ratio)))))
    crops = [_crop(p, q, size) for p, q in zip(photos, outlines)]
    layout, turned = _layout(crops)
    out = list(outlines)
    for i, quad in enumerate(outlines):
        if not which[i]:
            continue
        inside = _aligned(layout, crops[i], turned[i], quad, size, -RIM)
        whole = _aligned(layout, crops[i], turned[i], quad, size, 0.0)
        if inside is None or whole is None or _apart(inside[0], whole[0]) > AGREE or not whole[1] >= EXPLAINED:
            continue                 # (a correlation that is no number explains nothing)
        short = float(np.linalg.norm(np.diff(_portrait(quad)[:2], axis=0)))
        if LEAST * short <= _apart(inside[0], quad) <= MOST * short:
            out[i] = inside[0]
    return out
