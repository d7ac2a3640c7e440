"""Fun Farm cards lying beside the colour dice: the cards read are left out of the dice search.

Each card shows a small white die and a small black die printed in the dice's own colours, and
its animal is drawn in thick dark outlines; a large white card also moved the light field.  The
frames come from the independent renderer (``bench/holdout_colour_dice.py --cards``): cards
flat on the table and lit with it, never under a die, half of them close beside one.
"""

import json

import cv2
import numpy as np
import pytest

from farmbox.firmware.cli import main
from farmbox.vision.colour_dice import enroll, read_frame
from farmbox.vision.colour_dice.find import _nan_median, masked_median, prepare
from farmbox.vision.colour_dice.read import CARD_FACES, cards_away
from tests.bench_scripts import bench_script


def _box_set(root, seed: int, style: str, kind: str, throws: int, cards: int, only=None):
    """A box of the independent renderer with a deck of ``cards`` cards round each of its
    ``throws`` throws (``only``: those throws written, each as in the whole box), its dice and
    its deck enrolled through the command line: (folder, labels, dice model, card model)."""
    hold = bench_script("holdout_colour_dice")
    folder = root / f"{style}-{kind}-{seed}"
    labels = hold.write_set(folder, seed, style, kind, throws, progress=False, cards=cards, only=only)
    dice_model, card_model = folder / "dice.json", folder / "cards.npz"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(dice_model)]) == 0
    assert main(["vision", "enroll", "cards", str(folder / "enroll-cards"), "--model", str(card_model)]) == 0
    return folder, labels, dice_model, card_model


@pytest.fixture(scope="module")
def box_with_cards(tmp_path_factory):
    """A painted-faces box on a green felt (the box where the cards did most harm), a deck of
    six cards enrolled from photos on its table, and its dice model: through the command line."""
    return _box_set(tmp_path_factory.mktemp("cards_beside"), 2, "painted", "felt", 10, 6)


def _deck_photos(hold, box, seed, folder, rng):
    """``folder/card-<k>/<j>.jpg``: six cards of the box's deck, two photos each, every card
    alone somewhere on the table."""
    deck = [hold.card_face(box.paints, seed, k) for k in range(6)]
    for k in range(6):
        (folder / f"card-{k}").mkdir(parents=True)
        for j in range(2):
            laid = [hold.Card(k, c.x, c.y, c.yaw, c.short) for c in box.lay_cards(rng, [], 6, 1)]
            cv2.imwrite(str(folder / f"card-{k}" / f"{j}.jpg"), box.render([], rng, laid, deck))
    return folder


def _read(capsys, *args):
    capsys.readouterr()
    code = main(["vision", "read", "colour-dice", *args, "--json"])
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]


def _score(got, labels):
    right = wrong = 0
    for r in got:
        truth = labels[r["image"].rsplit("/", 1)[-1]]
        for die, colour in truth.items():
            right += r["dice"][die] == colour
            wrong += r["dice"][die] not in (None, colour)
    return right, wrong


def test_the_cards_read_are_left_out_of_the_dice_search(box_with_cards, capsys):
    folder, labels, dice_model, card_model = box_with_cards
    scenes = sorted(str(p) for p in (folder / "scenes").iterdir())
    with_cards = _score(_read(capsys, "--model", str(dice_model), "--cards", str(card_model), *scenes), labels)
    without = _score(_read(capsys, "--model", str(dice_model), *scenes), labels)
    # 20 dice beside 1-4 cards each: read as the box reads them, no die is wrong and at most
    # one is unsure; with the cards taken for table, a card's dice icons or dark outlines
    # were read as a die (or made it "more than one such die")
    assert with_cards[1] == 0 and with_cards[0] >= 19, with_cards
    assert without[0] < with_cards[0], (without, with_cards)


def test_cream_cards_on_a_near_white_linen_are_left_out_too(tmp_path, capsys):
    """On a near-white linen a cream card differs from the cloth by its art only: the card
    reader took it for no card (a tile framed by grout, a patch of felt), its dice icons stayed
    beside the dice (65 of 240 dice on this box, 7 wrong).  Read as a card of the deck with
    confidence, it is a card, and the dice are read."""
    folder, labels, dice_model, card_model = _box_set(tmp_path, 6, "painted", "linen", 10, 6)
    scenes = sorted(str(p) for p in (folder / "scenes").iterdir())
    with_cards = _score(_read(capsys, "--model", str(dice_model), "--cards", str(card_model), *scenes), labels)
    without = _score(_read(capsys, "--model", str(dice_model), *scenes), labels)
    assert with_cards[1] == 0 and with_cards[0] >= 19, with_cards
    assert without[0] < with_cards[0] - 4, (without, with_cards)


