"""Dice from a box whose camera leans (up to 12 degrees) behind a distorting lens, drawn by the
second, independent renderer (``bench/holdout_dice.py``: ray-cast dodecahedra, its own art
and tables), read through the CLI as the bench does:

* a clearly matched top face found further from where a straight-down camera puts it is a
  flat die, read, not "die tilted";
* a wide lens that makes dice at the frame's edges a fifth larger and drawn out along the
  radius: the size and outline expected at each spot are learned at enrollment, and the top
  face is undistorted before it is compared (before that, this box read 24% of its throws);
* a red die with thin red rims on a pink cloth behind a leaning camera: the rims parted by
  the stickers are joined into one die (before: enrollment failed, "the red die is not found
  by its colour"), and where the top faces really lie is learned (before: 45% read);
* thin line drawings on cream stickers smaller than the face: read through a disc inside the
  sticker, chosen at enrollment because the photos read each other by a far larger lead
  through it (before: every throw refused, the sticker's edge outweighing the lines);
* the same behind a camera leaning 10.5 degrees: where the top faces lie is fitted from every
  perspective tried, not only the one where the faces agreed best before they were looked for
  (before: the line art's geometry came out far off, every throw refused);
* the same on stickers smaller still, pictures too small for this camera to tell apart: the
  enrollment's own photos are read wrong by clear leads, and the least lead accepted of the
  faces they were read as is set above them, so such throws are refused, not misread (before:
  3 wrong in 120), while the other faces are read (before stop 61, the lead was raised for
  every face and nearly every throw refused);
* stamp art on a pink cloth behind a leaning camera, some photos blurred: the usual disc read
  three enrollment photos wrong where the geometry learned from the faces' agreement put
  them, and its own least lead refused everything (stop 55 took another disc; since stop 61
  the geometry is fitted to where the reader finds the faces, and every photo reads right).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from tests.bench_scripts import bench_script


@pytest.fixture(scope="module")
def leaning_box(tmp_path_factory) -> Path:
    """One mounted box of the independent renderer (seed 3: stamp art on felt, the camera
    leaning), its enrollment shots and 10 throws."""
    folder = tmp_path_factory.mktemp("holdout") / "stamp-felt"
    bench_script("holdout_dice").write_set(folder, 3, "stamp", "felt", scenes=10, odd=2,
                                      progress=False)
    return folder


@pytest.fixture(scope="module")
def wide_lens_box(tmp_path_factory) -> Path:
    """Seed 1: stamp art on wood behind a wide lens (dice look about 0.9 times their size at
    the centre and 1.2 times at the edges), its enrollment shots and 12 throws."""
    folder = tmp_path_factory.mktemp("holdout") / "stamp-wood"
    bench_script("holdout_dice").write_set(folder, 1, "stamp", "wood", scenes=12, odd=2, progress=False)
    return folder


@pytest.fixture(scope="module")
def red_on_pink_box(tmp_path_factory) -> Path:
    """Seed 5: stamp art on a pink cloth, the red die's own colour only thin rims."""
    folder = tmp_path_factory.mktemp("holdout") / "stamp-cloth"
    bench_script("holdout_dice").write_set(folder, 5, "stamp", "cloth", scenes=12, odd=2, progress=False)
    return folder


@pytest.fixture(scope="module")
def line_art_box(tmp_path_factory) -> Path:
    """Seed 201: the animals' outlines in thin dark lines on cream pentagonal stickers a little
    over half the face, on wood; 12 throws."""
    folder = tmp_path_factory.mktemp("holdout") / "line-wood"
    bench_script("holdout_dice").write_set(folder, 201, "line", "wood", scenes=12, odd=2, progress=False)
    return folder


@pytest.fixture(scope="module")
def steep_line_art_box(tmp_path_factory) -> Path:
    """Seed 311: line art on felt behind a camera leaning 10.5 degrees with a wide lens (top
    faces seen up to a third of the die's radius off its silhouette's centre); 12 throws."""
    folder = tmp_path_factory.mktemp("holdout") / "line-felt-steep"
    bench_script("holdout_dice").write_set(folder, 311, "line", "felt", scenes=12, odd=0, progress=False)
    return folder


