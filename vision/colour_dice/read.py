"""Enroll the two colour dice and read which colour is up on each.

A die's reading is trusted only when its mark's colour is clearly nearer one enrolled colour
than any other; otherwise it is ``None`` (unsure) with a reason, because a wrong activation
costs a player cards while an unsure costs a glance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from farmbox.vision.files import load_colour_image

from .find import (
    GREY_CHROMA,
    WORK_W,
    DieBlob,
    Frame,
    balanced,
    blobs,
    body_mask,
    convex_parts,
    hull_within,
    mark_patch,
    patch_colour,
    patch_surround,
    prepare,
    shrink,
    table_difference,
)
from .model import DICE, ColourDiceModel, DieModel

#: A die reading below this confidence is reported as unsure (None).
UNSURE_BELOW = 0.35
#: Features further than this from every enrolled sample are not trusted.
FAR = 45.0
#: The most one die with its sides and shadow covers, in top faces (its side squared).
DIE_SPREAD = 2.2
#: How much more colour (times GREY_CHROMA) a white die's body may show than a black one's.
WHITE_TINT = 1.6
#: The weight of lightness (Lab L, squared) against the colour (a and b) in how far a mark lies
#: from an enrolled one.  A face turned from the lamp or in the other die's shadow is darker,
#: its colour much the same: a yellow face 40 darker than its enrolled shots (L 174 against
#: 212-218, a and b 2 and 10 off) lay as near the enrolled orange (L 164-183, a 25 off) at 0.35,
#: and was refused "yellow?".  At 0.2 and 0.1, 38 boxes of the second renderer read 9094 ->
#: 9101 and 9104 of 9120 dice (every "unsure" but one gone), the 18 boxes with cards 4300 ->
#: 4307 at 0.1, our renderer's seven sets 4171 -> 4174 and 4176; no die read wrong at any.
LIGHTNESS = 0.1
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class ProgressBar(Protocol):
    """A tqdm-like progress bar: only its ``update`` is used."""

    def update(self, n: int = 1, /) -> object:
        """Advance the bar by ``n`` steps."""
        ...


@dataclass
class DiceReading:
    """What the camera saw: die -> colour (None when unsure or missing)."""

    dice: dict[str, str | None]
    confidence: float
    reasons: dict[str, str] = field(default_factory=dict)

    def as_json(self, image: str) -> dict:
        d = {"image": image, "dice": dict(self.dice), "confidence": round(self.confidence, 3)}
        if self.reasons:
            d["reason"] = "; ".join(f"{k}: {v}" for k, v in self.reasons.items())
        return d


def read_image(path: Path | str) -> np.ndarray:
    """A BGR image from a file, its size checked before decoding; a missing, unreadable,
    oversized or oddly shaped file is a one-line error naming it."""
    return load_colour_image(path)


def _distance(f: tuple[float, ...], g: tuple[float, ...]) -> float:
    return float(np.sqrt(LIGHTNESS * (f[0] - g[0]) ** 2 + (f[1] - g[1]) ** 2 + (f[2] - g[2]) ** 2))


def classify(die: DieModel, feature: tuple[float, float, float]) -> tuple[str, float]:
    """Nearest enrolled colour and a confidence 0..1 from the margin to the runner-up."""
    dists = sorted((min(_distance(feature, s) for s in ss), c) for c, ss in die.samples.items() if ss)
    if not dists:
        return "", 0.0
    d1, best = dists[0]
    d2 = dists[1][0] if len(dists) > 1 else FAR * 2
    conf = (d2 - d1) / max(d2, 1e-6)  # two colours as near: 0
    if d1 > FAR:
        conf *= FAR / d1
    return best, float(max(0.0, min(1.0, conf)))


def _find_die(frame: Frame, model: ColourDiceModel, name: str, grey_chroma: float | None = None,
              other_body_max: float | None = None, join: int = 5) -> tuple[list, str]:
    die = model.dice[name]
    if grey_chroma is None:
        # a white body near the camera's clipping point takes a tint from the light that a
        # relit or balanced frame cannot take back: allow it more colour than the black one
        grey_chroma = WHITE_TINT * GREY_CHROMA if die.body[0] > 128 else GREY_CHROMA
    others = [d.body for n, d in model.dice.items() if n != name]
    mask = body_mask(frame, die.body, others[0] if others else None, grey_chroma)
    expected = die.side_px ** 2
    pale = _paler(model, name)

    def die_sized(mask: np.ndarray) -> list[DieBlob]:
        return [b for b in blobs(mask, 0.35 * expected) if b.area <= 3.0 * expected and _squat(b)]

    found = [] if pale and frame.die_area else die_sized(mask)
    hulled = False
    if not found and frame.die_area:
        # a pale body round a large mark is a thin ring, open where a shadow or the other die
        # breaks it, and a dark die's faces painted to their edges leave of its body a thin
        # frame: the die is convex, so its hull is the die
        found, hulled = die_sized(convex_parts(mask, frame.die_area, join)), True
    other: list[np.ndarray] = []  # the other die's body, once needed

    def apart(found: list[DieBlob]) -> list[DieBlob]:
        """A blob whose hull holds the other die's body is not this die: round the dark die, a
        pale ring of its shadow and sides on a pale cloth; the dark die's hull, the pale die it
        touches."""
        if not others or not found:
            return found
        if not other:
            other.append(body_mask(frame, others[0], die.body))
        most = (OTHER_BODY_MAX if other_body_max is None else other_body_max) if pale else PALE_IN_DARK_HULL
        return [b for b in found if _share_inside(b, other[0]) <= most]

    if pale or hulled:
        found = apart(found)
    if not found and frame.die_area and not pale:
        # such a frame broken where it is thinnest (along the lit side) lies in pieces further
        # apart than ``join``: within one part of the foreground no larger than a die with its
        # sides and shadow, its pieces are one die (a card's dark art lies in a larger part)
        found = apart(die_sized(hull_within(mask, frame.foreground, frame.die_area)))
    if frame.loose is not None:
        found = [b for b in found if _share_inside(b, frame.loose) >= SOLID]
    found.sort(key=lambda b: abs(np.log(b.area / expected)))
    return found, "" if found else "die not found"


def _find_die_off(frame: Frame, model: ColourDiceModel, name: str,
                  dark_centre: tuple[float, float] | None) -> tuple[list, str]:
    """:func:`_find_die`, away from the dark die's centre when it was found on a pale table: what
    is left of the pale ring round the dark die (its soft shadow on a pale cloth) lies closer to
    it than a die touching it can."""
    found, why = _find_die(frame, model, name, other_body_max=None if dark_centre is None else OTHER_BODY_PLACED)
    if dark_centre is not None and _pale_table(frame, model, dark_centre):
        found = _away_from_dark(model, found, dark_centre)
        why = why or ("" if found else "die not found")
    return found, why


def _away_from_dark(model: ColourDiceModel, found: list[DieBlob], dark_centre: tuple[float, float]) -> list[DieBlob]:
    """The blobs of ``found`` at least :data:`NEAR_DARK` from the dark die's centre (nearer,
    on a pale table, lies what is left of the pale ring round it)."""
    near = NEAR_DARK * max(d.side_px for d in model.dice.values())
    return [b for b in found if np.hypot(b.centre[0] - dark_centre[0], b.centre[1] - dark_centre[1]) >= near]


def _pale_table(frame: Frame, model: ColourDiceModel, at: tuple[float, float]) -> bool:
    """Whether the table round ``at`` (work pixels; a die's side each way) is paler than halfway
    between the two dice's bodies: only there is a ring of its shading round the dark die (a
    soft shadow, the lit sides) pale enough to look like the pale body.  On a dark felt the
    pale die touching the dark one is found nearer its centre than :data:`NEAR_DARK`: the dark
    die's top face, found in part, lies off its own centre."""
    if frame.table_lab is None:
        return True
    reach = int(max(d.side_px for d in model.dice.values()))
    x, y = int(round(at[0])), int(round(at[1]))
    around = frame.table_lab[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1, 0]
    bodies = [d.body[0] for d in model.dice.values()]
    return around.size == 0 or float(np.median(around)) > (max(bodies) + min(bodies)) / 2


