"""bench/holdout_colour_dice.py, the second, independent colour-dice renderer: it writes the
layout ``farmbox vision enroll colour-dice`` and ``bench/bench_vision.py colour-dice`` read, and
each die's top face shows the colour its label names."""

import ast
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.bench_scripts import bench_script

hold = bench_script("holdout_colour_dice")

#: Two small boxes: the white die on near-white linen with square marks, and five-dot marks on
#: tiles (an even seed: some throws have the dice touching).
BOXES = [("square", "linen", 3), ("pips", "tiles", 4)]
SHOTS, SCENES = 2, 6


@pytest.fixture(scope="module", params=BOXES, ids=lambda b: f"{b[0]}-{b[1]}-{b[2]}")
def rendered(request, tmp_path_factory):
    style, kind, seed = request.param
    folder = tmp_path_factory.mktemp("holdout-cdice") / f"{style}-{kind}-{seed}"
    labels = hold.write_set(folder, seed, style, kind, SCENES, SHOTS, progress=False)
    return folder, labels, hold.Box.from_seed(seed, style, kind)


def _hue(rgb: np.ndarray) -> float:
    """Hue in degrees of one sRGB 0..255 colour."""
    hsv = cv2.cvtColor(np.uint8([[np.clip(rgb, 0, 255)]]), cv2.COLOR_RGB2HSV_FULL)[0, 0]
    return float(hsv[0]) * 360 / 256


def _seen_paints(box) -> dict[str, float]:
    """The hue each paint has in the box's frames: lit by its lamp, through its white balance."""
    out = {}
    for name, paint in box.paints.items():
        lin = np.clip(paint * box.lamp_rgb * box.balance * 0.6, 0, 1)
        out[name] = _hue(hold.SRGB[np.round(lin * 4095).astype(int)])
    return out


