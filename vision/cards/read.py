"""Enroll a deck and read every card on the table.

Reading a frame: find every card (:mod:`.find`), warp each to the feature size, describe it
(:func:`.learn.features`: light-cancelling ink colour, layout, fill and outlines) and take the
nearest class in the learned discriminant space (:mod:`.learn`).  A card far from every class
is unknown (id None); one whose best card does not lead the runner-up by the margin calibrated
at enrollment is unsure (id None too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from farmbox.vision.files import VisionInputError, load_colour_image

from .find import (
    AGAINST_COVERED,
    LARGEST_CARD,
    PART_OF_CARD,
    FindOptions,
    _overlap,
    _quad,
    _refine,
    common_area,
    corners_of,
    find_cards,
    offset,
    order_corners,
    side_ratio,
    sides_apart,
    square_enough,
)
from .layout import aligned_to_the_deck
from .learn import (
    ShotCheck,
    augmented,
    card_distances,
    colour_details,
    feature_size,
    features,
    fit,
    leave_one_out,
    unveiled,
    veiled,
    washed,
)
from .model import CardModel
from .rectify import rectify_to, whole
from .table import (
    GIVEN_TABLE,
    LEAST_PHOTOS,
    NOT_A_CARD,
    ONE_TABLE,
    TABLE_W,
    EmptyTable,
    TableFrame,
    card_by_difference,
    card_round,
    differing,
    differs_beside,
    differs_inside,
    empty_table,
    matching,
    on_the_table,
    one_table,
    pair_round,
    table_shot,
    unexplained,
)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
#: Made-up shots per enrollment shot.
JITTER = 8
#: The share of enrollment shots that may be read wrong, from the other shots, at the
#: accepted lead.  Leave-one-out is harsher than play (each shot is read from one shot fewer,
#: and an odd shot, a scan or a blurred one, has no like shot left), so this is looser than
#: the wrong-read rate wanted in play.
WRONG_RATE = 0.02
#: The least lead ever accepted (distances are in units of one card's spread of made-up shots).
LEAST_LEAD = 0.5
#: Between a card seen only under the lamp's glare and a card it may be taken for
#: (:meth:`CardReader._ranked_by_details`): how much nearer (a ratio) a card's colour details
#: must lie to one's enrollment photos than to the other's to rank them; how far apart (L1, of
#: the square roots of hue histograms) the two cards' details must lie for them to tell
#: anything (two cards of one animal with other dice: 1.7-2.1; a goat and a horse with the same
#: dice: 0.47, and ranked by them a goat was read as that horse); and which cards a glared card
#: may be taken for: those whose distance from its photos with the veil taken away is at most
#: :data:`TWINS` of the nearest one's (the second renderer's sheep-2 on wood: sheep-1 and
#: sheep-3 at 1.0 and 1.04, a cow of the same ground at 1.22, sheep-4 at 1.27).  Measured on
#: six second-renderer sets at two draws: 1.3, 0.8 and 1.3 read within a few cards of these
#: (docs/card-vision.md, stop 58).
DETAILS_CLEAR = 1.15
DETAILS_APART = 1.0
TWINS = 1.2


@dataclass
class CardReading:
    id: str | None
    confidence: float
    corners: np.ndarray  # 4x2, frame pixels, clockwise
    #: Found partly under another card: read only when as near its card as the enrollment's
    #: made-up copies come, else id None.
    under_another: bool = False

    def as_json(self) -> dict:
        return {"id": self.id, "confidence": round(float(self.confidence), 3),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


def read_image(path: Path | str) -> np.ndarray:
    """A BGR image from a file; a missing file is an :class:`OSError`, an unreadable,
    oversized or oddly shaped one a :class:`VisionInputError`, naming it."""
    return load_colour_image(path)


def turns(card: np.ndarray, square: bool) -> list[np.ndarray]:
    """Every way a rectified card can show: the two turns (four for a square card), each also
    mirrored (some printings and some cameras mirror the art)."""
    if not square:
        out = [card, cv2.rotate(card, cv2.ROTATE_180)]
    else:  # in turning order, so a shot's turn relative to another is a cyclic shift
        h, w = card.shape[:2]
        out = [card] + [cv2.resize(cv2.rotate(card, r), (w, h), interpolation=cv2.INTER_AREA)
                        for r in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)]
    return out + [cv2.flip(c, 1) for c in out]


class CardReader:
    """A model made ready for matching."""

    def __init__(self, model: CardModel) -> None:
        self.model = model
        self.cards = model.cards
        self.size = feature_size(model.ratio)
        self.options = FindOptions(ratio=model.ratio, card_share=model.card_share or None)
        #: The empty table with what comparing a frame with it takes of it alone (None: the
        #: deck was not enrolled on the box's table).
        self.table = EmptyTable(model.table) if model.table.size else None
        #: The cards seen only under the lamp's glare (every enrollment photo veiled), each with
        #: the cards it may be taken for (:func:`_glared_twins`), and every card's colour details
        #: in its enrollment photos (:meth:`_ranked_by_details`).
        self._twins, self._details = _glared_twins(model)

    def identify(self, card: np.ndarray) -> tuple[str | None, float]:
        """The id of a rectified card and the confidence (id None when unknown or unsure)."""
        return self.identify_all([card])[0]

    def identify_all(self, cards: list[np.ndarray]) -> list[tuple[str | None, float]]:
        """:meth:`identify` for several rectified cards at once."""
        return [self._decide(row) for row in self.distances(cards)]

    def distances(self, cards: list[np.ndarray]) -> np.ndarray:
        """How far each rectified card (rows) lies from each card of the deck (columns), in the
        learned space (units of one card's spread of made-up shots)."""
        m = self.model
        if not cards:
            return np.zeros((0, len(self.cards)))
        x = np.stack([features(c) for c in cards])
        per = _card_distances(m, x)
        if self._twins:
            for i, row in enumerate(per):
                self._ranked_by_details(row, x[i], cards[i])
        return per

    def _ranked_by_details(self, row: np.ndarray, x: np.ndarray, card: np.ndarray) -> None:
        """Where the two cards nearest ``row`` are a card seen only under the lamp's glare and
        one it may be taken for (:func:`_glared_twins`), and their colour details differ
        (:data:`DETAILS_APART`), the two ranked by their colour details (``row`` changed in
        place): the one whose enrollment photos' details lie nearer those of ``card`` (``x``
        its features; either way up) by :data:`DETAILS_CLEAR` is nearest, or neither (a lead of
        0: unsure) when they lie nearly as near both.  The learned distance holds the glare as
        the glared card's look: a card that only differs from it in the colour of its small
        marks was read as the card seen clean."""
        if len(row) < 2:
            return
        a, b = (int(k) for k in np.argsort(row)[:2])
        if not (b in self._twins.get(a, ()) or a in self._twins.get(b, ())):
            return
        if min(float(np.abs(s - t).sum()) for s in self._details[a] for t in self._details[b]) < DETAILS_APART:
            return
        mine = (colour_details(x), colour_details(features(cv2.rotate(card, cv2.ROTATE_180))))
        near = [min(float(np.abs(f - t).sum()) for f in mine for t in self._details[k]) for k in (a, b)]
        if near[1] * DETAILS_CLEAR < near[0]:
            row[a], row[b] = row[b], row[a]
        elif near[0] * DETAILS_CLEAR >= near[1]:
            row[a] = row[b]

    def _decide(self, row: np.ndarray) -> tuple[str | None, float]:
        """The id (None: unknown or unsure) and confidence of a card ``row`` distances away from
        the deck's cards."""
        m = self.model
        order = np.argsort(row)
        d1 = float(row[order[0]])
        d2 = float(row[order[1]]) if len(order) > 1 else d1 + 2 * m.min_lead + 1.0
        lead = d2 - d1
        if d1 > m.max_distance:
            return None, float(np.clip(0.2 * m.max_distance / max(d1, 1e-6), 0, 0.2))
        # farther from its card than the enrollment shots' made-up copies almost ever are
        # (a quad that missed part of the card, or took in some table): a clear lead only
        need = max(m.min_lead, FAR_LEAD * d1) if d1 > FAR * m.max_distance else m.min_lead
        conf = float(np.clip(0.5 + (lead - need) / (2 * max(need, 0.5)), 0, 1))
        return (self.cards[int(order[0])] if lead >= need else None), conf

    def _card_shaped(self, q: np.ndarray, w: int, h: int, off: float) -> bool:
        """Whether the outline ``q`` lies in the ``w`` x ``h`` frame (a pixel of leeway) with
        a side ratio at most ``off`` from the deck's."""
        return bool((q >= -1).all() and (q[:, 0] <= w).all() and (q[:, 1] <= h).all()) \
            and abs(side_ratio(q) - self.model.ratio) <= off

    def read_outline(self, image: np.ndarray, corners: np.ndarray) -> CardReading:
        """The card inside ``corners`` (4x2, frame pixels, clockwise), an outline found by
        :func:`.find.find_cards` or by other means; not read as it is, read through the outline
        fitted to the deck (as :meth:`read` reads every card it finds)."""
        q = np.asarray(corners, np.float32).reshape(4, 2)
        row = self._row(image, q)
        return self._checked(image, CardReading(*self._decide(row), q), row)

    def _row(self, image: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The distances of the card inside ``quad`` (frame pixels) to the deck's cards."""
        return self.distances([rectify_to(image, quad, self.size)])[0]

    def _checked(self, image: np.ndarray, reading: CardReading, row: np.ndarray,
                 others: list[np.ndarray] | None = None) -> CardReading:
        """``reading`` (``row``: its distances) as it is when it is a card as near its card as
        the enrollment's made-up copies come (:data:`FAR` of the unknown-card distance); else
        read again through its outline fitted to the deck (:meth:`_fitted`).  A card read
        farther than that may be read through an outline a little off the card (a corner
        pulled along the next card's edge): the horse read as the goat of the same marks, the
        fitted outline reading the horse at a third of the distance.  A card read far with a
        clear lead (:data:`GLANCE_LEAD`) through an outline along its edges
        (:func:`_sides_on_edges`) is only glanced at first (:meth:`_fitted`); a card not read
        is fitted in full, as is a card read near through an outline whose opposite sides are
        more than :data:`APART` out of parallel (a corner off the card)."""
        if reading.id is not None and float(row.min()) <= FAR * self.model.max_distance:
            if sides_apart(reading.corners) <= APART:
                return reading
            return self._fitted(image, reading, row, others, askew=True)
        d = np.sort(row)
        clear = reading.id is not None and float(d[1] - d[0]) >= GLANCE_LEAD * float(d[0])
        return self._fitted(image, reading, row, others, glance=clear and _sides_on_edges(image, reading.corners))

    def _fitted(self, image: np.ndarray, reading: CardReading, row: np.ndarray,
                others: list[np.ndarray] | None = None, glance: bool = False, askew: bool = False) -> CardReading:
        """A card found and not read, read again through its outline fitted to the deck: each
        side moved out or in and the outline turned (:func:`fit_sides`) while that brings the
        card nearer a card of the deck.  A title band close to the table's shade leaves the finder
        the band's inner edge; a shadow or the next card's edge pulls a side off the card's.
        The fitted outline is taken when it reads as a card, as near it as the enrollment's
        made-up shots come (:data:`FAR` of the unknown-card distance) and clearly nearer than
        the outline found (:data:`FIT_NEARER`): a card only unsure between two near-alike
        cards keeps its outline and stays unsure.  It is also fitted from the outline a card
        seen from above makes of the other three corners (:func:`_completions`), and the
        nearer fit is taken; where neither is taken and the outline found is askew (a corner
        :data:`LEANED_CORNER` off square), it is fitted again with its opposite sides leaned
        too (:data:`LEANING`).  A card read far whose fit, not taken, reads
        another card nearer is read as no card: neither is sure (three open diamonds found
        round their frame line read as one diamond).  ``row``: the card's distances through
        the outline found.  ``glance``: a card read with a clear lead is fitted only when one of
        the fit's first moves (:data:`FIRST_MOVES`) brings it :data:`GLANCE_GAIN` nearer its
        card, or reads nearest another card, :data:`GLANCE_RIVAL` farther at most than the card
        was read; else it is read as it was.  ``askew``: a card read near through an outline
        more than :data:`APART` out of parallel (no card's as a camera sees one): only the fits
        within it count, and the nearest is taken when it reads as near its card as the
        made-up copies come (not also :data:`FIT_NEARER` of the distance the outline found read
        it at).  No outline is described twice (the glance's tries are the fit's first)."""
        h, w = image.shape[:2]
        found = np.asarray(reading.corners, np.float32)
        start = float(row.min())

        # the other outlines' boxes: one whose box the outline tried does not reach shares no
        # area with it (most of them; the common area of two quads is the costlier test)
        near = others or []
        boxes = np.array([np.concatenate([o.min(axis=0), o.max(axis=0)]) for o in near]).reshape(-1, 4)

        def allowed(q: np.ndarray, off: float) -> bool:
            if not self._card_shaped(q, w, h, off):
                return False
            lo, hi = q.min(axis=0), q.max(axis=0)
            reached = np.flatnonzero((boxes[:, 0] <= hi[0]) & (boxes[:, 2] >= lo[0])
                                     & (boxes[:, 1] <= hi[1]) & (boxes[:, 3] >= lo[1]))
            if not len(reached):
                return True
            longest = float(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).max())
            return not any(common_area(q, near[k]) > FIT_INTO * longest for k in reached.tolist())

        # each outline read once: the glance's tries are the fit's first, and the leaned fit's
        # first round holds the first fit's
        rows_of: dict[bytes, np.ndarray] = {found.tobytes(): row}

        def distances(quads: list[np.ndarray]) -> np.ndarray:
            keys = [np.asarray(q, np.float32).tobytes() for q in quads]
            new = list({k: q for k, q in zip(keys, quads) if k not in rows_of}.items())
            if new:
                rows = self.distances([rectify_to(image, q, self.size) for _, q in new])
                rows_of.update(zip((k for k, _ in new), rows))
            return np.stack([rows_of[k] for k in keys])

        def leeway(q: np.ndarray) -> float:
            """How far an outline tried from ``q`` may be off the deck's ratio: the shape may come
            nearer a card's."""
            return max(FIT_SHAPE, abs(side_ratio(q) - self.model.ratio))

        def fitted_from(q: np.ndarray, row: np.ndarray, leaning: bool = False) -> tuple[np.ndarray, np.ndarray]:
            off = leeway(q)
            moves, row = fit_sides(q, row, distances, lambda t: allowed(t, off), leaning)
            return fitted_outline(q, moves), row

        def taken(row: np.ndarray) -> bool:
            best = float(row.min())
            return best <= FAR * self.model.max_distance and (askew or best <= FIT_NEARER * start)

        def shaped(fits: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
            return [f for f in fits if abs(side_ratio(f[0]) - self.model.ratio) <= FIT_SHAPE
                    and not (askew and sides_apart(f[0]) > APART)]

        if glance:
            off = leeway(found)
            tries = [q for q in (fitted_outline(found, t) for t in FIRST_MOVES) if allowed(q, off)]
            if tries:       # (none allowed: the outline against the frame's edge or another card's)
                rows = distances(tries)
                nearest = rows.min(axis=1)
                another = np.array([self.cards[int(k)] != reading.id for k in rows.argmin(axis=1)])
                if float(nearest.min()) >= start * (1 - GLANCE_GAIN) \
                        and not (another & (nearest < start * (1 + GLANCE_RIVAL))).any():
                    return reading
        row_found = row
        fits = [fitted_from(found, row)]
        # a corner put off the card (its border lost on a stripe of its colour, a side then
        # run across the card): also fitted from the outline the other three corners make,
        # when that reads nearer a card than the outline found
        completed = [q for q in _completions(found) if allowed(q, COMPLETED_SHAPE)]
        if completed:
            rows = distances(completed)
            k = int(np.argmin(rows.min(axis=1)))
            if rows[k].min() < start * (1 - FIT_GAIN):
                fits.append(fitted_from(completed[k], rows[k]))
        fits = shaped(fits)
        if not any(taken(f[1]) for f in fits) and not square_enough(found, LEANED_CORNER):
            # fitted again with the sides leaned too: an outline cut out askew where cards meet
            fits += shaped([fitted_from(found, row_found, leaning=True)])
        if not fits:
            return reading
        fitted, row = min(fits, key=lambda f: float(f[1].min()))
        best = float(row.min())
        if not taken(row):
            if reading.id is not None and best < start and self.cards[int(np.argmin(row))] != reading.id:
                # read far, and nearer another card a few pixels off: neither is sure
                return CardReading(None, 0.0, found, reading.under_another)
            return reading
        cid, conf = self._decide(row)
        return CardReading(cid, conf, fitted) if cid is not None else reading

    def _read_anyway(self, image: np.ndarray, doubtful: list[np.ndarray]) -> list[np.ndarray]:
        """Of the ``doubtful`` outlines (:func:`on_the_table` took them for no card), those of a
        card's size read as a card with :data:`DOUBTFUL_CONFIDENCE`."""
        area = self.model.card_share * image.shape[0] * image.shape[1]
        sized = [q for q in doubtful if DOUBTFUL_SIZE[0] * area <= cv2.contourArea(q) <= DOUBTFUL_SIZE[1] * area]
        if not sized:
            return []
        read = self.identify_all([rectify_to(image, q, self.size) for q in sized])
        return [q for q, (cid, conf) in zip(sized, read) if cid is not None and conf >= DOUBTFUL_CONFIDENCE]

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card found in ``image``, top to bottom, left to right.  A card partly under
        another is read only as near its card as the enrollment's made-up copies come
        (:data:`FAR` of the unknown-card distance; else id None, confidence 0): part of its face
        is not its own.  An outline far smaller than a card was in the enrollment photos (the
        same camera) is a part of a card (its art's panel): read through the card round it
        where the empty table is known (:meth:`_round`, as is any outline not read: a card
        found with a band of table), else reported with id None.  An
        outline far larger than the nearest card read (:data:`TWO`; or a little larger,
        :data:`TWO_UNKNOWN`, and read as no card of the deck) and not read is looked at
        as two cards touching (:meth:`_split`), as is a region off the empty table of the size
        two touching cards make (white cards on pale tiles); such a region is no card unless a
        card is found in it."""
        passed: list[np.ndarray] = []
        quads = find_cards(image, self.options, passed)
        pairs: list[np.ndarray] = []
        frame = TableFrame(image, self.table)
        if self.table is not None:
            doubtful: list[np.ndarray] = []
            quads = on_the_table(image, quads, self.table, self.model.card_share, self.model.ratio,
                                 doubtful, pairs, frame=frame)
            quads += self._read_anyway(image, doubtful)
        quads.sort(key=_reading_order)
        under = covered_cards(image, quads)
        card = self.model.card_share * image.shape[0] * image.shape[1]
        part = [bool(card) and cv2.contourArea(q) < PART_OF_CARD * card for q in quads]
        rows = iter(self.distances([rectify_to(image, q, self.size) for q, p in zip(quads, part) if not p]))
        readings = [self._card(image, quad, None if p else next(rows), u, [q for q in quads if q is not quad], card,
                               frame) for quad, u, p in zip(quads, under, part)]
        if passed:
            self._passed_over(image, passed, quads, readings, under)
        self._joined(image, readings, under)
        if not card:
            return self._held(image, _parts_unread(readings))
        # a card's size where an outline lies: that of the nearest card read (a leaning camera
        # makes the far cards half the size of the near ones), else the enrollment's
        read = [(r.corners.mean(axis=0), cv2.contourArea(r.corners)) for r in readings if r.id is not None]

        def local(quad: np.ndarray) -> float:
            centre = quad.mean(axis=0)
            return min(read, key=lambda c: float(np.linalg.norm(c[0] - centre)))[1] if read else card

        out: list[CardReading] = []
        for reading, u in zip(readings, under):
            if reading.id is None and not u and self._two(image, reading.corners, local(reading.corners)):
                out += self._split(image, reading, [r.corners for r in readings if r is not reading],
                                   local(reading.corners), frame)
                continue
            out.append(reading)
        for pair in pairs:
            outline = CardReading(None, 0.0, pair)
            out += [r for r in self._split(image, outline, [r.corners for r in out], local(pair), frame)
                    if r is not outline]
        out = self._unveiled(image, self._held(image, self._beside_cards_read(out, frame)), card)
        return sorted(out, key=lambda r: _reading_order(r.corners)) if pairs else out

    def _unveiled(self, image: np.ndarray, readings: list[CardReading], card: float) -> list[CardReading]:
        """``readings`` with each card not read (not under another card, and of a card's size:
        :data:`PART_OF_CARD`) that shows the lamp's glare (:func:`.learn.veiled`) read again with
        the glare's veil taken away (:func:`.learn.unveiled`, as the enrollment takes it from a
        photo under the glare); taken only when it reads a card by a clear lead (confidence 1,
        :data:`SOFTER`): the veil is an estimate, and a card whose enrollment photos were all
        under the glare may read as its twin through it.  Glare over a whole full-bleed card
        pales its marks and its ground alike: it was read beyond the unknown-card distance or
        within a lead of its twin, and a person reads it at a glance."""
        out = list(readings)
        for k, r in enumerate(readings):
            if r.id is not None or r.under_another or cv2.contourArea(r.corners) < PART_OF_CARD * card:
                continue
            if not veiled(rectify_to(image, r.corners, self.size)):
                continue
            cid, conf = self._decide(self._row(unveiled(image, r.corners), r.corners))
            if cid is not None and conf >= 1.0:
                out[k] = CardReading(cid, conf, r.corners)
        return out

    def _held(self, image: np.ndarray, readings: list[CardReading]) -> list[CardReading]:
        """``readings`` with each card read by a narrow lead (under twice the lead it needs:
        confidence under 1) read again from its card seen a little softer (:data:`SOFTER`);
        where that reads no card, or another, it is read as no card (id None, confidence 0).
        A phone's sharpening draws a halo round a SET card's symbols that makes an open oval
        look shaded or a shaded one open; a read that a camera a shade less sharp would not
        make is not sure."""
        narrow = [k for k, r in enumerate(readings) if r.id is not None and r.confidence < 1.0]
        if not narrow:
            return readings
        softer = [cv2.GaussianBlur(rectify_to(image, readings[k].corners, self.size), (0, 0), SOFTER) for k in narrow]
        out = list(readings)
        for k, (cid, _) in zip(narrow, self.identify_all(softer)):
            if cid != out[k].id:
                out[k] = CardReading(None, 0.0, out[k].corners, out[k].under_another)
        return out

    def _beside_cards_read(self, readings: list[CardReading], frame: TableFrame) -> list[CardReading]:
        """``readings`` less the outlines not read whose part off the cards read (at least
        :data:`OFF_THE_CARDS` of them) hardly differs from the empty table
        (:data:`.table.NOT_A_CARD`): a square of pale tiles ringed by grout over a card's
        corner, taken for a card under it.  Such an outline passed the empty table's check
        (:func:`.table.on_the_table`) through the card it lies over; a card under another
        differs from the table where it shows."""
        unread = [r for r in readings if r.id is None]
        if not unread or self.table is None:
            return readings
        shares = differs_beside(frame, [r.corners for r in readings if r.id is not None], [r.corners for r in unread])
        if shares is None:
            return readings
        gone = {id(r) for r, (off, differs) in zip(unread, shares) if off >= OFF_THE_CARDS and differs < NOT_A_CARD}
        return [r for r in readings if id(r) not in gone]

    def _passed_over(self, image: np.ndarray, passed: list[np.ndarray], quads: list[np.ndarray],
                     readings: list[CardReading], under: list[bool]) -> None:
        """Each outline found and not read (and not under another card) read again through the
        outlines the finder ``passed`` over round it (overlapping it by :data:`PASSED_OVERLAP`
        or more; a card's shape and size, :func:`.find.find_cards`): the nearest that reads as
        a card, as near it as the enrollment's made-up copies come (:meth:`_near`), and lies
        over no card read (:data:`.find.AGAINST_COVERED`), is taken, and the unread outlines
        it covers give way.  A card whose side runs along a stripe's edge, or beside a shadow,
        loses that side to the finder, which keeps a smaller outline inside it, or the card's
        art cut along a straight line across its middle (a field meeting the sky on a card
        lying across the camera: two halves of a card's proportions side by side).
        ``readings``, ``quads`` and ``under`` are changed in place."""
        k = 0
        while k < len(readings):
            reading = readings[k]
            if reading.id is not None or under[k]:
                k += 1
                continue
            round_it = [p for p in passed if _overlap(p, reading.corners) >= PASSED_OVERLAP]
            got = None
            rows = self.distances([rectify_to(image, p, self.size) for p in round_it]) if round_it else np.zeros((0, 1))
            for j in np.argsort(rows.min(axis=1)).tolist():
                q = round_it[j]
                area = cv2.contourArea(q)
                if any(r.id is not None and common_area(q, r.corners) > AGAINST_COVERED * min(area, cv2.contourArea(r.corners))
                       for r in readings):
                    continue
                got = self._near(q, rows[j])
                break
            if got is None or got.id is None:
                k += 1
                continue
            readings[k], quads[k] = got, got.corners
            covered = [j for j, r in enumerate(readings) if j != k and r.id is None and not under[j]
                       and common_area(got.corners, r.corners) > PASSED_COVERS * cv2.contourArea(r.corners)]
            for j in reversed(covered):
                for seq in (readings, quads, under):
                    del seq[j]
            k += 1 - sum(j < k for j in covered)

    def _joined(self, image: np.ndarray, readings: list[CardReading], under: list[bool]) -> None:
        """Two outlines not read (neither under another card) that lie side by side, the two
        together one card's shape (:data:`JOINED`), read as one card when the two together
        read as near a card as the enrollment's made-up copies come (:meth:`_near`) and lie
        over no card read.  A card a leaning camera shows larger than two of the frame's
        others is cut by the finder along its art's seam into halves of a card's size, and
        neither half reads as any card of the deck.  ``readings`` and ``under`` are changed in
        place; each pair is looked at once."""
        def unread(k: int) -> bool:
            return readings[k].id is None and not under[k]

        for k in range(len(readings)):      # (the list shortens as pairs are joined)
            if k >= len(readings) or not unread(k):
                continue
            for j in range(k + 1, len(readings)):
                if not unread(j):
                    continue
                q = _joined_outline(readings[k].corners, readings[j].corners, self.model.ratio,
                                    self.options.ratio_tolerance)
                if q is None or any(r.id is not None and common_area(q, r.corners) > AGAINST_COVERED * cv2.contourArea(r.corners)
                                    for r in readings):
                    continue
                got = self._near(q, self._row(image, q))
                if got.id is not None:
                    readings[k] = got
                    del readings[j], under[j]
                    break

    def _two(self, image: np.ndarray, quad: np.ndarray, card: float) -> bool:
        """Whether the outline ``quad``, not read, may be two cards touching: larger than
        :data:`TWO` cards (``card``: the nearest card read), or than :data:`TWO_UNKNOWN` cards
        and read as no card of the deck at all (beyond the unknown-card distance)."""
        area = cv2.contourArea(quad)
        return area > TWO * card or (
            area > TWO_UNKNOWN * card and float(self._row(image, quad).min()) > self.model.max_distance)

    def _near(self, quad: np.ndarray, row: np.ndarray, under: bool = False) -> CardReading:
        """The card in ``quad`` (``row``: its distances) read only when it is as near its card
        as the enrollment's made-up copies come (:data:`FAR` of the unknown-card distance):
        an outline that may hold part of another card, or may be part of a card."""
        if float(row.min()) <= FAR * self.model.max_distance:
            return CardReading(*self._decide(row), quad, under_another=under)
        return CardReading(None, 0.0, quad, under_another=under)

    def _split(self, image: np.ndarray, reading: CardReading, others: list[np.ndarray],
               card: float, frame: TableFrame) -> list[CardReading]:
        """An outline larger than a card and not read: two cards touching, the outline round
        one and part of the other.  The card is looked for as a card's size at each of its
        corners (its sides along the outline's, fitted to the deck as :meth:`_fitted` does),
        and the card it touches as what differs from the empty table round the rest.  Where
        no corner reads and the empty table is known, the corners are tried again of the
        outline round what differs there along the image's edges (:func:`.table.pair_round`:
        the finder's outline round two cards slid along each other may run askew of both).
        The outline as it is when no card there reads as near its card as the enrollment's
        made-up copies come, or (the empty table known) none differs from the table there."""
        q = np.asarray(reading.corners, np.float32)
        mask = frame.difference()
        found = self._corner_card(image, q, others, card, mask)
        if found is None and mask is not None:
            skewed = pair_round(image, q, others, frame)
            if skewed is not None:
                found = self._corner_card(image, skewed, others, card, mask)
        if found is None:
            return [reading]
        out = [found]
        if mask is not None:
            m = self.model
            other = card_round(image, q, others + [found.corners], m.table, m.card_share, m.ratio, frame=frame)
            if other is not None:
                out.append(self.read_outline(image, other))
        return out

    def _corner_card(self, image: np.ndarray, q: np.ndarray, others: list[np.ndarray], card: float,
                     mask: np.ndarray | None) -> CardReading | None:
        """The card read as ``card``'s size (an area, frame pixels) at a corner of ``q``, its
        sides along the outline's and fitted to the deck (the nearest :data:`CORNER_FITS`); None
        when none reads as near its card as the enrollment's made-up copies come.  ``mask``:
        what differs from the empty table (None: not known); a card's size there must differ
        from it."""
        e = np.sqrt(((q[[1, 2, 3, 0]] - q) ** 2).sum(axis=1))
        across, along = (e[0] + e[2]) / 2, (e[1] + e[3]) / 2      # sides 0, 2 and sides 1, 3
        long_side = float(np.sqrt(card / self.model.ratio))
        tries = []
        for w, h in ((self.model.ratio * long_side, long_side), (long_side, self.model.ratio * long_side)):
            f, g = 1 - w / across, 1 - h / along
            if min(f, g) < -0.25:
                continue                                        # no card of that way round fits in it
            f, g = max(f, 0.0), max(g, 0.0)
            tries += [sides_moved(q, np.array([-g * (i == 0), -f * (j == 1), -g * (i == 2), -f * (j == 3)]))
                      for i in (0, 2) for j in (1, 3)]
        # a card's size at a corner of the outline may lie on a card read beside it (the
        # rectangle round two cards slid along each other takes in some of the table)
        tries = [t for t in tries if not any(common_area(t, o) > SPLIT_ON_ANOTHER * cv2.contourArea(t) for o in others)]
        if mask is not None:      # a card differs from the empty table (a tile of it does not)
            tries = [t for t in tries if differs_inside(mask, t, image) >= NOT_A_CARD]
        if not tries:
            return None
        rows = self.distances([rectify_to(image, t, self.size) for t in tries])
        fits = 0
        for k in np.argsort(rows.min(axis=1)):
            got = self._near(tries[k], rows[k])
            if got.id is None and fits < CORNER_FITS:
                fits += 1
                got = self._fitted(image, got, rows[k], others)
            if got.id is not None:
                return got
        return None

    def _card(self, image: np.ndarray, quad: np.ndarray, row: np.ndarray | None, under: bool,
              others: list[np.ndarray], card: float, frame: TableFrame) -> CardReading:
        """The card read in the outline ``quad``: ``row``, its distances to the deck's cards
        (None: a part of a card, not described), ``under``: found under another card,
        ``others``: the other outlines found, ``card``: a card's area in the enrollment photos.
        An outline read as no card of the deck (beyond the unknown-card distance) where the
        empty table is known is read first through the card found round it as what differs
        from the table (:meth:`_round`, only as near its card as the enrollment's made-up
        copies come), and fitted (:meth:`_checked`) when that reads none: a white card on pale
        tiles found with a band of grout reads so at once, where its fit describes some fifty
        outlines."""
        if under:
            return self._near(quad, row, under=True) if row is not None else CardReading(None, 0.0, quad, True)
        reading = CardReading(None, 0.0, quad)
        whole = cv2.contourArea(quad) >= WHOLE * card
        rounded = False         # read round, near, already: after the fit it would read the same
        if row is not None:
            reading = CardReading(*self._decide(row), quad)
            if reading.id is None and self.model.table.size and float(row.min()) > self.model.max_distance:
                got = self._round(image, reading, others, frame, near=True)
                if got.id is not None:
                    return got
                rounded = True
            reading = self._checked(image, reading, row, others)
        if reading.id is None and self.model.table.size and not (rounded and whole):
            reading = self._round(image, reading, others, frame, near=whole)
        return reading

    def _round(self, image: np.ndarray, reading: CardReading, others: list[np.ndarray],
               frame: TableFrame, near: bool = False) -> CardReading:
        """An outline not read, read through the card found round it as what differs from the
        empty table (:func:`.table.card_round`): a panel of a card's art whose border the table
        hides (a cream border on a cream stripe; panels on the second renderer's striped cloth
        were 0.6-0.78 of their card), or (``near``) an outline of a card's size or more, a card
        found with a band of table (a white card on pale tiles, the grout past one side), read
        only as near its card as the enrollment's made-up copies come (:meth:`_near`: what
        differs round an unsure twin may take in a strip of the card beside it, and a far
        read there was the twin's).  The outline keeps its reading when the card round it
        reads no better."""
        m = self.model
        card = card_round(image, np.asarray(reading.corners, np.float32), others, m.table, m.card_share, m.ratio,
                          frame=frame)
        if card is None:
            return reading
        if near:
            got = self._near(card, self._row(image, card))
        else:
            got = self.read_outline(image, card)
        return got if got.id is not None else reading


def _parts_unread(readings: list[CardReading]) -> list[CardReading]:
    """``readings`` of a frame by a deck whose card size is not known (enrolled from crops),
    those of a card far smaller than the cards read beside it (:data:`.find.PART_OF_CARD` of
    their median, at least :data:`LEAST_BESIDE` of them) read as no card: the finder found a
    part of a card (an oval of a card of three, read as a card of one or two).  The median is
    taken over the cards read no smaller than :data:`WHOLE_AT_LEAST` of the largest: where a
    card lies cut by the frame's edge, its whole outline is not found, and its symbols (or the
    blank part of it in view) may be found and read, as many as the whole cards beside it or
    more (two ovals of a card cut in half beside one whole card: the median was an oval's)."""
    areas = [cv2.contourArea(r.corners) for r in readings if r.id is not None]
    if len(areas) < LEAST_BESIDE:
        return readings
    largest = max(areas)
    least = PART_OF_CARD * float(np.median([a for a in areas if a >= WHOLE_AT_LEAST * largest]))
    return [CardReading(None, 0.0, r.corners, r.under_another)
            if r.id is not None and cv2.contourArea(r.corners) < least else r for r in readings]


#: How many cards read in a frame tell a card's size there when the enrollment does not.
LEAST_BESIDE = 2
#: ... and which of them: those no smaller than this share of the largest read (a camera
#: leaning 15 degrees shows the far cards some 0.7 of the near ones, a wide lens those at the
#: frame's edge 0.75).
WHOLE_AT_LEAST = 0.5


def _reading_order(quad: np.ndarray) -> tuple[int, float]:
    """Where an outline comes in a frame's reading: top to bottom in rows of 80 pixels, left to
    right in a row."""
    return round(float(quad[:, 1].mean()) / 80), float(quad[:, 0].mean())


#: An outline found and not read is read again through the outlines the finder passed over
#: that overlap it (intersection over union) by at least this (:meth:`CardReader._passed_over`):
#: half a card cut along a seam overlaps the whole card by 0.5.
PASSED_OVERLAP = 0.3
#: ... and an outline not read that the outline taken covers by more than this share of it is
#: part of the same card (the other half).
PASSED_COVERS = 0.5

#: An outline not read is no card where at least this share of it lies off the cards read
#: and that part hardly differs from the empty table (:meth:`CardReader._beside_cards_read`);
#: an outline mostly on a card read is left as it is.
OFF_THE_CARDS = 0.25
#: Two outlines not read make one card (:meth:`CardReader._joined`) only where the hull round
#: both is at most this share larger than the two (side by side: the two frames of full-bleed
#: felt 115 that needed it, halves of a card cut across its middle, came to 1.00; the slack is
#: for a seam a pixel or two wide) and they overlap by at most :data:`.find.AGAINST_COVERED`
#: of the smaller.
JOINED = 1.1


def _joined_outline(a: np.ndarray, b: np.ndarray, ratio: float, tolerance: float) -> np.ndarray | None:
    """The outline (corners in order) round the outlines ``a`` and ``b`` when they lie side by
    side and together have a card's shape (``ratio``, short over long side, within
    ``tolerance``), else None."""
    area_a, area_b = cv2.contourArea(a), cv2.contourArea(b)
    if common_area(a, b) > AGAINST_COVERED * min(area_a, area_b):
        return None
    hull = cv2.convexHull(np.vstack([a, b]).astype(np.float32))
    if cv2.contourArea(hull) > JOINED * (area_a + area_b):
        return None
    q = _quad(hull)
    if q is None:
        return None
    q = order_corners(q)
    if abs(side_ratio(q) - ratio) > tolerance or not square_enough(q):
        return None
    return q


#: An outline where the frame hardly differs from the empty table (a tile framed by its grout,
#: a patch of felt; or a cream card on a near-white cloth, which differs by its art only) is
#: a card when it has a card's size (this range of the deck's card share) and is read as one
#: with at least this confidence.
DOUBTFUL_SIZE = (PART_OF_CARD, LARGEST_CARD)
DOUBTFUL_CONFIDENCE = 0.9
#: An outline not read and larger than this share of the nearest card read may be two cards
#: touching (:meth:`CardReader._split`): such outlines on the second renderer's printed decks
#: were 1.5-1.85 of a card.
TWO = 1.35
#: An outline not read, larger than this share of the nearest card read and farther from every
#: card of the deck than the unknown-card distance, may be two cards touching as well.  Where
#: white cards touch on pale tiles or wood, the finder found outlines cut across two of them
#: (a card and a strip of the next) of 1.24-1.32 of the nearest card read, which read 2.9-5.4
#: times :data:`FAR` from any card; under :data:`TWO` they were not parted.  A card the lens
#: shows larger than its neighbour (up to some 1.3 of it) and unsure between two cards (a twin,
#: some 1.0 of :data:`FAR` from both) is not parted: parted, its corner's fit read the twin.
#: Since 2026-12-05 (evening): the twelve sets 10047 -> 10052 (printed/tiles 52 865 -> 868,
#: printed/wood 22 885 -> 887), wrong 3 -> 3; from 1.15 of a card without the unknown
#: distance's condition, 10052 but wrong 3 -> 4 (that twin).
TWO_UNKNOWN = 1.15
#: An outline not read and of this share of a card or more (the enrollment's, same camera) is
#: read through the card found round it by the empty table only as near its card as the
#: enrollment's made-up copies come (:meth:`CardReader._round`); a smaller one is a panel of
#: its art (on the second renderer's striped cloth 0.6-0.78 of their card), read as any card.
#: Until 2026-12-05 an outline this large was not read round at all: the twelve sets read 13
#: cards more so, and the eight full-bleed sets 5, none wrong (read as any card: 22 and 12 more,
#: 1 wrong).
WHOLE = 0.85
#: A card's size tried at a corner of an outline parted as two cards (:meth:`CardReader._split`)
#: is not looked at where this share of it lies on another card found (a card read twice: the
#: rectangle round two cards slid along each other, its sides along theirs, reaches over the
#: card beside them).
SPLIT_ON_ANOTHER = 0.25
#: Of the card's sizes tried at an outline's corners, the nearest this many are fitted to the
#: deck where they do not read as they are.  On twelve sets of the second renderer with touching
#: cards (2026-12-06), every corner card read came from the nearest try, as it was or fitted;
#: where none read, the four fits made cost 200-330 ms a frame on the pale tiles.
CORNER_FITS = 2


#: Fitting a found outline to a card of the deck (:meth:`CardReader._fitted`): the
#: steps a side moves by (shares of the sides it moves along, each step size tried until no
#: move helps, at most :data:`FIT_ROUNDS` times), how far a side may move in and out (a title
#: band is some 0.15 of a card's length) and the outline turn (:data:`FIT_TURN`), the least
#: gain in distance a move must bring, and how much nearer its card the fitted outline must
#: read than the outline found.
FIT_STEPS = (0.1, 0.04)
FIT_ROUNDS = 4
FIT_RANGE = (np.array([-0.2, -0.2, -0.2, -0.2, -0.3, -0.8, -0.8]), np.array([0.35, 0.35, 0.35, 0.35, 0.3, 0.8, 0.8]))
FIT_GAIN = 0.01
FIT_NEARER = 0.75
#: How far the fitted outline's side ratio may be off the deck's: cards read right lie within
#: 0.08 of it for 98 in 100 (a wide lens and a leaning camera bend them).
FIT_SHAPE = 0.08
#: A side is not moved into another card found deeper than this (pixels of the frame: the
#: common area over the fitted outline's longest side; touching cards' outlines, each snapped
#: to its edge within a pixel or so, may share a strip that thin): a card cut short by the card
#: lying over it would read the other card's face there (a chick's hidden mark read as the
#: red mark of the horse over it, as its twin).  Until 2026-12-04 the limit was 5% of the
#: other card's area: with OpenCV 5.1 the chick's side moved 3.4 pixels into the horse (3.5%
#: of it) and the twin was read again.
FIT_INTO = 2.0


#: Degrees the fit turns the outline about its centre per unit of a move: a step of 0.1 turns
#: it 2 degrees, and it turns 6 degrees at most; the turn is tried in the coarse step only (in
#: the fine one too it read the same twelve sets, at a fifth more features read per frame).  An
#: outline a few degrees off its card (one side pulled along the next card's edge, a corner
#: lost under a glare) is not brought onto it by its sides' moves alone, which keep their turn.
#: Since 2026-12-05: the twelve second-renderer sets 10037 -> 10043 right, wrong 3 -> 3 (a
#: glared chick the sides' fit read nearest its twin is nearest itself when turned).
FIT_TURN = 20.0


#: The moves the fit tries (a move: each side's, :func:`sides_moved`, the turn,
#: :data:`FIT_TURN`, and each pair of opposite sides' lean, :data:`LEANING`): each side alone
#: and the turn (:data:`SIDES`: the sides alone, in the fine step), and from the outline found
#: also all four sides together (an outline round the card's inner frame line, its border
#: outside it: one side moved alone may bring the card a little nearer, all four much nearer).
#: Until 2026-12-05 all four were tried only where no side alone brought the card nearer: with
#: the Pi's OpenCV 4.10 one side gained first on 6 of 32 such cards, and the fit stopped far off.
ALONE, TOGETHER = list(np.eye(7))[:5], [np.array([1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0])]
SIDES = ALONE[:4]


def _moves_from(moves: np.ndarray, ways: list[np.ndarray], step: float) -> list[np.ndarray]:
    """The moves the fit tries from ``moves``: a ``step`` each way along each of ``ways``,
    within :data:`FIT_RANGE`."""
    return [np.clip(moves + sign * step * way, *FIT_RANGE) for way in ways for sign in (-1, 1)]


#: The fit's first moves from the outline found (:func:`fit_sides`'s first: each side and the
#: turn alone, and all four sides together, a coarse step each way).
FIRST_MOVES = _moves_from(np.zeros(7), ALONE + TOGETHER, FIT_STEPS[0])

#: The moves of the fit tried again where the first fit is not taken (:meth:`CardReader._fitted`):
#: also each pair of opposite sides leaned (:func:`_leaned`, :data:`FIT_TURN` degrees a unit;
#: at most 16 degrees), in up to :data:`LEANING_ROUNDS` rounds of the coarse step.  Where two
#: cards' bright regions meet, the finder may cut one out as a parallelogram whose short sides
#: run 13-18 degrees off the card's (towards the other card's corner) and whose long sides are
#: the card's: no side's move nor the outline's turn brings those onto the card.  Since
#: 2026-12-05 (evening): the twelve second-renderer sets 10043 -> 10047 right, wrong 3 -> 3
#: (printed/cloth 2 877 -> 881); none more features read a frame on our renderer's frames.
LEANING = list(np.eye(7))
LEANING_ROUNDS = 7
#: The leaned fit is tried only where the outline found has a corner this many degrees or more
#: off square (those cut out askew are 14-18 off; a card the camera leans and the lens bends
#: has a few).  Tried on every fit not taken, it read as many cards of the twelve sets, with
#: the outlines across two cards parted (:data:`TWO_UNKNOWN`), at far more features a frame:
#: printed/felt 8 45.9 against 26.8 (24.8 before either), printed/tiles 52 137.9 against 114.9
#: (98.6): most fits not taken are of cards it does not read either (glared, or twins).
LEANED_CORNER = 8.0


def fitted_outline(quad: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """``quad`` (4x2) with its sides moved by ``moves[:4]`` (:func:`sides_moved`), sides 0 and 2
    leaned by ``moves[5]`` and sides 1 and 3 by ``moves[6]`` (:func:`_leaned`), then turned about
    its centre by ``moves[4]``, each :data:`FIT_TURN` degrees a unit."""
    q = sides_moved(quad, moves[:4])
    if moves[5] or moves[6]:
        q = _leaned(q, float(moves[5]) * FIT_TURN, float(moves[6]) * FIT_TURN)
    if not moves[4]:
        return q
    t = np.radians(float(moves[4]) * FIT_TURN)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    centre = q.mean(axis=0)
    return ((q - centre) @ turn.T + centre).astype(np.float32)


def _leaned(quad: np.ndarray, first: float, second: float) -> np.ndarray:
    """``quad`` (4x2) with sides 0 and 2 each turned about its middle by ``first`` degrees and
    sides 1 and 3 by ``second``; the corners where the turned sides meet."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    lines = np.empty((4, 4))
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        t = np.radians(first if i % 2 == 0 else second)
        d = b - a
        d = np.array([d[0] * np.cos(t) - d[1] * np.sin(t), d[0] * np.sin(t) + d[1] * np.cos(t)])
        lines[i] = (*(d / max(float(np.linalg.norm(d)), 1e-9)), *((a + b) / 2))
    out = corners_of(lines)
    return np.asarray(quad, np.float32) if out is None else out


def fit_sides(quad: np.ndarray, row: np.ndarray, distances: Callable[[list[np.ndarray]], np.ndarray],
              allowed: Callable[[np.ndarray], bool], leaning: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The sides of ``quad`` moved out or in and the outline turned (:func:`fitted_outline`,
    :data:`FIT_STEPS`; one side or the turn at a time, or all four sides at once from ``quad``
    itself, :data:`TOGETHER`; the move that reads nearest is taken) while a move brings the
    card nearer a card (``distances`` of a list of outlines: a row per outline, the least of
    which counts; ``row``: those of ``quad``) by :data:`FIT_GAIN` at least; ``allowed``:
    whether an outline may be tried; ``leaning``: the sides leaned too (:data:`LEANING`).
    Returns the moves and the row they reach."""
    best = float(row.min())
    moves = np.zeros(7)
    for step in FIT_STEPS:
        coarse = step == FIT_STEPS[0]
        # the move just made, undone, leads back to where it came from, which read farther
        # than where it led: it would not be taken, and is not read again
        before = moves
        for _ in range(LEANING_ROUNDS if coarse and leaning else FIT_ROUNDS):
            ways = ((LEANING if leaning else ALONE) if coarse else SIDES) + ([] if moves.any() else TOGETHER)
            # each move's outline made once: tried for ``allowed``, then read
            tries = [(t, q) for t in _moves_from(moves, ways, step) if (t != moves).any() and (t != before).any()
                     for q in (fitted_outline(quad, t),) if allowed(q)]
            if not tries:
                break
            rows = distances([q for _, q in tries])
            k = int(np.argmin(rows.min(axis=1)))
            if rows[k].min() >= best * (1 - FIT_GAIN):
                break
            before, row, best, moves = moves, rows[k], float(rows[k].min()), tries[k][0]
    return moves, row


def _completions(quad: np.ndarray) -> list[np.ndarray]:
    """``quad`` (4x2) with each corner in turn put where the other three make it a
    parallelogram (a card seen from above), where that moves it by more than :data:`COMPLETED`
    of the outline's size."""
    out = []
    size = float(np.sqrt(max(cv2.contourArea(quad), 1.0)))
    for i in range(4):
        corner = quad[i - 1] + quad[(i + 1) % 4] - quad[(i + 2) % 4]
        if float(np.linalg.norm(corner - quad[i])) > COMPLETED * size:
            q = quad.copy()
            q[i] = corner
            out.append(q)
    return out


#: A corner completed from the other three (:func:`_completions`) is tried when that moves it
#: by more than this share of the outline's size (a leaning camera bends a card's corner by
#: a few pixels).
COMPLETED = 0.04
#: How far a completed outline's side ratio may be off the deck's: the other three corners
#: may be off by a pixel or two, which the completed one doubles; the fit from it has to end
#: within :data:`FIT_SHAPE`.
COMPLETED_SHAPE = 0.15


def sides_moved(quad: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """``quad`` (4x2) with each side i (corner i to corner i + 1) moved out by ``moves[i]``
    (in by a negative share) of the sides it runs between: each of its corners slides along
    the side it ends, which keeps the perspective of the sides that stay."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    out = q.copy()
    for i, f in enumerate(np.asarray(moves, np.float32)):
        a, b = i, (i + 1) % 4
        out[a] += f * (q[a] - q[(a - 1) % 4])
        out[b] += f * (q[b] - q[(b + 1) % 4])
    return out


#: A card is unknown (not in the deck) beyond this many times the distance to their own card
#: that 99.5% of the enrollment shots' made-up copies stay within (left out of the deck).
UNKNOWN = 1.6
#: A card farther from its nearest card than this share of the unknown-card distance (that is
#: 1.6 times the distance the enrollment shots' made-up copies stay within, 99.5% of them:
#: beyond it lies the last 0.5%) is read only when it leads the next card by
#: :data:`FAR_LEAD` of its distance.  Such reads were the cards read wrong through a quad that
#: missed a title band or a corner (10 of 13 on the second renderer's printed decks, before
#: such cards were read through their outline fitted to the deck).  A fifth, then, also turned
#: unsure the cards both of whose enrollment photos were under a lamp's glare, read every time
#: a little beyond ``FAR`` with leads of 0.13-0.19 of their distance: a tenth reads 69 more of
#: 23,600 cards on 28 second-renderer sets, 2 more wrong (no lead asked for beyond the least
#: reads 23 more of 20,190 on 24 of them, 12 more wrong).
FAR = 1 / UNKNOWN
FAR_LEAD = 0.1
#: How much softer (a Gaussian's sigma, in pixels of the card as described: :data:`.learn.FEATURE_W`
#: wide) a card read by a narrow lead is read again (:meth:`CardReader._held`): half a pixel,
#: less than a camera's focus or a JPEG's blocks soften a card.  A card's confidence is its
#: lead over twice the lead it needs, so a narrow lead is a confidence under 1 (38 of 4271
#: reads on the real photos through five cameras and three second-renderer sets; every read
#: the softer card turned, 8, had a lead under 1.8 times its need; every card read again so
#: turned the same ones).  On the real photos, through their thirteen cameras, and the 24
#: second-renderer sets: 24,572 -> 24,569 right, 26 -> 21 wrong (through the phone 8 -> 6 of
#: 348).  0.8 pixels: the 640 px camera lost 2 more right reads of 341, the phone 1.
SOFTER = 0.5
#: Degrees the opposite sides of a card's outline may be out of parallel for a card read near
#: its card to be read through it as it is (:meth:`CardReader._checked`).  A card seen by a
#: camera leaning 15 degrees spans a few degrees of its view: its opposite sides meet far off,
#: a degree or two apart; a wide lens bends them a little more.  Of 6412 cards read right on the
#: real photos, three cameras of them and eight second-renderer sets, 99% were read through
#: outlines within 4.7 degrees, and the 19 beyond 8 through outlines off the card (pale tiles).
#: An outline with one corner pulled off the card onto a smudge of the table (12 degrees
#: apart) read a card of three open diamonds as striped, near its card.
APART = 8.0
#: A card read beyond :data:`FAR` with a clear lead (this share of its distance, the lead far
#: reads needed until stop 43, twice :data:`FAR_LEAD`) is fitted only when one of the fit's
#: first moves brings it nearer its card by :data:`GLANCE_GAIN`, or reads nearest another card,
#: :data:`GLANCE_RIVAL` farther at most than the card was read (:meth:`CardReader._fitted`).
#: Fitted every time, such cards were read as they were in 58 of 58 fits on 40 frames of two
#: second-renderer sets, at some 49 outlines described a fit (a card whose photos were under
#: glare is read far every time it lies on the table).  The glance describes 12 at most:
#: printed/felt 8's frames 87 -> 68 ms, bleed/cloth 111's 107 -> 75, and the 28 second-renderer
#: sets read as before, set for set.  Asking only that no move read another card nearer than
#: the card was read, one of 200 overlap tables of our symbols deck read three open diamonds as
#: one (found round their frame line; all four sides moved out read the three at 1.17 times the
#: one's distance, the full fit nearer: neither sure); asking that no move read another card
#: nearest at all, nearly every glance went on to the full fit; without the other-card check a
#: chick was read as its twin; with no fit at all for such cards, a horse was read as the goat
#: of the same marks again.  The glance goes on to the fit from a gain of a tenth (a twentieth
#: until stop 44): on the 24 second-renderer sets, 165 cards whose first moves gained a
#: twentieth to a tenth were fitted in full (half the glances that went on), each read as before
#: (21 through an outline moved a little); the sets read the same, set for set, and full-bleed
#: cloth 103 and wood 105's frames take 15-18% less time.  A card not read is fitted in full:
#: glanced at the same way (from a twentieth), the 24 sets read 2 cards fewer and 2 fewer wrong
#: (chick-3s the fit read as chick-2), and the Pi's libraries, the overlap tables of our symbols
#: deck and, near its card (unsure), the real photos through a dim lamp each lost a card or two.
GLANCE_LEAD = 2 * FAR_LEAD
GLANCE_GAIN = 0.1
GLANCE_RIVAL = 0.25
#: ... and only when each of its sides runs along an edge (:func:`_sides_on_edges`): the
#: weakest side's step across at least this share of the strongest's.  A card's own outline
#: on the second renderer's printed deck: 0.58 or more; an outline with a strip of table
#: (6% of the card) beyond one side: 0.10 at most.
GLANCE_EDGE = 0.25

#: Points sampled along each side of a card when looking for its edge.
EDGE_SAMPLES = 24
#: A side point counts as edge when the gradient across the side is this share of the card's
#: median edge gradient.
EDGE_SHARE = 0.35


def _edge_strength(gray: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points along the sides of ``quad`` (N, 2) and the brightness step across the side at
    each (inside minus outside, 2 px each way)."""
    q = np.asarray(quad, np.float32)
    t = (np.arange(EDGE_SAMPLES) + 0.5) / EDGE_SAMPLES
    pts, steps = [], []
    c = q.mean(axis=0)
    h, w = gray.shape
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        p = a[None] + t[:, None] * (b - a)[None]
        n = np.array([-(b - a)[1], (b - a)[0]], np.float32)
        n /= max(float(np.linalg.norm(n)), 1e-6)
        if float(n @ (c - (a + b) / 2)) < 0:
            n = -n                               # pointing into the card
        inner = np.clip(np.round(p + 2.5 * n), 0, [w - 1, h - 1]).astype(int)
        outer = np.clip(np.round(p - 2.5 * n), 0, [w - 1, h - 1]).astype(int)
        steps.append(np.abs(gray[inner[:, 1], inner[:, 0]] - gray[outer[:, 1], outer[:, 0]]))
        pts.append(p)
    return np.concatenate(pts), np.concatenate(steps)


def _sides_on_edges(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether every side of ``quad`` runs along an edge: its median brightness step across
    (:func:`_edge_strength`) is :data:`GLANCE_EDGE` of the strongest side's or more (a side
    over a strip of table has next to none)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    h, w = image.shape[:2]
    x0, y0 = (int(v) for v in np.maximum(np.floor(q.min(axis=0)) - 4, 0))
    x1, y1 = (int(v) for v in np.minimum(np.ceil(q.max(axis=0)) + 5, [w, h]))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return False
    crop = image[y0:y1, x0:x1]
    gray = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)
    _, steps = _edge_strength(gray, q - np.array([x0, y0], np.float32))
    side = np.median(steps.reshape(4, -1), axis=1)
    return float(side.min()) >= GLANCE_EDGE * max(float(side.max()), 1e-6)


def _depth_inside(pts: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """How far inside the convex ``quad`` each point (N, 2) lies: its distance to the nearest
    side, negative outside (for points inside, as ``cv2.pointPolygonTest`` measures it)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    a, b = q, np.roll(q, -1, axis=0)
    u = b - a
    n = np.stack([-u[:, 1], u[:, 0]], axis=1) / np.maximum(np.linalg.norm(u, axis=1), 1e-9)[:, None]
    if float(((q.mean(axis=0) - a) * n).sum(axis=1).mean()) < 0:
        n = -n                                   # normals pointing into the quad
    d = np.asarray(pts, np.float64)[:, None, :] - a[None]
    return np.min((d * n[None]).sum(axis=2), axis=1)


def covered_cards(image: np.ndarray, quads: list[np.ndarray]) -> list[bool]:
    """Which found cards lie partly under another found card: their sides run inside the
    other card's outline without an edge there (the top card's own sides stay visible)."""
    out = [False] * len(quads)
    boxes = [cv2.boundingRect(np.asarray(q, np.float32)) for q in quads]

    def apart(i: int, j: int) -> bool:
        """Whether the boxes round cards i and j do not meet (neither card can cover the other)."""
        xi, yi, wi, hi = boxes[i]
        xj, yj, wj, hj = boxes[j]
        return xi > xj + wj or xj > xi + wi or yi > yj + hj or yj > yi + hi

    near = [[j for j in range(len(quads)) if j != i and not apart(i, j)] for i in range(len(quads))]
    if not any(near):   # most frames: the edges along the cards' sides are not looked at
        return out
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32) if image.ndim == 3 else \
        image.astype(np.float32)
    edges: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def edge(i: int) -> tuple[np.ndarray, np.ndarray]:
        if i not in edges:
            edges[i] = _edge_strength(gray, quads[i])
        return edges[i]

    def hidden_step(i: int, j: int) -> float | None:
        """Median edge step of card i's sides where they run inside card j (None: they don't)."""
        if apart(i, j):
            return None
        pts, step = edge(i)
        inside = _depth_inside(pts, quads[j]) > 3.0
        return float(np.median(step[inside])) if inside.sum() >= 3 else None

    for i in range(len(quads)):
        if not near[i]:
            continue
        typical = float(np.median(edge(i)[1])) + 1e-3
        for j in near[i]:
            mine = hidden_step(i, j)
            if mine is None or mine >= EDGE_SHARE * typical:
                continue
            # both cards' sides cross the other's face where they overlap: the one on top
            # keeps an edge there (at least a shadow line), the one below does not
            theirs = hidden_step(j, i)
            if theirs is None or mine <= theirs:
                out[i] = True
                break
    return out


# ---------------------------------------------------------------------------
# Enrollment


def _brighter_inside(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the band just inside ``quad`` is clearly brighter than the band just outside
    it: a card on a table, not a symbol printed on a card (ink inside, paper outside)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    side = float(np.sqrt(max(cv2.contourArea(quad), 1.0)))
    band = max(2.0, 0.04 * side)
    inner = np.zeros(gray.shape, np.uint8)
    outer = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(outer, np.round(offset(quad, band)).astype(np.int32), (255,))
    cv2.fillConvexPoly(inner, np.round(quad).astype(np.int32), (255,))
    ring_out = (outer > 0) & (inner == 0)
    shrunk = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(shrunk, np.round(offset(quad, -band)).astype(np.int32), (255,))
    ring_in = (inner > 0) & (shrunk == 0)
    if ring_out.sum() < 10 or ring_in.sum() < 10:
        return False
    return float(np.median(gray[ring_in])) > float(np.median(gray[ring_out])) + 12.0


def card_in(image: np.ndarray) -> np.ndarray:
    """The corners of the one card of an enrollment image: the largest card found on the
    table, or the whole image when it is a tight crop of the card.

    A card on a table is brighter inside its outline than around it; a tile of the table, a
    printed frame or a symbol is not (ink inside, paper outside), so only such outlines count.
    An outline of at least half the image is a tight crop's own edge (or a dark vignette round
    a photo); an image with no card-sized outline on a table is the crop (a crop's small
    printed bits are no card)."""
    h, w = image.shape[:2]

    def on_table(quads: list[np.ndarray], most: float) -> np.ndarray | None:
        cards = [q for q in quads if MIN_CARD_PIXELS <= cv2.contourArea(q) < most * w * h
                 and _brighter_inside(image, q)]
        return max(cards, key=lambda q: cv2.contourArea(q)) if cards else None

    found = find_cards(image, FindOptions(min_area=0.002, max_area=0.98))
    if found and max(cv2.contourArea(q) for q in found) < ON_THE_TABLE * w * h:
        best = on_table(found, ON_THE_TABLE)
    else:
        # a frame-sized outline (a crop's edge, or a photo's dark vignette) hides what lies
        # inside it: a card far smaller than the photo, brighter than around it, is a card
        # on the table; a crop's own details are not that
        best = on_table(find_cards(image, FindOptions(min_area=0.002, max_area=0.5)), SMALL_CARD)
    if best is not None:
        return best
    return whole(image)


#: A card photographed on the table covers at most this share of the photo (a crop's
#: printed panels cover more).
SMALL_CARD = 0.15
#: The least area (pixels) of a card photographed on the table for enrollment: smaller, its
#: outline is a detail of a tight crop (the features are made at 80 pixels wide).
MIN_CARD_PIXELS = 3000


#: Progress callback: (done, total) steps of enrollment, three per shot: its card found, its
#: card checked against the empty table (when the photos are of one), then the shot made into
#: samples (total is three times the shots given).
Progress = Callable[[int, int], None]


#: Steps of enrollment per shot (see :data:`Progress`).
STEPS_PER_SHOT = 3


class ProgressBar(Protocol):
    """A tqdm-like progress bar: only its ``update`` is used."""

    def update(self, n: int = 1, /) -> object:
        """Advance the bar by ``n`` steps."""
        ...



@dataclass(frozen=True)
class EnrollmentCheck:
    """Leave-one-out over the enrollment shots: each shot read from the others."""

    shots: list[ShotCheck]
    #: The lead a read needs (calibrated here) and the distance beyond which a card is unknown.
    min_lead: float
    max_distance: float
    #: The shots left out (indices into those given): photos on the table in which no card
    #: was found, of cards that have other photos.
    left_out: tuple[int, ...] = ()
    #: The cards whose every photo lies under the lamp's glare (:func:`_washed_out`).
    washed_out: tuple[str, ...] = ()
    #: The cards not learned: every photo of them left out (no whole card found in it).
    lost: tuple[str, ...] = ()

    @property
    def weak(self) -> list[str]:
        """Cards with a shot read wrong or unsure from the other shots, or with one shot only
        (nothing to check it against), or under the lamp's glare in every photo, or not
        learned at all (:attr:`lost`): shoot them again."""
        return sorted({s.card for s in self.shots
                       if not np.isfinite(s.own) or s.read_as != s.card or s.lead < self.min_lead}
                      | set(self.washed_out) | set(self.lost))


def enroll_shots(shots: list[tuple[str, np.ndarray]], on_progress: Progress | None = None,
                 jitter: int = JITTER, seed: int = 0,
                 table_shots: list[np.ndarray] | None = None) -> tuple[CardModel, EnrollmentCheck]:
    """Learn a deck from ``(card_id, image)`` shots (a tight crop of the card, or a photo of
    it alone on the table), and check every shot against the others (leave-one-out).
    ``table_shots``: photos of the empty table through the same camera; without them the empty
    table is the median of the photos of the cards (a card where cards lay in more than half
    of them)."""
    if not shots:
        raise VisionInputError("no enrollment shots")
    steps = STEPS_PER_SHOT * len(shots)
    found = []
    for k, (label, img) in enumerate(shots):
        found.append((label, img, card_in(img)))
        if on_progress is not None:
            on_progress(k + 1, steps)
    # the share of its photo each card covers: all of it for a tight crop (or a photo in which
    # no card was found), a small share for a photo of the card on the table
    shares = [cv2.contourArea(c) / float(img.shape[0] * img.shape[1]) for _, img, c in found]
    tables = _Tables(table_shot(table_shots) if table_shots else None)
    by_edges = [c for _, _, c in found]
    found, shares = _no_tiles(found, shares, tables)
    found, shares = _found_on_a_pale_table(found, shares, tables)
    found, shares, table = _found_on_the_empty_table(
        found, shares, None if on_progress is None else lambda k: on_progress(len(shots) + k, steps), tables)
    left_out = _photos_without_a_card(found, shares)
    # whether the shots are the box camera's photos is told before any is left out: a photo
    # left out is one on the table (our renderer's deck, a crop and a photo of each card: one
    # photo left out made them mostly crops, and the deck was learned with no card size)
    boxed = _mostly_on_the_table(found, shares)
    lost = tuple(sorted({label for label, _, _ in found} - {label for i, (label, _, _) in enumerate(found)
                                                           if i not in left_out}))
    found = [f for i, f in enumerate(found) if i not in left_out]
    shares = [a for i, a in enumerate(shares) if i not in left_out]
    by_edges = [c for i, c in enumerate(by_edges) if i not in left_out]
    cards = sorted({label for label, _, _ in found})
    ratio = _deck_ratio(found, shares, boxed)
    found, shares = _aligned(found, shares, by_edges, ratio)
    size = feature_size(ratio)
    rng = np.random.default_rng(seed)
    square = ratio > 0.9
    n_turns = len(turns(np.zeros((size[1], size[0], 3), np.uint8), square))
    # each photo's card as the features see it: whether it lies under the lamp's glare (its
    # copies made without the veil, :func:`_samples`; a card so in every photo is named weak)
    rectified = [rectify_to(img, corners, size) for _, img, corners in found]
    veils = [veiled(card) for card in rectified]
    # each enrolled card lines its shots up with its first one (a shot may be upside down)
    first: dict[str, np.ndarray] = {}
    samples = []
    for s, (label, img, corners) in enumerate(found):
        samples.append(_samples(label, img, corners, first, cards, size, square, n_turns, rng, jitter,
                                rectified[s], veils[s]))
        if on_progress is not None:
            on_progress(2 * len(shots) + s + 1, steps)
    if on_progress is not None and len(found) < len(shots):   # shots left out: done all the same
        on_progress(steps, steps)
    shot_card = [cards.index(label) for label, _, _ in found]
    class_card = (np.arange(len(cards) * n_turns) // n_turns).astype(np.int32)
    x, classes, sample_shot = _stacked(samples)
    dz = fit(x, classes)
    z = dz.project(x)
    templates = [t for t, _, _ in samples]
    checks, own, lead = leave_one_out(z, classes, sample_shot, class_card, cards, np.array(shot_card))
    min_lead, max_distance = _thresholds(checks, own, z, classes, dz.class_means)
    model = CardModel(np.stack(templates), [label for label, _, _ in found], ratio, dz.mean, dz.scale,
                      dz.projection, dz.class_means, class_card, max_distance, min_lead, len(found),
                      card_share=_card_share(shares, boxed))
    if model.card_share and table is not None:
        model.table = table
    check = EnrollmentCheck(checks, min_lead, max_distance, tuple(sorted(left_out)), _washed_out(found, rectified, veils),
                            lost)
    model.weak = check.weak
    return model, check


def _washed_out(found: list[tuple[str, np.ndarray, np.ndarray]], rectified: list[np.ndarray],
                veils: list[bool]) -> tuple[str, ...]:
    """The cards of ``found`` (label, photo, corners; ``rectified`` each photo's card) whose
    every photo lies under the lamp's glare: washed out by its reflection (:func:`.learn.washed`)
    or veiled by it over part of the card (``veils``, :func:`.learn.veiled`).  Such a card's
    look without the glare is not in the model (the reader ranks it by its colour details
    against the cards it may be taken for, :meth:`CardReader._ranked_by_details`): shoot it
    again away from the glare."""
    every: dict[str, bool] = {}
    for (label, _, _), card, veil in zip(found, rectified, veils):
        every[label] = every.get(label, True) and (veil or washed(card))
    return tuple(sorted(card for card, all_washed in every.items() if all_washed))


def _samples(label: str, img: np.ndarray, corners: np.ndarray, first: dict[str, np.ndarray], cards: list[str],
             size: tuple[int, int], square: bool, n_turns: int, rng: np.random.Generator, jitter: int,
             base: np.ndarray, veil: bool) -> tuple[np.ndarray, list[np.ndarray], list[int]]:
    """One shot's template (lined up with its card's first shot, whose features ``first``
    keeps), its feature rows (the shot ``base``, rectified, and ``jitter`` made-up copies,
    every turn; made without the glare's veil where ``veil``) and their classes (the card's
    index times ``n_turns`` plus the turn counted from its first shot)."""
    ci = cards.index(label)
    ways = turns(base, square)
    half = n_turns // 2
    if label not in first:
        first[label] = features(base)
        shift = 0
    else:
        ref = first[label]
        shift = int(np.argmin([np.abs(features(w) - ref).sum() for w in ways[:half]]))
    rows, classes = [], []
    # a photo under the lamp's glare: its made-up copies are made without the glare's veil
    source = unveiled(img, corners) if veil else img
    views = [base] + [augmented(rng, source, corners, size, rectify_to) for _ in range(jitter)]
    for v in views:
        for t, w in enumerate(turns(v, square)):
            rows.append(features(w))
            classes.append(ci * n_turns + (t % half - shift) % half + (t // half) * half)
    return ways[shift], rows, classes


def _card_distances(model: CardModel, x: np.ndarray) -> np.ndarray:
    """How far each feature row of ``x`` lies from each card of ``model`` (columns), in the
    learned space."""
    z = ((x - model.mean) / model.scale) @ model.projection
    cm = model.class_means
    d = np.sqrt(np.maximum((z * z).sum(axis=1)[:, None] - 2 * z @ cm.T + (cm * cm).sum(axis=1)[None, :], 0))
    return card_distances(d, model.class_card, len(model.cards))


def _glared_twins(model: CardModel) -> tuple[dict[int, set[int]], dict[int, list[np.ndarray]]]:
    """The cards of ``model`` seen only under the lamp's glare (every enrollment photo
    :func:`.learn.veiled`), each with the cards it may be taken for (:data:`TWINS`: those
    nearest its photos with the veil taken away, :func:`.learn.unveiled`), and the colour
    details of every card's enrollment photos (none when no card is glared in every photo)."""
    cards = model.cards
    photos: dict[int, list[np.ndarray]] = {}
    if len(model.labels) == len(model.templates):
        for label, t in zip(model.labels, model.templates):
            if label in cards:
                photos.setdefault(cards.index(label), []).append(t)
    glared = [k for k, ts in photos.items() if all(veiled(t) for t in ts)]
    if not glared:
        return {}, {}
    twins: dict[int, set[int]] = {}
    for k in glared:
        near = _card_distances(model, np.stack([features(unveiled(t, whole(t))) for t in photos[k]])).min(axis=0)
        near[k] = np.inf
        twins[k] = set(np.flatnonzero(near <= TWINS * near.min()).tolist())
    details = {k: [colour_details(features(t)) for t in ts] for k, ts in photos.items()}
    return twins, details


def _stacked(samples: list[tuple[np.ndarray, list[np.ndarray], list[int]]]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The feature rows of every shot's :func:`_samples`, their classes and their shots."""
    x = np.stack([r for _, rows, _ in samples for r in rows])
    classes = np.array([c for _, _, cs in samples for c in cs])
    shot = np.array([s for s, (_, rows, _) in enumerate(samples) for _ in rows])
    return x, classes, shot


def _aligned(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float], by_edges: list[np.ndarray],
             ratio: float) -> tuple[list[tuple[str, np.ndarray, np.ndarray]], list[float]]:
    """The photos on the table whose card was found by what differs from the empty table (its
    outline is not the one found by its edges, ``by_edges``), their outlines aligned to the
    layout the deck's cards share (:func:`.layout.aligned_to_the_deck`)."""
    on = [i for i, a in enumerate(shares) if a < ON_THE_TABLE]
    again = [not np.array_equal(found[i][2], by_edges[i]) for i in on]
    outlines = aligned_to_the_deck([found[i][1] for i in on], [found[i][2] for i in on], ratio, again)
    found, shares = list(found), list(shares)
    for i, q in zip(on, outlines):
        label, img, _ = found[i]
        found[i] = (label, img, q)
        shares[i] = cv2.contourArea(q) / float(img.shape[0] * img.shape[1])
    return found, shares


#: A card covering less than this share of its shot lies on the table in a photo of it (a
#: tight crop's card fills its image).
ON_THE_TABLE = 0.5
#: A photo's card is looked for again, as what differs from the empty table, when it covers
#: less than this share of what the median card does or its side ratio is off by more than
#: :data:`AGAIN_RATIO` (a part of the card was found, or nothing).
AGAIN_SHARE = 0.6
AGAIN_RATIO = 0.1
#: ... or when the card found matches what differs from the empty table (intersection over
#: union) less than this; the card found by difference is then taken when it matches it this
#: much better.  Over the 473 photos of ten second-renderer boxes, 8 cards were found more than
#: 8 pixels off (cut at the title band, or with a band of table): they matched 0.40-0.84, and
#: the card by difference matched 0.06-0.27 better in 6 of them.  The cards found right
#: matched 0.35-1.0 (a white card on a white cloth differs from it little), the card by
#: difference within 0.035 of that.
FITS = 0.85
BETTER_FIT = 0.05
#: ... or when the card found leaves out a region of what differs of this share of a card, or
#: more (its title band: 0.03-0.28 in 6 of those 8 photos), and the card found by difference
#: leaves out half of it at most (0.00-0.01 in those 6; glare or a shadow beside the card is
#: left out by both alike, 0.02-0.19 in 17 photos).
LEFT_OUT = 0.02


def _found_on_the_empty_table(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float],
                              done: Callable[[int], None] | None = None, tables: _Tables | None = None
                              ) -> tuple[list[tuple[str, np.ndarray, np.ndarray]], list[float], np.ndarray | None]:
    """The empty table, when the photos are of one card each on one table through the box's
    fixed camera (of the photos of the most common size); and the photos on it in which no
    card, or not a whole card, was found (a white border on a white stripe), or a card that
    does not match what differs from the table, looked at again: the card is what differs
    from the empty table (:mod:`.table`), of the size and proportions of the cards found in
    the other photos.  When fewer than :data:`LEAST_PHOTOS` cards were found whole by their
    edges, their proportions say little (on pale tiles one card was found, with a band of
    grout: 0.73 against the deck's 0.64, and the cards looked for at that ratio were found with
    it in half the photos): the card is then looked for at each of :data:`RATIO_TRIES` too, and
    the cards of the ratio that match what differs best are kept."""
    ticked = [0]

    def tick(k: int) -> None:       # each step once, in order, over all the ratios tried
        if done is not None and k > ticked[0]:
            ticked[0] = k
            done(k)

    boxed = _mostly_on_the_table(found, shares)
    share = _card_share(shares, boxed)
    if not share:
        tick(len(found))
        return found, shares, None
    ratio = _deck_ratio(found, shares, boxed)
    placed = [img.shape for (_, img, _), a in zip(found, shares) if a < ON_THE_TABLE]
    size = max(set(placed), key=placed.count)
    photos = [img for _, img, _ in found if img.shape == size]
    table = (tables or _Tables()).of(photos, share)
    if table is None or not one_table(photos, table, share):
        tick(len(found))
        return found, shares, None
    masks = [differing(img, table) if img.shape == size else None for _, img, _ in found]
    regions = [_largest_region(m, img) for m, (_, img, _) in zip(masks, found)]
    places = [None if r is None else r[0] for r in regions]

    def sizes_at(local: list[float]) -> list[list[float]]:
        """A photo's card looked for at the median card's size, the size expected where it
        lies (``local``) and its largest region's own (one card a photo: the lens bends sizes
        at the frame's edge)."""
        return [[share, at] + ([] if r is None else [r[1]]) for at, r in zip(local, regions)]

    local = _shares_where(found, shares, share, ratio, places)
    sizes = sizes_at(local)
    by_edges = sum(_found_whole(a, c, share, ratio) for (_, _, c), a in zip(found, shares))
    tries = [ratio] if by_edges >= LEAST_PHOTOS else [ratio, *RATIO_TRIES]
    best: tuple[float, list[tuple[str, np.ndarray, np.ndarray]], list[float]] | None = None
    best_ratio = ratio
    for t, r in enumerate(tries):
        def step(k: int, t: int = t) -> None:
            tick((t * len(found) + k) // len(tries))
        again = _looked_for_again(found, shares, masks, table, sizes, r, step)
        if best is None or again[0] > best[0]:
            best, best_ratio = again, r
    assert best is not None
    if by_edges < LEAST_PHOTOS and any(not _card_sized(a, s) for a, s in zip(best[2], local)):
        # too few cards were found by their edges to say how large a card shows where it lies,
        # and a photo is left without a whole card: looked at once more, at the sizes the
        # cards found now say (a card in the frame's corner, enlarged there by a wide lens,
        # was larger than any size looked for)
        sizes = sizes_at(_shares_where(best[1], best[2], share, best_ratio, places))
        again = _looked_for_again(best[1], best[2], masks, table, sizes, best_ratio, lambda k: None)
        if again[0] > best[0]:
            best = again
    tick(len(found))
    return best[1], best[2], table


def _card_sized(a: float, share: float) -> bool:
    """Whether a card found covering ``a`` of its photo is a whole card on the table (at least
    :data:`AGAIN_SHARE` of ``share``, the share a card is expected to cover there, and not a
    tight crop)."""
    return AGAIN_SHARE * share <= a < ON_THE_TABLE


def _found_whole(a: float, corners: np.ndarray, share: float, ratio: float) -> bool:
    """:func:`_card_sized`, and of the deck's side ``ratio`` (within :data:`AGAIN_RATIO`)."""
    return _card_sized(a, share) and abs(side_ratio(corners) - ratio) <= AGAIN_RATIO


#: Card proportions (short over long side) tried when few cards were found by their edges in
#: the enrollment photos (:func:`_found_on_the_empty_table`): from a tarot card's to a square.
RATIO_TRIES = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.0)


def _looked_for_again(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float],
                      masks: list[np.ndarray | None], table: np.ndarray, sizes: list[list[float]], ratio: float,
                      tick: Callable[[int], None]
                      ) -> tuple[float, list[tuple[str, np.ndarray, np.ndarray]], list[float]]:
    """The step of :func:`_found_on_the_empty_table` for one card ratio: each photo's card kept,
    or looked for again as what differs from the empty ``table`` (``masks``: each photo's, None
    for a photo of another size; ``sizes``: the shares each photo's card is looked for at, in
    turn until one is found: the median card's, the one expected where it lies, and its
    region's own, when known; a card found is of the size of one of the first two).
    Returns how well the cards then match what differs (the mean over the photos with a mask
    of :func:`.table.matching`, 0 where no whole card is found), the cards and their shares."""
    found, shares = list(found), list(shares)
    fits = []
    for i, ((label, img, corners), a, mask) in enumerate(zip(found, shares, masks)):
        if i:
            tick(i)
        if mask is None:
            continue
        share, expected = sizes[i][0], sizes[i][:2]   # the median card's; a card's size there too
        whole = any(_found_whole(a, corners, s, ratio) for s in expected)
        fit, left = matching(mask, corners, img), unexplained(mask, corners, img, share)
        fits.append(fit if any(_card_sized(a, s) for s in expected) else 0.0)
        if whole and fit >= FITS and left < LEFT_OUT:
            continue
        area = img.shape[0] * img.shape[1]
        card = None
        for s in dict.fromkeys(sizes[i]):
            # at the median card's size first; at another only where none was found at it
            cards = card_by_difference(img, table, s, ratio, mask=mask)
            if len(cards) == 1 and any(AGAIN_SHARE * e <= cv2.contourArea(cards[0]) / area <= 1.5 * e
                                       for e in expected):
                card = cards[0]
                break
        if card is None:
            continue
        again = matching(mask, card, img)
        if again >= fit + BETTER_FIT or (left >= LEFT_OUT and unexplained(mask, card, img, share) <= left / 2):
            found[i] = (label, img, card)
            shares[i] = cv2.contourArea(card) / area
            fits[-1] = again
    return float(np.mean(fits)) if fits else 0.0, found, shares


@dataclass
class _Tables:
    """Where enrollment takes the empty table from: the photo of it given, else the median of
    the photos (:func:`empty_table`, computed once per set of photos: the steps below ask for
    the same photos' table in turn)."""

    given: np.ndarray | None = None
    medians: dict[tuple[int, ...], np.ndarray | None] = field(default_factory=dict)

    def of(self, photos: list[np.ndarray], share: float | None = None) -> np.ndarray | None:
        """The empty table of ``photos``: the photo of it given, when of these photos' camera
        (its size) and, with ``share`` (a card's share of the frame) known, of their table
        (:func:`one_table`: not a photo of another table, or from a camera since moved); else
        the median of the photos."""
        if self.given is not None and photos:
            h, w = photos[0].shape[:2]
            scale = min(1.0, TABLE_W / w)
            if self.given.shape[:2] == (round(h * scale), round(w * scale)) \
                    and (share is None or one_table(photos, self.given, share, GIVEN_TABLE)):
                return self.given
        key = tuple(id(p) for p in photos)
        if key not in self.medians:
            self.medians[key] = empty_table(photos)
        return self.medians[key]


def _no_tiles(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float],
              tables: _Tables | None = None) -> tuple[list[tuple[str, np.ndarray, np.ndarray]], list[float]]:
    """Photos of one card each on one table through one camera: an outline :func:`card_in`
    took for the card where the photo hardly differs from the empty table (their median) is a
    tile framed by its grout, not the card (:data:`NOT_A_CARD`, as in play); the photo is then
    one in which no card was found (the whole image), for the steps that find the card by what
    differs from the table.  On a tiled table with tiles of a card's size the tiles were taken
    in 13 of 16 photos, and the deck learned their square shape.  Where fewer than half the
    photos show an outline (the rest none: photos on the table all the same), the outlines
    found may be of no card's size (a white check of a gingham cloth, found in 13 of 48 photos
    and learned as 10 cards, the deck's side ratio 0.46): the photos are then of one table when
    they differ from it over no more than a card on it may cover (:data:`SMALL_CARD`)."""
    placed = [i for i, ((_, img, _), a) in enumerate(zip(found, shares)) if a < ON_THE_TABLE]
    few = len(placed) < len(found) / 2
    if len(placed) < LEAST_PHOTOS or sum(_on_the_table(found, shares)) < max(LEAST_PHOTOS, len(found) / 2):
        return found, shares
    size = max({found[i][1].shape for i in placed}, key=[found[i][1].shape for i in placed].count)
    photos = [img for _, img, _ in found if img.shape == size]
    share = float(np.median([shares[i] for i in placed]))
    table = (tables or _Tables()).of(photos, share)
    # (the photos compared with the table once: the bound is the larger of the two)
    if table is None or not one_table(photos, table, max(ONE_TABLE * share, SMALL_CARD if few else 0.0), 1.0):
        return found, shares
    found, shares = list(found), list(shares)
    for i in placed:
        label, img, corners = found[i]
        mask = differing(img, table) if img.shape == size else None
        if mask is not None and differs_inside(mask, corners, img) < NOT_A_CARD:
            found[i] = (label, img, whole(img))
            shares[i] = cv2.contourArea(found[i][2]) / float(img.shape[0] * img.shape[1])
    return found, shares


