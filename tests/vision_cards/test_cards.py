"""The card finder and reader on rendered tables: finding, identifying, unknown cards, the model
file and the command line."""

import json
from collections import Counter

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.cli import main
from farmbox.vision.cards import CardReader, ModelError, enroll, find_cards, load_model, save_model
from farmbox.vision.cards import learn as L
from farmbox.vision.cards.find import _refine, order_corners, side_ratio, sides_apart
from farmbox.vision.cards.read import card_in
from farmbox.vision.cards.rectify import rectify
from farmbox.vision.render.cards import FACE_SIZE, card_face, enrollment_samples, scene


def _match(found, truth, tol=0.06):
    """Pairs (found, true card) whose centres agree; corner error within ``tol`` of the card."""
    pairs = []
    for t in truth:
        size = np.sqrt(cv2.contourArea(t.corners.astype(np.float32)))
        near = [f for f in found if np.linalg.norm(f.mean(0) - t.corners.mean(0)) < 0.15 * size]
        if near:
            q = near[0]
            # same corners as a set (the finder starts from the top-left one)
            err = max(min(np.linalg.norm(c - q, axis=1)) for c in t.corners)
            pairs.append((q, t, err / size))
    return pairs


def test_finds_every_card_on_busy_tables():
    total = found = false = 0
    worst = 0.0
    for seed in range(800_000, 800_004):
        s = scene(seed, "funfarm" if seed % 2 else "symbols", count=12)
        quads = find_cards(s.image)
        pairs = _match(quads, s.cards)
        total += len(s.cards)
        found += len(pairs)
        false += len(quads) - len(pairs)
        worst = max([worst] + [e for _, _, e in pairs])
    assert found >= total - 1 and false <= 1
    assert worst < 0.1


def test_cards_close_together_portrait_and_landscape():
    s = scene(811, "symbols", count=12, gap=(0.0, 0.04), card_px=100)
    pairs = _match(find_cards(s.image), s.cards)
    assert len(pairs) >= 11
    ratios = [side_ratio(q) for q, _, _ in pairs]
    assert all(abs(r - FACE_SIZE[0] / FACE_SIZE[1]) < 0.08 for r in ratios)
    # both ways of lying occur in this scene
    wide = [np.linalg.norm(q[0] - q[1]) > np.linalg.norm(q[1] - q[2]) for q, _, _ in pairs]
    assert any(wide) and not all(wide)


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 2 * np.pi), st.floats(30, 200), st.floats(0.45, 1.0), st.permutations(range(4)),
       st.floats(50, 400), st.floats(50, 400))
def test_corners_come_clockwise_from_the_top_left(angle, long_side, ratio, shuffle, cx, cy):
    c, s = np.cos(angle), np.sin(angle)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [ratio * long_side / 2, long_side / 2]
    quad = (half @ [[c, s], [-s, c]] + [cx, cy]).astype(np.float32)
    q = order_corners(quad[list(shuffle)])
    assert sorted(map(tuple, q.tolist())) == sorted(map(tuple, quad.tolist()))  # same corners
    e = np.roll(q, -1, axis=0) - q
    f = np.roll(e, -1, axis=0)
    assert float((e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0]).min()) > 0  # clockwise on screen (y down)
    assert int(np.argmin(q.sum(axis=1))) == 0


@pytest.mark.parametrize("angle", [0.0, 17.0, 45.0, 71.0])
def test_sides_fitted_past_rounded_corners_and_a_stray_blob(angle):
    """The outline of a card with rounded corners and a crumb touching one side: the corners
    come from straight lines along the sides, so they land on the true (sharp) corners."""
    img = np.zeros((400, 400), np.uint8)
    w, h, r = 120.0, 170.0, 12
    box = cv2.boxPoints(((200.0, 200.0), (w, h), angle)).astype(np.float32)
    inner = cv2.boxPoints(((200.0, 200.0), (w - 2 * r, h - 2 * r), angle))
    cv2.fillConvexPoly(img, cv2.boxPoints(((200.0, 200.0), (w - 2 * r, h), angle)).astype(np.int32), 255)
    cv2.fillConvexPoly(img, cv2.boxPoints(((200.0, 200.0), (w, h - 2 * r), angle)).astype(np.int32), 255)
    for p in inner:
        cv2.circle(img, (int(round(p[0])), int(round(p[1]))), r, 255, -1)
    mid = (box[0] + box[1]) / 2
    cv2.circle(img, (int(mid[0]), int(mid[1])), 4, 255, -1)  # a crumb on one side
    contours, _ = cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    rough = order_corners(cv2.boxPoints(cv2.minAreaRect(contour)))
    truth = order_corners(box)
    fitted = _refine(rough, contour)
    assert _farthest_corner(rough, truth) > 3.0  # the crumb pushes the bounding box out
    assert _farthest_corner(fitted, truth) < 1.5