def _mark_hue(image: np.ndarray, centre: list[float], side: float) -> float | None:
    """Median hue of the clearly coloured, unglared pixels near a top face's centre (None when
    too few: a glint over the middle)."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    near = np.hypot(xx - centre[0], yy - centre[1]) < 0.08 * side
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV_FULL)[near].astype(float)
    keep = (hsv[:, 1] > 100) & (hsv[:, 2] > 40)  # a glint is pale
    if keep.sum() < 6:
        return None
    angles = hsv[keep, 0] * 2 * np.pi / 256
    return float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) % 360)


def _nearest(hue: float, paints: dict[str, float]) -> str:
    return min(paints, key=lambda c: abs((hue - paints[c] + 180) % 360 - 180))


def test_the_layout_is_what_enrollment_and_the_bench_read(rendered):
    folder, labels, _ = rendered
    enroll = folder / "enroll"
    assert sorted(p.name for p in enroll.iterdir()) == ["black", "table", "white"]
    assert [p.name for p in (enroll / "table").iterdir()] == ["0.jpg"]
    for die in ("white", "black"):
        assert sorted(p.name for p in (enroll / die).iterdir()) == sorted(hold.COLOURS)
        for colour in hold.COLOURS:
            assert sorted(p.name for p in (enroll / die / colour).iterdir()) == ["0.jpg", "1.jpg"]
    scenes = sorted(p.name for p in (folder / "scenes").iterdir())
    assert len(scenes) == SCENES
    assert json.loads((folder / "labels.json").read_text()) == labels
    assert sorted(labels) == scenes
    for truth in labels.values():
        assert set(truth) == {"white", "black"}
        assert set(truth.values()) <= set(hold.COLOURS)
    for path in folder.rglob("*.jpg"):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        assert image is not None and image.shape == (720, 960, 3), path


def test_each_top_face_shows_the_labelled_colour(rendered):
    folder, labels, box = rendered
    paints = _seen_paints(box)
    where = json.loads((folder / "centres.json").read_text())
    assert len(where) == 2 * 6 * SHOTS + SCENES
    for name, truth in labels.items():  # the labels and the dice drawn agree
        assert {die: d["top"] for die, d in where[f"scenes/{name}"].items()} == truth
    checked, wrong = 0, []
    for image_name, dice in where.items():
        image = cv2.imread(str(folder / image_name))
        for die, d in dice.items():
            x, y = d["centre"]
            assert 0 < x < 960 and 0 < y < 720 and 40 < d["side_px"] < 110
            hue = _mark_hue(image, d["centre"], d["side_px"])
            if hue is None:
                continue
            checked += 1
            if _nearest(hue, paints) != d["top"]:
                wrong.append((image_name, die, d["top"], round(hue)))
    assert checked >= 0.85 * (2 * 6 * SHOTS + 2 * SCENES)
    assert wrong == []


def test_touching_dice_touch_and_do_not_overlap():
    box = hold.Box.from_seed(2, "painted", "felt")
    rng = np.random.default_rng(7)
    dense = hold.surface_points(box.half, box.bevel, 41)
    for touching in (True, False):
        for _ in range(15):
            first, second = box.throw(rng, {"white": "red", "black": "blue"}, touching=touching)
            gap = hold.rounded_box_sdf(first.local(second.centre + dense @ second.rot.T),
                                       box.half, box.bevel).min()
            if touching:
                assert -0.005 < gap < 0.02, gap
            else:
                assert gap > 0.3 * box.edge
            assert box.in_view(first) and box.in_view(second)


def test_it_shares_no_code_with_the_readers_or_their_renderer():
    tree = ast.parse(Path(hold.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    # counts: bench/counts.py, the bench scripts' command-line counts (no reader's code)
    assert imported <= {"__future__", "argparse", "collections", "json", "sys", "dataclasses", "pathlib", "cv2", "numpy",
                        "counts"}
    assert "farmbox" not in Path(hold.__file__).with_name("counts.py").read_text()


def test_cards_lie_round_the_same_throws_in_view_and_off_the_dice(tmp_path):
    """``--cards``: a deck enrolled one card at a time on the table (and the empty table), 1-4 cards round each
    throw, none under a die (its foot and shadow), all in view; the throws are those of the
    set without cards (the cards take their own random numbers)."""
    plain = hold.write_set(tmp_path / "plain", 4, "pips", "tiles", 4, 1, progress=False)
    with_cards = hold.write_set(tmp_path / "cards", 4, "pips", "tiles", 4, 1, progress=False, cards=3)
    assert with_cards == plain
    where = json.loads((tmp_path / "cards" / "centres.json").read_text())
    for name in plain:
        laid = where[f"scenes/{name}"]["cards"]
        assert 1 <= len(laid) <= hold.MOST_CARDS and set(laid) <= {"card-00", "card-01", "card-02"}
        assert where[f"scenes/{name}"]["black"] == json.loads(
            (tmp_path / "plain" / "centres.json").read_text())[f"scenes/{name}"]["black"]
    shots = sorted(p.relative_to(tmp_path / "cards" / "enroll-cards").as_posix()
                   for p in (tmp_path / "cards" / "enroll-cards").glob("*/*.jpg"))
    assert shots == [f"card-0{k}/{j}.jpg" for k in range(3) for j in range(hold.CARD_SHOTS)] + ["table/0.jpg"]
    box = hold.Box.from_seed(4, "pips", "tiles")
    rng = np.random.default_rng(9)
    for _ in range(20):
        dice = box.throw(rng, {"white": "red", "black": "blue"})
        cards = box.lay_cards(rng, dice, 3, hold.MOST_CARDS)
        assert cards
        for c in cards:
            assert all(c.gap(d.centre[0], d.centre[1]) >= 1.2 * box.edge for d in dice)
            q = box.project(c.corners())
            assert (q > 4).all() and (q[:, 0] < hold.SIZE[0] - 4).all() and (q[:, 1] < hold.SIZE[1] - 4).all()


def test_a_throw_written_alone_is_the_throw_of_the_whole_set(rendered, tmp_path):
    """``only``: the throws left out are thrown and not rendered, their random numbers taken
    as rendering takes them, so a throw written alone is the whole set's, byte for byte (a
    test reading one throw of a box renders that throw alone)."""
    folder, labels, _ = rendered
    style, kind, seed = folder.name.split("-")
    alone = tmp_path / "alone"
    got = hold.write_set(alone, int(seed), style, kind, SCENES, SHOTS, progress=False, only={1, SCENES - 1})
    names = ["throw-0001.jpg", f"throw-{SCENES - 1:04d}.jpg"]
    assert sorted(p.name for p in (alone / "scenes").iterdir()) == names
    assert got == {n: labels[n] for n in names}
    for n in names:
        assert (alone / "scenes" / n).read_bytes() == (folder / "scenes" / n).read_bytes(), n
    where = json.loads((alone / "centres.json").read_text())
    assert sorted(k for k in where if k.startswith("scenes/")) == [f"scenes/{n}" for n in names]
