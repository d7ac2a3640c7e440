"""Read the two dice's top faces from one camera frame.

>>> # reader = DiceReader(DiceModel.load("dice.npz")); reader.read(frame)
>>> DiceReading(("rabbit", "fox"), 0.93, "ok").faces
('rabbit', 'fox')
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import cv2
import numpy as np

from farmbox.vision.dice.colour import BINS, balance_gains, balanced
from farmbox.vision.dice.detect import (
    Blob,
    blob_of,
    blobs_of,
    changed_from_table,
    chromaticity,
    find_dice,
    label_dice,
    same_object,
    sharpness,
    shrink,
    work_scale,
)
from farmbox.vision.dice.faces import DICE, FACES, faces_on
from farmbox.vision.dice.features import best_rotation_scores, polar_patches, spectra
from farmbox.vision.dice.model import DiceModel


def _grid(reach: float, step: float) -> np.ndarray:
    r = np.arange(-reach, reach + 1e-9, step)
    pts = np.array([(x, y) for y in r for x in r if x * x + y * y <= reach * reach + 1e-9], np.float32)
    return pts


#: Where to look for the top face's centre around the predicted one, in die radii: a coarse
#: disc (the silhouette's centre can be off when a side is in deep shade or touches the other
#: die), then a fine grid around the best coarse spot (steps of about a pixel: a picture of
#: thin lines matches itself only that closely).
COARSE = _grid(0.24, 0.08)
#: The coarse grid's step in top-face discs: a smaller disc (thin lines on a small sticker)
#: is sampled more finely and matches itself only as closely, in frame pixels.
COARSE_STEP = 0.2


@functools.lru_cache(maxsize=8)
def coarse_grid(rho: float) -> np.ndarray:
    """The coarse search's spots for a top-face disc of ``rho`` die radii: :data:`COARSE`, or
    finer for a disc under 0.4 die radii."""
    step = COARSE_STEP * rho
    return COARSE if step >= 0.08 else _grid(0.24, step)


#: How many distinct coarse spots (the best ones of the faces) the fine search refines, and
#: how many more where that reads no face clearly (:data:`CLEAR_LEAD`, :data:`CLEAR_MARGIN`):
#: a rabbit whose face lay between two coarse spots matched there under a spurious spot of
#: the sheep and one of the pig, and was read as the sheep (stamp/cloth 5, with the camera's
#: lean learned 2 pixels off); refining three spots on every die cost a third more a frame.
REFINED = 2
REFINED_MORE = 2
FINE = _grid(0.05, 1 / 60)

#: A flat die's top face is found this close to where perspective puts it (in die radii); a die
#: leaning on an edge shows its best-matching picture further out, on a tilted face.
MAX_OFFSET = 0.2
#: A top face matched at least this far above the accept score, and with at least this many
#: times the accepted lead, is read wherever the search found it (a leaning camera).
CLEAR_LEAD = 0.3
CLEAR_MARGIN = 2.0
#: Flat dice's top faces are found within this (in die radii) on enrolled cameras.
NEAR_OFFSET = 0.12

#: A die showing less than this share of its usual size is partly hidden (or smeared).
HIDDEN_AREA = 0.8
#: A die cut by the frame's edge is read only when the centre of its top face lies at least
#: this far (in radii of the die's usual silhouette there) inside the frame: its picture is then
#: in view (a face's corners reach 0.64 of the radius, its picture some 0.35-0.4).  On sixteen
#: of the second renderer's boxes (stamp, painted and line art), the dice touching the frame's
#: edge wholly in view had their top face's centre 0.48-1.07 radii inside; the dice cut by it
#: with most of their silhouette in view, -0.06-0.31 (before stop 60 such a die was read when
#: its face matched clearly: a face cut in half read as a rabbit).
FACE_IN_VIEW = 0.4
#: A die showing more than this share of its usual size is not one die (two touching, or a
#: die with a patch of the table of its colour).
TOO_LARGE = 1.6
#: A silhouette this much longer than a flat die's at the same spot at enrollment is a die on an
#: edge; somewhat longer, it is one when the top face also matches weakly.
TILT_ELONGATION = 0.1
SOME_ELONGATION = 0.02

#: A die this much less sharp than at enrollment is smeared (unsure; never "motion" from one
#: frame).
MOTION_SHARPNESS = 0.6
#: A die this much less sharp than at enrollment whose top face matches nothing is smeared
#: (unsure), not tilted.
SOFT_SHARPNESS = 0.9
#: A silhouette this much longer than a flat die's there is smeared by motion.
MOTION_STRETCH = 0.3


@dataclass(frozen=True)
class DiceReading:
    """What the reader saw: faces (green, red) when sure, else None with the reason."""

    faces: tuple[str, str] | None
    confidence: float
    reason: str

    def as_dict(self) -> dict:
        return {"faces": list(self.faces) if self.faces else None,
                "confidence": round(float(self.confidence), 4), "reason": self.reason}


@dataclass(frozen=True)
class FaceScores:
    """Best correlation of one die's top face with each enrolled face."""

    scores: dict[str, float]
    offset: float = 0.0  # how far the best-matching disc sits from the predicted centre, in die radii
    #: where that disc's centre lies in the frame (pixels)
    at: tuple[float, float] = (0.0, 0.0)

    @property
    def ranked(self) -> list[tuple[str, float]]:
        return sorted(self.scores.items(), key=lambda kv: -kv[1])

    @property
    def best(self) -> tuple[str, float, float]:
        """Best face, its score and its lead over the runner-up."""
        r = self.ranked
        return r[0][0], r[0][1], r[0][1] - (r[1][1] if len(r) > 1 else -1.0)