def _farthest_corner(quad: np.ndarray, truth: np.ndarray) -> float:
    """How far the farthest corner of ``truth`` lies from the nearest corner of ``quad`` (at
    45 degrees two corners are as high up and as far left: which of them comes first is down
    to the last bit of a float, and differed between OpenCV 4.10 and 5.1)."""
    return float(np.linalg.norm(truth[:, None, :] - quad[None, :, :], axis=2).min(axis=1).max())


def test_blank_table_has_no_cards():
    s = scene(812, "symbols", ids=[])
    assert find_cards(s.image) == []


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    root = tmp_path_factory.mktemp("card_samples")
    enrollment_samples(root, "symbols", per_card=2, seed=5)
    return root


@pytest.fixture(scope="module")
def reader(samples):
    return CardReader(enroll(samples))


def test_enrollment_takes_crops_whole_and_finds_cards_on_tables(samples, reader):
    crop = cv2.imread(str(samples / "oval-2-open" / "crop.jpg"))
    h, w = crop.shape[:2]
    assert cv2.contourArea(card_in(crop)) > 0.95 * (w - 1) * (h - 1)
    photo = cv2.imread(str(samples / "oval-2-open" / "table0.jpg"))
    assert cv2.contourArea(card_in(photo)) < 0.2 * photo.shape[0] * photo.shape[1]
    m = reader.model
    assert len(m.cards) == 12 and m.enrolled == 24
    assert abs(m.ratio - FACE_SIZE[0] / FACE_SIZE[1]) < 0.03


def test_reads_near_duplicates_on_held_out_tables(reader):
    right = unsure = wrong = 0
    for seed in range(810_000, 810_004):
        s = scene(seed, "symbols", count=10)
        readings = reader.read(s.image)
        for q, t, _ in _match([r.corners for r in readings], s.cards):
            r = next(r for r in readings if r.corners is q)
            assert 0 <= r.confidence <= 1
            if r.id is None:
                unsure += 1
            elif r.id == t.id:
                right += 1
            else:
                wrong += 1
    assert right >= 34 and wrong <= 1 and right + unsure + wrong >= 38


def test_reading_cards_together_is_reading_them_one_by_one(reader):
    s = scene(816, "symbols", count=8)
    quads = find_cards(s.image, reader.options)
    cards = [rectify(s.image, q, reader.model.ratio) for q in quads]
    together = reader.identify_all(cards)
    assert len(together) == len(cards) >= 7
    for card, (card_id, conf) in zip(cards, together):
        alone_id, alone_conf = reader.identify(card)
        assert alone_id == card_id and abs(alone_conf - conf) < 1e-4
    assert reader.identify_all([]) == []


def test_a_card_not_in_the_deck_is_unknown(reader):
    s = scene(813, "funfarm", ids=["cow-1", "pig-2"])
    readings = reader.read(s.image)
    assert len(readings) == 2
    assert all(r.id is None for r in readings)


def test_model_file_round_trip_and_errors(reader, tmp_path):
    p = tmp_path / "deck.npz"
    save_model(reader.model, p)
    back = load_model(p)
    assert back.labels == reader.model.labels and np.array_equal(back.templates, reader.model.templates)
    p.write_bytes(b"not a zip at all")
    with pytest.raises(ModelError, match="not a card model"):
        load_model(p)
    header = json.dumps({"format": "farmbox-cards", "version": 7, "labels": ["a"], "ratio": 0.7,
                         "min_similarity": 0.5}).encode()
    with open(p, "wb") as f:
        np.savez(f, header=np.frombuffer(header, np.uint8), templates=np.zeros((1, 4, 3, 3), np.uint8))
    with pytest.raises(ModelError, match="version 7"):
        load_model(p)
    with open(p, "wb") as f:  # an object array would need pickle: refused
        np.savez(f, header=np.array([{"format": "farmbox-cards"}], dtype=object),
                 templates=np.zeros((1, 4, 3, 3), np.uint8))
    with pytest.raises(ModelError):
        load_model(p)
    with pytest.raises(OSError, match="no model file"):
        load_model(tmp_path / "absent.npz")


