"""Cards near the frame's corners through a wide lens, and quads that miss part of a card, on
the independent card renderer (bench/holdout_cards.py)."""

import dataclasses

import cv2
import numpy as np
import pytest

from farmbox.vision.cards import CardReader, FindOptions, find_cards
from farmbox.vision.cards.find import order_corners, side_ratio
from farmbox.vision.cards.read import (
    FAR,
    FAR_LEAD,
    FIRST_MOVES,
    GLANCE_RIVAL,
    CardReading,
    _deck_ratio,
    _leaned,
    _mostly_on_the_table,
    _sides_on_edges,
    card_in,
    enroll,
    fitted_outline,
    sides_moved,
)
from farmbox.vision.cards.rectify import rectify_to
from tests.vision_cards.conftest import quad_iou


@pytest.mark.parametrize("seed,kind,least", [(22, "wood", 23), (2, "cloth", 20)])
def test_cards_bent_by_a_wide_lens_near_the_frames_corners_are_found(holdout, seed, kind, least):
    """A wide lens (k1 = +0.11 and -0.09 here) bends a card near the frame's corners: its side
    ratio is off the enrolled one by more than the leeway a card at the centre gets, and it was
    not found (18 and 16 of these 24 before).  Where no card was found, the finder gives more
    leeway off the frame's centre, on the side ratio and (24 and 21 since) on the corners'
    angles."""
    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, "printed", kind, deck)
    h, w = box.ground.shape[:2]
    rng = np.random.default_rng([seed, 12])
    whole = 0
    for k in range(6):
        placed = []
        for i, (fy, fx) in enumerate(((0.13, 0.1), (0.13, 0.9), (0.87, 0.1), (0.87, 0.9))):
            g = box.ground[int(fy * h), int(fx * w)]
            placed.append(holdout.Placed(deck[(4 * k + i) % len(deck)], float(g[0]), float(g[1]),
                                         float(rng.uniform(0, 2 * np.pi)), np.array([0.0, 0.0, 1.0])))
        found = find_cards(box.render(placed, rng), FindOptions(ratio=0.66))
        whole += sum(bool(found) and max(quad_iou(box.project(p.corners()), q) for q in found) > 0.8
                     for p in placed)
        # nothing else is taken for a card
        assert len(found) <= len(placed)
    assert whole >= least, whole


@pytest.fixture(scope="module")
def held_out(holdout, tmp_path_factory):
    """A deck (printed, on a cloth) enrolled from two photos of each card, and the third photo
    of each with the card's outline in it, 0-1 and 3-2 its short sides: (reader, [(card,
    image, outline)])."""
    folder = tmp_path_factory.mktemp("held-out")
    holdout.write_set(folder, 2, "printed", "cloth", tables=0, shots=3, progress=False,
                      deck=holdout.load_deck())
    tests = []
    for p in sorted(folder.glob("enroll/*/2.jpg")):   # enrolled from shots 0 and 1
        image = cv2.imread(str(p))
        q = order_corners(card_in(image))
        e = np.sqrt(((q - q[[1, 2, 3, 0]]) ** 2).sum(axis=1))
        if e[0] + e[2] > e[1] + e[3]:
            q = q[[1, 2, 3, 0]]
        tests.append((p.parent.name, image, q))
        p.unlink()
    return CardReader(enroll(folder / "enroll")), tests


#: Half the fit's finest step (a side moved by 0.04 of the sides it runs between) in the
#: outline's overlap with the card: a card cut by a tenth overlaps its card by 0.90 already,
#: and the fit ends within a step of where the card reads nearest (with the Pi's OpenCV 4.10
#: one chick of 144 was read through an outline at 0.8997 against the cut one's 0.9017).
HALF_A_STEP = 0.02


