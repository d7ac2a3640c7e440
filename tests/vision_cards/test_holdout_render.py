"""The independent card renderer (bench/holdout_cards.py) keeps its own promises: the labels
name exactly the cards drawn, every card lies wholly in view and apart from the others, and
its enroll/ folder is one `farmbox vision enroll cards` learns from."""

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from farmbox.firmware.cli import main
from tests.vision_cards.conftest import learned_at_the_cards_shape, quad_iou


@pytest.fixture(scope="module")
def small_deck(holdout):
    """One card of each animal (ids and colours from the box's own deck file)."""
    deck = holdout.load_deck()
    return [next(c for c in deck if c.animal == a) for a in ("sheep", "goat", "pig", "horse",
                                                            "cow", "chick")]


def test_deck_is_the_boxs_own(holdout):
    deck = holdout.load_deck()
    assert len(deck) == 24 and len({c.id for c in deck}) == 24
    assert Counter(c.animal for c in deck) == {a: 4 for a in ("sheep", "goat", "pig", "horse",
                                                              "cow", "chick")}
    assert all(c.black in holdout.PAINT and c.white in holdout.PAINT for c in deck)


@pytest.mark.parametrize("style", ["flat", "printed", "bleed"])
def test_cards_of_one_animal_differ_only_in_the_dice(holdout, style):
    deck = [c for c in holdout.load_deck() if c.animal == "pig"]
    paper = holdout.linear((245, 240, 225))
    faces = [holdout.card_face(c, style, paper, np.random.default_rng(0)) for c in deck]
    differ = np.zeros(faces[0].shape[:2], bool)
    for f in faces[1:]:
        differ |= np.abs(f - faces[0]).max(axis=2) > 0.02
    ys, xs = np.nonzero(differ)
    # all the difference is in two small marks: a few percent of the face
    assert 0.005 < differ.mean() < 0.08
    h, w = differ.shape
    assert (xs.max() - xs.min()) * (ys.max() - ys.min()) < 0.25 * w * h


def test_laid_cards_are_drawn_labelled_apart_and_in_view(holdout):
    deck = holdout.load_deck()
    box = holdout.Box.from_seed(2, "printed", "cloth", deck[:12])
    rng = np.random.default_rng(5)
    for touching in (False, True):
        placed = box.lay(rng, deck[:12], touching=touching)
        assert sorted(p.card.id for p in placed) == sorted(c.id for c in deck[:12])
        w, h = holdout.SIZE
        for i, p in enumerate(placed):
            q = box.project(p.outline(40))
            assert (q >= 0).all() and (q[:, 0] < w).all() and (q[:, 1] < h).all()
            assert all(holdout.apart(p, o, 0.0) for o in placed[i + 1:])
        if touching:
            assert any(not holdout.apart(a, b, 0.05) for i, a in enumerate(placed)
                       for b in placed[i + 1:])
        # what changes when the cards are put down is the cards (and their soft shadows)
        seed = int(rng.integers(1 << 30))
        bare = box.radiance([], np.random.default_rng(seed))
        full = box.radiance(placed, np.random.default_rng(seed))
        changed = np.abs(full - bare).max(axis=2) > 0.01
        union = np.zeros((h, w), np.uint8)
        for p in placed:
            poly = np.zeros((h, w), np.uint8)
            cv2.fillPoly(poly, [np.round(box.project(p.outline(8))).astype(np.int32)], 1)
            inner = cv2.erode(poly, np.ones((5, 5), np.uint8))
            assert changed[inner > 0].mean() > 0.97, p.card.id
            union |= poly
        near = cv2.dilate(union, np.ones((31, 31), np.uint8))
        assert changed[near == 0].mean() < 0.001