def test_the_deck_reader_finds_every_card_beside_the_dice(box_with_cards):
    """The deck's reader finds each card of every scene, and reads none wrong (a card a corner
    of another touches is found, not read: it is left out of the dice search all the same); what
    else it finds is the size of a die (the dice reader ignores such an outline)."""
    from farmbox.vision.cards import CardReader, load_model
    from farmbox.vision.colour_dice import load_model as load_dice

    folder, _, dice_model, card_model = box_with_cards
    reader = CardReader(load_model(card_model))
    dice = load_dice(dice_model)
    least = CARD_FACES * (max(d.side_px for d in dice.dice.values()) * 960 / 480) ** 2
    where = json.loads((folder / "centres.json").read_text())
    for name in sorted(p.name for p in (folder / "scenes").iterdir()):
        image = cv2.imread(str(folder / "scenes" / name))
        found = [c for c in reader.read(image) if cv2.contourArea(c.corners) >= least]
        laid = where[f"scenes/{name}"]["cards"]
        assert len(found) == len(laid), name
        assert {c.id for c in found if c.id} <= set(laid), name


def test_a_die_sized_outline_is_not_kept_out(box_with_cards):
    """The card finder may take a die's top face for a small card: an outline smaller than
    :data:`CARD_FACES` top faces is never left out (the die would vanish)."""
    folder, _, _, _ = box_with_cards
    model = enroll(folder / "enroll")
    image = cv2.imread(str(folder / "scenes" / "throw-0000.jpg"))
    side = max(d.side_px for d in model.dice.values()) * image.shape[1] / 480
    small = np.array([[100, 100], [100 + side, 100], [100 + side, 100 + side], [100, 100 + side]], np.float32)
    assert cards_away(model, image, [small]) is None
    big = small * np.float32(np.sqrt(CARD_FACES) * 1.2) - np.float32(50)
    away = cards_away(model, image, [big, np.full((4, 2), np.nan, np.float32)])
    assert away is not None and away.any() and away.shape == (360, 480)
    assert read_frame(model, image, []) == read_frame(model, image)


def test_a_mask_of_another_size_is_a_clear_error():
    image = np.full((720, 960, 3), 90, np.uint8)
    with pytest.raises(ValueError, match="work size"):
        prepare(image, away=np.zeros((100, 100), bool))


def test_the_light_field_ignores_the_hidden_cells_and_keeps_a_die_outvoted():
    rng = np.random.default_rng(3)
    cells = (0.05 * rng.standard_normal((18, 24, 3))).astype(np.float32)
    hidden = np.zeros((18, 24), bool)
    # nothing hidden: inside the border it is OpenCV's 5x5 median
    plain = cv2.merge([cv2.medianBlur(np.ascontiguousarray(cells[..., i]), 5) for i in range(3)])
    assert np.allclose(masked_median(cells, hidden)[2:-2, 2:-2], plain[2:-2, 2:-2])
    # a card's cells (very bright) hidden, a die's 2x3 cells (dark) at the bottom edge beside it
    cells[8:16, 12:20] = 1.5
    hidden[8:16, 12:20] = True
    cells[16:18, 9:12] = -1.0
    got = masked_median(cells, hidden)
    assert np.abs(got).max() < 0.2, np.abs(got).max()
    # all hidden: the cells as they are
    assert np.array_equal(masked_median(cells, np.ones_like(hidden)), cells)


def test_the_light_fields_median_is_numpys_nanmedian():
    """The median the light field takes of each square of cells, the hidden ones left out, is
    ``np.nanmedian``'s to the bit: odd and even counts of cells voting, and none."""
    rng = np.random.default_rng(11)
    rows = rng.standard_normal((400, 3, 25)).astype(np.float32)
    for k, row in enumerate(rows):
        row[:, rng.random(25) < k / 400] = np.nan           # 0 to 25 cells hidden
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanmedian(rows, axis=-1)
    got = _nan_median(rows)
    assert got.dtype == np.float32
    assert np.array_equal(got, want, equal_nan=True)
    assert np.isnan(got).any() and (~np.isnan(got)).sum() > 1000