def test_a_card_cut_short_by_its_title_band_is_never_read_as_another_and_is_read_fitted(held_out):
    """A quad that misses a card's title band (or a strip of it: 10-20% of its length) shows
    most of the card, stretched.  It was read as another card 19 times in 144 here: such a
    card is farther from every enrolled card than the enrollment shots' made-up copies almost
    ever are, and is read only with a clear lead.  So it is read as no card (143 of 144); read
    through its outline fitted to the deck (each side moved while that brings it nearer a
    card), it is its own card (131 of 144 when this was written), never another."""
    reader, tests = held_out
    read = {"right": 0, "none": 0, "wrong": 0}
    fitted = dict(read)
    for card, image, q in tests:
        assert reader.identify(rectify_to(image, q, reader.size))[0] == card  # the whole card
        for cut in (0.1, 0.15, 0.2):
            for end in range(2):
                c = q.copy()
                a, b = ((0, 3), (1, 2)) if end == 0 else ((3, 0), (2, 1))
                c[a[0]] += cut * (q[a[1]] - q[a[0]])
                c[b[0]] += cut * (q[b[1]] - q[b[0]])
                got, _ = reader.identify(rectify_to(image, c, reader.size))
                read["none" if got is None else "right" if got == card else "wrong"] += 1
                r = reader.read_outline(image, c)
                fitted["none" if r.id is None else "right" if r.id == card else "wrong"] += 1
                if r.id == card and got is None:  # the outline it was read through: the card's own,
                    # no farther from it than the cut one but for half the fit's finest step
                    assert quad_iou(r.corners, q) > max(0.85, quad_iou(c, q) - HALF_A_STEP), (card, cut, end)
    assert sum(read.values()) == 144
    assert read["wrong"] == 0, read
    assert fitted["wrong"] == 0 and fitted["right"] >= 115, fitted