def _found_on_a_pale_table(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float],
                           tables: _Tables | None = None
                           ) -> tuple[list[tuple[str, np.ndarray, np.ndarray]], list[float]]:
    """Photos of one card each through one camera in most of which :func:`card_in` found no
    card, the card being no brighter than the table, and in fewer than :data:`LEAST_PHOTOS` of
    which it found one (too few to say a card's size and shape): a cream card on a near-white
    cloth (every photo was taken for a tight crop, and the deck learned the whole table as its
    cards), a card of a deep ground, its art to its edge, on pale tiles (darker than them:
    found by its edges in 3 photos of 48, the others looked for as what differs from the empty
    table at the size of those three, and learned stretched along a band of the table).  When
    their median is an empty table that each of the photos without a card differs from in one
    small region (the card's art, or the whole card), the card is the smallest outline found
    round that region, when those are of one size over the photos.  The cards found are kept;
    tight crops (each of its own size, or differing from their median everywhere) are left as
    they are.  Where more cards were found by their edges, the others are found as what
    differs from the empty table at their size (:func:`_found_on_the_empty_table`), nearer the
    card: on the second renderer's bleed/wood 222 (14 found of 48) 3 outlines ended more than 4
    pixels off their card that way, 12 from the outlines found here."""
    blank = [i for i, ((_, img, _), a) in enumerate(zip(found, shares)) if _whole(a, img)]
    if len(blank) < max(LEAST_PHOTOS, len(found) / 2) or len(found) - len(blank) >= LEAST_PHOTOS:
        return found, shares
    photos = [img for _, img, _ in found]
    table = (tables or _Tables()).of(photos)
    if table is None:
        return found, shares
    cards: dict[int, np.ndarray] = {}
    masks: dict[int, np.ndarray] = {}
    hulls: set[int] = set()         # the photos whose card is the hull of what differs
    for i in blank:
        img = photos[i]
        mask = differing(img, table)
        if mask is None or (mask > 0).mean() > SMALL_CARD:
            return found, shares
        masks[i] = mask
        h, w = img.shape[:2]
        art = mask > 0
        round_it = []
        for q in find_cards(img, FindOptions(min_area=0.002, max_area=SMALL_CARD)):
            inside = np.zeros(mask.shape, np.uint8)
            cv2.fillConvexPoly(inside, np.round(q * (mask.shape[1] / w)).astype(np.int32), (1,))
            if art.any() and float(art[inside > 0].sum()) >= ART_INSIDE * float(art.sum()) \
                    and cv2.contourArea(q) >= MIN_CARD_PIXELS:
                round_it.append(q)
        if round_it:
            cards[i] = min(round_it, key=cv2.contourArea)
        elif (region := _region_outline(mask, img)) is not None:
            cards[i] = region
            hulls.add(i)
    areas = {i: cv2.contourArea(c) / float(photos[i].shape[0] * photos[i].shape[1]) for i, c in cards.items()}
    if len(areas) < len(blank) / 2:
        return found, shares
    share = float(np.median(list(areas.values())))
    if not one_table(photos, table, share):
        return found, shares
    # a hull runs round what differs, not along the card's edges: each such card is looked for
    # again as the card-sized rectangle round it whose sides run along the image's edges
    # (:func:`.table.card_by_difference`, at the hull's own size and the hulls' side ratio)
    ratio = float(np.median([side_ratio(cards[i]) for i in hulls])) if hulls else 0.0
    for i in hulls:
        again = card_by_difference(photos[i], table, areas[i], ratio, mask=masks[i])
        pixels = float(photos[i].shape[0] * photos[i].shape[1])
        if len(again) == 1 and AGAIN_SHARE <= cv2.contourArea(again[0]) / pixels / areas[i] <= 1.5:
            cards[i], areas[i] = again[0], cv2.contourArea(again[0]) / pixels
    found, shares = list(found), list(shares)
    for i, card in cards.items():
        if AGAIN_SHARE * share <= areas[i] <= 1.5 * share:
            found[i], shares[i] = (found[i][0], found[i][1], card), areas[i]
    return found, shares


