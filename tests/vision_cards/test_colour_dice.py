"""The colour-dice reader on rendered frames: enrollment, reading, unsure cases, model errors, CLI."""

import json

import cv2
import numpy as np
import pytest

from farmbox.firmware.cli import main
from farmbox.vision.colour_dice import ModelError, enroll, load_model, read_frame, read_image, save_model
from farmbox.vision.colour_dice.find import CLIPPED, prepare, shrink
from farmbox.vision.render.colour_dice import COLOURS, enrollment_samples, scene


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    root = tmp_path_factory.mktemp("colour_samples")
    enrollment_samples(root, per_colour=2, seed=7)
    return root


@pytest.fixture(scope="module")
def model(samples):
    return enroll(samples)


def test_enrolled_model_knows_both_dice_and_all_colours(model):
    assert set(model.dice) == {"white", "black"}
    for die in model.dice.values():
        assert set(die.samples) == set(COLOURS)
    assert model.dice["white"].body[0] > model.dice["black"].body[0] + 100


def test_reads_held_out_scenes_without_confident_mistakes(model):
    right = unsure = 0
    for seed in range(900_000, 900_024):
        s = scene(seed)
        r = read_frame(model, s.image)
        for die, colour in s.dice.items():
            got = r.dice[die]
            if got is None:
                unsure += 1
            else:
                assert got == colour, (seed, die)
                right += 1
        if all(r.dice.values()):
            assert 0 < r.confidence <= 1
    assert right >= 44 and unsure <= 4


def test_missing_die_and_empty_table_are_unsure(model):
    r = read_frame(model, scene(31, {"white": "green"}).image)
    assert r.dice == {"white": "green", "black": None}
    assert r.confidence == 0 and "black" in r.reasons
    r = read_frame(model, scene(32, {}).image)
    assert r.dice == {"white": None, "black": None} and r.confidence == 0


def test_model_round_trip_and_errors(model, tmp_path):
    p = tmp_path / "m.json"
    save_model(model, p)
    assert load_model(p).to_json() == model.to_json()
    data = json.loads(p.read_text())
    data["version"] = 99
    p.write_text(json.dumps(data))
    with pytest.raises(ModelError, match="version 99"):
        load_model(p)
    p.write_text("{not json")
    with pytest.raises(ModelError, match="corrupt"):
        load_model(p)
    p.write_bytes(b"\x89PNG\x00\xff\xfe")
    with pytest.raises(ModelError, match="not a colour-dice model"):
        load_model(p)
    p.write_text(json.dumps({"format": "farmbox-colour-dice", "version": 2, "dice": {"white": {}}}))
    with pytest.raises(ModelError, match="malformed"):
        load_model(p)
    # a model from before the table shot: one line telling the owner to enroll again
    p.write_text(json.dumps({"format": "farmbox-colour-dice", "version": 1, "dice": {}}))
    with pytest.raises(ModelError, match="version 1.*enroll again"):
        load_model(p)
    good = model.to_json()
    good["table"] = "not base64 at all!"
    p.write_text(json.dumps(good))
    with pytest.raises(ModelError, match="'table'"):
        load_model(p)
    # each colour's mark share: kept, checked, and optional (a model written before it)
    assert set(model.dice["white"].colour_shares) == set(model.dice["white"].samples)
    assert all(0 < v <= 1 for v in model.dice["white"].colour_shares.values())
    for bad in ({"red": 1.5}, {"red": float("nan")}, {"teal": 0.1}):
        data = model.to_json()
        data["dice"]["white"]["colour_shares"] = bad
        p.write_text(json.dumps(data))
        with pytest.raises(ModelError, match="'white' field 'colour_shares' holds"):
            load_model(p)
    data = model.to_json()
    for d in data["dice"].values():
        del d["colour_shares"]
    p.write_text(json.dumps(data))
    older = load_model(p)
    assert older.dice["white"].colour_shares == {} and older.dice["white"].mark_share == model.dice["white"].mark_share
    with pytest.raises(OSError):
        load_model(tmp_path / "absent.json")
    with pytest.raises(ValueError, match="cannot read image .*: not an image"):
        read_image(tmp_path / "m.json")