@pytest.fixture(scope="module")
def tiny_line_art_box(tmp_path_factory) -> Path:
    """Seed 301: line art on wood, the stickers' corners at 0.55 of the face's radius; the
    first 28 throws (the 28th a red rabbit read as the pig by a lead of 0.19 while the least
    lead accepted stopped at 0.12 whatever the enrollment's wrong reads)."""
    folder = tmp_path_factory.mktemp("holdout") / "line-wood-small"
    bench_script("holdout_dice").write_set(folder, 301, "line", "wood", scenes=28, odd=0, progress=False,
                                      sticker=0.55)
    return folder


@pytest.fixture(scope="module")
def blurred_cloth_box(tmp_path_factory) -> Path:
    """Seed 41: stamp art on a pink cloth behind a leaning camera, several enrollment photos
    soft; 10 throws."""
    folder = tmp_path_factory.mktemp("holdout") / "stamp-cloth-41"
    bench_script("holdout_dice").write_set(folder, 41, "stamp", "cloth", scenes=10, odd=0, progress=False)
    return folder


def _read_set(folder: Path, tmp_path: Path) -> tuple[int, int, list[tuple[str, object, dict]]]:
    """Enroll ``folder/enroll`` and read every scene through the CLI: (exact, wrong, reads)."""
    from farmbox.firmware.cli import main as farmbox

    model = tmp_path / "dice.npz"
    assert farmbox(["vision", "enroll", "dice", str(folder / "enroll"), "--model", str(model)]) == 0
    labels = json.loads((folder / "labels.json").read_text())
    scenes = sorted(labels)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = farmbox(["vision", "read", "dice", "--model", str(model), "--json",
                        *(str(folder / "scenes" / s) for s in scenes)])
    assert code == 0
    reads = [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]
    assert len(reads) == len(scenes)
    exact = wrong = 0
    for name, read in zip(scenes, reads):
        truth = labels[name]
        if isinstance(truth, list):
            exact += read["faces"] == truth
            wrong += read["faces"] is not None and read["faces"] != truth
        else:
            assert read["faces"] is None, (name, read)  # a die partly out of the frame
    return exact, wrong, [(n, labels[n], r) for n, r in zip(scenes, reads)]


def test_a_leaning_camera_reads_flat_dice_and_never_misreads(leaning_box, tmp_path):
    exact, wrong, reads = _read_set(leaning_box, tmp_path)
    assert not [r for _, truth, r in reads if isinstance(truth, list) and r["reason"] == "die tilted"]
    assert wrong == 0 and exact == 10


def test_a_wide_lens_is_learned_at_enrollment(wide_lens_box, tmp_path):
    from farmbox.vision.dice.model import DiceModel

    exact, wrong, reads = _read_set(wide_lens_box, tmp_path)
    assert wrong == 0 and exact >= 11, [(n, r) for n, t, r in reads if r["faces"] != t]
    model = DiceModel.load(tmp_path / "dice.npz")
    shape = (720, 960)
    centre, corner = model.size_at(shape, (480, 360)), model.size_at(shape, (40, 40))
    assert corner > 1.15 * centre  # learned from where the enrollment dice lay
    drawn = [np.linalg.svd(model.stretch_at(shape, p), compute_uv=False) for p in ((40, 40), (480, 360))]
    assert drawn[0][0] / drawn[0][1] > 1.15 > drawn[1][0] / drawn[1][1]


def test_a_red_die_on_a_pink_cloth_behind_a_leaning_camera(red_on_pink_box, tmp_path):
    exact, wrong, reads = _read_set(red_on_pink_box, tmp_path)
    assert wrong == 0 and exact >= 11, [(n, r) for n, t, r in reads if r["faces"] != t]


def test_thin_lines_on_a_small_sticker_are_read_through_a_disc_inside_it(line_art_box, wide_lens_box, tmp_path):
    from farmbox.vision.dice.enroll import USUAL_DISCS, enroll_folder
    from farmbox.vision.dice.model import DiceModel

    exact, wrong, reads = _read_set(line_art_box, tmp_path)
    assert wrong == 0 and exact >= 11, [(n, r) for n, t, r in reads if r["faces"] != t]
    assert DiceModel.load(tmp_path / "dice.npz").rho < min(USUAL_DISCS)
    # art that fills its round sticker keeps the usual disc
    assert enroll_folder(wide_lens_box / "enroll").rho in USUAL_DISCS