#: The share of what differs from the empty table that a card's outline holds (its art).
ART_INSIDE = 0.9
#: A card found by what differs from the empty table alone (:func:`_region_outline`): the
#: regions that differ, less those under this share of the largest (sensor noise, a speck of
#: glare), their convex hull filling this share at least of the smallest rectangle round it,
#: and the regions this share of the hull.
SPECK = 0.02
REGION_FILLS = 0.85
HULL_DIFFERS = 0.5


def _region_outline(mask: np.ndarray, image: np.ndarray) -> np.ndarray | None:
    """The outline (corners, pixels of ``image``) of a photo's one card found by what differs
    from the empty table (``mask``, :func:`.table.differing` of ``image``) where no outline was
    found round it by its edges: the convex hull of the regions that differ (but specks under
    :data:`SPECK` of the largest), outlined as the finder outlines a card (:func:`.find._quad`,
    its sides fitted to the hull's), when the hull fills :data:`REGION_FILLS` of the smallest
    rectangle round it, the regions fill :data:`HULL_DIFFERS` of the hull, and it is of a card's
    size (:data:`MIN_CARD_PIXELS`).  On a gingham cloth a card's sides run along the checks'
    edges, broken at every check: no outline was found round a full-bleed card of a deep green
    ground on a green gingham in any of its 48 photos, nor round a cream card whose white
    border lies on the white checks in part (its regions there are its art and the border's
    pieces on the coloured checks)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    kept = 1 + np.flatnonzero(areas >= SPECK * areas.max())
    differs = np.isin(labels, kept).astype(np.uint8)
    hull = cv2.convexHull(cv2.findNonZero(differs))
    filled = np.zeros_like(differs)
    cv2.fillConvexPoly(filled, hull, (1,))
    inside = float(np.count_nonzero(filled))
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    if inside / ((rw + 1) * (rh + 1)) < REGION_FILLS or float(areas[kept - 1].sum()) < HULL_DIFFERS * inside:
        return None
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=len)
    quad = _quad(contour)
    if quad is None:
        return None
    # the outline runs through the hull's edge pixels, half a pixel inside its edge; a mask
    # pixel's centre i lies at (i + 0.5) * scale - 0.5 in the image
    scale = image.shape[1] / mask.shape[1]
    quad = (offset(_refine(order_corners(quad), contour), 0.5) + 0.5) * scale - 0.5
    if cv2.contourArea(quad) < MIN_CARD_PIXELS:
        return None
    return quad.astype(np.float32)


def _mostly_on_the_table(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float]) -> bool:
    """Whether at least half the shots are photos of the card on the table (:func:`_on_the_table`):
    the box's own camera, not tight crops."""
    return sum(_on_the_table(found, shares)) >= 0.5 * len(shares)