def test_cli_enroll_and_read_json(samples, tmp_path, capsys):
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(samples), "--model", str(model)]) == 0
    assert "12 cards from 24 images" in capsys.readouterr().out
    s = scene(814, "symbols", ids=["diamond-2-solid", "oval-3-open", "diamond-1-open"])
    img = tmp_path / "table.jpg"
    cv2.imwrite(str(img), s.image)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), scene(815, "symbols", ids=[]).image)
    assert main(["vision", "read", "cards", "--model", str(model), str(img), str(empty), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert [x["image"] for x in lines] == [str(img), str(empty)]
    assert lines[1]["cards"] == []
    cards = lines[0]["cards"]
    assert len(cards) == 3
    assert sorted(c["id"] for c in cards if c["id"]) == sorted(
        c["id"] for c in cards if c["id"] in {"diamond-2-solid", "oval-3-open", "diamond-1-open"})
    assert sum(c["id"] is not None for c in cards) >= 2
    for c in cards:
        assert len(c["corners"]) == 4 and all(len(p) == 2 for p in c["corners"])


def test_cli_errors(tmp_path, capsys):
    bad = tmp_path / "m.npz"
    bad.write_text("junk")
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), card_face("symbols", "oval-1-open"))
    assert main(["vision", "read", "cards", "--model", str(bad), str(img)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a card model" in err[0]
    out = tmp_path / "never.npz"
    (tmp_path / "samples").mkdir()
    assert main(["vision", "enroll", "cards", str(tmp_path / "samples"), "--model", str(out)]) == 2
    assert not out.exists()


def test_overlapping_cards_are_read_or_reported_not_misread(reader):
    """Every second card lies partly over the one before it.  Measured on the whole renderer
    (40 such tables of 8 cards): 3 wrong in about 170 cards found, so this allows one."""
    wrong = unknown = right = under = under_read = 0
    for k in range(12):
        s = scene(62_000_000 + k, "symbols", count=6, overlap=0.3)
        readings = reader.read(s.image)
        truth = Counter(c.id for c in s.cards)
        got = Counter(r.id for r in readings if r.id is not None)
        wrong += sum((got - truth).values())
        right += sum((got & truth).values())
        unknown += sum(r.id is None for r in readings)
        # a card found partly under another says so, and is read only as its own card
        assert all(r.id is None or r.id in truth for r in readings if r.under_another)
        under += sum(r.under_another for r in readings)
        under_read += sum(r.under_another and r.id is not None for r in readings)
    assert wrong <= 1 and unknown >= 5 and right >= 20
    # 3 of the 8 found under another read (as near their card as enrollment copies come)
    assert under >= 5 and under_read >= 2, (under, under_read)


def test_a_photo_left_out_leaves_the_deck_photographed_on_the_table(tmp_path):
    """Our renderer's Fun Farm deck is a tight crop and a photo on the table of each card: half
    the shots, enough to say they are the box camera's.  cow-1's photo shows its pale card in
    the lamp's brightest corner, no brighter than the table round it, and is left out (no whole
    card found in it).  That leaves 23 photos on the table of 47 shots, but whether the shots
    are the camera's photos is told before any is left out: the deck is learned with the size a
    card covers (with the photo left out it was learned with none, and of 200 tables of
    overlapping cards 668 were read right, 724 with it) and the photos' side ratio."""
    enrollment_samples(tmp_path, "funfarm", per_card=2, seed=424242)
    left_out: list[str] = []
    model = enroll(tmp_path, left_out=left_out)
    assert [p.replace(str(tmp_path), "") for p in left_out] == ["/cow-1/table0.jpg"]
    assert 0.02 < model.card_share < 0.035
    assert abs(model.ratio - FACE_SIZE[0] / FACE_SIZE[1]) < 0.02 and "cow-1" in model.cards


def test_a_card_cut_short_by_the_card_over_it_is_not_fitted_into_that_card(tmp_path):
    """chick-4 lies under horse-4 and the finder parts the two along horse-4's edge: chick-4's
    outline is the card cut short, its second mark hidden.  Fitted to the deck, its side
    moved out into horse-4 and took in horse-4's red mark: read as its twin chick-3 with full
    confidence (the one wrong read on 200 overlap tables).  A side is not moved into another
    card found deeper than the outlines' own precision (:data:`FIT_INTO`, 2 pixels), so it
    stays unread.  With OpenCV 5.1 the chick's side went 3.4 pixels into the horse, within the
    earlier limit (5% of the horse), and the twin was read again; the horse, whose outline the
    chick's cut into, needs 3 pixels into the chick's and is reported unread now, never as
    another card."""
    enrollment_samples(tmp_path, "funfarm", per_card=2, seed=424242)
    reader = CardReader(enroll(tmp_path))
    s = scene(53_000_164, "funfarm", count=8, overlap=0.3)
    readings = reader.read(s.image)
    got = [r.id for r in readings]
    truth = {c.id for c in s.cards}
    assert "chick-3" not in got
    assert all(i is None or i in truth for i in got)
    # the horse over the chick is reported where it lies, as horse-4 or unread
    horse = next(np.float32(c.corners) for c in s.cards if c.id == "horse-4")
    at_horse = [r.id for r in readings if cv2.pointPolygonTest(horse, tuple(map(float, r.corners.mean(axis=0))), False) > 0]
    assert at_horse and set(at_horse) <= {"horse-4", None}, at_horse


def test_a_card_under_another_found_card_is_reported_covered():
    from farmbox.vision.cards.read import covered_cards
    img = np.full((400, 500, 3), 60, np.uint8)
    below = np.float32([[100, 100], [250, 100], [250, 310], [100, 310]])
    above = np.float32([[200, 150], [350, 150], [350, 360], [200, 360]])
    cv2.fillConvexPoly(img, below.astype(np.int32), (230, 230, 230))
    cv2.fillConvexPoly(img, above.astype(np.int32), (200, 220, 240))
    assert covered_cards(img, [below, above]) == [True, False]
    assert covered_cards(img, [above]) == [False]


def test_two_cards_level_side_by_side_are_two_cards_not_one_landscape():
    """Two portrait cards touching along their long sides make one quad of nearly a card's
    own ratio (2 x 250 by 350); the seam between them splits it, for a reader that knows the
    cards' shape.  A lone card is never cut."""
    from farmbox.vision.cards import FindOptions
    table = np.full((480, 640, 3), (70, 90, 60), np.uint8)
    w, h = 120, 168
    for k, card_id in enumerate(("horse-1", "horse-2")):
        x = 200 + k * w
        table[150:150 + h, x:x + w] = cv2.resize(card_face("funfarm", card_id), (w, h), interpolation=cv2.INTER_AREA)
    ratio = FACE_SIZE[0] / FACE_SIZE[1]
    quads = find_cards(table, FindOptions(ratio=ratio))
    assert len(quads) == 2
    for q, left in zip(sorted(quads, key=lambda q: q[:, 0].mean()), (200, 200 + w)):
        assert abs(q[:, 0].min() - left) < 6 and abs(q[:, 0].max() - (left + w)) < 6
        assert abs(side_ratio(q) - ratio) < 0.05
    lone = np.full((480, 640, 3), (70, 90, 60), np.uint8)
    lone[150:150 + h, 260:260 + w] = cv2.resize(card_face("funfarm", "cow-3"), (w, h), interpolation=cv2.INTER_AREA)
    assert len(find_cards(lone, FindOptions(ratio=ratio))) == 1


def test_the_outline_cut_along_a_seam_is_kept_as_passed_over_for_the_reader():
    """Where the enrolled card size is known, the finder hands the reader the outlines it
    passed over of a card's shape and size, and each outline it cut along a seam as it was.
    A card lying across the camera whose art runs a straight line across its middle (a
    meadow meeting the sky) is cut there as two cards side by side, each half of nearly a
    card's proportions: the whole is passed on (the reader reads it where neither half
    reads).  The card without the line: not cut, nothing passed over larger than a card.
    Without the enrolled size, nothing is passed on."""
    from farmbox.vision.cards import FindOptions
    from farmbox.vision.cards.find import LARGEST_CARD
    from tests.vision_cards.conftest import quad_iou

    w, h = 120, 168
    ratio = FACE_SIZE[0] / FACE_SIZE[1]
    options = FindOptions(ratio=ratio, card_share=w * h / (640 * 480))
    face = cv2.rotate(cv2.resize(card_face("funfarm", "cow-3"), (w, h), interpolation=cv2.INTER_AREA),
                      cv2.ROTATE_90_CLOCKWISE)                   # h wide, w high
    table = np.full((480, 640, 3), (70, 90, 60), np.uint8)
    table[180:180 + w, 240:240 + h] = face
    cut = table.copy()
    cut[180:180 + w, 240 + h // 2 - 1:240 + h // 2 + 2] = (40, 40, 40)     # the line across its middle
    passed: list[np.ndarray] = []
    quads = find_cards(cut, options, passed)
    assert len(quads) == 2 and all(cv2.contourArea(q) < 0.6 * w * h for q in quads)
    whole = [q for q in passed if cv2.contourArea(q) > 0.8 * w * h]
    assert len(whole) >= 1
    assert max(quad_iou(q, np.float32([[240, 180], [240 + h, 180], [240 + h, 180 + w], [240, 180 + w]]))
               for q in whole) > 0.9
    passed = []
    assert len(find_cards(table, options, passed)) == 1
    assert all(cv2.contourArea(q) <= LARGEST_CARD * w * h for q in passed)
    passed = []
    find_cards(cut, FindOptions(ratio=ratio), passed)
    assert passed == []


def test_a_card_found_round_its_inner_frame_is_read_as_itself_or_not_at_all(reader):
    """A symbols card has a blue frame line inside its white border: found round that line, the
    outline is the card shrunk on every side, and the three open diamonds were read as one
    diamond (14.4 from it, 26.7 from their own card), with a lead no rule doubted, on one of
    200 overlap tables.  The fit moves all four sides out together too (a side alone strayed
    from the one diamond's reading); and a card read far whose fit reads another card nearer
    is not read at all."""
    from farmbox.vision.cards.read import sides_moved

    right = wrong = 0
    for seed in range(820_000, 820_004):
        s = scene(seed, "symbols", count=8)
        for card in s.cards:
            inner = sides_moved(np.float32(card.corners), np.full(4, -0.07))
            got = reader.read_outline(s.image, order_corners(inner)).id
            right += got == card.id
            wrong += got not in (None, card.id)
    assert wrong == 0
    # 32 of 32 when written (22 before the four sides moved together); 30 with OpenCV 5.1 and
    # 24 with the Pi's 4.10 while all four were tried only where no side alone gained, 32 on
    # both since the two are tried side by side
    assert right >= 31, right


def test_without_the_card_size_a_card_read_far_smaller_than_those_beside_it_is_a_part_of_one():
    """A deck enrolled from crops does not tell a card's size.  The finder found the three
    ovals of a card of three (the real photos through a hazy camera) and read one as a card of
    one oval, another, fitted, as a card of two: a card read at under 0.55 of the median card
    read in the frame is a part of one, read as no card.  The median is over the cards read no
    smaller than half the largest: a card cut in half by the frame's edge showed two of its
    ovals, each read as a card of one, beside one whole card, and the median was an oval's.
    With one card read nothing is known of the size, and the reading stays as it is."""
    from farmbox.vision.cards.read import CardReading, _parts_unread

    def card(x, y, w, h, name):
        return CardReading(name, 1.0, np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]))

    whole = [card(40 + 220 * k, 100, 200, 300, f"3-green-solid-{k}") for k in range(3)]
    oval = card(80, 500, 140, 70, "1-purple-striped-oval")
    out = _parts_unread(whole + [oval])
    assert [r.id for r in out] == [r.id for r in whole] + [None]
    assert out[-1].confidence == 0.0 and np.array_equal(out[-1].corners, oval.corners)
    near = card(80, 500, 180, 260, "1-green-solid-oval")           # a card seen a little smaller
    assert _parts_unread(whole + [near])[-1].id == near.id
    far = card(80, 500, 150, 225, "1-green-solid-diamond")         # a far card of a leaning camera
    assert _parts_unread(whole + [far])[-1].id == far.id
    ovals = [card(60, 520 + 90 * k, 140, 70, "1-red-striped-oval") for k in range(2)]
    assert [r.id for r in _parts_unread(whole[:1] + ovals)] == [whole[0].id, None, None]
    assert [r.id for r in _parts_unread(whole[:1] + [oval])] == [whole[0].id, None]
    assert [r.id for r in _parts_unread([oval])] == [oval.id]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(20, 120), st.integers(20, 90), st.floats(0.0, 0.3))
