"""The slice of real photos (``data/set-ones``) shot again through other cameras
(``bench/other_camera.py``: a warm-lit webcam, an evening table), read with the model
enrolled from the original crops: identity does not hang on the enrollment's camera or light.
The whole dev set through each camera is measured by ``bench/other_camera.py`` then
``bench/bench_vision.py cards``."""

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
#: Per camera, the least exact and the most wrong of the 54 cards.  Measured when written
#: (seed 3): webcam 49 exact, 1 wrong; dim 49, 1 wrong; haze (a veil of white light over the
#: frame) 47 exact, 5 wrong -- before the veil was taken away: 24 exact, 13 wrong.
BOUNDS = {"webcam": (46, 2), "dim": (46, 2), "haze": (44, 6)}
#: Per camera, the cards found of the 54.  Under haze the sides of 2 cards are too faint for
#: the finder's side check (vision/cards/find.py, ``_sides_seen``), which costs the whole haze
#: set 5 of 348 cards found where it was 2; they are missed, never misread.
FOUND = {"webcam": 54, "dim": 54, "haze": 52}


def _other_camera():
    return bench_script("other_camera")


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("set") / "set.npz"
    assert main(["vision", "enroll", "cards", str(DATA / "enroll"), "--model", str(path)]) == 0
    return path


@pytest.mark.parametrize("camera", sorted(BOUNDS))
def test_real_photos_through_another_camera(camera, model, tmp_path):
    out = tmp_path / camera
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert _other_camera().main([str(DATA), str(out), "--camera", camera, "--seed", "3"]) == 0
    labels = json.loads((out / "labels.json").read_text())
    scenes = sorted((out / "scenes").glob("*.jpg"))
    assert len(scenes) == len(labels) == 6
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["vision", "read", "cards", "--model", str(model), "--json", *map(str, scenes)]) == 0
    exact = wrong = found = 0
    for obj in map(json.loads, buffer.getvalue().strip().splitlines()):
        truth = Counter(labels[Path(obj["image"]).name])
        ids = Counter(c["id"] for c in obj["cards"] if c["id"] is not None)
        found += len(obj["cards"])
        exact += sum((truth & ids).values())
        wrong += sum((ids - truth).values())
    assert found >= FOUND[camera]
    least, most = BOUNDS[camera]
    assert exact >= least and wrong <= most, (exact, wrong)
