"""Learn a :class:`DiceModel` from a few photos of each face, taken by the mounted camera.

SAMPLES/<face>/*.jpg|png holds photos of one die alone on the empty table with <face> up (both
dice's faces of one animal share a folder); SAMPLES/background.jpg|png is the empty table
(optional: without it, the median of the samples is used). Which die is green and which red is
learned here, from the colours: the photos fall into two colour groups, and the group holding
the wolf and the cow is the green die, the one holding the fox and the horse the red die.

The guided enrollment screen drives :class:`DiceEnrollment` directly::

    enrollment = DiceEnrollment()
    while (step := enrollment.next_step()) is not None:
        enrollment.add_sample(step.face, camera.frame())   # or enrollment.retake(step.face)
    model = enrollment.build_model()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from farmbox.vision.dice.colour import BINS, balance_gains, balanced, density, histogram
from farmbox.vision.dice.detect import (
    Blob,
    blob_of,
    changed_from_table,
    chromaticity,
    find_dice,
    same_object,
    sharpness,
    shrink,
    work_scale,
)
from farmbox.vision.dice.faces import DICE, DIE_FACES, FACES, only_on
from farmbox.vision.dice.features import polar_patches
from farmbox.vision.dice.model import (
    NO_SIZE_MAP,
    SIZE_RANGE,
    DiceModel,
    size_factor,
    size_terms,
    stretch_of,
    top_of,
)
from farmbox.vision.dice.reader import TOO_LARGE, score_faces
from farmbox.vision.files import load_colour_image

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
#: Extra exposures each enrolled face is also remembered at.
EXPOSURES = (0.7, 1.35)

#: The top face's disc radius, in die radii, tried at enrollment; the usual ones (of which the
#: one whose photos agree best is kept); and how much better another must read the photos
#: leave-one-out (its mean lead) to be kept instead.  A picture drawn in thin lines on a
#: sticker smaller than the face is read only by a disc inside the sticker: its edge is the
#: same on every face and, where the disc reaches it, outweighs the lines (on the second
#: renderer's line art, twelve boxes, the best disc read 1.65-99 times the usual one's mean
#: lead); on art that fills the face the best reads within 1.1 times the usual (its twelve
#: stamp and painted boxes).
DISC_SHARES = (0.28, 0.34, 0.40, 0.46)
USUAL_DISCS = (0.40, 0.46)
DISC_BETTER = 1.3
#: A disc whose own thresholds accept fewer than this share of the enrollment photos that
#: another disc's accept (read right leave-one-out, by the score and lead each learns) is
#: passed over for that one.  Photos read as another face through a disc that takes in the
#: next faces (stamp art behind a leaning camera, blurred: the usual disc read 3 photos wrong
#: by up to 0.25, then asked that lead of every throw and refused all 120; the smallest disc
#: read 29 of 30 photos and all 120 throws).  On 46 other boxes (the second renderer's stamp,
#: painted and line art) the disc chosen accepted as many photos as any other, or 29 of 30.
FEW_ACCEPTED = 0.5


def load_image(path: str | Path) -> np.ndarray:
    """Read a colour image (its size checked before decoding) or raise a one-line error naming it."""
    return load_colour_image(path)


@dataclass(frozen=True)
class Step:
    """One photo to take: ``face`` up, on the ``die`` die (a hint for the person)."""

    face: str
    die: str
    number: int  # 1-based within this face and die


@dataclass
class EnrollmentPlan:
    """Which photos to take: ``per_face`` of each face of each die (wolf once per set, pig twice)."""

    per_face: int = 3

    @property
    def steps(self) -> list[Step]:
        return [Step(face, die, k + 1) for face in FACES for die in DICE if face in DIE_FACES[die]
                for k in range(self.per_face)]

    def count(self, face: str) -> int:
        return sum(1 for s in self.steps if s.face == face)

    def __len__(self) -> int:
        return len(self.steps)


@dataclass(frozen=True)
class SampleCheck:
    """How one enrollment photo reads leave-one-out: against the model with its own templates
    left out, as a roll showing that face would be read."""

    name: str
    face: str            # the face the photo was taken for
    die: str             # the die it shows (by its colour)
    read: str | None     # the face it reads as; None: not checked (no other photo of its face)
    score: float         # its own face's score (nan when not checked)
    margin: float        # its own face's lead over the best other face (< 0: read as another)

    @property
    def checked(self) -> bool:
        return self.read is not None


#: A photo is weak when it reads within this much of the model's acceptance thresholds (a
#: roll showing that face in another spot or light would be refused, or worse).
SCORE_BAND = 0.05
MARGIN_BAND = 0.02
#: At most this many photos read as another face are left out to check the others again.
RELEARNS = 2


def is_weak(check: SampleCheck, min_score: float, min_margin: float) -> bool:
    """Whether ``check``'s photo should be taken again: read as another face leave-one-out, or
    its score or lead below the model's ``min_score`` / ``min_margin`` plus a small band.  The
    lead is held to ``min_margin``, not to a face's own least lead (:func:`face_margins`): that
    is raised by photos of other faces read as it, and says nothing of its own photos."""
    if not check.checked:
        return False
    return (check.read != check.face or check.score < min_score + SCORE_BAND
            or check.margin < min_margin + MARGIN_BAND)


def why_weak(check: SampleCheck, min_score: float) -> str:
    """Why a weak ``check``'s photo should be taken again, in a few words (:func:`is_weak`)."""
    if check.read != check.face:
        return f"it reads as the {check.read}"
    if check.score < min_score + SCORE_BAND:
        return f"it matches the other photos of the {check.face} weakly"
    return f"its {check.face} is told from the other faces by a narrow lead"


def weak_samples(checks: Iterable[SampleCheck], min_score: float, min_margin: float) -> list[SampleCheck]:
    """The photos whose leave-one-out reads are weak (:func:`is_weak`), in their order."""
    return [c for c in checks if is_weak(c, min_score, min_margin)]