def _deck_ratio(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float], boxed: bool) -> float:
    """The cards' short/long side ratio: the median over the shots, of the photos on the table
    only the half whose card lies nearest the frame's centre (a wide lens bends a card's shape
    away from it: on a made-up camera the median over all photos was 0.676, over the central
    half 0.659, the cards' own 0.65).  ``boxed``: whether the shots are mostly such photos
    (:func:`_mostly_on_the_table`)."""
    placed = [(float(np.hypot(*(c.mean(axis=0) - (img.shape[1] / 2, img.shape[0] / 2))) / img.shape[1]), c)
              for (_, img, c), a in zip(found, shares) if a < ON_THE_TABLE]
    if not boxed:   # mostly tight crops
        return float(np.median([side_ratio(c) for _, _, c in found]))
    placed.sort(key=lambda t: t[0])
    return float(np.median([side_ratio(c) for _, c in placed[:max(1, (len(placed) + 1) // 2)]]))


def _card_share(shares: list[float], boxed: bool) -> float:
    """The share of the frame one card covers, when most shots are photos of the card on the
    table (the box's own camera, ``boxed``: :func:`_mostly_on_the_table`): the median over
    those in which the card was found; else 0 (tight crops say nothing of the camera)."""
    cards = [a for a in shares if a < ON_THE_TABLE]
    return float(np.median(cards)) if cards and boxed else 0.0


#: The cards whose size says where a card of the deck is how large: found whole by their edges
#: within this range of the median card's share (a leaning camera shows a card at the far side
#: of the table less than half the size of one at the near side: 0.0127 against 0.032 of the
#: frame on one second-renderer box) ...
PLACED_SIZES = (0.4, 2.5)
#: ... fitted again without those whose size is off the fit by more than this share of it (a
#: card's part found alone), when as many are left (:data:`LEAST_PHOTOS`).
SIZE_OFF = 0.15
#: The size expected where a card lies stays within this range of the median card's.
SIZE_RANGE = (0.5, 2.0)


def _shares_where(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float], share: float,
                  ratio: float, places: list[np.ndarray | None] | None = None) -> list[float]:
    """The share of its photo each photo's card is expected to cover where it lies: the camera
    over the table leans, and a card nearer it shows larger.  On a flat table the inverse of
    the depth is an affine function of the place in the image, and so is a card's linear
    size: the square root of the share of the cards found whole by their edges
    (:data:`PLACED_SIZES`, of the deck's ``ratio``) is fitted as one, and a photo's card
    expected at the fit's value where it lies (its card's centre, or ``places``' point for
    the photos in which no card was found; clipped to :data:`SIZE_RANGE` of ``share``, the
    median card's).  The median card's share for every photo where fewer than
    :data:`LEAST_PHOTOS` cards say it."""
    def centre(k: int) -> np.ndarray | None:
        (_, img, corners), a = found[k], shares[k]
        if a < ON_THE_TABLE:
            at = corners.mean(axis=0)
        elif places is not None and places[k] is not None:
            at = places[k]
        else:
            return None
        return np.array([at[0] / img.shape[1], at[1] / img.shape[0]])

    where = [centre(k) for k in range(len(found))]
    known = [k for k, ((_, _, c), a) in enumerate(zip(found, shares))
             if PLACED_SIZES[0] * share <= a <= PLACED_SIZES[1] * share and a < ON_THE_TABLE
             and abs(side_ratio(c) - ratio) <= AGAIN_RATIO]
    if len(known) < LEAST_PHOTOS:
        return [share] * len(found)
    xy = np.array([[1.0, *at] for at in (where[k] for k in known) if at is not None])   # all placed
    size = np.sqrt(np.array([shares[k] for k in known]))
    kept = np.ones(len(known), bool)
    for _ in range(3):          # fitted, again without those off it, once more (at most)
        plane, *_ = np.linalg.lstsq(xy[kept], size[kept], rcond=None)
        off = np.abs(xy @ plane - size) > SIZE_OFF * np.abs(xy @ plane)
        if (~off).sum() < LEAST_PHOTOS or (kept == ~off).all():
            break
        kept = ~off
    low, high = SIZE_RANGE
    return [share if at is None else float(np.clip(max(float(np.array([1.0, *at]) @ plane), 0.0) ** 2,
                                                   low * share, high * share))
            for at in where]


def _largest_region(mask: np.ndarray | None, image: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The centre (pixels of ``image``) and the share of the frame of the largest region of
    what differs from the empty table (``mask``, :func:`.table.differing` of ``image``), None
    where nothing differs."""
    if mask is None:
        return None
    n, _, stats, centres = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return centres[k] * (image.shape[1] / mask.shape[1]), float(stats[k, cv2.CC_STAT_AREA]) / mask.size


def _on_the_table(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float]) -> list[bool]:
    """Which shots are photos of the card on the table: those whose card was found well inside
    the photo, and those in which no card was found (the whole image) of the size of such a
    photo (the same camera; a tight crop's card fills it).  On a tiled table the grout's lines
    ran into the cards' outlines: the card was found in 10 of 48 photos, the rest were taken
    for tight crops, and the deck was learned with the frame's proportions (0.75) as its
    cards'."""
    near = [a < ON_THE_TABLE for a in shares]
    sizes = {img.shape[:2] for (_, img, _), n in zip(found, near) if n}
    return [n or (img.shape[:2] in sizes and _whole(a, img)) for (_, img, _), a, n in zip(found, shares, near)]


def _whole(share: float, image: np.ndarray) -> bool:
    """Whether a card covering ``share`` of ``image`` is the whole image (:func:`card_in` found
    none; the whole image is (h - 1) x (w - 1) pixels of corners apart)."""
    return share * image.shape[0] * image.shape[1] >= 0.95 * (image.shape[0] - 1) * (image.shape[1] - 1)


def _photos_without_a_card(found: list[tuple[str, np.ndarray, np.ndarray]], shares: list[float]) -> set[int]:
    """Which shots are photos on the table in which no card was found (:func:`card_in` fell
    back to the whole image; ``shares``: the share of its image each shot's card covers):
    taken as the card, the whole table would be learned as that card; and those in which only
    a part of the card was found (less than :data:`AGAIN_SHARE` of a card, after it was looked
    for again off the empty table): the pig of a card whose sky is as pale as the stripe under
    it, half the card, would be learned as the whole card.  A shot counts as a photo on the
    table when another shot of the same size shows its card well inside it (a tight crop's
    card fills it).  Where most shots are such photos (the box's camera over its table), every
    one without a whole card is left out: a card whose every photo is so is not learned (the
    table learned as the card, its two photos read each other by a wide lead, and the check
    named nothing weak; the card was never read, and its twin was read in its place).  Among
    tight crops a photo is left out only when its card has a shot of its own where the whole
    card was found (a card with none keeps what it has, and the check calls it weak)."""
    boxed = _mostly_on_the_table(found, shares)
    share = _card_share(shares, boxed)
    local = _shares_where(found, shares, share, _deck_ratio(found, shares, boxed)) if share else [share] * len(found)
    whole = [_card_sized(a, share) or _card_sized(a, at) for a, at in zip(shares, local)]
    seen = {label for (label, _, _), w in zip(found, whole) if w}
    # on the table, its card not found well inside it: the whole image (see _on_the_table)
    return {i for i, ((label, _, _), a, t, w) in enumerate(zip(found, shares, _on_the_table(found, shares), whole))
            if t and not w and (share or label in seen)}


def _thresholds(checks: list[ShotCheck], own: np.ndarray, z: np.ndarray, classes: np.ndarray,
                class_means: np.ndarray) -> tuple[float, float]:
    """(lead a read needs, distance beyond which a card is unknown) from leave-one-out: the
    lead past which at most :data:`WRONG_RATE` of the enrollment shots are read wrong, and well
    past the distance almost every card's own made-up shots reach.  Shots of a card enrolled
    once cannot be checked (no other shot): with none checkable, the least lead applies and the
    unknown limit comes from the made-up shots' distance to their own class."""
    usable = [c for c in checks if np.isfinite(c.own)]
    wrong = sorted((-c.lead for c in usable if c.lead < 0), reverse=True)
    allowed = int(WRONG_RATE * len(usable))
    need = float(wrong[allowed]) if len(wrong) > allowed else 0.0
    min_lead = max(LEAST_LEAD, need)
    finite = own[np.isfinite(own)]
    if len(finite):
        max_distance = UNKNOWN * float(np.percentile(finite, 99.5))
    else:
        d = np.sqrt(((z - class_means[classes]) ** 2).sum(axis=1))
        max_distance = 2.5 * float(np.percentile(d, 99.5))
    return min_lead, max_distance


#: The samples folder that holds photos of the empty table (not a card), and the names
#: (without suffix) a photo of the empty table may have at the top of the samples folder (as
#: the guided enrollment of the dice writes it).
TABLE_FOLDER = "table"
TABLE_FILES = ("background", "table")


def enroll(samples: Path | str, progress: ProgressBar | None = None, jitter: int = JITTER,
           seed: int = 0, on_progress: Progress | None = None,
           left_out: list[str] | None = None, washed_out: list[str] | None = None,
           lost: list[str] | None = None) -> CardModel:
    """Learn a deck from ``samples/<card_id>/*`` (a tight crop of the card or a photo of it
    alone on the table per image), and ``samples/table/*`` or ``samples/background.jpg|png``,
    photos of the empty table through the same camera, when there are any.  ``progress`` is a tqdm-like bar of
    :data:`STEPS_PER_SHOT` times the images (updated once per image's card found, once per
    image checked against the empty table and once per image learned); ``on_progress(done,
    total)`` a callback; ``left_out`` gets the paths of the
    photos left out (on the table, no card found in them), ``washed_out`` the cards under the
    lamp's glare in every photo (:func:`_washed_out`; weak as well), ``lost`` the cards not
    learned, every photo of them left out (weak as well)."""
    samples = Path(samples)
    if not samples.is_dir():
        raise OSError(f"no samples folder {samples}")
    shots: list[tuple[str, np.ndarray]] = []
    paths: list[Path] = []
    tables: list[np.ndarray] = []
    for card_dir in sorted(p for p in samples.iterdir() if p.is_dir()):
        for p in sorted(card_dir.iterdir()):
            if p.suffix.lower() not in IMAGE_SUFFIXES or not p.is_file():
                continue
            if card_dir.name == TABLE_FOLDER:
                tables.append(read_image(p))
                continue
            shots.append((card_dir.name, read_image(p)))
            paths.append(p)
    tables += [read_image(p) for p in sorted(samples.iterdir())
               if p.is_file() and p.stem in TABLE_FILES and p.suffix.lower() in IMAGE_SUFFIXES]
    if not shots:
        raise VisionInputError(f"{samples}: no images in SAMPLES/<card_id>/")

    shown = 0

    def step(done: int, total: int) -> None:
        nonlocal shown
        if progress is not None:
            progress.update(done - shown)
        shown = done
        if on_progress is not None:
            on_progress(done, total)

    model, check = enroll_shots(shots, step, jitter, seed, tables or None)
    if left_out is not None:
        left_out.extend(str(paths[i]) for i in check.left_out)
    if washed_out is not None:
        washed_out.extend(check.washed_out)
    if lost is not None:
        lost.extend(check.lost)
    return model


def check_enrollment(shots: list[tuple[str, np.ndarray]], jitter: int = JITTER) -> EnrollmentCheck:
    """Leave-one-out over enrollment shots: which cards are weak (see :func:`enroll_shots`)."""
    return enroll_shots(shots, None, jitter)[1]