def test_pictures_too_small_to_tell_apart_are_refused_not_misread(tiny_line_art_box, tmp_path, capsys):
    from farmbox.vision.dice.enroll import MARGIN_RANGE
    from farmbox.vision.dice.faces import FACES
    from farmbox.vision.dice.model import DiceModel

    exact, wrong, reads = _read_set(tiny_line_art_box, tmp_path)
    assert wrong == 0, [(n, t, r) for n, t, r in reads if r["faces"] not in (None, t)]
    # a read of a face that enrollment photos of other faces were read as must lead by more
    # than they did: the pig (a fox's photo read as it) past the usual range and past the 0.19
    # by which the 28th throw's red rabbit leads as the pig
    model = DiceModel.load(tmp_path / "dice.npz")
    err = capsys.readouterr().err
    assert "it reads as the pig" in err  # and the owner is told which photos are weak
    assert model.margin_for("pig") > 0.19 > MARGIN_RANGE[1]
    # the faces no photo was read as keep the usual least lead, and their throws are read
    # (until stop 61 the raised lead held for every face: 1 of these 28 throws was read)
    kept = [f for f in FACES if f"it reads as the {f}" not in err]
    assert kept and all(model.margin_for(f) == model.min_margin <= MARGIN_RANGE[1] for f in kept)
    assert exact >= 20, [(n, r["reason"]) for n, t, r in reads if r["faces"] != t]  # 24 of 28


def test_thin_lines_behind_a_steep_camera_are_found_where_the_lean_puts_them(steep_line_art_box, tmp_path):
    from farmbox.vision.dice.enroll import USUAL_DISCS
    from farmbox.vision.dice.model import DiceModel

    exact, wrong, reads = _read_set(steep_line_art_box, tmp_path)
    # the discs inside the stickers took the perspective where the faces agreed best before
    # they were looked for (1.08-1.12; the same box in stamp art learns 1.045-1.053): their
    # photos read each other no better than the usual disc's, which was kept, and every throw
    # was refused.  Fitted from every start, the smallest disc's learns 1.051 and is chosen.
    model = DiceModel.load(tmp_path / "dice.npz")
    assert model.rho < min(USUAL_DISCS) and 1.03 <= model.perspective <= 1.07
    # 9 of the 12 read since the lean's look is undone (7 at stop 54), 11 since the geometry is
    # fitted to where the reader finds the faces and a face's own least lead is raised only by
    # photos read as it (stop 61; over the box's 120 throws 89 read and 0 wrong, against 72
    # and 2 wrong: red sheep read as the pig)
    assert wrong == 0 and exact >= 10, [(n, r["reason"]) for n, t, r in reads if r["faces"] != t]
    # the top faces' look, learned from the photos' sizes, is the camera's: undone, a face is
    # left drawn out by less than half what the camera draws it (the lens's stretch alone, the
    # undoing before stop 60, left 0.075 of 0.082)
    look = bench_script("look_check")
    points = look.looks(bench_script("holdout_dice").Box.from_seed(311, "line", "felt"))
    seen = float(np.mean([look.drawn(m) for _, m in points]))
    left = float(np.mean([look.drawn(np.linalg.inv(model.stretch_at((720, 960), p)) @ m) for p, m in points]))
    assert left < 0.5 * seen and seen > 0.06, (seen, left)


def test_blurred_photos_behind_a_leaning_camera_are_read_where_the_faces_are_found(blurred_cloth_box, tmp_path):
    from farmbox.vision.dice.enroll import USUAL_DISCS
    from farmbox.vision.dice.model import DiceModel

    exact, wrong, reads = _read_set(blurred_cloth_box, tmp_path)
    # stop 55: the usual disc (0.46) read 3 of the 30 photos wrong by up to 0.25, asked a lead
    # of 0.38 of every face and refused all 10 throws (the smallest disc was then taken:
    # ``chosen_disc``).  Since stop 61 the camera's geometry is fitted to where the reader
    # finds the photos' faces, and the usual disc reads all 30 photos right
    assert wrong == 0 and exact >= 9, [(n, r) for n, t, r in reads if r["faces"] != t]
    model = DiceModel.load(tmp_path / "dice.npz")
    assert model.rho in USUAL_DISCS and not model.face_margin.any()