def test_a_small_set_is_what_enroll_cards_learns_from(holdout, small_deck, tmp_path):
    folder = tmp_path / "flat-wood-1"
    labels = holdout.write_set(folder, 1, "flat", "wood", tables=3, shots=2, progress=False,
                               deck=small_deck)
    ids = sorted(c.id for c in small_deck)
    assert sorted(p.name for p in (folder / "enroll").iterdir()) == ids
    for card in ids:
        shots = sorted(p.name for p in (folder / "enroll" / card).iterdir())
        assert shots == ["0.jpg", "1.jpg"]
        img = cv2.imread(str(folder / "enroll" / card / "0.jpg"))
        assert img is not None and img.shape == (720, 960, 3)
    assert json.loads((folder / "labels.json").read_text()) == labels
    assert sorted(labels) == sorted(p.name for p in (folder / "scenes").iterdir())
    assert all(2 <= len(v) <= 6 and set(v) <= set(ids) for v in labels.values())
    where = json.loads((folder / "corners.json").read_text())
    assert sorted(where) == sorted([f"scenes/{n}" for n in labels]
                                   + [f"enroll/{c}/{k}.jpg" for c in ids for k in (0, 1)])
    for name, cards in where.items():
        expect = labels[name[len("scenes/"):]] if name.startswith("scenes/") else [name.split("/")[1]]
        assert sorted(c["id"] for c in cards) == expect
        for c in cards:
            q = np.array(c["corners"])
            # the unrounded corners: at most a few pixels past the rounded outline kept in view
            assert q.shape == (4, 2) and (q >= -6).all() and (q[:, 0] < 966).all() and (q[:, 1] < 726).all()
            assert 0.0 <= c["glare"] <= 1.0
    model = tmp_path / "cards.model"
    assert main(["vision", "enroll", "cards", str(folder / "enroll"), "--model", str(model)]) == 0
    assert model.is_file()


@pytest.mark.parametrize("seed,style,kind", [(4, "printed", "tiles"), (3, "flat", "felt")])
def test_a_card_photographed_on_the_table_is_the_card(holdout, small_deck, tmp_path, seed, style, kind):
    """Enrollment photos of a card alone on the table: on tiles, the tiles are card-like
    outlines too (larger than the card, darker inside than their grout); on dark felt the
    photo's vignette makes a frame-sized outline that hid the card inside it.  The card is
    the card-sized outline brighter inside than around it (before: a tile, or the whole
    frame, and the card was learned wrong)."""
    from farmbox.vision.cards.read import card_in

    folder = tmp_path / kind
    holdout.write_set(folder, seed, style, kind, tables=0, shots=2, progress=False, deck=small_deck)
    where = json.loads((folder / "corners.json").read_text())
    overlaps = []
    for name, cards in where.items():
        truth = np.array(cards[0]["corners"], np.float32)
        got = card_in(cv2.imread(str(folder / name)))
        a = np.zeros((720, 960), np.uint8)
        b = np.zeros((720, 960), np.uint8)
        cv2.fillConvexPoly(a, np.round(truth).astype(np.int32), 1)
        cv2.fillConvexPoly(b, np.round(got).astype(np.int32), 1)
        overlaps.append(float((a & b).sum()) / float((a | b).sum()))
    assert len(overlaps) == 12
    assert sum(o > 0.8 for o in overlaps) >= 11, np.round(overlaps, 2)


@pytest.mark.parametrize("seed,kind", [(2, "cloth"), (6, "wood")])
def test_two_cards_touching_and_slid_along_each_other_are_both_found(holdout, seed, kind):
    """The renderer lays two cards side by side, edges touching, one slid along the other by up
    to 0.4 of its length: their bright region is no quad, so neither was found (0 of 8 pairs on
    both boxes before).  Cut along the seam, both are."""
    from farmbox.vision.cards import FindOptions, find_cards

    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, "printed", kind, deck)
    rng = np.random.default_rng([seed, 5])
    both = 0
    for _ in range(8):
        cards = [deck[int(j)] for j in rng.choice(len(deck), 4, replace=False)]
        placed = box.lay(rng, cards, touching=True)
        frame = box.render(placed, rng)
        found = find_cards(frame, FindOptions(ratio=0.66))
        pair = [box.project(p.corners()) for p in placed[:2]]
        both += all(found and max(quad_iou(t, q) for q in found) > 0.8 for t in pair)
        # the cards apart from the pair are found as before
        for p in placed[2:]:
            assert max(quad_iou(box.project(p.corners()), q) for q in found) > 0.8
    assert both >= 5, both


@pytest.mark.parametrize("seed,least", [(13, 30), (5, 28)])
def test_cards_on_a_striped_cloth_are_found_whole(holdout, seed, least):
    """White stripes meet the cards' white border: in the shrunk, thickened edge map the
    card's faint outline merges with its art's frame, and only the art's halves were found
    (2 and 11 of 36 cards found whole on these boxes before).  The whole frame's fine edge
    map still closes the card's own outline."""
    from farmbox.vision.cards import FindOptions, find_cards

    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, "flat", "striped", deck)
    rng = np.random.default_rng([seed, 9])
    whole = parts = 0
    for _ in range(6):
        cards = [deck[int(j)] for j in rng.choice(len(deck), 6, replace=False)]
        placed = box.lay(rng, cards)
        found = find_cards(box.render(placed, rng), FindOptions(ratio=0.66))
        truth = [box.project(p.corners()) for p in placed]
        whole += sum(bool(found) and max(quad_iou(t, q) for q in found) > 0.8 for t in truth)
        parts += sum(max(quad_iou(t, q) for t in truth) < 0.5 for q in found)
    assert whole >= least, whole
    assert parts <= 6, parts


