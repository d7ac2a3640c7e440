"""The model file: small, versioned, no pickle, clear errors."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from farmbox.vision.dice.model import VERSION, DiceModel


def test_round_trip(model, tmp_path):
    path = tmp_path / "m.npz"
    model.save(path)
    again = DiceModel.load(path)
    assert np.allclose(again.templates, model.templates, atol=2e-3)  # stored as float16
    assert again.min_score == model.min_score and again.perspective == model.perspective
    assert path.stat().st_size < 600_000  # two scales of descriptor (version 3 on)
    assert [p.name for p in tmp_path.iterdir()] == ["m.npz"]  # no temp file left behind


def test_no_pickles_inside(model_path):
    with np.load(model_path, allow_pickle=False) as data:
        assert all(data[k].dtype != object for k in data.files)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        DiceModel.load(tmp_path / "nope.npz")


def test_corrupt_file(tmp_path, model_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(model_path.read_bytes()[:300])
    with pytest.raises(ValueError, match="corrupt"):
        DiceModel.load(bad)
    bad.write_text("hello")
    with pytest.raises(ValueError, match="corrupt|not a dice model"):
        DiceModel.load(bad)


def _rewrite(src, dst, **changes):
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(changes)
    for k, v in list(arrays.items()):
        if v is None:
            del arrays[k]
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    dst.write_bytes(buf.getvalue())


def test_other_version(tmp_path, model_path):
    old = tmp_path / "old.npz"
    _rewrite(model_path, old, version=np.array(VERSION + 1))
    with pytest.raises(ValueError, match=f"version {VERSION + 1}.*enroll the dice again"):
        DiceModel.load(old)


def test_other_kind_and_missing_array(tmp_path, model_path):
    other = tmp_path / "cards.npz"
    _rewrite(model_path, other, kind=np.array("farmbox-cards"))
    with pytest.raises(ValueError, match="not a dice model"):
        DiceModel.load(other)
    holed = tmp_path / "holed.npz"
    _rewrite(model_path, holed, templates=None)
    with pytest.raises(ValueError, match="field .templates. is missing"):
        DiceModel.load(holed)


def test_save_into_missing_folder_leaves_nothing(model, tmp_path):
    with pytest.raises(OSError):
        model.save(tmp_path / "no" / "such" / "m.npz")
    assert list(tmp_path.iterdir()) == []


def test_zip_is_plain_npz(model_path):
    assert zipfile.is_zipfile(model_path)


@pytest.mark.parametrize("field,value,why", [
    ("perspective", np.array(float("nan")), "perspective"),
    ("rho", np.array(7.0), "rho"),
    ("min_margin", np.array([0.1, 0.2]), "min_margin"),
    ("templates", lambda a: a[:, :3], "templates"),
    ("template_face", lambda a: a + 99, "template_face"),
    ("template_die", lambda a: a[:-1], "template_die"),
    ("densities", lambda a: -a, "densities"),
    ("frame_size", np.array([960, 0]), "frame_size"),
    ("die_area", np.array([float("inf"), 10.0]), "die_area"),
    ("size_map", np.array([0.1, 0.0, 0.0, 0.0]), "size_map"),
    ("size_map", np.array([1.0, 0.0]), "size_map"),
    ("elongation_map", np.array([0.5, 0.0]), "elongation_map"),
    ("elongation_map", np.array([1.1, float("nan")]), "elongation_map"),
    ("top_shift", np.array([0.9, 0.0]), "top_shift"),
    ("face_margin", np.array([0.1, 0.2]), "face_margin"),
    ("face_margin", lambda a: a - 1, "face_margin"),
    ("table_chroma", lambda a: a.astype(np.float32), "table_chroma"),
    ("table_chroma", np.zeros((4, 4), np.uint8), "table_chroma"),
    ("version", np.array(5), f"version 5, this farmbox reads version {VERSION}: enroll the dice again"),
    ("version", np.array(0), "version 0.*enroll the dice again"),
    ("version", np.array(2), f"version 2, this farmbox reads version {VERSION}: enroll the dice again"),
])
def test_every_field_is_checked_and_named(tmp_path, model_path, field, value, why):
    with np.load(model_path, allow_pickle=False) as z:
        current = np.array(z[field])
    bad = tmp_path / "bad.npz"
    _rewrite(model_path, bad, **{field: value(current) if callable(value) else value})
    with pytest.raises(ValueError, match=why) as e:
        DiceModel.load(bad)
    assert str(bad) in str(e.value) and "\n" not in str(e.value)