def test_the_ink_fill_is_numpys_histogram_of_the_ink_steps(seed, h, w, on_edges):
    """The fill (a feature of every card read, made with OpenCV's histogram for speed) counts
    as numpy's histogram does, the outer edges included: no ink (0.05, the first step's
    floor) and black (1, the last step's top, which OpenCV's own histogram leaves out).  A
    value on a step's edge inside the range (as float32 holds it) may fall on either side of it
    (OpenCV's rounding against numpy's: seed 683, 39 x 49 holds 0.525 exactly).  Values off the
    edges by more than float32's rounding fall as numpy puts them."""
    rng = np.random.default_rng(seed)
    ink = np.clip(rng.random((h, w), np.float32) * 1.3 - 0.15, 0.0, 1.0)
    at = rng.random(ink.shape) < on_edges
    ink[at] = rng.choice(np.float32([0.05, 1.0]), int(at.sum()))
    expected = np.histogram(ink, bins=int(L.INK_BINS), range=(0.05, 1.0))[0]
    fill = L._fill(ink) * ink.size
    assert np.allclose(fill, np.round(fill)) and round(float(fill.sum())) == int(expected.sum())
    # the pixels below each inner step's edge: the same, but for values on that edge as float32
    # holds it (0.525 is one), which either histogram may put on either side
    inner = np.linspace(0.05, 1.0, int(L.INK_BINS) + 1)[1:-1]
    on_edge = [np.count_nonzero(np.abs(ink.astype(np.float64) - e) < 1e-6) for e in inner]
    below = np.cumsum(np.round(fill) - expected)[:-1]
    assert all(abs(d) <= n for d, n in zip(below.tolist(), on_edge))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.integers(1, 40), st.integers(0, 255), st.integers(0, 255))
