"""The slice of real photos (``data/set-ones``) shot again through other cameras
(``bench/other_camera.py``: a warm-lit webcam, an evening table, a hazy lens, a phone's
processing, flickering LEDs, a player's shadow, a camera turned a quarter, a shaken one, a
webcam streaming MJPEG), read with the model enrolled from the original crops: identity does
not hang on the enrollment's camera or light.  The whole dev set through each camera is
measured by ``bench/other_camera.py`` then ``bench/bench_vision.py cards``."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from farmbox.firmware.cli import main
from tests.bench_scripts import bench_script

DATA = Path(__file__).parent / "data" / "set-ones"
#: Per camera, the least exact and the most wrong of the 108 cards (the slice's 54 shot
#: through two cameras of that kind, seeds 3 and 4).  Measured when written: webcam 108 exact,
#: 0 wrong; dim 105, 3 (all in one frame of seed 3); haze (a veil of white light over the
#: frame) 102, 0.  Before the made-up enrollment shots had a lamp's glare: webcam 106, 1; dim
#: 104, 1; haze 92, 11.  With the hue of the colour details (card model 5, 2026-12-04): webcam
#: 108, 0; dim 99, 2 (104, 2 before: five cards of the dim, strongly tinted table unsure);
#: haze 105, 0.
#: A phone sharpening and tone-mapping its frames, a webcam under flickering LEDs, and one with
#: a player's shadow over the table (2026-12-06): 105, 0; 108, 0; 108, 0.
#: The camera turned a quarter, shaken during the exposure, streaming MJPEG at quality 20-40
#: (stop 51): 108, 0; 104, 2; 103, 0.
BOUNDS = {"webcam": (104, 2), "dim": (96, 4), "haze": (97, 3), "phone": (101, 2), "flicker": (104, 2),
          "shadow": (104, 2), "turned": (104, 2), "shaken": (100, 3), "mjpeg": (99, 2)}
#: Per camera, the cards found of the 108.  Under haze the sides of four cards were too faint
#: for the finder's side check (vision/cards/find.py, ``_sides_seen``), and a card with one
#: soft side was lost through the flicker and the shadow: missed, never misread.  Since the
#: check takes a soft edge for one (2026-12-06) all 108 are found under each.
FOUND = {"webcam": 108, "dim": 108, "haze": 107, "phone": 108, "flicker": 107, "shadow": 107, "turned": 108,
         "shaken": 107, "mjpeg": 107}
SEEDS = ("3", "4")


def _other_camera():
    return bench_script("other_camera")


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("set") / "set.npz"
    assert main(["vision", "enroll", "cards", str(DATA / "enroll"), "--model", str(path)]) == 0
    return path


@pytest.mark.parametrize("camera", sorted(BOUNDS))
def test_real_photos_through_another_camera(camera, model, tmp_path):
    exact = wrong = found = 0
    for seed in SEEDS:
        out = tmp_path / f"{camera}-{seed}"
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            assert _other_camera().main([str(DATA), str(out), "--camera", camera, "--seed", seed]) == 0
        labels = json.loads((out / "labels.json").read_text())
        scenes = sorted((out / "scenes").glob("*.jpg"))
        assert len(scenes) == len(labels) == 6
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(["vision", "read", "cards", "--model", str(model), "--json", *map(str, scenes)]) == 0
        for obj in map(json.loads, buffer.getvalue().strip().splitlines()):
            truth = Counter(labels[Path(obj["image"]).name])
            ids = Counter(c["id"] for c in obj["cards"] if c["id"] is not None)
            found += len(obj["cards"])
            exact += sum((truth & ids).values())
            wrong += sum((ids - truth).values())
    assert found >= FOUND[camera]
    least, most = BOUNDS[camera]
    assert exact >= least and wrong <= most, (exact, wrong)


def test_real_photos_framed_through_the_cards_are_not_misread(model, tmp_path):
    """The camera framed tighter than the table (``--camera framed``: each side of the frame
    moved in by up to 30%, through the cards there): a card cut by the frame's edge is not
    found whole, and a part of it in view (its symbol, its blank half) was found and read as a
    card; read beside the frame's whole cards, it is a part.  Measured when written, seeds 5-8
    (24 photos): 68 exact, 0 wrong (1 wrong before: a blank part read as a card); the whole dev
    set through three framings: 18 wrong before, 3 after."""
    exact = wrong = 0
    for seed in ("5", "6", "7", "8"):
        out = tmp_path / f"framed-{seed}"
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            assert _other_camera().main([str(DATA), str(out), "--camera", "framed", "--seed", seed]) == 0
        labels = json.loads((out / "labels.json").read_text())
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(["vision", "read", "cards", "--model", str(model), "--json",
                         *map(str, sorted((out / "scenes").glob("*.jpg")))]) == 0
        for obj in map(json.loads, buffer.getvalue().strip().splitlines()):
            truth = Counter(labels[Path(obj["image"]).name])
            ids = Counter(c["id"] for c in obj["cards"] if c["id"] is not None)
            exact += sum((truth & ids).values())
            wrong += sum((ids - truth).values())
    assert wrong == 0 and exact >= 64, (exact, wrong)