@dataclass
class DiceEnrollment:
    """Collects samples (face, frame) and builds the model; the device's guided screen uses it.

    Each sample fills one step of the plan (:attr:`steps`, in the samples' order, which is the
    plan's): a sample added without its step fills the first open step of its face. After
    :meth:`build_model`, :attr:`checks` holds each sample's leave-one-out read and
    :attr:`weak` the steps whose photos read weak; :meth:`forget` those and :meth:`next_step`
    asks for them again.
    """

    plan: EnrollmentPlan = field(default_factory=EnrollmentPlan)
    samples: list[tuple[str, np.ndarray, str]] = field(default_factory=list)  # face, frame, name
    background: np.ndarray | None = None
    #: The plan's step each sample fills (None: a sample beyond the plan's count of its face).
    steps: list[Step | None] = field(default_factory=list)
    #: The last build's leave-one-out read of each sample, in the samples' order.
    checks: list[SampleCheck] = field(default_factory=list)
    #: The steps whose photos the last build found weak (:func:`is_weak`).
    weak: list[Step] = field(default_factory=list)

    def add_sample(self, face: str, image: np.ndarray, name: str = "", step: Step | None = None) -> None:
        """Add a photo of ``face`` up (for ``step`` of the plan, else the face's first open one)."""
        if face not in FACES:
            raise ValueError(f"unknown face {face!r} (expected one of {', '.join(FACES)})")
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"sample {name or face} is not a colour image")
        plan = self.plan.steps
        if step is None:
            step = next((s for s in plan if s.face == face and s not in self.steps), None)
        elif step not in plan or step.face != face:
            raise ValueError(f"{face} photo {step.number} of the {step.die} die is not in the plan")
        elif step in self.steps:
            raise ValueError(f"{face} photo {step.number} of the {step.die} die is already taken")
        name = name or f"{face}#{self.count(face) + 1}"
        at = len(self.samples)
        if step is not None:  # in the plan's order (the order the CLI reads a SAMPLES folder in)
            order = plan.index(step)
            at = next((i for i, s in enumerate(self.steps) if s is None or plan.index(s) > order), at)
        self.samples.insert(at, (face, image, name))
        self.steps.insert(at, step)

    def retake(self, face: str) -> None:
        """Forget the last sample of ``face``."""
        for i in range(len(self.samples) - 1, -1, -1):
            if self.samples[i][0] == face:
                del self.samples[i], self.steps[i]
                return
        raise ValueError(f"no {face} sample to retake")

    def forget(self, step: Step) -> None:
        """Forget the sample taken for ``step`` (it is asked for again)."""
        if step not in self.steps:
            raise ValueError(f"no {step.face} photo {step.number} of the {step.die} die to retake")
        i = self.steps.index(step)
        del self.samples[i], self.steps[i]

    def set_background(self, image: np.ndarray) -> None:
        self.background = image

    def count(self, face: str) -> int:
        return sum(1 for f, _, _ in self.samples if f == face)

    def next_step(self) -> Step | None:
        """The next photo the plan asks for, or None when every step has its photo."""
        return next((s for s in self.plan.steps if s not in self.steps), None)

    def progress(self) -> tuple[int, int]:
        """(photos taken that the plan asked for, photos in the plan)."""
        return sum(1 for s in self.steps if s is not None), len(self.plan)

    def build_model(self, progress: Callable[[Iterable], Iterable] | None = None) -> DiceModel:
        """Learn the model from all the samples; keep each one's leave-one-out read and the
        steps whose photos read weak (the worst read as another face, then the others as a
        model learned without it reads them)."""
        checks: list[SampleCheck] = []
        model = build_model(self.samples, self.background, progress, checks)
        weak = [is_weak(c, model.min_score, model.min_margin) for c in checks]
        # a photo of another face skews what is learned from all of them (the camera's
        # geometry, the thresholds): the worst such photo is left out and the others are
        # checked again by a model learned without it, and so on a few times
        out: list[int] = []
        while len(out) < RELEARNS:
            wrong = [i for i, c in enumerate(checks) if weak[i] and c.read != c.face and i not in out]
            if not wrong or len(out) + 1 >= len(checks):
                break
            out.append(min(wrong, key=lambda i: checks[i].margin))
            kept = [i for i in range(len(checks)) if i not in out]
            again: list[SampleCheck] = []
            try:
                # the disc learned from all the photos stands (one photo less hardly moves it)
                clean = build_model([self.samples[i] for i in kept], self.background, None, again,
                                    discs=(float(model.rho),))
            except ValueError:
                break  # without those photos nothing can be learned: the checks so far stand
            for i, c in zip(kept, again):
                checks[i] = c
                weak[i] = is_weak(c, clean.min_score, clean.min_margin)
        self.checks = checks
        self.weak = [step for step, w in zip(self.steps, weak) if step is not None and w]
        return model


# --------------------------------------------------------------------------- learning

def _working_table(samples: list[tuple[str, np.ndarray, str]], gains: list[np.ndarray],
                   background: np.ndarray | None) -> tuple[list[np.ndarray], np.ndarray]:
    """The samples and the empty table in the working image, white-balanced (``gains``: each
    sample's :func:`balance_gains`; without an empty-table photo the table is the samples'
    median: each die lies somewhere else)."""
    smalls = [balanced(shrink(img), g) for (_, img, _), g in zip(samples, gains)]
    if background is not None:
        return smalls, balanced(shrink(background), balance_gains(background))
    return smalls, np.median(np.stack(smalls), axis=0).astype(np.float32)


def _found_die(small: np.ndarray, table_chroma: np.ndarray, scale: float, width: int
               ) -> tuple[np.ndarray, Blob | None]:
    """The die's mask in an enrollment photo (``small``, :func:`changed_from_table`; ``scale``: the
    working image's, ``width``: the photo's) and its silhouette (None when none is seen)."""
    body = changed_from_table(small, table_chroma)
    return body, blob_of(body, scale, min_area=(0.02 * width) ** 2)