#: Fragments of the pale die's foreground this share of its side apart are joined into one
#: part when the die was not found otherwise.
JOIN_PALE = 0.5

#: Largest share of a die blob's hull that may look like the other die's body; and when the
#: dark die was found and its place kept out of the search (what is left of a ring round it
#: lies within :data:`NEAR_DARK` of it): there the pale die's own shaded sides and foot made
#: up to 0.32 of its hull on the independent renderer's boxes (a warm lamp, a lens that
#: enlarges the sides): the white die was not found in 14, 5 and 50 of 120 throws on three of
#: them at 0.2 (wood, linen, near-white linen), in 0, 0 and 24 at 0.4.
OTHER_BODY_MAX = 0.2
OTHER_BODY_PLACED = 0.4
#: Least share of a die blob's hull that differs from the table (the frame's foreground before
#: its parts were made convex).  A die is solid: on the independent renderer's 18 boxes beside
#: cards, of the 4,290 dice read right none held less than 0.38 of its hull, 1 in 100 less than
#: 0.67 (a black die with coloured pips on a dark felt); the grey edge band of a card beside the
#: die, taken for a second white die (the card it borders kept out of the search), held
#: 0.10-0.16.  Halfway between, as a ratio.
SOLID = 0.25
#: Largest share of the dark die's hull (:func:`_find_die`, a die whose body is a thin frame)
#: that may look like the pale die's body.
PALE_IN_DARK_HULL = 0.05