def test_an_enrollment_photo_with_no_card_found_on_the_table_is_left_out(holdout, small_deck, tmp_path, capsys):
    """A photo of the table in which no card is found used to be learned as the card (the
    whole frame).  Among photos of cards on the table it is left out, with one line naming it;
    the card keeps its other photo."""
    folder = tmp_path / "wood"
    holdout.write_set(folder, 1, "flat", "wood", tables=0, shots=2, progress=False, deck=small_deck)
    box = holdout.Box.from_seed(1, "flat", "wood", holdout.load_deck())
    empty = folder / "enroll" / small_deck[0].id / "1.jpg"
    cv2.imwrite(str(empty), box.render([], np.random.default_rng(3)))
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(folder / "enroll"), "--model", str(model)]) == 0
    out, err = capsys.readouterr()
    left = [line for line in err.splitlines() if line.startswith("left out ")]
    assert left == [f"left out {empty}: no whole card found on the table in it (shoot it again with the card "
                    "wholly in view, away from the table's pattern)"]
    assert "6 cards from 11 images" in out


def test_a_card_whose_every_photo_shows_no_card_is_not_learned_and_named(holdout, small_deck, tmp_path, capsys):
    """A card whose two photos on the table both showed no card found (one in the frame's
    corner, one under the lamp's glare: the second renderer's bleed/cloth 191) kept them, each
    the whole frame: the table was learned as the card, its two photos read each other by a
    wide lead, and the check named nothing weak; in play the card was never read, and its twin
    was read in its place.  Its photos are left out, each named, the card is not learned and
    is named weak; the other cards are learned as before."""
    folder = tmp_path / "wood"
    holdout.write_set(folder, 1, "flat", "wood", tables=0, shots=2, progress=False, deck=small_deck)
    box = holdout.Box.from_seed(1, "flat", "wood", holdout.load_deck())
    lost = small_deck[0].id
    empties = [folder / "enroll" / lost / f"{k}.jpg" for k in (0, 1)]
    for k, path in enumerate(empties):
        cv2.imwrite(str(path), box.render([], np.random.default_rng(3 + k)))
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(folder / "enroll"), "--model", str(model)]) == 0
    out, err = capsys.readouterr()
    left = sorted(line.split(":")[0] for line in err.splitlines() if line.startswith("left out "))
    assert left == [f"left out {p}" for p in empties]
    assert f"not learned, no whole card found in any of its photos (shoot them again): {lost}" in err
    assert "5 cards from 10 images" in out
    assert f"weak in the enrollment's own check (shoot again): {lost}" in out
    from farmbox.vision.cards import load_model
    learned = load_model(model)
    assert lost not in learned.cards and lost in learned.weak


def test_a_card_the_lens_enlarges_is_found_at_the_size_the_cards_found_say(holdout, tmp_path, capsys, monkeypatch):
    """The second renderer's bleed/cloth 191: full-bleed cards on a cloth, a card found by its
    edges in 1 photo of 48, so a card's size where it lies is not known at first and each is
    looked for as what differs from the empty table at the median card's size (1.5 times it at
    most).  Four photos' cards, near the frame's corners where the lens enlarges them (goat-3's:
    1.57 times), were larger: left out, and goat-3's other photo is under the lamp's glare, so
    the table was learned as goat-3 and it was never read (stop 62's fresh set: 850 of 899
    read, 3 goat-3 read as goat-2).  Since stop 63 such photos are first looked at as a card no
    brighter than the table (the smallest outline round the one region that differs: no size
    asked): every photo's card is found, the glared one too, and the first table's twelve
    cards, goat-3 among them, are read.  Without that step the photos left without a card are
    looked at once more at the sizes the cards then found say, and only the glared photo is
    left out (stop 62's second look)."""
    folder = tmp_path / "bleed-cloth-191"
    labels = holdout.write_set(folder, 191, "bleed", "cloth", tables=1, shots=2, progress=False)
    table = folder / "scenes" / "table-0000.jpg"
    assert "goat-3" in labels["table-0000.jpg"]
    from farmbox.vision.cards import read as reading

    def enrolled(model):
        assert main(["vision", "enroll", "cards", str(folder / "enroll"), "--model", str(model)]) == 0
        out, err = capsys.readouterr()
        assert main(["vision", "read", "cards", "--model", str(model), str(table), "--json"]) == 0
        read = json.loads(capsys.readouterr().out)
        assert sorted(c["id"] for c in read["cards"]) == labels["table-0000.jpg"]
        return out, [line.split(":")[0] for line in err.splitlines() if line.startswith("left out ")]

    out, left = enrolled(tmp_path / "cards.npz")
    assert left == [] and "24 cards from 48 images" in out
    monkeypatch.setattr(reading, "_found_on_a_pale_table", lambda found, shares, tables=None: (found, shares))
    out, left = enrolled(tmp_path / "second-look.npz")
    assert left == [f"left out {folder / 'enroll' / 'goat-3' / '1.jpg'}"]      # under the glare
    assert "24 cards from 47 images" in out