#: A die touching the frame's edge and showing less than this share of the usual die's area
#: is partly out of view (the reader's own rule for a die cut by the edge).
CUT_AREA = 0.8


class CutByEdge(ValueError):
    """Enrollment photos whose die is cut by the frame's edge (``indexes`` into the samples)."""

    def __init__(self, indexes: list[int], names: list[str]) -> None:
        super().__init__(f"sample {names[0]}: the die is cut by the frame's edge "
                         "(shoot it again with the die wholly in view)")
        self.indexes = indexes


def _two_groups(colours: np.ndarray) -> np.ndarray:
    """Split sample colours (N, 2) into two groups (0/1) by k-means."""
    data = colours.astype(np.float32)
    if len(data) < 2:
        return np.zeros(len(data), int)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-5)
    cv2.setRNGSeed(0)
    # bestLabels is output only here (no KMEANS_USE_INITIAL_LABELS): kmeans fills this array
    out_labels = np.zeros((len(data), 1), np.int32)
    _, labels, _ = cv2.kmeans(data, 2, out_labels, crit, 5, cv2.KMEANS_PP_CENTERS)
    return labels.ravel().astype(int)


def build_model(samples: list[tuple[str, np.ndarray, str]], background: np.ndarray | None = None,
                progress: Callable[[Iterable], Iterable] | None = None,
                checks: list[SampleCheck] | None = None,
                discs: tuple[float, ...] = DISC_SHARES) -> DiceModel:
    """Learn the model from (face, frame, name) samples and the optional empty-table frame.

    ``checks``, when given, receives one :class:`SampleCheck` per sample, in their order: how
    the sample reads leave-one-out (its own templates left out).  ``discs``: the top face's
    disc sizes tried (die radii).
    """
    progress = progress or (lambda it: it)
    if not samples:
        raise ValueError("no dice samples")
    missing = [f for f in FACES if not any(s[0] == f for s in samples)]
    if missing:
        raise ValueError(f"no samples of {', '.join(missing)}")
    size = samples[0][1].shape[:2]
    for _face, img, name in samples:
        if img.shape[:2] != size:
            raise ValueError(f"sample {name} is {img.shape[1]}x{img.shape[0]}, others are "
                             f"{size[1]}x{size[0]} (one camera, one size)")
    if background is not None and background.shape[:2] != size:
        raise ValueError("the background is not the same size as the samples")

    # each photo's white balance, once (every disc and perspective tried looks at every photo)
    gains = [balance_gains(img) for _, img, _ in samples]
    smalls, bg = _working_table(samples, gains, background)
    table_chroma = chromaticity(balanced(bg, None))
    scale = work_scale(samples[0][1])

    # 1. one die per photo, against the empty table
    masks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    on_table: list[Blob] = []  # each photo's die as what differs from the empty table
    at_edge: list[bool] = []  # whether the die touches the frame's edge
    found_bodies: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # body, hull, chroma
    looks: list[np.ndarray] = []  # each photo's die, as a chromaticity histogram
    # the progress bar: a step per photo, then one per disc size tried (step 5)
    steps = iter(progress(range(len(samples) + len(discs))))
    for i, (_face, img, name) in enumerate(samples):
        next(steps)
        small = smalls[i]
        body, blob = _found_die(small, table_chroma, scale, img.shape[1])
        if blob is None:
            raise ValueError(f"sample {name}: no die found on the table")
        hull = np.zeros(body.shape, np.uint8)
        cv2.fillConvexPoly(hull, ((blob.hull + 0.5) * scale - 0.5).astype(np.int32), (1,))
        body &= hull.astype(bool)
        on_table.append(blob)
        at_edge.append(blob.touches_border)
        found_bodies.append((body, hull.astype(bool), chromaticity(small)))
        looks.append(np.sqrt(density(histogram(small, body), 1.5)).ravel())

    # 2. which photos show the green die: two groups of photos by the colours their dice show
    # (all of them: a die may show its own colour only on its rims, beside stickers or shaded
    # pictures of any colour), named by the faces only one die has
    group = _two_groups(np.array(looks))
    faces = [s[0] for s in samples]
    votes = np.zeros((2, 2))
    for g, f in zip(group, faces):
        for d, die in enumerate(DICE):
            votes[g, d] += f in only_on(die)
    if votes[0, 0] + votes[1, 1] == votes[0, 1] + votes[1, 0]:
        raise ValueError("cannot tell the green die from the red one: enroll wolf, cow, fox and horse")
    green_group = 0 if votes[0, 0] + votes[1, 1] > votes[0, 1] + votes[1, 0] else 1
    die_of = np.where(group == green_group, 0, 1)

    # each die's own colour: what its photos show and the other die's do not, away from grey
    bins = (np.arange(BINS) + 0.5) / BINS
    shows = np.zeros((2, BINS, BINS), np.float32)
    for (body, _, _), small, d in zip(found_bodies, smalls, die_of):
        shows[d] += density(histogram(small, body))
    own_colour = []
    for d in (0, 1):
        own = cv2.GaussianBlur(np.clip(shows[d] - 2 * shows[1 - d], 0, None), (0, 0), 1.0)
        own *= np.abs(bins[:, None] - 1 / 3) + np.abs(bins[None, :] - 1 / 3)  # rows r, columns g
        r, g = np.unravel_index(int(np.argmax(own)), own.shape)
        own_colour.append(np.array([bins[g], bins[r]], np.float32))  # g, r as chromaticity

    # the body of each photo's die: pixels near its own colour (not the pictures)
    for (body, hull, chroma), (_, _, name), d in zip(found_bodies, samples, die_of):
        centre = own_colour[d]
        for _ in range(3):
            spread = np.abs(centre - 1 / 3).sum()
            core = body & (np.abs(chroma - centre).sum(axis=2) < 0.4 * spread)
            if not core.any():
                raise ValueError(f"sample {name}: the die has no colour of its own against the table")
            centre = np.median(chroma[core], axis=0)
        spread = np.abs(centre - 1 / 3).sum()
        # pictures: what is clearly not the die's colour (a buffer keeps its shades out)
        pictures = hull & (np.abs(chroma - centre).sum(axis=2) > 0.8 * spread)
        masks.append((core, pictures, hull))
    for d, f, (_, _, name) in zip(die_of, faces, samples):
        if f not in DIE_FACES[DICE[d]]:
            raise ValueError(f"sample {name}: a {f} on what looks like the {DICE[d]} die "
                             f"(the {f} is only on the {DICE[1 - d]} die)")

    # 3. colour densities: the table, and each die's body
    # "other" is the table and the pictures on the dice (their pale or white parts must not
    # pass for the other die's colour), whichever is denser
    counts = np.zeros((4, BINS, BINS), np.float32)
    whole = np.zeros((2, BINS, BINS), np.float32)   # each die's whole silhouette
    counts[0] += histogram(bg, np.ones(bg.shape[:2], bool))
    for small, (body, pictures, hull), d in zip(smalls, masks, die_of):
        ring = cv2.dilate((body | pictures).astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
        counts[0] += histogram(small, ~ring) * 0.1
        counts[1] += histogram(small, pictures)
        counts[2 + d] += histogram(small, body)
        whole[d] += histogram(small, hull)
    dens = [density(c) for c in counts]
    floor = 0.5 / (BINS * BINS)
    first = np.stack([np.maximum(dens[0], dens[1]), dens[2], dens[3]]).astype(np.float32)
    # a colour about as common on the other die's silhouette is not this die's own (a cream
    # sticker on each die): when most of what was taken for a die's body is such a colour,
    # its body is learnt again from what its silhouette shows and the other die's does not
    share = [density(w) for w in whole]
    relearnt = False
    for d in (0, 1):
        shared = share[1 - d] >= SHARED * share[d]
        own = whole[d] * ~shared
        if float((dens[2 + d] * shared).sum()) > 0.5 and own.sum() > 0:
            dens[1] = np.maximum(dens[1], density(whole[d] * shared))
            dens[2 + d] = density(own)
            relearnt = True
    second = np.stack([np.maximum(dens[0], dens[1]), dens[2], dens[3]]).astype(np.float32)

    # 4. the dice as the reader will find them (with the relearnt colours if they find every
    # die, else with the first ones); a die of the table's own colour on a patterned table (a
    # green die on a green gingham) is found by its colour as the checks round it, a region
    # larger than the die or elsewhere: it is found as what differs from the empty table, as
    # the reader finds it (``_against_table``), and its size is learned from that
    min_area = 0.35 * float(np.median([b.area for b in on_table]))
    found: list[Blob] = []
    for densities in ((second, first) if relearnt else (first,)):
        found = []
        for (_face, img, _name), d, own in zip(samples, die_of, on_table):
            blob = find_dice(img, densities, floor, min_area=min_area, apart=False)[d]
            if blob is None:
                break
            if blob.area > TOO_LARGE * own.area or not same_object(blob, own):
                blob = dataclasses.replace(own, by_table=True)
            found.append(blob)
        if len(found) == len(samples):
            break
    if len(found) < len(samples):
        face, img, name = samples[len(found)]
        if at_edge[len(found)]:  # too little of it in view to be found
            raise CutByEdge([len(found)], [name])
        raise ValueError(f"sample {name}: the {DICE[die_of[len(found)]]} die is not found by its colour")
    if len(set(die_of.tolist())) < 2:
        raise ValueError("samples show only one of the two dice")
    # how a die's size changes across the frame, and each die's size where that is 1
    size_map = fit_size_map(found, die_of, size)
    scales = np.array([size_factor(size_map, size, b.centre) for b in found])
    die_area = np.array([np.median([b.area / s ** 2 for b, s, d in zip(found, scales, die_of) if d == k])
                         for k in (0, 1)], np.float32)
    cut = [i for i, (b, s, d) in enumerate(zip(found, scales, die_of))
           if b.touches_border and b.area < CUT_AREA * die_area[d] * s ** 2]
    if cut:
        raise CutByEdge(cut, [samples[i][2] for i in cut])

    ref = np.sqrt(die_area / np.pi)
    sample_ref = ref[die_of] * scales  # each photo's die radius where it lies
    # a lens draws a top face out along the radius towards the frame's edges, a leaning camera
    # along its lean: undone on each
    stretches: list[np.ndarray | None] = [stretch_of(size_map, size, b.centre) for b in found]

    # 5. camera geometry and the top face's disc: for each disc size, the perspective shift
    # that makes same faces agree best; the usual disc is the one of USUAL_DISCS whose photos
    # agree best, unless another reads them clearly better leave-one-out (the reader's own
    # search for the face: a picture of thin lines on a sticker agrees with itself only where
    # found to a pixel, and a disc reaching the sticker's edge sees mostly that edge, the same
    # on every face)
    face_idx = np.array([FACES.index(f) for f in faces])
    geometry = dict(samples=samples, gains=gains, found=found, faces=faces, face_idx=face_idx, die_of=die_of,
                    densities=densities, floor=float(floor), size=size, die_area=die_area,
                    size_map=size_map, sample_ref=sample_ref, stretches=stretches)
    tried = []
    for rho in discs:
        next(steps)
        tried.append(_disc_model(rho, **geometry))
    next(steps, None)   # the bar runs to its end
    chosen = chosen_disc(tried)
    model, read_out, reads = chosen.model, chosen.read_out, chosen.reads
    model.table_chroma = np.round(np.clip(table_chroma, 0, 1) * 255).astype(np.uint8)

    # 6. thresholds from the leave-one-out reads of the samples themselves
    model.min_score, model.min_margin, model.face_margin = _thresholds(reads)
    if checks is not None:
        checks.extend(_named_weak(reads, read_out, model.min_score, model.min_margin))
    return model


def chosen_disc(tried: list[DiscTried]) -> DiscTried:
    """The disc kept of those ``tried``: the one of :data:`USUAL_DISCS` whose photos agree best,
    unless another reads them :data:`DISC_BETTER` times better leave-one-out, or its own
    thresholds accept under :data:`FEW_ACCEPTED` of the photos another's accept."""
    usual = max([t for t in tried if t.model.rho in USUAL_DISCS] or tried, key=lambda t: t.agreement)
    best = max(tried, key=lambda t: t.quality)
    chosen = best if best.quality >= DISC_BETTER * usual.quality and best.quality > 0 else usual
    most = max(tried, key=lambda t: (t.accepted, t.quality))
    return most if chosen.accepted < FEW_ACCEPTED * most.accepted else chosen


def _thresholds(reads: list[SampleCheck]) -> tuple[float, float, np.ndarray]:
    """The least score and lead accepted (:func:`calibrate`), and the least lead of a read of
    each face (:func:`face_margins`), from the photos' leave-one-out reads."""
    tops = np.array([c.score for c in reads if c.checked])
    margins = np.array([c.margin for c in reads if c.checked])
    return (*calibrate(tops, margins), face_margins(reads))


def face_margins(reads: list[SampleCheck]) -> np.ndarray:
    """The least lead a read of each face (FACES' order) needs: a photo of another face read
    as it leave-one-out, by a lead, is the evidence that such leads happen, and a read of that
    face must lead by :data:`WRONG_LEAD_FACTOR` times more (at most
    :data:`WRONG_LEAD_CEILING`); 0 for a face no photo was read as."""
    out = np.zeros(len(FACES))
    for c in reads:
        if c.checked and c.read != c.face:
            f = FACES.index(c.read)
            out[f] = max(out[f], min(WRONG_LEAD_FACTOR * -c.margin, WRONG_LEAD_CEILING))
    return out


def _accepted(reads: list[SampleCheck]) -> int:
    """How many photos read right leave-one-out pass the thresholds learned from those reads."""
    min_score, min_margin, face_margin = _thresholds(reads)
    return sum(c.checked and c.read == c.face and c.score >= min_score
               and c.margin >= max(min_margin, float(face_margin[FACES.index(c.face)])) for c in reads)


class DiscTried(NamedTuple):
    """A disc size tried at enrollment: its model, how it reads a photo leave-one-out, each
    photo read so, how well same faces agree where first looked for, the reads' quality, and
    how many photos its own thresholds accept."""

    model: DiceModel
    read_out: Callable[[int, list[int]], SampleCheck]
    reads: list[SampleCheck]
    agreement: float
    quality: float
    accepted: int


def _disc_model(rho: float, samples: list[tuple[str, np.ndarray, str]], gains: list[np.ndarray],
                found: list[Blob], faces: list[str],
                face_idx: np.ndarray, die_of: np.ndarray, densities: np.ndarray, floor: float,
                size: tuple[int, ...], die_area: np.ndarray, size_map: np.ndarray, sample_ref: np.ndarray,
                stretches: list[np.ndarray | None]) -> DiscTried:
    """The model with a top-face disc of ``rho`` die radii (thresholds not yet set), how to
    read a sample leave-one-out with it, and each sample read so (``gains``: each sample's
    :func:`balance_gains`)."""
    discs = rho * sample_ref

    def at(k: float, shift: np.ndarray) -> np.ndarray:
        """Each photo's top face as the camera geometry ``k``, ``shift`` puts it."""
        return np.stack([polar_patches(img, g, _centre(img, b, k, shift), b.radius,
                                       np.zeros((1, 2), np.float32), float(disc), st)[0]
                         for (_, img, _), g, b, disc, st in zip(samples, gains, found, discs, stretches)])

    # the camera geometry: from each perspective tried, where each photo's top face really is
    # (a leaning camera shifts them all the same way) is looked for and fitted
    # (:func:`_fit_top_field`); the geometry whose same faces agree best is kept.  The fit
    # stays near where it starts (it looks with the faces as that start puts them), so every
    # start is fitted: thin lines agree only where found to a pixel or two, and before the
    # fit they agreed best at a perspective far off theirs (a camera leaning 10 degrees:
    # every throw refused)
    tried = []      # (how well same faces agree, perspective, shift, the top faces so)
    agreement = -np.inf        # where the faces are first looked for (how the usual disc is chosen)
    for k in PERSPECTIVES:
        desc = at(float(k), np.zeros(2))
        tried.append((_separation(desc, face_idx, die_of), float(k), np.zeros(2), desc))
        agreement = max(agreement, tried[-1][0])
        field = _fit_top_field(samples, gains, found, face_idx, desc, float(k), discs, stretches)
        if field is not None:
            fitted = at(*field)
            tried.append((_separation(fitted, face_idx, die_of), field[0], field[1], fitted))
    _, perspective, shift, templates = max(tried, key=lambda t: t[0])
    templates, centres = _recentre(samples, gains, found, face_idx, templates, perspective, shift, rho, discs,
                                   stretches)
    # the same faces under a brighter and a dimmer exposure (a bright face clips to white)
    variants = [templates]
    for exposure in EXPOSURES:
        variants.append(np.stack([
            polar_patches(img, g * exposure, c, b.radius, np.zeros((1, 2), np.float32), float(disc), st)[0]
            for (_, img, _), g, b, c, disc, st in zip(samples, gains, found, centres, discs, stretches)]))
    n = len(samples)

    model = DiceModel(
        templates=np.concatenate(variants).astype(np.float32),
        template_face=np.tile(face_idx, len(variants)).astype(np.int64),
        template_die=np.tile(die_of, len(variants)).astype(np.int64), densities=densities, floor=floor,
        frame_size=np.array([size[1], size[0]], np.int64), die_area=die_area,
        perspective=perspective, rho=rho, size_map=size_map, top_shift=shift,
        sharpness=float(np.median([sharpness(img, b) for (_, img, _), b in zip(samples, found)])),
        elongation_map=fit_elongation_map(found, size), min_score=0.0, min_margin=0.0)
    # the camera's geometry once more, from where the reader's own search finds each photo's
    # top face against the others' (leave-one-out, as it will find a throw's): the geometry
    # above is the one whose templates agree best, and thin lines agree as well a little off
    # (line/tiles 244, leaning 11 degrees: every throw's face found 0.1 radii inwards of where
    # that geometry put it at the frame's edges, seven flat dice refused as tilted)
    found_at = _found_geometry(model, samples, gains, found, face_idx, die_of)
    if found_at is not None:
        model.perspective, model.top_shift = found_at

    def read_out(i: int, left_out: list[int]) -> SampleCheck:
        """Sample i read with its own templates and those of ``left_out`` left out."""
        face, img, name = samples[i]
        die = DICE[int(die_of[i])]
        out = [i, *left_out]
        fs = score_faces(model, img, gains[i], found[i], int(die_of[i]),
                         exclude=np.concatenate([np.arange(j, len(model.templates), n) for j in out]))
        if face not in fs.scores or all(faces[j] != face for j in range(n) if j not in out):
            return SampleCheck(name, face, die, None, float("nan"), float("nan"))
        others = {f: s for f, s in fs.scores.items() if f != face}
        lead = fs.scores[face] - max(others.values(), default=-1.0)
        read = face if lead >= 0 else max(others, key=lambda f: others[f])
        return SampleCheck(name, face, die, read, float(fs.scores[face]), float(lead))

    reads = [read_out(i, []) for i in range(n)]
    return DiscTried(model, read_out, reads, float(agreement), _read_quality(reads), _accepted(reads))


def _read_quality(reads: list[SampleCheck]) -> float:
    """How well the enrollment photos read each other leave-one-out: the mean lead of each
    photo's own face over the best other one (negative where another face wins)."""
    leads = np.array([c.margin for c in reads if c.checked])
    return float(np.mean(leads)) if len(leads) else 0.0


def _named_weak(reads: list[SampleCheck], read_out: Callable[[int, list[int]], SampleCheck],
                min_score: float, min_margin: float) -> list[SampleCheck]:
    """Each sample's check, with the weak ones named one at a time: a bad photo (another face,
    a blurred one) also drags down the photos it is compared with, so the weakest is named,
    the others read again without it, and so on (at most a quarter of the photos)."""
    named: dict[int, SampleCheck] = {}
    while len(named) < max(1, len(reads) // 4):
        weak = [i for i, c in enumerate(reads) if i not in named and is_weak(c, min_score, min_margin)]
        if not weak:
            break
        worst = min(weak, key=lambda i: (reads[i].read == reads[i].face, reads[i].margin))
        named[worst] = reads[worst]
        reads = [named[i] if i in named else read_out(i, list(named)) for i in range(len(reads))]
    return reads


#: A size map is fitted from at least this many photos (fewer: the dice look the same size
#: everywhere), and a photo this far off the fit (in radius factors) is left out of it.
SIZE_MAP_PHOTOS = 10
SIZE_MAP_OUTLIER = 0.08


def fit_size_map(found: list[Blob], die_of: np.ndarray, frame_shape: tuple[int, ...]) -> np.ndarray:
    """How a die's radius changes across the frame, from where the enrollment photos' dice
    lie and how large they look: a leaning camera makes one side nearer (a slope), a wide
    lens makes the edges smaller or larger (a bowl).  Least squares on (1, x, y, r^2), drawn
    towards no change (a handful of photos must not bend it), twice: photos far off the first
    fit (a die with its shadow taken in) are left out of the second.  A fit that would make a
    die less than 0.6 or more than 1.6 times its size somewhere in the frame is no fit."""
    none = np.array(NO_SIZE_MAP)
    if len(found) < SIZE_MAP_PHOTOS:
        return none
    radius = np.sqrt([b.area for b in found])
    usual = np.array([np.median(radius[die_of == d]) for d in die_of])
    rel = radius / usual
    terms = np.stack([size_terms(frame_shape, b.centre) for b in found])
    keep = np.ones(len(found), bool)
    fit = none
    ridge = np.diag([0.0, 0.1, 0.1, 0.1])  # a light prior: a tenth of a photo per term
    for _ in range(2):
        a, y = terms[keep], rel[keep]
        fit = np.linalg.solve(a.T @ a + ridge, a.T @ y + ridge @ none)
        keep = np.abs(rel - terms @ fit) < max(SIZE_MAP_OUTLIER, 2.5 * float(np.median(np.abs(rel - terms @ fit))))
        if keep.sum() < SIZE_MAP_PHOTOS:
            break
    h, w = frame_shape[:2]
    corners = [size_terms(frame_shape, (x, y)) @ fit for x in (0, (w - 1) / 2, w - 1)
               for y in (0, (h - 1) / 2, h - 1)]
    if min(corners) < SIZE_RANGE[0] or max(corners) > SIZE_RANGE[1]:
        return none
    return fit / float(np.median(terms @ fit))  # the usual size is the photos' median


def fit_elongation_map(found: list[Blob], frame_shape: tuple[int, ...]) -> np.ndarray:
    """How long a die lying flat looks across the frame: perspective and the lens draw it
    out towards the edges, about as the square of the distance from the centre.  The slope is
    a least-squares fit drawn towards none (fewer than :data:`SIZE_MAP_PHOTOS` photos: none),
    and the line is raised to the most elongated photo (an envelope, not a mean)."""
    elong = np.array([b.elongation for b in found])
    q = np.array([size_terms(frame_shape, b.centre)[3] for b in found])
    slope = 0.0
    if len(found) >= SIZE_MAP_PHOTOS:
        dq = q - q.mean()
        slope = max(0.0, float(dq @ (elong - elong.mean())) / (float(dq @ dq) + 0.5 * float(np.var(q) + 0.05)))
    return np.array([float(np.max(elong - slope * q)), slope])


def _centre(img: np.ndarray, blob: Blob, k: float, shift: np.ndarray | None = None) -> tuple[float, float]:
    return top_of(k, np.zeros(2) if shift is None else shift, img.shape, blob.centre)


#: The perspectives (how much further out than the die's foot a top face is seen, per unit of
#: distance from the frame's centre) from which the camera's geometry is fitted at enrollment.
PERSPECTIVES = np.linspace(1.0, 1.12, 7)
#: Where the top faces are looked for at enrollment to learn the camera's lean (die radii).
LEAN_SEARCH = 0.32
#: The lean is learned from at least this many photos whose top face was found.
LEAN_PHOTOS = 8


def _fit_top_field(samples: list[tuple[str, np.ndarray, str]], gains: list[np.ndarray], found: list[Blob],
                   face_idx: np.ndarray,
                   templates: np.ndarray, perspective: float, discs: np.ndarray,
                   stretches: list[np.ndarray | None]) -> tuple[float, np.ndarray] | None:
    """The perspective and shift that put each photo's top face where it best matches the other
    photos of its face: each top face is looked for within :data:`LEAN_SEARCH` die radii of
    where a straight-down camera puts it, then ``top = centre + (blob - centre) * k + shift``
    is fitted to them by least squares, twice (photos far off the first fit left out).  None
    when too few photos have peers."""
    from farmbox.vision.dice.features import best_rotation_scores, spectra
    from farmbox.vision.dice.reader import FINE, _grid

    wide = _grid(LEAN_SEARCH, 0.08)
    bank = spectra(templates)
    feet: list[tuple[float, float]] = []
    tops: list[tuple[float, float]] = []
    for i, ((_, img, _), g, b) in enumerate(zip(samples, gains, found)):
        peers = np.flatnonzero(face_idx == face_idx[i])
        peers = peers[peers != i]
        if len(peers) == 0:
            continue
        centre = _centre(img, b, perspective)
        sc = best_rotation_scores(spectra(polar_patches(img, g, centre, b.radius, wide, float(discs[i]),
                                                        stretches[i])), bank[peers]).mean(axis=1)
        near = wide[int(np.argmax(sc))] + FINE
        sc = best_rotation_scores(spectra(polar_patches(img, g, centre, b.radius, near, float(discs[i]),
                                                        stretches[i])), bank[peers]).mean(axis=1)
        tops.append(tuple(np.array(centre) + near[int(np.argmax(sc))] * b.radius))
        feet.append(b.centre)
    return _fit_geometry(feet, tops, samples[0][1].shape)


def _found_geometry(model: DiceModel, samples: list[tuple[str, np.ndarray, str]], gains: list[np.ndarray],
                    found: list[Blob], face_idx: np.ndarray, die_of: np.ndarray) -> tuple[float, np.ndarray] | None:
    """The perspective and shift fitted to where :func:`score_faces` finds each photo's top face
    leave-one-out (the photos read right); None when too few are."""
    n = len(samples)
    feet, tops = [], []
    for i, ((_, img, _), g, b) in enumerate(zip(samples, gains, found)):
        if np.count_nonzero(face_idx == face_idx[i]) < 2:
            continue
        fs = score_faces(model, img, g, b, int(die_of[i]), exclude=np.arange(i, len(model.templates), n))
        if fs.scores and fs.best[0] == FACES[face_idx[i]]:
            feet.append(b.centre)
            tops.append(fs.at)
    return _fit_geometry(feet, tops, samples[0][1].shape)


def _fit_geometry(feet: list[tuple[float, float]], tops: list[tuple[float, float]], frame_shape: tuple[int, ...]
                  ) -> tuple[float, np.ndarray] | None:
    """``top = centre + (foot - centre) * k + shift`` fitted to the dice's silhouette centres
    ``feet`` and their top faces' ``tops`` by least squares, twice (photos far off the first
    fit left out): (k, shift), or None from fewer than :data:`LEAN_PHOTOS` photos."""
    if len(feet) < LEAN_PHOTOS:
        return None
    h, w = frame_shape[:2]
    rows, moves = [], []
    for foot, top in zip(feet, tops):
        rel = (np.array(foot) - [(w - 1) / 2, (h - 1) / 2]) / (w / 2)
        for axis in (0, 1):
            # top - foot = (k - 1) * (foot - centre) + shift, in half frame widths
            rows.append([rel[axis], float(axis == 0), float(axis == 1)])
            moves.append((top[axis] - foot[axis]) / (w / 2))
    a, y = np.array(rows), np.array(moves)
    keep = np.ones(len(y), bool)
    fit = np.zeros(3)
    for _ in range(2):
        fit, *_ = np.linalg.lstsq(a[keep], y[keep], rcond=None)
        off = np.abs(y - a @ fit)
        keep = off <= max(3.0 * float(np.median(off)), 0.01)
        if keep.sum() < 2 * LEAN_PHOTOS:
            return None
    k = float(np.clip(1.0 + fit[0], 1.0, 1.2))
    return k, np.clip(fit[1:], -0.2, 0.2)


def _recentre(samples: list[tuple[str, np.ndarray, str]], gains: list[np.ndarray], found: list[Blob],
              face_idx: np.ndarray,
              templates: np.ndarray, perspective: float, shift: np.ndarray, rho: float, discs: np.ndarray,
              stretches: list[np.ndarray | None]) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Move each template to the spot that best matches the other photos of its face (the
    silhouette's centre is off when a side of the die is in deep shade)."""
    from farmbox.vision.dice.features import best_rotation_scores, spectra
    from farmbox.vision.dice.reader import FINE, coarse_grid

    # small moves only: photos agreeing with each other must not drift off the face together
    grid = coarse_grid(rho)
    offsets = np.concatenate([grid[np.hypot(*grid.T) <= 0.081], FINE])
    bank = spectra(templates)
    out = templates.copy()
    centres: list[tuple[float, float]] = []
    for i, ((_, img, _), g, b) in enumerate(zip(samples, gains, found)):
        peers = np.flatnonzero(face_idx == face_idx[i])
        peers = peers[peers != i]
        centre = _centre(img, b, perspective, shift)
        if len(peers) == 0:
            centres.append(centre)
            continue
        desc = polar_patches(img, g, centre, b.radius, offsets, float(discs[i]), stretches[i])
        sc = best_rotation_scores(spectra(desc), bank[peers]).mean(axis=1)
        best = int(np.argmax(sc))
        out[i] = desc[best]
        centres.append((centre[0] + offsets[best][0] * b.radius, centre[1] + offsets[best][1] * b.radius))
    return out, centres


def _separation(desc: np.ndarray, face_idx: np.ndarray, die_of: np.ndarray) -> float:
    """How much better each sample matches another sample of its face than any other face."""
    from farmbox.vision.dice.features import best_rotation_scores, spectra

    s = spectra(desc)
    sc = best_rotation_scores(s, s)
    np.fill_diagonal(sc, -np.inf)
    gaps = []
    for i in range(len(desc)):
        same = (face_idx == face_idx[i])
        same[i] = False
        other = ~same
        other[i] = False
        if same.any() and other.any():
            gaps.append(sc[i, same].max() - sc[i, other].max())
    return float(np.mean(gaps)) if gaps else 0.0


#: A colour whose share of the other die's silhouette is at least this part of its share of
#: this die's is shared by both dice (a picture's colour, not a body's).
SHARED = 0.5

#: Bounds of the learned thresholds (a handful of samples is a noisy estimate).  The margin's
#: floor is low: art whose faces look alike (flat silhouettes) gives every face a small lead,
#: and what a wrong face can lead by is measured by the leave-one-out reads themselves.
SCORE_RANGE = (0.50, 0.60)
MARGIN_RANGE = (0.025, 0.12)
#: A read of a face that a photo of another face was read as, leave-one-out, must lead this
#: many times further than that photo's wrong face led (:func:`face_margins`) ...
WRONG_LEAD_FACTOR = 1.5
#: ... up to this, past the margin's range: a face read wrong by a clear lead at enrollment is
#: the evidence that such leads happen (pictures too small for the camera to tell apart: line
#: art on stickers with corners at 0.55 of the face's radius misread photos by leads up to
#: 0.24, then three throws in 120 by 0.16-0.23, over the range's 0.12).  Until stop 61 the
#: bound held for every face, and one photo misread refused the throws of all: since it holds
#: for the faces read wrong only, that box (line/wood 301) reads 91 throws of 120, not 2, and
#: none wrong.
WRONG_LEAD_CEILING = 0.4


def calibrate(tops: np.ndarray, margins: np.ndarray) -> tuple[float, float]:
    """Acceptance thresholds from leave-one-out reads of the enrollment photos: a score well
    below the worst correct one; a margin that most correct faces clear (a share of their
    10th percentile)."""
    if len(tops) == 0:
        return 0.45, 0.08
    min_score = float(np.clip(np.percentile(tops, 10) - 0.25, *SCORE_RANGE))
    min_margin = float(np.clip(0.3 * np.percentile(margins, 10), *MARGIN_RANGE))
    return min_score, min_margin


def read_samples(folder: str | Path) -> tuple[list[tuple[str, np.ndarray, str]], np.ndarray | None]:
    """Load SAMPLES/<face>/*.jpg|png and SAMPLES/background.* (ValueError on a bad layout)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"samples folder {folder} not found")
    unknown = [p.name for p in folder.iterdir() if p.is_dir() and p.name not in FACES]
    if unknown:
        raise ValueError(f"unknown face folder {unknown[0]!r} in {folder} (faces: {', '.join(FACES)})")
    samples = []
    for face in FACES:
        d = folder / face
        files = sorted(p for p in d.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if d.is_dir() else []
        if not files:
            raise ValueError(f"no images in {d} (need 2-5 photos with the {face} up)")
        samples += [(face, load_image(p), str(p)) for p in files]
    backgrounds = [p for p in folder.iterdir() if p.is_file() and p.stem == "background"
                   and p.suffix.lower() in IMAGE_SUFFIXES]
    background = load_image(backgrounds[0]) if backgrounds else None
    return samples, background


def enroll_folder(folder: str | Path, progress: Callable[[Iterable], Iterable] | None = None,
                  left_out: list[str] | None = None, checks: list[SampleCheck] | None = None) -> DiceModel:
    """Build a model from a SAMPLES folder.  Photos whose die is cut by the frame's edge are
    left out (their names are added to ``left_out``); a face left without photos is an error.
    ``checks``, when given, receives each photo kept's leave-one-out read (:func:`build_model`)."""
    samples, background = read_samples(folder)
    while True:
        try:
            if checks is not None:
                checks.clear()
            return build_model(samples, background, progress, checks)
        except CutByEdge as cut:
            gone = [samples[i] for i in cut.indexes]
            samples = [s for i, s in enumerate(samples) if i not in cut.indexes]
            for face in FACES:
                if not any(f == face for f, _, _ in samples):
                    name = next(n for f, _, n in gone if f == face)
                    raise ValueError(f"sample {name}: the die is cut by the frame's edge and no "
                                     f"other photo shows the {face} (shoot it again with the die "
                                     "wholly in view)") from None
            if left_out is not None:
                left_out.extend(n for _, _, n in gone)