def test_a_card_read_far_from_every_card_needs_a_lead_of_a_tenth_of_its_distance(held_out):
    """Past :data:`FAR` of the unknown-card distance a card is read only with a lead over the
    next card of :data:`FAR_LEAD` (a tenth) of its distance, and never past the unknown-card
    distance.  A fifth turned unsure the cards whose two enrollment photos were both under a
    lamp's glare, read every time a little beyond ``FAR`` (1.2-1.4 of it, leads of 0.13-0.19 of
    the distance): 69 more right reads of 23,600 cards on 28 second-renderer sets, 2 more wrong."""
    reader, _ = held_out
    m = reader.model
    n = len(reader.cards)
    for at in (1.05, 1.3, 1.55):
        d1 = at * FAR * m.max_distance
        for lead, read in ((0.15, True), (FAR_LEAD + 0.005, True), (FAR_LEAD - 0.005, False), (0.05, False)):
            row = np.full(n, 3 * m.max_distance)
            row[n // 2], row[n // 3] = d1, d1 * (1 + lead)
            cid, conf = reader._decide(row)
            assert (cid == reader.cards[n // 2]) is read and (cid is None) is not read, (at, lead, cid)
            assert (conf >= 0.5) is read, (at, lead, conf)
    row = np.full(n, 3 * m.max_distance)
    row[0] = 1.01 * m.max_distance
    assert reader._decide(row)[0] is None     # past the unknown-card distance: not a card of the deck


def _counting(reader: CardReader) -> list[bytes]:
    """The outlines ``reader`` describes from now on (each as its rectified card's bytes), in order."""
    described: list[bytes] = []
    own = reader.distances

    def counted(cards):
        described.extend(c.tobytes() for c in cards)
        return own(cards)

    reader.distances = counted
    return described


def test_a_card_read_far_with_a_clear_lead_through_its_own_outline_is_only_glanced_at(held_out):
    """A card read beyond :data:`FAR` with a clear lead, through an outline whose sides all run
    along edges, is fitted only when one of the fit's first moves brings it :data:`GLANCE_GAIN`
    nearer its card or reads another card nearer.  A card whose photos were under glare reads
    far through its own outline every time it lies on the table, and each full fit described
    some 49 outlines to read it as it was.  Here each card's own outline is made to read at 1.2
    ``FAR`` (the unknown-card distance set so): it is read as its card, and for most cards only
    the first moves are described, the outline kept (all 24 were fitted in full before).  An
    outline with a strip of table beyond a side does not run along edges there: it is fitted
    (the next test)."""
    reader, tests = held_out
    glanced = 0
    for card, image, q in tests:
        assert not _sides_on_edges(image, sides_moved(q, 0.06 * np.eye(4)[0])), card
        d = float(reader.distances([rectify_to(image, q, reader.size)])[0].min())
        far = CardReader(dataclasses.replace(reader.model, max_distance=d / (1.2 * FAR)))
        described = _counting(far)
        r = far.read_outline(image, q)
        assert r.id == card, card
        if len(described) <= 1 + len(FIRST_MOVES):
            glanced += 1
            assert np.array_equal(r.corners, q), card
    assert glanced >= 3 * len(tests) // 4, glanced


def test_a_card_read_with_a_clear_lead_is_fitted_only_when_a_first_move_brings_it_a_tenth_nearer(held_out):
    """A card read far with a clear lead, whose fit's first moves bring it nearer its card by
    less than :data:`GLANCE_GAIN` (a tenth), keeps its outline and is not fitted: on 24
    second-renderer sets, 165 such cards went on to the full fit at a twentieth (half of those
    fitted), and every one was read as before.  Here outlines a little inside or outside
    the card (a side moved by 1-3%) are read at 1.2 ``FAR``; those whose best first move gains
    a twentieth to a tenth are only glanced at."""
    reader, tests = held_out
    between = 0
    for card, image, q in tests:
        for side, by in ((0, -0.03), (2, 0.02), (1, -0.02), (3, 0.01)):
            given = sides_moved(q, by * np.eye(4)[side])
            row = reader.distances([rectify_to(image, given, reader.size)])[0]
            far = CardReader(dataclasses.replace(reader.model, max_distance=float(row.min()) / (1.2 * FAR)))
            moves = far.distances([rectify_to(image, fitted_outline(given, t), reader.size) for t in FIRST_MOVES])
            gain = 1 - float(moves.min()) / float(row.min())
            rival = any(far.cards[int(k)] != card and m.min() < (1 + GLANCE_RIVAL) * row.min()
                        for k, m in zip(moves.argmin(axis=1), moves))
            if not 0.05 <= gain < 0.1 or rival or far._decide(row)[0] != card \
                    or not _sides_on_edges(image, given):
                continue
            between += 1
            described = _counting(far)
            r = far.read_outline(image, given)
            assert r.id == card and np.array_equal(r.corners, given), card
            assert len(described) <= 1 + len(FIRST_MOVES), (card, len(described))
    assert between >= 3, between


def test_a_card_not_read_is_fitted_in_full(held_out):
    """A card not read (its lead short of the deck's), near its card or far from it, is fitted
    in full, never only glanced at: its outline may be a few pixels off, which makes two
    near-alike cards alike, or cut short by a card over it (the fit's completed corners find
    it).  Glanced at as a card read is, the second renderer's sets, the Pi's libraries, the
    overlap tables of our symbols deck and the real photos through a dim lamp each lost a card
    or two the fit read.  Here each card's own outline, made unsure, near (as it is) and at 1.2
    ``FAR``: every one fitted in full."""
    reader, tests = held_out
    for card, image, q in tests[:12]:
        row = reader.distances([rectify_to(image, q, reader.size)])[0]
        d = np.sort(row)
        for max_distance in (reader.model.max_distance, float(d[0]) / (1.2 * FAR)):
            unsure = CardReader(dataclasses.replace(reader.model, max_distance=max_distance,
                                                    min_lead=float(d[1] - d[0]) + 1.0))
            described = _counting(unsure)
            assert unsure.read_outline(image, q).id in (None, card), card
            assert len(described) > 1 + len(FIRST_MOVES), (card, max_distance, len(described))


def test_a_card_cut_in_two_across_its_middle_is_read_as_one(held_out):
    """A card a leaning camera shows larger than two of the frame's others is cut by the finder
    across its middle, and neither half reads as any card (a fresh full-bleed felt set's cow,
    1.6 times the enrolled card: its halves 46-50 from every card of the deck, the whole 12.0
    from its own).  Two outlines not read that lie side by side and together have a card's shape
    are read as one card when together they read as near a card as the made-up copies come:
    here each card's two halves, not read, are read as the card, never as another; a half and
    the other half moved a little more than half a card along it are not joined."""
    reader, tests = held_out
    joined = 0
    for card, image, q in tests[:12]:
        m12, m30 = (q[1] + q[2]) / 2, (q[3] + q[0]) / 2
        halves = [np.float32([q[0], q[1], m12, m30]), np.float32([m30, m12, q[2], q[3]])]
        readings = [CardReading(None, 0.0, h) for h in halves]
        reader._joined(image, readings, [False, False])
        assert all(r.id in (None, card) for r in readings), card
        joined += len(readings) == 1 and readings[0].id == card
        apart = [halves[0], halves[1] + 0.6 * (q[2] - q[1])]
        readings = [CardReading(None, 0.0, h) for h in apart]
        reader._joined(image, readings, [False, False])
        assert len(readings) == 2 and all(r.id is None for r in readings), card
    assert joined >= 11, joined


def test_a_fit_describes_each_outline_once(held_out):
    """The fit to the deck reads each outline once: the glance's first moves are the full fit's
    first round, and the fit with the sides leaned starts with the first fit's moves.  Outlines
    cut askew (a corner moved along its side) are fitted in full, most leaned too, without
    describing an outline twice (the outline given included)."""
    reader, tests = held_out
    fitted = 0
    for card, image, q in tests[:8]:
        askew = q.copy()
        askew[0] += 0.12 * (q[1] - q[0])
        fresh = CardReader(reader.model)
        described = _counting(fresh)
        r = fresh.read_outline(image, askew)
        assert r.id in (None, card), card
        fitted += len(described) > 1 + len(FIRST_MOVES)
        assert len(described) == len(set(described)), (card, len(described), len(set(described)))
    assert fitted >= 4, fitted


def test_a_card_read_through_an_outline_with_a_strip_of_table_is_checked_through_its_fitted_outline(held_out):
    """A card read through an outline that takes in a strip of table (6% of its length) is
    farther from its card than the enrollment's made-up copies come; its read is then checked
    through the outline fitted to the deck, and the fitted outline is taken when it reads
    nearer.  (The case that asked for it: a horse read as the goat of the same marks through
    an outline a corner off, on the second renderer's pale tiles; the fitted outline read the
    horse at a third of the distance.)  Of these 48 outlines, 30 read their card that far off:
    before, each kept the outline it was given; since, 10 report an outline nearer the card's
    own (and more gain than lose overall), and none is read as another card (36 and 11 since
    far cards need a lead of a tenth of their distance; such an outline's side over the table
    runs along no edge, so it is fitted, not only glanced at: 6 nearer if it were)."""
    reader, tests = held_out
    far = nearer = gain = 0.0
    for card, image, q in tests:
        for side in (0, 2):
            given = sides_moved(q, 0.06 * np.eye(4)[side])
            row = reader.distances([rectify_to(image, given, reader.size)])[0]
            r = reader.read_outline(image, given)
            assert r.id in (None, card)
            if reader._decide(row)[0] is not None and float(row.min()) > FAR * reader.model.max_distance:
                far += 1
                nearer += quad_iou(r.corners, q) > quad_iou(given, q) + 0.02
                gain += quad_iou(r.corners, q) - quad_iou(given, q)
    assert far >= 10, far
    assert nearer >= far / 4 and gain > 0, (far, nearer, gain)


def test_a_card_found_cut_short_and_turned_is_read_through_its_outline_turned_back(held_out):
    """An outline a few degrees off its card (a side pulled along the next card's edge, a
    corner lost under a glare) and cut short at one end: the fit's side moves keep each side's
    turn, and read 22 of these 48 at 6 degrees and 1 at 8; turning the outline too (2 degrees
    a step, at most 6), 44 and 44, none wrong."""
    reader, tests = held_out
    for degrees, least in ((6, 40), (8, 40)):
        right = 0
        for card, image, q in tests:
            for sign in (-1, 1):
                t = np.radians(sign * degrees)
                cut = sides_moved(q, np.array([0, 0, -0.12, 0]))
                centre = cut.mean(axis=0)
                off = (cut - centre) @ np.float32([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]) + centre
                got = reader.read_outline(image, off).id
                assert got in (None, card)
                right += got == card
        assert right >= least, (degrees, right)


def test_the_decks_side_ratio_is_taken_from_the_photos_nearest_the_frames_centre():
    """A wide lens bends the cards photographed near the frame's corners: the median over all
    enrollment photos leaned towards their ratio (0.676 against the cards' own 0.65 on a
    made-up camera); the half nearest the centre tells the card's own."""
    h, w = 720, 960
    image = np.zeros((h, w, 3), np.uint8)

    def card(cx, cy, ratio, long_side=120.0):
        s = long_side * ratio / 2, long_side / 2
        return np.float32([[cx - s[0], cy - s[1]], [cx + s[0], cy - s[1]], [cx + s[0], cy + s[1]], [cx - s[0], cy + s[1]]])

    central = [card(w / 2 + dx, h / 2 + dy, 0.65) for dx, dy in ((0, 0), (40, 10), (-30, 20), (10, -40))]
    corners = [card(x, y, 0.8) for x, y in ((90, 90), (870, 90), (90, 630), (870, 630), (880, 640))]
    found = [("c", image, q) for q in central + corners]
    shares = [cv2.contourArea(q) / (h * w) for _, _, q in found]
    assert float(np.median([side_ratio(q) for q in central + corners])) == pytest.approx(0.8, abs=0.01)
    assert _deck_ratio(found, shares, _mostly_on_the_table(found, shares)) == pytest.approx(0.65, abs=0.01)
    # tight crops (the card fills its image) keep the median over all
    crops = [("c", np.zeros((int(q[2, 1] - q[0, 1]), int(q[1, 0] - q[0, 0]), 3), np.uint8), q - q[0])
             for q in central + corners]
    crop_shares = [0.97] * len(crops)
    assert _deck_ratio(crops, crop_shares, _mostly_on_the_table(crops, crop_shares)) == pytest.approx(0.8, abs=0.01)


def test_a_side_moved_out_slides_its_corners_along_the_sides_it_runs_between():
    """`sides_moved`, what the outline fit moves: side 0 (corner 0 to 1) out by 0.2 lengthens
    the sides it runs between (3 and 1) by a fifth, each along its own line, and leaves the
    other corners where they were; moving in is the same backwards."""
    q = np.float32([[10, 20], [60, 25], [55, 100], [5, 95]])   # a leaning, uneven card

    def e(p):   # side lengths
        return np.linalg.norm(p - p[[1, 2, 3, 0]], axis=1)

    assert np.allclose(sides_moved(q, np.zeros(4)), q)
    out = sides_moved(q, np.float32([0.2, 0, 0, 0]))
    assert np.allclose(out[2:], q[2:])
    assert np.allclose(e(out)[[1, 3]], 1.2 * e(q)[[1, 3]], rtol=1e-5)
    # each moved corner stays on the line of the side it slides along
    for moved, fixed, along in ((0, 3, q[0] - q[3]), (1, 2, q[1] - q[2])):
        d = out[moved] - q[fixed]
        assert abs(d[0] * along[1] - d[1] * along[0]) < 1e-3
    assert np.allclose(sides_moved(out, np.float32([-0.2 / 1.2, 0, 0, 0])), q, atol=1e-4)


def test_a_pair_of_sides_leaned_turns_about_their_middles_and_the_corners_follow():
    """`_leaned`, what the fit's second try moves too: sides 0 and 2 turned by the first angle
    about their middles, 1 and 3 by the second; the corners are where the turned sides meet, so
    the other pair keeps its lines and leaning back undoes it."""
    q = np.float32([[10, 20], [60, 25], [55, 100], [5, 95]])

    def turn(p):   # each side's direction, degrees
        d = p[[1, 2, 3, 0]] - p
        return np.degrees(np.arctan2(d[:, 1], d[:, 0]))

    out = _leaned(q, 12.0, 0.0)
    assert np.allclose(turn(out)[[0, 2]], turn(q)[[0, 2]] + 12.0, atol=1e-3)
    assert np.allclose(turn(out)[[1, 3]], turn(q)[[1, 3]], atol=1e-3)
    def off_line(p, a, b):   # how far p lies off the line through a and b
        u, v = b - a, p - a
        return abs(u[0] * v[1] - u[1] * v[0]) / np.linalg.norm(u)

    for i in (0, 2):   # turned about its middle: the middle stays on the side
        assert off_line((q[i] + q[(i + 1) % 4]) / 2, out[i], out[(i + 1) % 4]) < 1e-3
    for i in (1, 3):   # sides 1 and 3 stay on their lines
        assert off_line(out[i], q[i], q[(i + 1) % 4]) < 1e-3
        assert off_line(out[(i + 1) % 4], q[i], q[(i + 1) % 4]) < 1e-3
    assert np.allclose(_leaned(out, -12.0, 0.0), q, atol=0.5)
    assert np.allclose(turn(_leaned(q, 0.0, -7.0))[[1, 3]], turn(q)[[1, 3]] - 7.0, atol=1e-3)


@pytest.fixture(scope="module")
def printed_wood(holdout, tmp_path_factory):
    """The deck printed, on the wood of the second renderer's box 22, enrolled from two photos
    of each card: (deck, box, reader), for the tables of touching cards below."""
    deck = holdout.load_deck()
    folder = tmp_path_factory.mktemp("printed-wood")
    holdout.write_set(folder, 22, "printed", "wood", tables=0, shots=2, progress=False, deck=deck)
    return deck, holdout.Box.from_seed(22, "printed", "wood", deck), CardReader(enroll(folder / "enroll"))


def _touching_on_wood(printed_wood, tail: int, first: int, second: int):
    """12 tables of two cards of the :func:`printed_wood` deck laid touching (the cards
    2k + ``first`` and 2k + ``second`` of the deck): (reader, [(pair, image, a, facing)]), ``a``
    the first card's outline (corners in order) and ``facing`` its side nearest the second
    card."""
    deck, box, reader = printed_wood
    rng = np.random.default_rng([22, tail])
    tables = []
    for k in range(12):
        pair = box.lay(rng, [deck[(2 * k + first) % len(deck)], deck[(2 * k + second) % len(deck)]], touching=True)
        image = box.render(pair, rng)
        a, b = (order_corners(np.float32(box.project(p.corners()))) for p in pair)
        sides = [(a[i] + a[(i + 1) % 4]) / 2 for i in range(4)]
        facing = min(range(4), key=lambda i: float(np.linalg.norm(sides[i] - b.mean(axis=0))))
        tables.append((pair, image, a, facing))
    return reader, tables


def test_an_outline_round_a_card_and_half_the_card_it_touches_is_read_as_both(printed_wood):
    """Two cards laid side by side, touching: the finder sometimes closes one outline round
    one card and part of the other (1.5-1.85 of a card on the second renderer's printed decks),
    read as no card, and the card it touches is not found.  Such an outline, far larger than
    the cards read near it, is looked for a card's size at each of its corners (fitted to the
    deck) and the card it touches found by the empty table round the rest: both read, never
    another card."""
    from farmbox.vision.cards.read import CardReading
    from farmbox.vision.cards.table import TableFrame

    reader, tables = _touching_on_wood(printed_wood, 71, 0, 7)
    first = second = wrong = as_found = 0
    for pair, image, a, facing in tables:
        # card a's long side facing card b moved out over half of b
        outline = sides_moved(a, 0.5 * np.eye(4)[facing])
        as_found += reader.read_outline(image, outline).id is not None
        got = reader._split(image, CardReading(None, 0.0, outline), [], cv2.contourArea(a),
                            TableFrame(image, reader.table))
        ids = [r.id for r in got]
        first += pair[0].card.id in ids
        second += pair[1].card.id in ids
        wrong += sum(i not in (None, pair[0].card.id, pair[1].card.id) for i in ids)
    # read as it is: 0 of 12 when this was written; split: 12 and 11 of 12
    assert wrong == 0
    assert as_found <= 2 and first >= 11 and second >= 10, (first, second, as_found)


def test_an_outline_round_a_card_and_a_strip_of_the_next_read_as_no_card_is_parted(printed_wood):
    """Where white cards touch on pale tiles or wood, the finder may close an outline round a
    card and a strip of the next: 1.2-1.3 of a card, under the share at which any outline not
    read is looked at as two (`TWO`).  One that reads as no card of the deck at all (beyond the
    unknown-card distance) is parted from `TWO_UNKNOWN` of a card: the card read at a corner,
    never another card; an outline that reads near a card is left as it is."""
    from farmbox.vision.cards.read import TWO, TWO_UNKNOWN, CardReading
    from farmbox.vision.cards.table import TableFrame

    reader, tables = _touching_on_wood(printed_wood, 72, 1, 8)
    parted = read = wrong = near = 0
    for pair, image, a, facing in tables:
        outline = sides_moved(a, 0.3 * np.eye(4)[facing])
        card = cv2.contourArea(a)
        assert TWO_UNKNOWN * card < cv2.contourArea(outline) < TWO * card
        far = float(reader._row(image, outline).min()) > reader.model.max_distance
        assert reader._two(image, outline, card) == far
        near += not far
        if far:
            parted += 1
            got = reader._split(image, CardReading(None, 0.0, outline), [], card,
                                TableFrame(image, reader.table))
            read += pair[0].card.id in [r.id for r in got]
            wrong += sum(r.id not in (None, pair[0].card.id, pair[1].card.id) for r in got)
    # when this was written: 12 of 12 read as no card, parted, and their card read
    assert wrong == 0
    assert parted >= 10 and read >= parted - 1, (parted, read, near)


def _slanted_card(image: np.ndarray, cx: float, cy: float, slant: float) -> np.ndarray:
    """A bright card of side ratio 0.66 (long side 150 px) drawn on ``image`` centred at (cx,
    cy) as a parallelogram whose corners are ``slant`` degrees off a right angle: a card near
    the frame's corner through a wide lens on a leaning camera.  Its corners."""
    long_side, short_side = 150.0, 99.0
    down = long_side * np.array([np.sin(np.radians(slant)), np.cos(np.radians(slant))])
    q = np.float32([[0, 0], [short_side, 0], [short_side + down[0], down[1]], down])
    q += np.float32([cx, cy]) - q.mean(axis=0)
    cv2.fillConvexPoly(image, np.round(q * 16).astype(np.int32), (225, 230, 235), cv2.LINE_AA, 4)
    return q


def test_a_card_slanted_by_the_lens_is_found_near_the_frames_corner_only():
    """On the second renderer's printed cloth a card near the frame's corner had corners 15-18
    degrees off a right angle and was not found at all (the finder's limit is 16).  Off the
    frame's centre the finder allows more, as it does for the side ratio: such a card is found
    there, and the same shape at the frame's centre is not a card."""
    for slant in (17.0, 20.0):
        corner = np.full((720, 960, 3), 60, np.uint8)
        centre = corner.copy()
        truth = _slanted_card(corner, 110, 600, slant)
        found = find_cards(corner, FindOptions(ratio=0.66))
        assert len(found) == 1 and quad_iou(found[0], truth) > 0.9, (slant, found)
        _slanted_card(centre, 480, 360, slant)
        assert find_cards(centre, FindOptions(ratio=0.66)) == [], slant


@pytest.mark.parametrize("seed,kind,least", [(2, "cloth", 21), (22, "wood", 19)])
def test_two_cards_touching_with_no_edge_between_their_borders_are_both_found(holdout, seed, kind, least):
    """Two cards laid long side against long side, slid along each other: their white borders
    leave little or no edge between them, and the region they make was cut in two only when
    both parts had four sides seen, along the commonest direction of the outline's pixel
    steps (up to 9 degrees off the cards').  The cut is now along the cards' own turn, and a
    part whose only unseen side faces the other part has its sides fitted to its own stretch
    of the outline and that side placed at the card's own length.  Of these 24 cards, 18
    (cloth) and 16 (wood) were found whole before, 22 and 20 since; nothing else is found."""
    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, "printed", kind, deck)
    h, w = box.ground.shape[:2]
    share = holdout.CARD_H / holdout.CARD_W * box.card_px() ** 2 / (w * h)
    rng = np.random.default_rng([seed, 93])
    whole = 0
    for k in range(12):
        pair = box.lay(rng, [deck[(2 * k) % len(deck)], deck[(2 * k + 5) % len(deck)]], touching=True)
        found = find_cards(box.render(pair, rng), FindOptions(ratio=0.66, card_share=share))
        assert len(found) <= 2
        whole += sum(bool(found) and max(quad_iou(box.project(p.corners()), q) for q in found) > 0.8
                     for p in pair)
    assert whole >= least, whole


def test_a_card_found_with_two_of_its_sides_leaned_is_read_through_them_leaned_back(held_out):
    """Where two cards' bright regions meet, the finder may cut one out as a parallelogram
    whose long sides are the card's and whose short sides run 10-15 degrees off (towards the
    other card's corner): neither a side's move nor the outline's turn brings those onto the
    card.  A fit not taken is tried again with each pair of opposite sides leaned too.  Short
    sides leaned 15 degrees, or 12 with a long side cut by a tenth, or long sides leaned 10
    (144 outlines): 103 read without the lean, 141 with it, none wrong."""
    reader, tests = held_out
    right = 0
    for card, image, q in tests:
        for sign in (-1, 1):
            for off in (_leaned(q, sign * 15, 0.0), _leaned(sides_moved(q, np.array([0, -0.1, 0, 0])), sign * 12, 0.0),
                        _leaned(q, 0.0, sign * 10)):
                got = reader.read_outline(image, off).id
                assert got in (None, card)
                right += got == card
    assert right >= 135, right