def test_cards_is_for_the_colour_dice_only(tmp_path, capsys):
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((48, 64, 3), np.uint8))
    assert main(["vision", "read", "dice", "--model", str(tmp_path / "m.json"), "--cards",
                 str(tmp_path / "c.npz"), str(image)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--cards is for colour-dice only" in err[0]


def test_a_bad_card_model_is_one_line(box_with_cards, tmp_path, capsys):
    folder, _, dice_model, _ = box_with_cards
    bad = tmp_path / "cards.npz"
    bad.write_bytes(b"not a model")
    scene = str(folder / "scenes" / "throw-0000.jpg")
    for model in (bad, tmp_path / "missing.npz"):
        capsys.readouterr()
        assert main(["vision", "read", "colour-dice", "--model", str(dice_model), "--cards", str(model), scene]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(model.name) in err[0], err


def test_an_outline_round_a_die_where_no_card_lies_leaves_the_die_in(box_with_cards):
    """The card reader also finds outlines in a cloth's weave, one of them round a die: an
    outline kept out only where most of it differs from the table, the die stays found.  Read
    as the box reads (the cards read left out, and the outlines found and not read where most
    of them differ from the table), with such an outline round one die or the other."""
    from farmbox.vision.cards import CardReader, load_model

    folder, labels, _, card_model = box_with_cards
    model = enroll(folder / "enroll")
    reader = CardReader(load_model(card_model))
    where = json.loads((folder / "centres.json").read_text())
    checked = 0
    for name in sorted(labels):
        image = cv2.imread(str(folder / "scenes" / name))
        cards = reader.read(image)
        read, unread = [c.corners for c in cards if c.id], [c.corners for c in cards if not c.id]
        at = where[f"scenes/{name}"]
        apart = np.hypot(*np.subtract(at["black"]["centre"], at["white"]["centre"])) / at["black"]["side_px"]
        if apart < 3.5 or read_frame(model, image, read, unread).dice != labels[name]:
            continue  # the outline would hold the other die too
        for die in ("black", "white"):
            (x, y), side = where[f"scenes/{name}"][die]["centre"], where[f"scenes/{name}"][die]["side_px"]
            r = 1.3 * side   # a square 2.6 sides wide round the die: 6.8 top faces
            phantom = np.float32([[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]])
            assert read_frame(model, image, read, [*unread, phantom]).dice == labels[name], (name, die)
            checked += 1
    assert checked >= 8, checked


@pytest.mark.parametrize("seed,style,kind", [(6, "painted", "linen"), (4, "pips", "tiles")])
def test_a_deck_enrolled_on_a_pale_table_is_found_on_it(tmp_path, capsys, seed, style, kind):
    """Cream cards photographed one at a time on a near-white linen are no brighter than the
    cloth, and no card was found in any photo: the deck was learned as the whole table and no
    card was read in play (so none was kept out of the dice search).  The median of the photos
    is the empty table; each card is the outline found round what differs from it (its art).
    On blue tiles of a card's size framed by pale grout, a tile was taken for the card in 13
    of 16 photos (the deck learned a side ratio of 0.98, every card weak): an outline where the
    photo hardly differs from the empty table is no card there either."""
    hold = bench_script("holdout_colour_dice")
    box = hold.Box.from_seed(seed, style, kind)
    rng = np.random.default_rng([seed, 71])
    photos = _deck_photos(hold, box, seed, tmp_path / "cards", rng)
    model = tmp_path / "cards.npz"
    capsys.readouterr()
    assert main(["vision", "enroll", "cards", str(photos), "--model", str(model)]) == 0
    out = capsys.readouterr().out
    ratio = float(out.split("side ratio ")[1].split(",")[0])
    assert abs(ratio - hold.CARD_TEX[0] / hold.CARD_TEX[1]) < 0.03, out   # 0.750 (the frame's) before
    assert "weak" not in out, out
    shots = sorted(str(p) for p in photos.glob("*/*.jpg"))
    assert main(["vision", "read", "cards", "--model", str(model), "--json", *shots]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    read = [[c["id"] for c in r["cards"] if c["id"]] for r in got]
    # none read before (and in play only the cards that differ from the cloth over 15%)
    assert sum(ids == [path.split("/")[-2]] for ids, path in zip(read, shots)) >= 11, read
    assert all(set(ids) <= {path.split("/")[-2]} for ids, path in zip(read, shots)), read


@pytest.mark.parametrize("where", ["table/0.jpg", "background.png"])
def test_a_photo_of_the_empty_table_is_the_table_where_the_cards_always_lay(tmp_path, capsys, where):
    """Every card photographed in the same spot (the middle of the table): the median of the
    photos is a card there, not the table.  ``SAMPLES/table/*`` or ``SAMPLES/background.png``
    (a photo of the empty table) is the table instead, and no card is called ``table``."""
    from farmbox.vision.cards import load_model

    hold = bench_script("holdout_colour_dice")
    box = hold.Box.from_seed(26, "painted", "felt")
    deck = [hold.card_face(box.paints, 26, k) for k in range(6)]
    rng = np.random.default_rng([26, 5])
    middle = box.ground[360, 480]
    photos = tmp_path / "cards"
    for k in range(6):
        (photos / f"card-{k}").mkdir(parents=True)
        for j in range(2):
            laid = [hold.Card(k, float(middle[0]) + rng.uniform(-0.3, 0.3), float(middle[1]) + rng.uniform(-0.3, 0.3),
                              float(rng.uniform(-0.2, 0.2)), 3.2 * box.edge)]
            cv2.imwrite(str(photos / f"card-{k}" / f"{j}.jpg"), box.render([], rng, laid, deck))
    empty = box.render([], rng)
    (photos / where).parent.mkdir(exist_ok=True)
    cv2.imwrite(str(photos / where), empty)
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(photos), "--model", str(model)]) == 0
    m = load_model(model)
    assert "table" not in m.cards and len(m.cards) == 6
    want = cv2.resize(empty, (m.table.shape[1], m.table.shape[0]), interpolation=cv2.INTER_AREA)
    middle_px = (slice(m.table.shape[0] * 2 // 5, m.table.shape[0] * 3 // 5),
                 slice(m.table.shape[1] * 2 // 5, m.table.shape[1] * 3 // 5))
    # the middle of the model's table is the felt of the table photo, not a card's paper
    assert np.abs(m.table[middle_px].astype(int) - want[middle_px].astype(int)).mean() < 12
    capsys.readouterr()
    shots = sorted(str(p) for p in photos.glob("card-*/*.jpg"))
    assert main(["vision", "read", "cards", "--model", str(model), "--json", *shots]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    read = [[c["id"] for c in r["cards"] if c["id"]] for r in got]
    assert sum(ids == [path.split("/")[-2]] for ids, path in zip(read, shots)) >= 11, read


def test_a_photo_of_another_table_is_not_taken_for_the_empty_table(tmp_path):
    """A photo of the empty table from another table (or after the camera moved) does not
    replace the table the cards' photos show: the deck keeps the median of its photos."""
    from farmbox.vision.cards import enroll as enroll_cards

    hold = bench_script("holdout_colour_dice")
    box = hold.Box.from_seed(1, "disc", "wood")
    other = hold.Box.from_seed(4, "pips", "tiles")
    rng = np.random.default_rng([1, 71])
    photos = _deck_photos(hold, box, 1, tmp_path / "cards", rng)
    cv2.imwrite(str(photos / "background.png"), other.render([], rng))
    m = enroll_cards(photos)
    wood = cv2.resize(box.render([], rng), (m.table.shape[1], m.table.shape[0]), interpolation=cv2.INTER_AREA)
    tiles = cv2.resize(other.render([], rng), (m.table.shape[1], m.table.shape[0]), interpolation=cv2.INTER_AREA)
    assert m.table.size and len(m.cards) == 6 and not m.weak
    assert np.abs(m.table.astype(int) - wood.astype(int)).mean() < np.abs(m.table.astype(int) - tiles.astype(int)).mean() / 3


def test_cards_found_and_not_read_are_left_out_too(box_with_cards, tmp_path, capsys):
    """Two of the six cards never enrolled: the card reader finds them and cannot name them.
    They are still cards (most of each differs from the table), so their dice icons are kept
    out of the dice search like the cards read."""
    import shutil

    folder, labels, dice_model, _ = box_with_cards
    partial = tmp_path / "four-cards"
    shutil.copytree(folder / "enroll-cards", partial)
    for card in ("card-00", "card-01"):
        shutil.rmtree(partial / card)
    card_model = tmp_path / "four.npz"
    assert main(["vision", "enroll", "cards", str(partial), "--model", str(card_model)]) == 0
    where = json.loads((folder / "centres.json").read_text())
    strangers = [p for p in sorted((folder / "scenes").iterdir())
                 if {"card-00", "card-01"} & set(where[f"scenes/{p.name}"].get("cards", []))]
    assert len(strangers) >= 4
    scenes = [str(p) for p in strangers]
    got = _score(_read(capsys, "--model", str(dice_model), "--cards", str(card_model), *scenes), labels)
    full = _score(_read(capsys, "--model", str(dice_model), "--cards", str(folder / "cards.npz"), *scenes), labels)
    assert got[1] == 0 and got[0] >= full[0] - 1, (got, full)


@pytest.fixture(scope="module")
def cream_on_linen(tmp_path_factory):
    """Box 22 of the independent renderer: painted dice and cream cards with a thin grey edge
    on a near-white linen, under a leaning camera with a wide lens, 50 throws with 1-4 of a deck
    of 8 cards round each; the deck enrolled through the command line: (folder, card model)."""
    hold = bench_script("holdout_colour_dice")
    folder = tmp_path_factory.mktemp("linen") / "painted-linen-22"
    hold.write_set(folder, 22, "painted", "linen", 50, progress=False, cards=8)
    model = folder / "cards.npz"
    assert main(["vision", "enroll", "cards", str(folder / "enroll-cards"), "--model", str(model)]) == 0
    return folder, model


def _cards_read(capsys, folder, model, scenes):
    """Per scene name: (the cards laid in it, the card ids read in it)."""
    where = json.loads((folder / "centres.json").read_text())
    capsys.readouterr()
    assert main(["vision", "read", "cards", "--model", str(model), "--json", *map(str, scenes)]) == 0
    out = {}
    for line in capsys.readouterr().out.strip().splitlines():
        r = json.loads(line)
        name = r["image"].rsplit("/", 1)[-1]
        out[name] = (where[f"scenes/{name}"].get("cards", []), [c["id"] for c in r["cards"] if c["id"]])
    return out


def test_a_cream_card_the_lens_makes_small_is_read_on_a_near_white_linen(cream_on_linen, capsys):
    """Near the frame's corners a wide lens makes a card 0.6 of one at the centre.  A cream card
    on a near-white linen differs from it by its art only, and such an outline is a card when
    read as one of the deck with confidence: it was taken only from 0.7 of the enrolled card's
    size (a part of a card, its art's panel, is under 0.55), and the corners' cards were lost
    (first 50 throws: 114 of 123 cards read; 117 with it, 120 once the cards ringed by a thin
    line and the near ones a leaning camera makes large were found too)."""
    folder, model = cream_on_linen
    read = _cards_read(capsys, folder, model, sorted((folder / "scenes").iterdir()))
    laid = sum(len(cards) for cards, _ in read.values())
    right = sum(min(cards.count(c), got.count(c)) for cards, got in read.values() for c in set(cards))
    wrong = sum(c not in cards for cards, got in read.values() for c in got)
    assert laid >= 120 and wrong == 0
    assert right >= laid - 3, (right, laid)


def test_a_card_ringed_by_a_thin_line_and_a_card_the_camera_makes_large_are_found(cream_on_linen, capsys):
    """On a near-white linen a cream card differs from the table by its art alone, and its thin
    grey edge is too faint for the work frame's edge map: at full size the ring round it closes
    only thickened by a pixel where its art comes near it (throws 44 and 45).  Throw 39's card
    lies nearest a leaning camera: 1.3 times the enrolled card, 1.7 times the other two, and it
    was dropped as two cards touching though nothing parts it.  Missed, each card's printed
    dice stood beside the real ones ("more than one such die")."""
    folder, model = cream_on_linen
    scenes = [folder / "scenes" / f"throw-{k:04d}.jpg" for k in (39, 44, 45)]
    read = _cards_read(capsys, folder, model, scenes)
    for name, (cards, got) in read.items():
        assert sorted(got) == sorted(cards), (name, got, cards)
    capsys.readouterr()
    dice = folder / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(dice)]) == 0
    labels = json.loads((folder / "labels.json").read_text())
    got = _read(capsys, "--model", str(dice), "--cards", str(model), *map(str, scenes))
    assert _score(got, {n: labels[n] for n in read}) == (6, 0), got


def test_cards_kept_out_do_not_raise_the_threshold_past_a_dark_die(tmp_path, capsys):
    """The foreground is what differs from the relit empty table by more than five times the
    frame's typical difference.  With a fifth of the frame under cards kept out, counting the
    cards in that typical difference raised it by a third, and a black die with blue dots on a
    navy felt under a dim lamp no longer differed enough ("die not found" beside the cards, found
    without them): the typical difference is the table's."""
    folder, labels, dice_model, card_model = _box_set(tmp_path, 24, "pips", "felt", 20, 8)
    scenes = sorted(str(p) for p in (folder / "scenes").iterdir())
    right, wrong = _score(_read(capsys, "--model", str(dice_model), "--cards", str(card_model), *scenes), labels)
    assert wrong == 0 and right >= 38, right


def test_a_cards_grey_edge_band_is_not_a_second_white_die(tmp_path, capsys):
    """On a pale tiled floor (box 12 of the independent renderer) the grey band along a card's
    edge, beside the white die, is the white die's size and grey: it was taken for a second
    white die ("more than one such die"), and in throw 11 it was the nearer the enrolled size.
    A die is solid: most of its hull differs from the table, the band's a tenth of it."""
    folder, labels, dice_model, card_model = _box_set(tmp_path, 12, "pips", "tiles", 12, 8, only={11})
    scene = folder / "scenes" / "throw-0011.jpg"
    got = _read(capsys, "--model", str(dice_model), "--cards", str(card_model), str(scene))
    assert got[0]["dice"] == labels[scene.name], got


def test_the_table_ringed_between_cards_is_no_card(cream_on_linen, capsys):
    """Rings of the full-size edge map are taken where no card was found; between cards lying
    close, and round a card's art, the table or a part of a card is ringed too.  Such a ring
    is a card only at a card's size against the enrolled one (throws 12 and 31 of box 22 showed
    unread outlines, kept out of the dice search, where no card lies)."""
    folder, model = cream_on_linen
    scenes = [folder / "scenes" / f"throw-{k:04d}.jpg" for k in (12, 31)]
    for name, (cards, got) in _cards_read(capsys, folder, model, scenes).items():
        assert sorted(got) == sorted(cards), (name, got, cards)
    capsys.readouterr()
    assert main(["vision", "read", "cards", "--model", str(model), "--json", *map(str, scenes)]) == 0
    unread = [c for line in capsys.readouterr().out.strip().splitlines() for c in json.loads(line)["cards"]
              if c["id"] is None]
    assert unread == [], unread


def test_a_card_touching_another_at_a_corner_is_found_by_the_hole_of_their_ring(tmp_path, capsys):
    """Box 14 of the independent renderer, throw 68: two cream cards on a near-white linen
    touch at a corner.  Thickened by a pixel, the thin grey line round both closes one ring
    that is no card's shape; its hole is the card's (taken only inside a ring larger than a
    card).  Missed, the card's printed black die made "more than one such die"."""
    folder, labels, dice_model, card_model = _box_set(tmp_path, 14, "painted", "linen", 69, 8, only={68})
    scene = folder / "scenes" / "throw-0068.jpg"
    for name, (cards, got) in _cards_read(capsys, folder, card_model, [scene]).items():
        assert sorted(got) == sorted(cards), (name, got, cards)
    got = _read(capsys, "--model", str(dice_model), "--cards", str(card_model), str(scene))
    assert got[0]["dice"] == labels[scene.name], got


def test_the_ring_round_the_dark_die_found_late_is_no_pale_die(cream_on_linen, capsys):
    """Throw 15 of box 22: the dark die is first taken where a card's dark art lies and read
    later where it lies, and the pale ring of its shadow and sides round it was a second white
    die ("more than one such die").  Round the dark die found first that ring is passed over;
    so it is round the dark die read later."""
    folder, model = cream_on_linen
    dice = folder / "dice-15.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(dice)]) == 0
    labels = json.loads((folder / "labels.json").read_text())
    scene = folder / "scenes" / "throw-0015.jpg"
    got = _read(capsys, "--model", str(dice), "--cards", str(model), str(scene))
    assert got[0]["dice"] == labels[scene.name], got