def test_the_finders_median_brightness_is_numpys_median(seed, h, w, low, high):
    """The frame's median brightness that sets the finder's edge thresholds, counted from a
    histogram of the 256 grey levels (a tenth of numpy's time), is numpy's median to the last
    bit: the middle level, or the mean of the middle two (a half level), of any strided view."""
    from farmbox.vision.cards.find import median_of_bytes

    rng = np.random.default_rng(seed)
    low, high = sorted((low, high))
    gray = rng.integers(low, high + 1, (2 * h, 2 * w), dtype=np.uint8)
    for view in (gray, gray[::2, ::2], gray[1::2, ::3], gray[:1, :1]):
        assert median_of_bytes(view) == float(np.median(view))


@pytest.mark.parametrize("veil", [0.0, 90.0])
def test_a_card_balanced_by_its_paper_colour_as_numpy_would_divide_it(veil):
    """The paper balance (OpenCV's multiply by the paper colour's reciprocal, the paper found
    in a sample sorted by channel) is, within float rounding, numpy's: each channel divided
    by the median of the brightest quarter of every fourth pixel, after a lamp's veil (the
    darkest ink's lift above what ink reflects) is taken away."""
    rng = np.random.default_rng(7)
    face = np.clip(rng.normal(170, 40, (100, 70, 3)) + veil, 0, 255)
    face[10:40, 10:40] = (30 + veil, 40 + veil, 200)
    face = face.astype(np.uint8)

    def paper(f):
        s = f[::2, ::2].reshape(-1, 3)
        lum = s.sum(axis=1)
        return np.median(s[lum >= np.percentile(lum, 75)], axis=0)

    f = L.flattened(face)
    white = paper(f)
    lift = float(np.percentile(f[::2, ::2].reshape(-1, 3), 1, axis=0).min()) - L.INK_REFLECTS * float(white.mean())
    assert (lift > 0) == (veil > 0)
    if lift > 0:
        f = np.maximum(f - lift, 0.0)
        white = paper(f)
    np.testing.assert_allclose(L.paper_balanced(face), f / np.maximum(white, 8.0), rtol=1e-5, atol=1e-6)


@settings(max_examples=200, deadline=None)
@given(turn=st.floats(0, 360), shear=st.floats(-0.5, 0.5), w=st.floats(20, 400), h=st.floats(20, 400),
       lift=st.floats(5, 30))
def test_sides_apart_is_nought_for_a_parallelogram_and_the_corner_moved_for_one_corner_off(turn, shear, w, h,
                                                                                          lift):
    """Opposite sides of a card seen from above (a rectangle turned and sheared: any
    parallelogram) are parallel, whatever its turn; with one corner moved across its side the
    sides there are that far apart."""
    t = np.radians(turn)
    r = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    q = (np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ (r @ np.array([[1.0, shear], [0.0, 1.0]])).T)
    assert sides_apart(q.astype(np.float32)) == pytest.approx(0.0, abs=0.01)
    # a rectangle's last corner moved across the bottom side: that side turns by ``lift``
    # degrees round the third corner, the top one does not
    a = np.radians(lift)
    off = np.array([[0, 0], [w, 0], [w, h], [w - w * np.cos(a), h + w * np.sin(a)]], np.float64)
    assert sides_apart((off @ r.T).astype(np.float32)) == pytest.approx(lift, abs=0.05)