def test_bad_samples_are_named(tmp_path):
    (tmp_path / "green").mkdir()
    with pytest.raises(ValueError, match="white or black"):
        enroll(tmp_path)
    empty = tmp_path / "e"
    (empty / "white" / "red").mkdir(parents=True)
    with pytest.raises(ValueError, match="no images"):
        enroll(empty)


def test_cli_enroll_and_read(samples, tmp_path, capsys):
    model_path = tmp_path / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(samples), "--model", str(model_path)]) == 0
    assert "white die: 6 colours" in capsys.readouterr().out
    images = []
    truth = []
    for seed in (700_001, 700_002):
        s = scene(seed)
        p = tmp_path / f"{seed}.jpg"
        cv2.imwrite(str(p), s.image)
        images.append(str(p))
        truth.append(s.dice)
    assert main(["vision", "read", "colour-dice", "--model", str(model_path), *images, "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for line, path, dice in zip(lines, images, truth):
        obj = json.loads(line)
        assert obj["image"] == path and set(obj["dice"]) == {"white", "black"}
        assert all(obj["dice"][d] in (None, dice[d]) for d in dice)
        assert 0 <= obj["confidence"] <= 1


def test_cli_errors_are_one_line_and_leave_no_model(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("nonsense")
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.zeros((40, 40, 3), np.uint8))
    assert main(["vision", "read", "colour-dice", "--model", str(bad), str(img)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a colour-dice model" in err[0]
    out = tmp_path / "never.json"
    assert main(["vision", "enroll", "colour-dice", str(tmp_path / "nowhere"), "--model", str(out)]) == 2
    assert not out.exists()


def test_enrollment_reports_progress_and_its_own_weak_colours(tmp_path):
    from farmbox.vision.colour_dice import weak_colours
    from farmbox.vision.render.colour_dice import enrollment_samples as colour_samples
    colour_samples(tmp_path, per_colour=2, seed=77)
    steps = []
    m = enroll(tmp_path, on_progress=lambda done, total: steps.append((done, total)))
    assert steps[-1] == (48, 48) and [d for d, _ in steps] == list(range(1, 49))
    weak = weak_colours(m)
    assert set(weak) == {"white", "black"}
    assert all(set(w) <= set(m.dice[d].samples) for d, w in weak.items())
    # a colour with one shot only cannot be checked: weak
    m.dice["white"].samples["red"] = m.dice["white"].samples["red"][:1]
    assert "red" in weak_colours(m)["white"]
    # a shot that looks like another colour: weak
    m.dice["black"].samples["blue"].append(m.dice["black"].samples["yellow"][0])
    assert "blue" in weak_colours(m)["black"]


@pytest.fixture(scope="module")
def white_cloth(tmp_path_factory):
    """Enrollment by the box's fixed camera over one near-white cloth, with its empty-table shot."""
    root = tmp_path_factory.mktemp("white_cloth")
    enrollment_samples(root, per_colour=2, seed=8, table_kind="white", table_seed=5150)
    return root


def test_white_die_on_a_near_white_cloth_is_read_against_the_empty_table(white_cloth):
    m = enroll(white_cloth)
    assert m.table is not None and m.table.shape[1] == 480
    right = unsure = 0
    for seed in range(910_000, 910_020):
        s = scene(seed, table_kind="white", table_seed=5150)
        r = read_frame(m, s.image)
        for die, colour in s.dice.items():
            if r.dice[die] is None:
                unsure += 1
            else:
                assert r.dice[die] == colour, (seed, die, r)
                right += 1
    assert right >= 37 and unsure <= 3
    # the same scenes without the table shot (the table estimated from each frame): read or
    # unsure, never wrong
    m.table = None
    for seed in range(910_000, 910_010):
        s = scene(seed, table_kind="white", table_seed=5150)
        r = read_frame(m, s.image)
        assert all(r.dice[d] in (None, c) for d, c in s.dice.items()), (seed, r)


def test_a_white_die_whose_body_does_not_differ_from_the_cloth_is_found_by_its_mark_and_sides(tmp_path):
    """On this near-white cloth the white die differs from the cloth only at its mark, its
    side faces and its shadow, fragments too far apart to be one part: the die was not found
    (two frames of 300).  Joined across half a die's side they hold its top face.  A black die
    alone leaves no white die behind, and no frame is read wrong."""
    enrollment_samples(tmp_path, per_colour=3, seed=4242, table_kind="white", table_seed=71_777_777)
    m = enroll(tmp_path)
    for seed in (71_000_031, 71_000_076):
        s = scene(seed, table_kind="white", table_seed=71_777_777)
        assert read_frame(m, s.image).dice == s.dice, seed
    for seed in range(71_000_000, 71_000_012):
        alone = scene(seed, {"black": COLOURS[seed % len(COLOURS)]}, table_kind="white", table_seed=71_777_777)
        r = read_frame(m, alone.image)
        assert r.dice["white"] is None and r.dice["black"] in (None, alone.dice["black"]), (seed, r)
        s = scene(seed + 500, table_kind="white", table_seed=71_777_777)
        r = read_frame(m, s.image)
        assert all(r.dice[d] in (None, c) for d, c in s.dice.items()), (seed, r)


def test_a_stripe_clipped_in_the_table_shot_does_not_hide_the_black_die(tmp_path):
    """The table shot of this cloth clips its cream stripes; in a frame shot darker they are
    not clipped, and the gain field taken with the clipped pixels came out too dark round the
    black die: the stripes there differed from the table like a die, joined the black die, and
    it was not found (5 frames of 200).  Clipped pixels say only 'at least this bright'."""
    enrollment_samples(tmp_path, per_colour=3, seed=4242, table_kind="striped", table_seed=71_777_777)
    m = enroll(tmp_path)
    for seed in (71_000_006, 71_000_055, 71_000_083, 71_000_085, 71_000_101):
        s = scene(seed, table_kind="striped", table_seed=71_777_777)
        assert read_frame(m, s.image).dice["black"] == s.dice["black"], seed


@pytest.fixture(scope="module")
def striped_box(tmp_path_factory):
    """Our renderer's striped cloth under the box's fixed camera, enrolled as bench_cards does."""
    root = tmp_path_factory.mktemp("striped")
    enrollment_samples(root, per_colour=3, seed=4242, table_kind="striped", table_seed=61_777_777)
    return enroll(root)


def test_an_orange_face_lit_past_the_tables_light_keeps_its_hue(striped_box):
    """A frame shot darker than the table shot is relit brighter; an orange face lit more
    strongly than the table round it then has its red past 255.  Clipped there, its green
    alone grew with the light and it turned yellow: the black die's orange was "orange?" on
    this striped cloth (and on a wood table, below).  Brought down whole, it keeps its hue."""
    m = striped_box
    s = scene(61_000_252, table_kind="striped", table_seed=61_777_777)
    assert s.dice["black"] == "orange"
    # the case: the relit red on the black die's face passes 255, the camera's did not clip
    frame = prepare(s.image, m.table)
    clipped = shrink(s.image) >= CLIPPED
    assert frame.unclipped is not None
    x, y = (round(v * frame.scale) for v in s.centres["black"])
    reach = round(0.3 * m.dice["black"].side_px)
    face = (slice(y - reach, y + reach + 1), slice(x - reach, x + reach + 1))
    assert (frame.unclipped[face][..., 2] > 255).mean() > 0.3 and clipped[face][..., 2].mean() < 0.1
    assert read_frame(m, s.image).dice == s.dice


def test_a_white_body_the_camera_clipped_stays_white_in_any_light(striped_box):
    """A white die's body the camera clipped in every channel, the frame bluer than the table
    shot there: divided by the light's gain it took a tint (B 202, G 252, R 211), its chroma
    passed the mark's threshold, and the whole top face round the blue disc was taken for a
    pale green mark: "green?" where a person sees a blue disc at a glance.  Clipped in every
    channel, a pixel is white in any light."""
    m = striped_box
    for seed in (61_000_234, 61_000_067):
        s = scene(seed, table_kind="striped", table_seed=61_777_777)
        frame = prepare(s.image, m.table)
        x, y = (round(v * frame.scale) for v in s.centres["white"])
        reach = round(0.45 * m.dice["white"].side_px)
        near = (slice(y - reach, y + reach + 1), slice(x - reach, x + reach + 1))
        # the case: much of the die clipped in every channel, and white once relit
        white = (shrink(s.image) >= CLIPPED)[near].all(axis=2)
        assert white.mean() > 0.2, seed
        assert (frame.bgr[near][white] == 255).all(), seed
        assert read_frame(m, s.image).dice == s.dice, seed


def test_a_white_body_clipped_and_an_orange_lit_past_the_light_on_a_wood_table(tmp_path):
    """The two cases above on a wood table with tile art: the white die's purple face was read
    red (its clipped body tinted by the light divided out), twice its orange "yellow?" and
    its purple "green?", and the black die's orange "orange?" (its red relit past 255)."""
    enrollment_samples(tmp_path, per_colour=3, seed=4242, table_kind="wood", art="tile", table_seed=61_777_777)
    m = enroll(tmp_path)
    for seed in (61_000_058, 61_000_015, 61_000_179, 61_000_133):
        s = scene(seed, table_kind="wood", art="tile", table_seed=61_777_777)
        assert read_frame(m, s.image).dice == s.dice, seed


def test_one_fixed_table_gives_its_own_table_shot_and_another_table_is_not_used(white_cloth, model, tmp_path):
    import shutil
    root = tmp_path / "no_table_shot"
    shutil.copytree(white_cloth, root)
    shutil.rmtree(root / "table")
    m = enroll(root)
    # without a table folder the shots (one die each, moving) give the empty table by median
    assert m.table is not None
    s = scene(910_100, table_kind="white", table_seed=5150)
    assert read_frame(m, s.image).dice["black"] == s.dice["black"]
    # a frame of another, striped table: the table shot is not used (no flood of foreground)
    other = scene(910_101, table_kind="striped")
    assert prepare(other.image, m.table).relit is False
    assert prepare(s.image, m.table).relit is True
    # shots each on its own table give no table shot
    assert model.table is None
    # the empty table may also be SAMPLES/background.jpg, as for the Super Farmer dice
    shutil.copy(white_cloth / "table" / "0.jpg", root / "background.jpg")
    m2 = enroll(root)
    assert m2.table is not None and np.abs(m2.table.astype(int) - enroll(white_cloth).table).max() == 0


def test_cli_model_keeps_the_table_shot(white_cloth, tmp_path, capsys):
    model_path = tmp_path / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(white_cloth), "--model", str(model_path)]) == 0
    capsys.readouterr()
    data = json.loads(model_path.read_text())  # plain JSON text, no pickle
    assert data["version"] == 2 and isinstance(data["table"], str)
    m = load_model(model_path)
    assert m.table is not None
    s = scene(910_200, table_kind="white", table_seed=5150)
    p = tmp_path / "s.jpg"
    cv2.imwrite(str(p), s.image)
    assert main(["vision", "read", "colour-dice", "--model", str(model_path), str(p), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert all(obj["dice"][d] in (None, s.dice[d]) for d in s.dice)


@pytest.fixture(scope="module")
def dark_cloth(tmp_path_factory):
    """Enrollment shots on one fixed dark cloth (tile art), with its empty-table shot."""
    root = tmp_path_factory.mktemp("dark_cloth")
    enrollment_samples(root, per_colour=3, seed=4242, table_kind="cloth", art="tile", table_seed=61777777)
    return root


@pytest.mark.parametrize("frame_seed", [61000070, 61000141, 61000208])
def test_dice_touching_on_a_dark_cloth_never_give_the_black_die_the_white_dies_colour(
        dark_cloth, tmp_path, capsys, frame_seed):
    """Pushed against the white die on a cloth as dark as its shadow, the black die's region
    takes in the white die, and its largest coloured patch was the white die's mark: read as
    the white die's colour (these three frames were: purple as green, blue as orange, blue as
    red).  A mark whose surround is the other die's body is not this die's."""
    s = scene(frame_seed, table_kind="cloth", art="tile", table_seed=61777777, touching=True)
    image = tmp_path / "touching.png"
    cv2.imwrite(str(image), s.image)
    model_path = tmp_path / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(dark_cloth), "--model", str(model_path)]) == 0
    capsys.readouterr()
    assert main(["vision", "read", "colour-dice", "--model", str(model_path), str(image), "--json"]) == 0
    got = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert got["dice"]["black"] in (s.dice["black"], None)
    if got["dice"]["black"] is None:
        assert "dice touching: mark on the other die" in got["reason"]


def test_dice_touching_the_black_hull_reaching_the_white_mark_is_no_reading(dark_cloth, tmp_path, capsys):
    """Our tilted dice pushed together on a dark cloth: the black die's hull reaches the white
    die's mark, which is larger than the black top face inside its body (and, with the white
    die's place kept out, the black die's top face is cut and a side face is left).  A larger
    mark in the hull is taken only for a body smaller than a top face, and a die found again
    beside the white one whose body and hull disagree is not read (each of these was read
    wrong by a step of this change that lacked it)."""
    frames = [scene(seed, table_kind="cloth", art="tile", table_seed=61777777, touching=True)
              for seed in (61000131, 61000171, 61000207)]
    paths = []
    for k, s in enumerate(frames):
        paths.append(str(tmp_path / f"touching-{k}.png"))
        cv2.imwrite(paths[-1], s.image)
    model_path = tmp_path / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(dark_cloth), "--model", str(model_path)]) == 0
    capsys.readouterr()
    assert main(["vision", "read", "colour-dice", "--model", str(model_path), *paths, "--json"]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    for r, s in zip(got, frames, strict=True):
        assert all(r["dice"][d] in (c, None) for d, c in s.dice.items()), (r, s.dice)


def test_a_mark_of_five_dots_is_read_as_its_colour(tmp_path, capsys):
    """The independent renderer's "pips" dice carry five dots of their colour on each face:
    each dot is some 3% of the die, under the least a mark must cover, so every top face was
    "not seen" (0 of 240 read).  The dots of one colour round the largest are one mark."""
    right, wrong, _ = _read_holdout_box(tmp_path, capsys, "pips", "tiles", 4, 12)
    assert wrong == 0
    assert right >= 20, right     # of 24


def _read_holdout_box(tmp_path, capsys, style, kind, seed, scenes, die=None):
    """(right, wrong, white dice not found) of a box of the independent colour-dice renderer,
    enrolled and read through the command line (right and wrong of ``die`` alone, if given)."""
    from tests.bench_scripts import colour_dice_box
    folder, labels = colour_dice_box(tmp_path, seed, style, kind, scenes)
    model_path = tmp_path / f"{style}-{seed}.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(model_path)]) == 0
    capsys.readouterr()
    names = sorted(labels)
    assert main(["vision", "read", "colour-dice", "--model", str(model_path),
                 *[str(folder / "scenes" / s) for s in names], "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    truth = [(r, d, c) for r, s in zip(lines, names) for d, c in labels[s].items() if die in (None, d)]
    right = sum(r["dice"][d] == c for r, d, c in truth)
    wrong = sum(r["dice"][d] not in (None, c) for r, d, c in truth)
    lost = sum("white: die not found" in r.get("reason", "") for r in lines)
    return right, wrong, lost


def test_a_white_die_whose_shaded_sides_look_like_the_black_body_is_found(tmp_path, capsys):
    """Under a warm lamp, through a lens that enlarges the sides, the white die's shaded sides
    and foot made up to a third of its hull look like the black die's body, and the die was
    dropped as a pale ring round the black die (the white die not found in 14 and 5 of 120
    throws on these two boxes).  With the black die found and its place kept out, such a ring
    is already left out by its distance to it."""
    lost = 0
    for style, kind, seed in (("disc", "wood", 1), ("square", "linen", 3)):
        right, wrong, white_lost = _read_holdout_box(tmp_path, capsys, style, kind, seed, 30)
        assert wrong == 0
        lost += white_lost
    assert lost == 0, lost


def test_a_black_die_whose_faces_are_painted_to_its_edges_is_read(tmp_path, capsys):
    """Faces painted to their edges leave of the black die's body a thin dark frame; on a
    green felt its shadow was taken for its body (the shadow is as dark and as grey), and the
    mark was looked for beside the die: 5 of these 24 black dice read (22 now).  A shadow
    keeps the tint of the table it falls on, the black body has none; the die is the hull of
    its frame."""
    right, wrong, _ = _read_holdout_box(tmp_path, capsys, "painted", "felt", 2, 24, die="black")
    assert wrong == 0
    assert right >= 18, right     # of 24


@pytest.mark.parametrize("table_bgr, tinted", [((60, 120, 30), True), ((150, 105, 60), True),
                                                 ((185, 190, 192), False)])
def test_a_shadow_keeps_the_tint_of_the_table_a_black_body_has_none(table_bgr, tinted):
    """On a tinted table (green felt, blue cloth) a shadow is the table darkened and keeps its
    tint; the black body is grey.  On a grey cloth both are grey: nothing is called a shadow."""
    from farmbox.vision.colour_dice.find import prepare, shadow

    rng = np.random.default_rng(5)
    table = np.clip(np.array(table_bgr, float) + rng.normal(0, 3, (360, 480, 3)), 0, 255).astype(np.uint8)
    image = table.copy()
    image[120:170, 120:220] = (image[120:170, 120:220] * 0.45).astype(np.uint8)  # a shadow
    image[125:160, 125:160] = (32, 30, 31)                                       # the black body
    frame = prepare(cv2.resize(image, (960, 720)), table)
    assert frame.relit
    found = shadow(frame, frame.foreground > 0)
    body = found[128:157, 128:157]
    cast = found[124:166, 170:215]
    assert body.mean() < 0.05
    if tinted:
        assert cast.mean() > 0.95
    else:
        assert not found.any()


def test_the_white_die_alone_in_an_enrollment_shot_may_show_its_shadow_in_its_hull(tmp_path, capsys):
    """On a near-white linen under a low lamp the white die's shadow and shaded sides make up a
    fifth of its hull, and they look like the black body: enrollment took such a shot for a
    pale ring round the black die, lost all three shots of blue and refused the deck.  Alone in
    an enrollment shot there is no black die to ring."""
    right, wrong, _ = _read_holdout_box(tmp_path, capsys, "square", "linen", 11, 12)
    assert wrong == 0
    assert right >= 22, right     # of 24


def test_a_black_frame_open_where_the_lamp_catches_it_still_gives_the_top_face(tmp_path, capsys):
    """A black body that is a thin frame round faces painted to their edges, open where the
    lamp catches an edge, encloses nothing: its mark was looked for in the frame and its
    shadow alone, and 3 of the 18 enrollment shots of this box were lost (blue, orange, yellow
    each left with two).  Then the mark is looked for in the body's hull."""
    from tests.bench_scripts import colour_dice_box
    folder, _ = colour_dice_box(tmp_path, 6, "painted", "linen", 0)
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(tmp_path / "m.json")]) == 0
    out = capsys.readouterr().out
    assert "black die: 6 colours (blue, green, orange, purple, red, yellow), 18 samples" in out, out


def test_the_dots_of_a_mark_are_one_mark_when_the_largest_is_at_the_edge(tmp_path, capsys):
    """Five green dots on the black die, on a green felt: the largest dot may be one at the
    face's edge, and the dot across the face lay beyond reach of it, so four dots were too
    small a mark (2 of these 16 throws' black dice not seen).  A dot within reach of a dot
    already taken is taken too."""
    right, wrong, _ = _read_holdout_box(tmp_path, capsys, "pips", "felt", 16, 16, die="black")
    assert wrong == 0
    assert right >= 15, right     # of 16


def _touching_throws(tmp_path, capsys, style, kind, seed, throws):
    """Enroll a box of the independent renderer through the command line and read ``throws``
    throws of its two dice touching: (readings, the tops thrown)."""
    from tests.bench_scripts import bench_script, colour_dice_box
    hold = bench_script("holdout_colour_dice")
    folder, _ = colour_dice_box(tmp_path, seed, style, kind, 0)
    model_path = tmp_path / f"{style}-{kind}-{seed}.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(model_path)]) == 0
    box = hold.Box.from_seed(seed, style, kind)
    rng = np.random.default_rng([seed, 4477])
    paths, truth = [], []
    for i in range(throws):
        tops = {body: hold.COLOURS[int(rng.integers(6))] for body in hold.DICE}
        path = tmp_path / f"touching-{i}.jpg"
        cv2.imwrite(str(path), box.render(box.throw(rng, tops, touching=True), rng))
        paths.append(str(path))
        truth.append(tops)
    capsys.readouterr()
    assert main(["vision", "read", "colour-dice", "--model", str(model_path), *paths, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()], truth


def test_a_painted_black_die_touching_the_white_one_is_found_with_the_white_die_kept_out(tmp_path, capsys):
    """The thin black frame round faces painted to their edges, touching the white die, made
    one hull with it, and the black die was not found (6 of these 12 throws; 11 read now).
    With the white die found and its place kept out, the frame's pieces joined across half a
    side are the die."""
    readings, truth = _touching_throws(tmp_path, capsys, "painted", "felt", 2, 12)
    black = [r["dice"]["black"] for r in readings]
    assert all(b in (None, t["black"]) for b, t in zip(black, truth)), "no wrong read"
    assert sum(b == t["black"] for b, t in zip(black, truth)) >= 9


def test_a_white_die_touching_the_black_one_on_a_near_white_linen_is_found_by_its_mark(tmp_path, capsys):
    """On a near-white linen the white die touching the black one is not told from the two
    dice's shadows by its body: its hull took them in, or the black die's did (7 of these 12
    throws read; 10 now).  Its top face's mark, with the white frame round it, away from the
    black die's mark, finds it."""
    readings, truth = _touching_throws(tmp_path, capsys, "painted", "linen", 6, 12)
    white = [r["dice"]["white"] for r in readings]
    assert all(w in (None, t["white"]) for w, t in zip(white, truth)), "no wrong read"
    assert sum(w == t["white"] for w, t in zip(white, truth)) >= 9


def test_a_side_face_inside_a_painted_black_frame_is_not_read_for_the_top(tmp_path, capsys):
    """A thin black frame open round the top face but closed round a side face encloses the
    side face only: its colour was read for the top's (2 wrong in these 24 throws, 8 in the
    box's 120).  The top face, in the frame's hull, is much larger than the side face."""
    right, wrong, _ = _read_holdout_box(tmp_path, capsys, "painted", "linen", 22, 24, die="black")
    assert wrong == 0
    assert right >= 21, right     # of 24


def test_a_black_die_on_a_dark_cloth_under_a_dim_lamp_is_told_from_the_cloth(tmp_path, capsys):
    """A dim lamp over a navy felt: the camera's noise made every pixel differ from the table
    shot by 7-9 (the distance of two noisy pixels never cancels), the black die differed by
    14-20 and was lost under a threshold of five times that, and enrollment refused the deck
    ("cannot see the die's body colour").  Smoothed before they are compared, the noise
    cancels."""
    right, wrong, _ = _read_holdout_box(tmp_path, capsys, "pips", "felt", 24, 12)
    assert wrong == 0
    assert right >= 21, right     # of 24


def _draw_card(image, cx, cy, side):
    """A Fun Farm-like card centred at (cx, cy): a white face, a grey rim, an animal drawn in a
    dark outline, and its two dice icons (an orange square and a dark one)."""
    half_w, half_h = int(1.3 * side), int(1.8 * side)
    cv2.rectangle(image, (cx - half_w, cy - half_h), (cx + half_w, cy + half_h), (238, 240, 242), -1)
    cv2.rectangle(image, (cx - half_w, cy - half_h), (cx + half_w, cy + half_h), (150, 150, 150), 2)
    cv2.ellipse(image, (cx, cy + int(0.5 * side)), (int(0.8 * side), int(0.5 * side)), 0, 0, 360, (40, 40, 45), 3)
    s = int(0.35 * side)
    cv2.rectangle(image, (cx - 2 * s, cy - half_h + s), (cx - s // 3, cy - half_h + 3 * s), (30, 140, 240), -1)
    cv2.rectangle(image, (cx + s // 3, cy - half_h + s), (cx + 2 * s, cy - half_h + 3 * s), (40, 40, 40), -1)


def test_a_card_beside_a_lone_die_gives_no_other_die(tmp_path, capsys):
    """One die thrown, the other hidden (under a hand, off the table), a Fun Farm card lying
    beside it or further off: its dice icons are coloured squares on white, like a white die's
    mark, and its art is drawn in dark outlines.  The white die is found by its mark only
    touching a black die that was read, on no part larger than two dice (the card's orange
    square was read as the white die by a step of this change that lacked those checks)."""
    from tests.bench_scripts import bench_script, colour_dice_box
    hold = bench_script("holdout_colour_dice")
    folder, _ = colour_dice_box(tmp_path, 6, "painted", "linen", 0)
    model_path = tmp_path / "m.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(model_path)]) == 0
    box = hold.Box.from_seed(6, "painted", "linen")
    rng = np.random.default_rng([6, 5151])
    paths, present = [], []
    for k in range(12):
        die = "black" if k % 2 == 0 else "white"
        dice = box.throw(rng, {die: "red"})
        image = box.render(dice, rng)
        (bx, by), side = box.top_centre(dice[0]), box.side_px(dice[0])
        h, w = image.shape[:2]
        if k < 4:   # further off: where the die is not
            cx, cy = int(w * 0.25 if bx > w / 2 else w * 0.75), int(h * 0.3 if by > h / 2 else h * 0.7)
        else:       # beside it, 2.2-3.5 sides from its centre
            angle, far = rng.uniform(0, 2 * np.pi), rng.uniform(2.2, 3.5) * side
            cx = int(np.clip(bx + far * np.cos(angle), 2 * side, w - 2 * side))
            cy = int(np.clip(by + far * np.sin(angle), 2 * side, h - 2 * side))
        _draw_card(image, cx, cy, side)
        paths.append(str(tmp_path / f"card-{k}.png"))
        cv2.imwrite(paths[-1], image)
        present.append(die)
    capsys.readouterr()
    assert main(["vision", "read", "colour-dice", "--model", str(model_path), *paths, "--json"]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    # no die is read as the card's orange icon; the die hidden is not read where the die thrown
    # was read (a card beside the black die can still make it "more than one such die", and the
    # white die is then looked for with the black die not kept out: see docs, weak spots)
    for r, die in zip(got, present, strict=True):
        other = "white" if die == "black" else "black"
        assert "orange" not in r["dice"].values(), r
        if r["dice"][die] is not None:
            assert r["dice"][other] is None, r