def _share_inside(blob: DieBlob, mask: np.ndarray) -> float:
    hull = np.zeros_like(blob.mask)
    contours, _ = cv2.findContours(blob.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        hull = cv2.fillConvexPoly(hull, cv2.convexHull(c), (255,))
    inside = hull > 0
    return float(np.count_nonzero(mask[blob.window][inside])) / max(1, int(np.count_nonzero(inside)))


#: Least distance (in die sides) from the dark die's centre to the pale die's: dice touching
#: face to face are a side apart.
NEAR_DARK = 0.7
#: Longest side over shortest of a die blob's bounding rectangle (a die with its sides and
#: shadow is squat; a glare along a pale stripe of a cloth is not).
SQUAT = 2.2


def _squat(blob: DieBlob) -> bool:
    contours, _ = cv2.findContours(blob.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return False
    (_, _), (w, h), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    return max(w, h) <= SQUAT * max(1.0, min(w, h))


def _paler(model: ColourDiceModel, name: str) -> bool:
    """Whether ``name`` is the paler die (the white one)."""
    return all(model.dice[name].body[0] >= d.body[0] for d in model.dice.values())


def _place_in_frame(frame: Frame, blob: DieBlob, dilate: int) -> np.ndarray:
    """The blob (holes filled: a die with its mark), grown by ``dilate`` pixels, as a bool mask
    of the whole frame."""
    hull: np.ndarray = np.zeros(frame.lab.shape[:2], np.uint8)
    hull[blob.window] = blob.mask
    if dilate:
        hull = cv2.dilate(hull, np.ones((2 * dilate + 1, 2 * dilate + 1), np.uint8))
    return hull > 0


def white_balanced(frame: Frame, model: ColourDiceModel) -> Frame:
    """Remove the colour cast using the white die's body as the white reference (a tinted
    light moves every colour; the white die is the one thing known to be white).  A frame
    relit to the enrolled table shot has no cast left to remove."""
    if frame.relit or "white" not in model.dice:
        return frame
    found, _ = _find_die(frame, model, "white", grey_chroma=2.2 * GREY_CHROMA)
    if not found:
        return frame
    b = found[0]
    inner = cv2.erode(b.mask, np.ones((3, 3), np.uint8)) > 0
    body = inner & (frame.chroma[b.window] < 2.2 * GREY_CHROMA)
    if body.sum() < 10:
        return frame
    L = frame.lab[b.window][..., 0]
    body &= L >= np.percentile(L[body], 50)
    return balanced(frame, frame.bgr[b.window][body])


def _on_the_other_die(frame: Frame, blob: DieBlob, patch: np.ndarray, model: ColourDiceModel, name: str) -> bool:
    """Whether the mark ``patch`` found in die ``name``'s region sits on the other die's body
    (its surround is nearer the other die's lightness than this die's)."""
    others = [d.body for n, d in model.dice.items() if n != name]
    around = patch_surround(frame, blob, patch)
    if not others or around is None:
        return False
    return abs(around - others[0][0]) < abs(around - model.dice[name].body[0])


def _least_mark(die: DieModel) -> float:
    """The least share of a die's blob its top face's mark covers (a patch much smaller than
    the enrolled marks is a side face's colour)."""
    return _least_of(die.mark_share)


def _least_of(share: float) -> float:
    """The least share of a die's blob a mark covers where the enrolled marks cover ``share``."""
    return max(0.05, 0.45 * share)


def _least_mark_of(die: DieModel, colour: str | None) -> float:
    """:func:`_least_mark` for a mark read as ``colour``, lower where even the largest of that
    colour's enrolled marks is smaller than the die's median (``None``: the least of any
    colour).  The second renderer's green pips have paler rims and cover 0.06-0.12 of the die
    where its other colours cover 0.09-0.24: a green top face was "not seen" at 0.052-0.066
    where 0.053-0.069 was asked.  (The median of a colour's marks instead let a painted red
    side face, one enrolled red mark at 0.20, be read as the top face.)"""
    shares = die.colour_shares
    share = min([die.mark_share, *shares.values()]) if colour is None else \
        min(die.mark_share, shares.get(colour, die.mark_share))
    return _least_of(share)


def _top_face(frame: Frame, model: ColourDiceModel, name: str, blob: DieBlob) -> np.ndarray | None:
    """The mark on die ``name``'s top face in ``blob`` (:func:`mark_patch`, bool in the blob's
    window), or None.  The dark die's mark is looked for inside its body and in the body's
    hull: a dark body that is a thin frame round faces painted to their edges, open where the
    lamp catches it, encloses a side face at most.  The hull's is taken when the body's is too
    small, or when it is :data:`HULL_MARK` times as large, printed on this die's body, and the
    body smaller than a top face (a body that large is the whole die; two dice touching, its
    hull may reach the pale die's mark)."""
    pale = _paler(model, name)
    patch = mark_patch(frame, blob, convex=pale)
    if pale:
        return patch
    hull = mark_patch(frame, blob, convex=True)
    if patch is None or patch.sum() < _least_mark(model.dice[name]) * blob.area:
        return hull
    if hull is not None and hull.sum() >= HULL_MARK * patch.sum() and blob.area < model.dice[name].side_px ** 2 \
            and not _on_the_other_die(frame, blob, hull, model, name):
        return hull
    return patch


def _hull_disagrees(frame: Frame, model: ColourDiceModel, name: str, blob: DieBlob) -> bool:
    """Whether the largest marks inside die ``name``'s body and in its hull, both as large as
    a mark, are of different colours."""
    least = _least_mark(model.dice[name]) * blob.area
    colours = set()
    for convex in (False, True):
        patch = mark_patch(frame, blob, convex=convex)
        if patch is None or patch.sum() < least:
            return False
        colours.add(classify(model.dice[name], patch_colour(frame, blob, patch)[0])[0])
    return len(colours) > 1


def _at_the_other_mark(blob: DieBlob, patch: np.ndarray, other: tuple[np.ndarray, tuple[float, float]],
                       model: ColourDiceModel) -> bool:
    """Whether the mark ``patch`` (bool, in ``blob``'s window) is the other die's read mark
    ``other`` (:func:`_mark_of`) or lies beside its centre (one of its side faces)."""
    taken, top = other
    if taken[blob.window][patch].any():
        return True
    ys, xs = np.nonzero(patch)
    side = max(d.side_px for d in model.dice.values())
    return bool(np.hypot(xs.mean() + blob.box[0] - top[0], ys.mean() + blob.box[1] - top[1]) < NEAR_DARK * side)


#: How many times larger the dark die's mark in its hull than in its body must be to be taken.
HULL_MARK = 1.5


def _read_found(seen: Frame, model: ColourDiceModel, name: str, found: list[DieBlob],
                other: tuple[np.ndarray, tuple[float, float]] | None = None) -> tuple[str | None, float, str]:
    """Die ``name``'s colour (None when unsure), confidence and reason ("" when read) from the
    blobs ``found`` for it in the frame ``seen``, best first.  ``other``: where the other die,
    read, shows its top face (:func:`_mark_of`); the dark die's mark is on the other die when
    it is that mark or beside it, else (the other die not read) when it is printed on a body
    of the other die's lightness."""
    die = model.dice[name]
    if len(found) > 1 and found[1].area > 0.6 * found[0].area and \
            abs(np.log(found[1].area / die.side_px ** 2)) < 0.5:
        return None, 0.0, MORE_THAN_ONE
    patch = _top_face(seen, model, name, found[0])
    mark = None if patch is None else patch_colour(seen, found[0], patch)
    # a patch much smaller than the enrolled marks is a side face's colour, not the top's; one
    # smaller than the die's marks but not than those of its own colour is a top face's
    # unless it lies on the other die (and then, as before, it is not seen)
    small = mark is not None and mark[1] < _least_mark(die)
    if patch is None or mark is None or (small and mark[1] < _least_mark_of(die, None)):
        return None, 0.0, "top face colour not seen"
    if not _paler(model, name) and (_on_the_other_die(seen, found[0], patch, model, name) if other is None
                                    else _at_the_other_mark(found[0], patch, other, model)):
        # dice touching: the dark die's region took in the pale die, and its largest coloured
        # patch is the pale die's mark
        return None, 0.0, "top face colour not seen" if small else MARK_ON_THE_OTHER
    colour, conf = classify(die, mark[0])
    if small and mark[1] < _least_mark_of(die, colour):
        return None, 0.0, "top face colour not seen"
    if conf < UNSURE_BELOW:
        return None, conf, f"unsure ({colour}?)"
    return colour, conf, ""


NOT_FOUND = "die not found"
MORE_THAN_ONE = "more than one such die"
MARK_ON_THE_OTHER = "dice touching: mark on the other die"
#: The refusals after which a die is looked for by its mark (:func:`_by_its_mark`).
BY_MARK_WHEN = (NOT_FOUND, "top face colour not seen")
#: A die found by its mark (:func:`_by_its_mark`): the mark at least this many top faces (a
#: side face seen by a camera looking down is a strip: on the independent renderer's boxes a
#: white die's side face taken for its mark, its top face's low-chroma green missed, covered
#: 0.15 of a top face; the 70 top faces found by their mark on 18 boxes 0.35-0.69) and no
#: larger than :data:`TOP_FACE_MOST`.
MARK_ALONE = 0.25
TOP_FACE_MOST = 1.2
#: The dark die found again beside the pale one (:func:`read_frame`): its centre at most this
#: many sides from the pale die's (dice touching are about one side apart, 1.22 at most on the
#: independent renderer's boxes).
TOUCHING = 1.6


def _mark_of(model: ColourDiceModel, name: str, at: tuple[Frame, DieBlob]) -> tuple[np.ndarray, tuple[float, float]]:
    """Where die ``name``, read from the blob in the frame ``at``, shows its top face: its mark (a bool
    mask of the frame, grown by 2 pixels; empty when none) and the mark's centre (the blob's
    when there is no mark: a dark frame round painted faces, its hull reaching into the other
    die, lies off the top face)."""
    seen, blob = at
    taken = np.zeros(seen.lab.shape[:2], bool)
    patch = _top_face(seen, model, name, blob)
    if patch is None or not patch.any():
        return taken, blob.centre
    taken[blob.window] = patch
    ys, xs = np.nonzero(patch)
    top = (float(xs.mean()) + blob.box[0], float(ys.mean()) + blob.box[1])
    return cv2.dilate(taken.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0, top


def _by_its_mark(frame: Frame, model: ColourDiceModel, name: str,
                 other: tuple[np.ndarray, tuple[float, float]] | None) -> DieBlob | None:
    """Die ``name`` found by its top face's mark when its body was not found or held no mark
    (a pale die on a near-white cloth or touching the dark one; a dark die whose faces are
    painted to its edges, its body a thin frame that its shadow joins): the largest coloured
    patch as large as a mark with an uncoloured ring nearer this die's body's lightness than
    the other's, not the other die's mark (``other``: :func:`_mark_of`, when it was read) and
    not beside it; None unless that patch is no larger than a top face and lies on no part
    larger than two dice."""
    die = model.dice[name]
    others = [n for n in model.dice if n != name]
    expected = die.side_px ** 2
    taken, top = (None, None) if other is None else other
    coloured = (frame.chroma >= GREY_CHROMA + 6) & (frame.foreground > 0)
    if taken is not None:
        coloured &= ~taken
    n, labels, stats, cents = cv2.connectedComponentsWithStats(coloured.astype(np.uint8), connectivity=4)
    _, part, part_stats, _ = cv2.connectedComponentsWithStats(frame.foreground, connectivity=8)
    part_area = part_stats[:, cv2.CC_STAT_AREA]
    side = max(d.side_px for d in model.dice.values())
    # the candidate: the largest patch as large as a mark, squat, with a ring of this die's
    # body round it, not beside the other die's top face (its side faces)
    best, best_area = None, max(_least_mark(die), MARK_ALONE) * expected
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        if a < best_area or max(w, h) > SQUAT * max(1, min(w, h)):
            continue
        if top is not None and np.hypot(cents[i][0] - top[0], cents[i][1] - top[1]) < NEAR_DARK * side:
            continue
        comp = labels == i
        ring = (cv2.dilate(comp.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0) & ~comp
        ring &= frame.chroma < GREY_CHROMA
        if ring.sum() < 4:
            continue
        around = float(np.median(frame.lab[..., 0][ring]))
        if others and abs(around - die.body[0]) >= abs(around - model.dice[others[0]].body[0]):
            continue
        best, best_area = i, a
    if best is None:
        return None
    # ... is the die only if it is no larger than a top face and lies on no part larger
    # than two dice with their shadows (a coloured square on a white card lies on the card);
    # else nothing is read (a smaller patch is not looked for instead)
    on_part = part_area[part[labels == best][0]]
    if best_area > TOP_FACE_MOST * expected or (frame.die_area and on_part > 2 * frame.die_area):
        return None
    x, y, w, h, _ = (int(v) for v in stats[best])
    pad = int(round(0.2 * die.side_px))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(frame.lab.shape[1], x + w + pad), min(frame.lab.shape[0], y + h + pad)
    mask = cv2.dilate((labels[y0:y1, x0:x1] == best).astype(np.uint8) * 255, np.ones((3, 3), np.uint8))
    return DieBlob(mask, expected, (float(cents[best][0]), float(cents[best][1])), (x0, y0, x1 - x0, y1 - y0))


def _join(model: ColourDiceModel, name: str) -> int:
    """How far apart (work pixels) fragments of die ``name`` are joined when it was not found
    otherwise: half its side."""
    return max(5, int(round(JOIN_PALE * model.dice[name].side_px)))


#: A card's outline (frame pixels) is kept out of the dice search when it covers at least this
#: many of the larger die's top faces (an outline the size of a die may be the die).
CARD_FACES = 4.0
#: ... grown by this many work pixels: its edge and the thin shadow along it.
CARD_MARGIN = 3
#: An outline found and not read (a card partly under another) is kept out when at least this
#: share of it differs from the table (by :data:`CARD_DIFFERS`, Lab).  The card reader also
#: finds outlines in a cloth's weave round a die, and one crossing a card counts as a card
#: under another: such outlines differed 0.17-0.21 (the die in them), the cards read 0.67-0.90
#: on felt, wood, cloth and tiles (three boxes of the independent renderer, 152 cards).  A card
#: read is always kept out (a cream card on a near-white linen differs from it less).
CARD_SHARE = 0.5
CARD_DIFFERS = 10.0


def card_masks(model: ColourDiceModel, image: np.ndarray, cards: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The outlines of ``cards`` (corners, frame pixels) larger than :data:`CARD_FACES` top
    faces, each as a bool mask at work size."""
    if not len(cards) or not model.dice:
        return []
    h, w = image.shape[:2]
    scale = WORK_W / w
    size = (max(1, round(h * scale)), WORK_W)
    least = CARD_FACES * max(d.side_px for d in model.dice.values()) ** 2
    out = []
    for quad in cards:
        q = np.asarray(quad, np.float32).reshape(-1, 2) * scale
        if q.shape[0] < 3 or not np.isfinite(q).all() or cv2.contourArea(q) < least:
            continue
        mask = np.zeros(size, np.uint8)
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), (1,))
        out.append(mask > 0)
    return out


def _grown(masks: list[np.ndarray]) -> np.ndarray | None:
    if not masks:
        return None
    grow = 2 * CARD_MARGIN + 1
    union = np.logical_or.reduce(masks).astype(np.uint8)
    return cv2.dilate(union, np.ones((grow, grow), np.uint8)) > 0


def cards_away(model: ColourDiceModel, image: np.ndarray, cards: Sequence[np.ndarray]) -> np.ndarray | None:
    """The cards found in the same frame (corners, frame pixels), as a bool mask at work size
    of what the dice reader leaves out (None: no card).  A Fun Farm card shows a small white die
    and a small black die with a colour each, its art is drawn in dark outlines, and a large
    white card moved the light field: read as a table, it gave dice that are not there."""
    return _grown(card_masks(model, image, cards))


def _prepared(model: ColourDiceModel, image: np.ndarray, cards: Sequence[np.ndarray],
              unread: Sequence[np.ndarray]) -> Frame:
    """The frame prepared with the cards left out: all ``cards`` read, and those outlines
    found ``unread`` that differ from the table (in the frame relit with all of them left
    out) over :data:`CARD_SHARE` of their outline."""
    die_area = DIE_SPREAD * max(d.side_px for d in model.dice.values()) ** 2 if model.dice else None
    read, maybe = card_masks(model, image, cards), card_masks(model, image, unread)
    frame = prepare(image, model.table, die_area, _grown(read + maybe))
    if maybe and frame.table_lab is not None:
        differs = table_difference(frame) > CARD_DIFFERS
        kept = [m for m in maybe if float(differs[m].mean()) >= CARD_SHARE]
        if len(kept) < len(maybe):
            frame = prepare(image, model.table, die_area, _grown(read + kept))
    return frame


def _dark_beside(frame: Frame, model: ColourDiceModel, names: list[str], pale: DieBlob,
                 results: dict[str, tuple[str | None, float, str]], read_at: dict[str, tuple[Frame, DieBlob]],
                 other: tuple[np.ndarray, tuple[float, float]] | None = None) -> None:
    """The dark die ``names[0]`` looked for again beside the pale die found at ``pale`` (its
    reading in ``results`` and ``read_at`` replaced when it is found): with the pale die's
    place kept out, the pieces of a dark frame round faces painted to their edges, joined
    across half a side, are the die (beside the pale die only: a card's dark art further off,
    joined so, looks like one).  ``other``: the pale die's mark when it was read."""
    dark = names[0]
    seen = frame.without(_place_in_frame(frame, pale, dilate=3))
    found, _ = _find_die(seen, model, dark, join=_join(model, dark))
    side = max(d.side_px for d in model.dice.values())
    found = [b for b in found if np.hypot(b.centre[0] - pale.centre[0], b.centre[1] - pale.centre[1]) <= TOUCHING * side]
    if not found:
        return
    results[dark] = _read_found(seen, model, dark, found, other)
    if results[dark][0] is not None and _hull_disagrees(seen, model, dark, found[0]):
        # the pale die's place cut this die's top face, and a side face was left
        results[dark] = (None, 0.0, "dice touching: top face partly hidden")
    if results[dark][0] is not None:
        read_at[dark] = (seen, found[0])


def _read_by_marks(frame: Frame, model: ColourDiceModel, names: list[str],
                   results: dict[str, tuple[str | None, float, str]], read_at: dict[str, tuple[Frame, DieBlob]]) -> None:
    """Each die not found, or found without a mark, looked for by its mark (the other die's
    mark kept out when it was read); its reading in ``results`` and ``read_at`` replaced when
    read so (or when it was not found at all)."""
    for name in names if len(names) == 2 else ():
        if results[name][0] is not None or results[name][2] not in BY_MARK_WHEN:
            continue
        other = next(n for n in names if n != name)
        kept = _mark_of(model, other, read_at[other]) if other in read_at else None
        by_mark = _by_its_mark(frame, model, name, kept)
        if by_mark is None:
            continue
        got = _read_found(frame, model, name, [by_mark])
        if got[0] is not None or results[name][2] == NOT_FOUND:
            results[name] = got
        if got[0] is not None:
            read_at[name] = (frame, by_mark)


def _pale_apart_from_dark(model: ColourDiceModel, names: list[str], results: dict[str, tuple[str | None, float, str]],
                          found_at: dict[str, tuple[Frame, list[DieBlob]]],
                          read_at: dict[str, tuple[Frame, DieBlob]]) -> None:
    """The pale die ``names[1]``, "more than one such die" while the dark die was first taken
    elsewhere (a card's dark art) and read later where it lies: the pale ring of its shadow and
    sides round it (within :data:`NEAR_DARK` of its centre, on a pale table) is no pale die,
    as it is when the dark die is found first (:func:`_find_die_off`); read without it."""
    dark, pale = names
    if results[pale][2] != MORE_THAN_ONE or dark not in read_at or pale not in found_at:
        return
    at = read_at[dark][1].centre
    seen, found = found_at[pale]
    if not _pale_table(seen, model, at):
        return
    apart = _away_from_dark(model, found, at)
    if apart and len(apart) < len(found):
        results[pale] = _read_found(seen, model, pale, apart)
        if results[pale][0] is not None:
            read_at[pale] = (seen, apart[0])


def read_frame(model: ColourDiceModel, image: np.ndarray, cards: Sequence[np.ndarray] = (),
               unread: Sequence[np.ndarray] = ()) -> DiceReading:
    """Read both dice in one frame; ``cards``: the outlines (corners, frame pixels) of the
    cards read in it, left out of the search; ``unread``: outlines found there and not read
    (a card partly under another), left out where most of them differs from the table."""
    frame = white_balanced(_prepared(model, image, cards, unread), model)
    results: dict[str, tuple[str | None, float, str]] = {}
    placed: np.ndarray | None = None
    dark_centre: tuple[float, float] | None = None
    pale_found: DieBlob | None = None
    # where each die was found, and where each die read was read
    found_at: dict[str, tuple[Frame, list[DieBlob]]] = {}
    read_at: dict[str, tuple[Frame, DieBlob]] = {}
    # the dark die first: its place is then kept out of the pale die's search (a pale ring of
    # shadow and sides around the dark die must never be read as the pale die)
    names = sorted((n for n in DICE if n in model.dice), key=lambda n: model.dice[n].body[0])
    for name in names:
        seen = frame if placed is None else frame.without(placed)
        found, why = _find_die_off(seen, model, name, dark_centre)
        if not found and _paler(model, name) and frame.loose is not None:
            # a white die on a near-white cloth differs from it only at its mark, its sides
            # and its shadow: fragments further apart than a few pixels, each made convex on
            # its own, leave the top face out; joined across half a die's side they hold it
            keep_out = np.zeros(frame.lab.shape[:2], bool) if placed is None else placed
            seen = frame.without(keep_out, _join(model, name))
            found, why = _find_die_off(seen, model, name, dark_centre)
        if found and name == names[0]:
            placed = _place_in_frame(frame, found[0], dilate=3)
            dark_centre = found[0].centre
        elif found:
            pale_found = found[0]
        results[name] = _read_found(seen, model, name, found) if found else (None, 0.0, why)
        if found:
            found_at[name] = (seen, found)
        if results[name][0] is not None:
            read_at[name] = (seen, found[0])
            if name == names[0]:
                # the dark die read: its place is its top face's (its blob may take in the
                # shadow of the pale die touching it, and its centre lean that way)
                dark_centre = _mark_of(model, name, read_at[name])[1]
    if len(names) == 2 and placed is None and names[1] in read_at:
        seen, blob = read_at[names[1]]
        patch = _top_face(seen, model, names[1], blob)
        if patch is not None and _on_the_other_die(seen, blob, patch, model, names[1]):
            # the dark die not found, and the pale die's mark printed on a dark body: the pale
            # die's blob took in the dark die (a thin frame round a painted face), and its mark
            # is the dark die's
            results[names[1]] = (None, 0.0, "top face colour not seen")
            del read_at[names[1]]
    if len(names) == 2 and placed is None and pale_found is not None:
        # the pale die found, not the dark one: a dark body that is a thin frame round faces
        # painted to their edges, touching the pale die, made one hull with it
        _dark_beside(frame, model, names, pale_found, results, read_at)
    _read_by_marks(frame, model, names, results, read_at)
    if len(names) == 2 and results[names[0]][2] == MARK_ON_THE_OTHER and names[1] in read_at:
        # the dark die's mark ringed by a rim paler than the pale die's body (a painted face's
        # clipped edge): it is on the pale die only if it is the pale die's mark, read apart;
        # a blob found for the dark die round the pale die's mark (its shadow on a dark felt)
        # is passed over for the next one
        seen, found = found_at[names[0]]
        other = _mark_of(model, names[1], read_at[names[1]])
        while found:
            results[names[0]] = _read_found(seen, model, names[0], found, other)
            if results[names[0]][2] != MARK_ON_THE_OTHER:
                break
            found = found[1:]
        if results[names[0]][0] is not None:
            read_at[names[0]] = (seen, found[0])
        elif results[names[0]][2] == MARK_ON_THE_OTHER:
            # ... and the dark die's blob that took in the pale die is looked for again beside it
            _dark_beside(frame, model, names, read_at[names[1]][1], results, read_at, other)
            _read_by_marks(frame, model, names, results, read_at)
    if len(names) == 2:
        _pale_apart_from_dark(model, names, results, found_at, read_at)
    dice = {name: colour for name, (colour, _, _) in results.items()}
    reasons = {name: why for name, (_, _, why) in results.items() if why}
    confidence = min(conf for _, conf, _ in results.values()) if results else 0.0
    return DiceReading(dice, confidence, reasons)


#: The enrollment folder that holds the empty-table shot(s), and the names (without suffix) an
#: empty-table shot may have at the top of the samples folder.
TABLE_FOLDER = "table"
TABLE_FILES = ("background", "table")


def empty_table(table_shots: list[np.ndarray], shots: list[np.ndarray]) -> np.ndarray | None:
    """The empty table at work size: the median of ``table_shots`` when there are any, else the
    per-pixel median of the enrollment ``shots`` when they all show one table from one fixed
    camera (each shot then differs from that median only where its die is); None otherwise."""
    if table_shots:
        if any(t.shape != table_shots[0].shape for t in table_shots):
            raise ValueError("the table shots differ in size")
        return np.median(np.stack(table_shots), axis=0).astype(np.uint8) if len(table_shots) > 1 \
            else table_shots[0]
    if len(shots) < 5 or any(s.shape != shots[0].shape for s in shots):
        return None
    table = np.median(np.stack(shots), axis=0).astype(np.uint8)
    if all(prepare(s, table).relit for s in shots):
        return table
    return None


def _images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def weak_colours(model: ColourDiceModel) -> dict[str, list[str]]:
    """Leave-one-out over the enrollment shots: each shot's mark read against the other shots.
    Die -> the colours one of whose shots is read wrong or unsure that way (shoot them again;
    a colour with a single shot cannot be checked and counts as weak)."""
    weak: dict[str, list[str]] = {}
    for name, die in model.dice.items():
        bad = set()
        for colour, shots in die.samples.items():
            if len(shots) < 2:
                bad.add(colour)
                continue
            for i, shot in enumerate(shots):
                rest = {c: ([v for j, v in enumerate(vs) if j != i] if c == colour else vs)
                        for c, vs in die.samples.items()}
                got, conf = classify(DieModel(die.body, die.side_px, rest, die.mark_share), shot)
                if got != colour or conf < UNSURE_BELOW:
                    bad.add(colour)
        weak[name] = sorted(bad)
    return weak


def enroll(samples: Path | str, progress: ProgressBar | None = None,
           on_progress: Callable[[int, int], None] | None = None) -> ColourDiceModel:
    """Learn a model from ``samples/<white|black>/<colour>/*`` (one die alone per image) and,
    optionally, the fixed camera's shot of the empty table: ``samples/background.jpg|png`` (as
    for the Super Farmer dice) or ``samples/table/*``.

    Without a table folder the shots themselves give the empty table when they were all taken
    by one fixed camera over one table (the per-pixel median of shots whose die moved); the
    table is kept only when every shot then agrees with it, otherwise the model has none and
    reading falls back to estimating the table from each frame.

    Two passes: first each die's body colour and size (the largest foreground object), then
    each sample's mark colour read exactly as :func:`read_frame` reads it.  ``progress`` is a
    tqdm-like bar (``update(1)`` per image and pass), ``on_progress(done, total)`` a callback
    (total: twice the images, one step per image and pass).
    """
    samples = Path(samples)
    if not samples.is_dir():
        raise OSError(f"no samples folder {samples}")
    layout: dict[str, dict[str, list[Path]]] = {}
    # the empty table: SAMPLES/background.* (as the Super Farmer dice enrollment has it) or
    # SAMPLES/table/*
    table_shots = [p for p in _images(samples) if p.stem in TABLE_FILES]
    for die_dir in sorted(p for p in samples.iterdir() if p.is_dir()):
        if die_dir.name == TABLE_FOLDER:
            table_shots += _images(die_dir)
            continue
        if die_dir.name not in DICE:
            raise ValueError(f"{die_dir}: expected folders named white or black (and {TABLE_FOLDER} for the empty table)")
        for colour_dir in sorted(p for p in die_dir.iterdir() if p.is_dir()):
            imgs = _images(colour_dir)
            if imgs:
                layout.setdefault(die_dir.name, {})[colour_dir.name] = imgs
    if not layout:
        raise ValueError(f"{samples}: no images in SAMPLES/<white|black>/<colour>/")
    for name, colours in layout.items():
        if len(colours) < 2:
            raise ValueError(f"{samples}/{name}: need images of at least 2 colours")
    total = 2 * sum(len(paths) for colours in layout.values() for paths in colours.values())
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress.update(1)
        if on_progress is not None:
            on_progress(done, total)

    shots = {p: shrink(read_image(p)) for colours in layout.values() for paths in colours.values()
             for p in paths}
    table = empty_table([shrink(read_image(p)) for p in table_shots], list(shots.values()))
    frames: dict[str, dict[str, list[Frame]]] = {}
    bodies: dict[str, list] = {}
    sizes: dict[str, list] = {}
    for name, colours in layout.items():
        for colour, paths in colours.items():
            for p in paths:
                frame = prepare(shots[p], table)
                frames.setdefault(name, {}).setdefault(colour, []).append(frame)
                found = blobs(frame.foreground, 30)
                if not found:
                    raise ValueError(f"{p}: no die found on the table")
                b = max(found, key=lambda b: b.area)
                inner = cv2.erode(b.mask, np.ones((3, 3), np.uint8)) > 0
                grey = inner & (frame.chroma[b.window] < 2.2 * GREY_CHROMA)
                if grey.sum() < 10:
                    raise ValueError(f"{p}: cannot see the die's body colour")
                L = frame.lab[b.window][..., 0][grey].astype(np.float32)
                # the top face is the most frontal, so the extreme lightness for the body
                body_l = float(np.percentile(L, 80 if name == "white" else 20))
                bodies.setdefault(name, []).append(body_l)
                sizes.setdefault(name, []).append(np.sqrt(b.area) / 1.15)
                step()
    model = ColourDiceModel({
        name: DieModel((float(np.median(bodies[name])), 128.0, 128.0), float(np.median(sizes[name])))
        for name in layout
    }, WORK_W * 2, table)
    for name, frames_by_colour in frames.items():
        by_colour: dict[str, list[float]] = {}
        for colour, fs in frames_by_colour.items():
            for frame in fs:
                step()
                frame = white_balanced(frame, model)
                # one die alone in the shot: no ring round another die to tell it from, so the
                # pale die's hull may hold as much of its shadow as when the dark die is placed
                found, _ = _find_die(frame, model, name, other_body_max=OTHER_BODY_PLACED)
                patch = _top_face(frame, model, name, found[0]) if found else None
                mark = None if patch is None else patch_colour(frame, found[0], patch)
                if mark is None:
                    continue
                model.dice[name].samples.setdefault(colour, []).append(mark[0])
                by_colour.setdefault(colour, []).append(mark[1])
        shares = [v for vs in by_colour.values() for v in vs]
        model.dice[name].mark_share = min(1.0, float(np.median(shares))) if shares else 0.0
        model.dice[name].colour_shares = {c: min(1.0, max(v)) for c, v in by_colour.items()}
        missing = [c for c in frames_by_colour if not model.dice[name].samples.get(c)]
        if missing:
            raise ValueError(f"{samples}/{name}: could not see the mark of {', '.join(missing)}")
    return model