def top_face_centre(model: DiceModel, frame_shape: tuple[int, ...], blob: Blob) -> tuple[float, float]:
    """Where the top face's centre projects (see :func:`~farmbox.vision.dice.model.top_of`)."""
    return model.top_centre(frame_shape, blob.centre)


def score_faces(model: DiceModel, frame: np.ndarray, gains: np.ndarray, blob: Blob, die: int,
                exclude: int | np.ndarray | None = None) -> FaceScores:
    """Compare a die's top face with the enrolled templates of that die's faces.

    The top face is where a disc best matches some enrolled top face (coarse then fine search
    around the predicted centre; more spots searched finely where no face is clear).
    ``exclude`` leaves one template out (enrollment's leave-one-out calibration). A face
    enrolled only on the other die uses that die's photos.
    """
    disc = model.rho * float(np.sqrt(model.area_at(die, frame.shape, blob.centre) / np.pi))
    centre = model.top_centre(frame.shape, blob.centre)
    usable = np.ones(len(model.templates), bool)
    if exclude is not None:
        usable[exclude] = False
    faces, columns = [], []
    for face in faces_on(DICE[die]):
        fi = FACES.index(face)
        sel = usable & (model.template_face == fi) & (model.template_die == die)
        if not sel.any():
            sel = usable & (model.template_face == fi)
        if sel.any():
            faces.append(face)
            columns.append(np.flatnonzero(sel))
    if not faces:
        return FaceScores({})
    index = np.concatenate(columns)
    owner = np.concatenate([np.full(len(c), i) for i, c in enumerate(columns)])
    bank = model.spectra[index]
    stretch = model.stretch_at(frame.shape, blob.centre)
    grid = coarse_grid(float(model.rho))
    coarse = best_rotation_scores(spectra(polar_patches(frame, gains, centre, blob.radius, grid, disc, stretch)),
                                  bank)
    # each face's own best coarse spot, the best few of them refined: thin lines match only
    # within a pixel or two, so the coarse winner of one face says little about another's spot
    face_best = np.stack([coarse[:, owner == i].max(axis=1) for i in range(len(faces))])  # faces, spots
    spots = np.argmax(face_best, axis=1)
    order = np.argsort(-face_best[np.arange(len(faces)), spots])
    distinct = list(dict.fromkeys(int(spots[i]) for i in order))

    def refined(chosen: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The fine search round each of the coarse spots ``chosen``: (its offsets, their best
        scores per template)."""
        offsets = np.concatenate([grid[q] + FINE for q in chosen])
        return offsets, best_rotation_scores(
            spectra(polar_patches(frame, gains, centre, blob.radius, offsets, disc, stretch)), bank)

    def scored(offsets: np.ndarray, fine: np.ndarray) -> FaceScores:
        per_template = np.maximum(coarse.max(axis=0), fine.max(axis=0))
        spot = offsets[int(np.argmax(fine.max(axis=1)))]
        return FaceScores({f: float(per_template[owner == i].max()) for i, f in enumerate(faces)},
                          float(np.hypot(*spot)), (centre[0] + float(spot[0]) * blob.radius,
                                                   centre[1] + float(spot[1]) * blob.radius))

    offsets, fine = refined(distinct[:REFINED])
    scores = scored(offsets, fine)
    face, score, margin = scores.best
    if REFINED_MORE and len(distinct) > REFINED and not _clear(model, face, score, margin):
        # not read clearly: the next faces' spots are refined too (a face found between two
        # coarse spots matches there less well than a spurious spot of another face does).
        # At enrollment, before the thresholds are learned, that is a photo read as another
        # face leave-one-out, as the reader would read it
        more, extra = refined(distinct[REFINED:REFINED + REFINED_MORE])
        offsets, fine = np.concatenate([offsets, more]), np.concatenate([fine, extra])
        scores = scored(offsets, fine)
    return scores


def _clear(model: DiceModel, face: str, score: float, margin: float) -> bool:
    """Whether a top face is matched clearly (:data:`CLEAR_LEAD`, :data:`CLEAR_MARGIN`)."""
    return score >= model.min_score + CLEAR_LEAD and margin >= CLEAR_MARGIN * model.margin_for(face)


def _die_confidence(model: DiceModel, face: str, score: float, margin: float) -> float:
    """0..1, above 0.5 exactly when both the score and the margin pass their thresholds."""
    z = min((score - model.min_score) / 0.08, (margin - model.margin_for(face)) / 0.04)
    return float(1.0 / (1.0 + np.exp(-3.0 * z)))


def _face_in_view(frame_shape: tuple[int, ...], at: tuple[float, float], die_area: float) -> bool:
    """Whether a top face centred at ``at``, on a die whose silhouette would cover
    ``die_area`` pixels there, lies :data:`FACE_IN_VIEW` of its radius inside the frame."""
    h, w = frame_shape[:2]
    reach = FACE_IN_VIEW * float(np.sqrt(die_area / np.pi))
    return reach <= at[0] <= w - 1 - reach and reach <= at[1] <= h - 1 - reach


def _touching(a: Blob, b: Blob) -> bool:
    """Whether two dice's silhouettes come within a tenth of a die's radius of each other."""
    gap = 0.1 * min(a.radius, b.radius)
    pts = b.hull.reshape(-1, 1, 2).astype(np.float32)
    hull = a.hull.reshape(-1, 1, 2).astype(np.float32)
    near = max(cv2.pointPolygonTest(hull, (float(x), float(y)), True) for x, y in pts.reshape(-1, 2))
    if near >= -gap:
        return True
    pts, hull = hull, pts
    return max(cv2.pointPolygonTest(hull, (float(x), float(y)), True) for x, y in pts.reshape(-1, 2)) >= -gap


class DiceReader:
    """Reads rolls with an enrolled :class:`DiceModel`."""

    def __init__(self, model: DiceModel) -> None:
        self.model = model
        # each die's mean chromaticity (g, r) from its learned colour density
        bins = (np.arange(BINS) + 0.5) / BINS
        self._die_chroma = []
        for dens in model.densities[1:]:
            p = dens / max(float(dens.sum()), 1e-9)  # rows r, columns g
            self._die_chroma.append(np.array([(p.sum(axis=0) * bins).sum(), (p.sum(axis=1) * bins).sum()]))

    def find(self, frame: np.ndarray, gains: np.ndarray | None = None) -> list[Blob | None]:
        """The green and red dice's silhouettes (None where not seen)."""
        m = self.model
        gains = balance_gains(frame) if gains is None else gains
        min_area = 0.35 * m.smallest_area(frame.shape)
        return self._against_table(frame, gains, find_dice(frame, m.densities, m.floor, min_area, gains), min_area)

    def _against_table(self, frame: np.ndarray, gains: np.ndarray, found: list[Blob | None],
                       min_area: float) -> list[Blob | None]:
        """``found``, with a die of the table's own colour (a green die on a green felt: only
        its stickers and shading differ from the table), not found by its colour or found only
        in part, found instead by what differs in colour from the empty table learned at
        enrollment, apart from the other die.  Only one die missing is looked for so: with
        both, nothing tells which is which."""
        m = self.model
        expected = [m.area_at(d, frame.shape, b.centre) if b is not None else 0.0 for d, b in enumerate(found)]
        # (a die found smaller than usual touching the frame's edge is left as it is: cut by
        # the edge, it is out of view)
        missing = [d for d, b in enumerate(found) if b is None or b.area > TOO_LARGE * expected[d]
                   or (b.area < HIDDEN_AREA * expected[d] and not b.touches_border)]
        if len(missing) != 1:
            return found
        d = missing[0]
        other, small = found[1 - d], shrink(frame)
        if other is None or m.table_chroma.shape[:2] != small.shape[:2]:
            return found        # (no empty table learned, or a frame of another size)
        scale = work_scale(frame)
        changed = changed_from_table(balanced(small, gains), m.table_chroma.astype(np.float32) / 255)
        # less the other die (a die touching it would be joined to it)
        hull = np.zeros(changed.shape, np.uint8)
        cv2.fillConvexPoly(hull, np.round((other.hull + 0.5) * scale - 0.5).astype(np.int32), (1,))
        changed &= cv2.dilate(hull, np.ones((3, 3), np.uint8)) == 0
        candidates = [c for c in blobs_of(changed, scale, min_area, most=4) if not same_object(c, other)]
        own = found[d]
        if own is not None:     # the die found in part, or with the table round it: its region
            candidates = [c for c in candidates if same_object(c, own) or cv2.pointPolygonTest(
                c.hull.reshape(-1, 1, 2).astype(np.float32), own.centre, False) >= 0]
        if candidates and (own is None or own.area > TOO_LARGE * expected[d]
                           or candidates[0].area > own.area):
            return [dataclasses.replace(candidates[0], by_table=True) if k == d else b for k, b in enumerate(found)]
        return found

    def smeared(self, frame: np.ndarray, gains: np.ndarray, die: int,
                seen: list[Blob | None] | None = None) -> bool:
        """Whether ``die``'s colour shows as a faint smear of about a die's size (a rolling die
        blends with the table). The dice found in ``seen`` are left out: a pale sticker or the
        shaded side of a die lying still is not a smear of the other one."""
        m = self.model
        small = balanced(shrink(frame), gains)
        chroma = chromaticity(small)  # g, r
        axis = self._die_chroma[die] - 1 / 3
        v = chroma - 1 / 3
        t = (v @ axis) / float(axis @ axis)
        off = np.linalg.norm(v - t[..., None] * axis, axis=2)
        # between the table's grey and the die's own colour: blended, as a moving die is
        faint = (t > 0.2) & (t < 0.65) & (off < 0.5 * float(np.linalg.norm(axis)))
        scale = work_scale(frame)
        for blob in seen or []:
            if blob is not None:
                still = np.zeros(faint.shape, np.uint8)
                cv2.fillConvexPoly(still, np.round((blob.hull + 0.5) * scale - 0.5).astype(np.int32), (1,))
                r = max(1, int(round(0.15 * blob.radius * scale)))
                grown = cv2.dilate(still, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
                faint &= grown == 0
        area = m.scaled_area(die, frame.shape[1])
        blob = blob_of(faint, work_scale(frame), 0.35 * area)
        return blob is not None and blob.area > 0.5 * area

    def cut_by_edge(self, frame: np.ndarray, gains: np.ndarray, die: int,
                    seen: list[Blob | None]) -> bool:
        """Whether a piece of ``die``'s colour, too small to be a whole die, lies against the
        frame's edge (the rest of the die is out of view), apart from the dice in ``seen``."""
        m = self.model
        labels = label_dice(frame, m.densities, m.floor, gains)
        piece = 0.12 * m.scaled_area(die, frame.shape[1])
        for blob in blobs_of(labels == die + 1, work_scale(frame), piece):
            if blob.touches_border and not any(
                    other is not None and float(np.hypot(blob.centre[0] - other.centre[0],
                                                         blob.centre[1] - other.centre[1])) < other.radius
                    for other in seen):
                return True
        return False

    def read(self, frame: np.ndarray) -> DiceReading:
        """Read one BGR frame."""
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) < 32:
            raise ValueError("expected a BGR colour frame")
        m = self.model
        gains = balance_gains(frame)
        blobs = self.find(frame, gains)
        # each die's expected size where it lies (the other die's spot, or the usual size, for
        # a die not seen)
        expected = [m.area_at(d, frame.shape, b.centre) if b is not None else m.scaled_area(d, frame.shape[1])
                    for d, b in enumerate(blobs)]
        if all(b is None for b in blobs):
            # one still frame never says "motion" (only the stillness detector, comparing
            # frames, does): a faint smear of a die's colour is a die too blurred to read
            if any(self.smeared(frame, gains, d) for d in range(len(blobs))):
                return DiceReading(None, 0.0, "unsure")
            return DiceReading(None, 0.0, "no dice")
        # a die cut by the frame's edge is out of view; one wholly in view near it is read
        if any(b is not None and b.touches_border and b.area < HIDDEN_AREA * e
               for b, e in zip(blobs, expected)):
            return DiceReading(None, 0.0, "die out of view")
        missing = [d for d, b in enumerate(blobs) if b is None or b.area < HIDDEN_AREA * expected[d]]
        if missing:
            whole = [b for d, b in enumerate(blobs) if d not in missing]
            if any(self.cut_by_edge(frame, gains, d, whole) for d in missing):
                return DiceReading(None, 0.0, "die out of view")
            # a faint smear counts only when no die lies still and sharp beside it: a table's
            # stripe can pass for a smear, and one die hidden is what the frame shows then
            if any(self.smeared(frame, gains, d, whole) for d in missing):
                return DiceReading(None, 0.0, "unsure")
            return DiceReading(None, 0.0, "one die hidden")
        # none is missing, so every die has its silhouette
        seen = [b for b in blobs if b is not None]
        faces, confs = [], []
        # touching dice hide part of each other's silhouette: then only the top face counts
        touching = _touching(seen[0], seen[1])
        by_table = any(b.by_table for b in seen)
        for die, blob in enumerate(seen):
            expected_area = expected[die]
            # how much longer than a die lying flat there looked at enrollment
            stretch = 0.0 if touching else blob.elongation - m.flat_elongation(frame.shape, blob.centre)
            sharp = sharpness(frame, blob) / max(m.sharpness, 1e-6)
            if sharp < MOTION_SHARPNESS or stretch > MOTION_STRETCH:
                # smeared (a die still rolling, or a shaken camera): a person would hesitate
                # too; whether it moves is for the stillness detector to say
                return DiceReading(None, 0.0, "unsure")
            scores = score_faces(m, frame, gains, blob, die)
            face, score, margin = scores.best
            conf = _die_confidence(m, face, score, margin)
            # a picture on a leaning face matches weakly, away from where a flat top face is
            weak = scores.offset > NEAR_OFFSET or score < m.min_score + 0.15
            # a top face matched this clearly is a flat die (a die on an edge has no face
            # parallel to the table): seen by a camera that leans (its top face further from
            # where a straight-down camera puts it), or with part of its silhouette lost in a
            # table of its colour (an outline that looks drawn out)
            clear = _clear(m, face, score, margin)
            if score < m.min_score and sharp < SOFT_SHARPNESS:
                # nothing matches on dice softer than at enrollment: smeared, a person would
                # hesitate too (whether they move is for the stillness detector)
                return DiceReading(None, min(conf, 0.4), "unsure")
            if (score < m.min_score or (scores.offset > MAX_OFFSET and not clear)
                    or (scores.offset > 0.1 and score < m.min_score + 0.1)
                    or (not clear and (stretch > TILT_ELONGATION or (stretch > SOME_ELONGATION and weak)))):
                # no flat top face: on a die cut by the frame's edge (most of it in view) the
                # face is cut too, and the die is out of view, not tilted; where a die was found
                # only by what differs from the empty table, the dice may be rolling (a smear
                # of its colour cannot be told on a table of that colour): unsure
                return DiceReading(None, min(conf, 0.4), "die out of view" if blob.touches_border
                                   else "unsure" if by_table else "die tilted")
            if blob.touches_border and not _face_in_view(frame.shape, scores.at, expected_area):
                # a die cut by the frame's edge is read only with its top face's picture in view
                return DiceReading(None, min(conf, 0.4), "die out of view")
            if blob.area > TOO_LARGE * expected_area:
                return DiceReading(None, conf, "unsure")
            faces.append(face)
            confs.append(conf)
        conf = min(confs)
        if conf < 0.5:
            return DiceReading(None, conf, "unsure")
        return DiceReading((faces[0], faces[1]), conf, "ok")