def test_an_outline_far_smaller_than_the_enrolled_cards_is_not_read(holdout, small_deck, tmp_path, capsys):
    """With the box's camera the enrollment photos tell how large a card is in the frame.  An
    outline much smaller (here a card's photo shrunk to 0.6 of its size, 0.36 of its area,
    as a half art panel would be) is a part of a card: reported, not read."""
    folder = tmp_path / "wood"
    holdout.write_set(folder, 1, "flat", "wood", tables=0, shots=2, progress=False, deck=small_deck)
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(folder / "enroll"), "--model", str(model)]) == 0
    photo = folder / "enroll" / small_deck[2].id / "0.jpg"
    image = cv2.imread(str(photo))
    h, w = image.shape[:2]
    small = np.full_like(image, np.median(image.reshape(-1, 3), axis=0).astype(np.uint8))
    small[:int(h * 0.6), :int(w * 0.6)] = cv2.resize(image, (int(w * 0.6), int(h * 0.6)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(tmp_path / "small.png"), small)
    capsys.readouterr()
    assert main(["vision", "read", "cards", "--model", str(model), str(photo), str(tmp_path / "small.png"),
                 "--json"]) == 0
    whole, shrunk = (json.loads(line) for line in capsys.readouterr().out.strip().splitlines())
    assert [c["id"] for c in whole["cards"]] == [small_deck[2].id]
    assert len(shrunk["cards"]) == 1 and shrunk["cards"][0]["id"] is None


def test_dark_cards_on_pale_tiles_are_learned_at_their_own_shape(holdout, tmp_path, capsys):
    """The second renderer's bleed/tiles 212: cards of a deep ground, their art to the edge,
    photographed on pale tiles, are darker than the table, so :func:`card_in` (a card on a
    table is brighter inside its outline than round it) found a card in 3 of the 48 photos (2
    of them off the card).  The others were looked for as what differs from the empty table at
    the size of those three, at every card ratio tried, and learned stretched along a band of
    the table: side ratio 0.559 against the cards' 0.65 (a fresh set of stop 63: 648 of 837
    cards read, 7 wrong, 582 ms a frame).  Where fewer than 8 cards were found by their edges,
    a card that differs from the empty table in one small region is found as the smallest
    outline round it in every photo without a card, the cards found kept: the deck is learned
    at its own shape, and its tables are read."""
    for table, ids in learned_at_the_cards_shape(holdout, tmp_path, 212, "bleed", "tiles", capsys):
        assert not Counter(i for i in ids if i is not None) - Counter(table[1]), (table[0], ids)   # none wrong
        assert sum(i is not None for i in ids) >= len(table[1]) - 1, (table[0], ids)


@pytest.fixture(scope="module")
def striped_197(holdout, tmp_path_factory):
    """The second renderer's bleed/striped 197 (a fresh set of stop 62): its 48 enrollment
    photos and its first 4 tables (the photos are drawn first: the same with any tables)."""
    folder = tmp_path_factory.mktemp("holdout") / "bleed-striped-197"
    holdout.write_set(folder, 197, "bleed", "striped", tables=4, shots=2, progress=False)
    return folder


def test_a_full_bleed_cards_outline_is_not_moved_off_it_by_the_decks_layout(striped_197, monkeypatch):
    """The second renderer's bleed/striped 197: cards whose art runs to their edge share little
    layout but their edge, and aligning an outline found by what differs from the empty table
    to the deck's layout (the median of its cards' crops) may line its art up a little better
    with the others' art and move it off the card: horse-3's outline, found within a pixel or
    two, was moved 11-13 pixels off, and horse-3 was read `unsure` 23 times (stop 62's fresh
    set: 806 of 852 read).  An outline is moved only when the alignment takes away a fifth at
    least of its mismatch with the layout (:data:`~farmbox.vision.cards.layout.EXPLAINED`):
    every move that leaves undone went more than 2 pixels farther from its card, the moves made
    bring the outlines nearer on the whole, and horse-3's stays on its card."""
    from farmbox.vision.cards import layout
    from farmbox.vision.cards import read as reading
    from tests.vision_cards.test_empty_table import _corner_error

    folder = striped_197
    truth = json.loads((folder / "corners.json").read_text())
    paths = sorted(folder.glob("enroll/*/*.jpg"))
    shots = [(p.parent.name, cv2.imread(str(p))) for p in paths]
    name = {id(image): f"enroll/{p.parent.name}/{p.name}" for p, (_, image) in zip(paths, shots)}
    seen = []
    real = reading.aligned_to_the_deck

    def aligned(photos, outlines, ratio, which):        # the real alignment, its work kept
        out = real(photos, outlines, ratio, which)
        seen.append((photos, outlines, ratio, which, out))
        return out

    monkeypatch.setattr(reading, "aligned_to_the_deck", aligned)
    reading.enroll_shots(shots)
    (photos, outlines, ratio, which, out), = seen
    monkeypatch.setattr(layout, "EXPLAINED", -np.inf)   # the same alignment, every move made
    free = real(photos, outlines, ratio, which)

    def off(i: int, quad: np.ndarray) -> float:
        return _corner_error(quad, truth[name[id(photos[i])]][0]["corners"])

    def same(a: np.ndarray, b: np.ndarray) -> bool:
        return np.array_equal(a, b)

    assert all(same(out[i], free[i]) or same(out[i], outlines[i]) for i in range(len(out)))
    blocked = [i for i in range(len(out)) if same(out[i], outlines[i]) and not same(free[i], outlines[i])]
    assert blocked and all(off(i, free[i]) > off(i, outlines[i]) + 2 for i in blocked), \
        [(name[id(photos[i])], off(i, outlines[i]), off(i, free[i])) for i in blocked]
    moved = [i for i in range(len(out)) if not same(out[i], outlines[i])]
    assert len(moved) >= 3 and sum(off(i, out[i]) for i in moved) < sum(off(i, outlines[i]) for i in moved)
    horse = next(i for i in range(len(out)) if name[id(photos[i])] == "enroll/horse-3/1.jpg")
    assert off(horse, out[horse]) <= 3.0 < off(horse, free[horse])


def test_a_card_under_the_lamps_glare_is_read_with_the_veil_taken_away(striped_197, tmp_path, capsys, monkeypatch):
    """On bleed/striped 197's fourth table horse-2 lies wholly under the lamp's glare (0.99 of
    the card): its deep blue ground and its two marks paled alike, it reads within a lead of
    its twin horse-3 and is `unsure`, though a person reads it at a glance.  A card not read
    whose face shows the glare is read again with the glare's veil taken away, as the
    enrollment takes it from a photo under the lamp, and taken by a clear lead only: horse-2
    is read, and nothing on the table is read wrong.  With that step left out it is not."""
    from farmbox.vision.cards import read as reading

    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(striped_197 / "enroll"), "--model", str(model)]) == 0
    labels = json.loads((striped_197 / "labels.json").read_text())
    glare = {t["id"]: t["glare"] for t in json.loads((striped_197 / "corners.json").read_text())["scenes/table-0003.jpg"]}
    assert glare["horse-2"] > 0.9
    table = striped_197 / "scenes" / "table-0003.jpg"
    capsys.readouterr()

    def read() -> list[str | None]:
        assert main(["vision", "read", "cards", "--model", str(model), str(table), "--json"]) == 0
        return [c["id"] for c in json.loads(capsys.readouterr().out)["cards"]]

    ids = read()
    assert "horse-2" in ids and not Counter(i for i in ids if i is not None) - Counter(labels[table.name]), ids
    monkeypatch.setattr(reading.CardReader, "_unveiled", lambda self, image, readings, card: readings)
    without = read()
    assert "horse-2" not in without and None in without, without
