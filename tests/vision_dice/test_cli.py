"""`farmbox vision enroll dice` and `farmbox vision read dice`."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from farmbox.firmware.cli import main
from farmbox.vision.cards import read_image as cards_image
from farmbox.vision.colour_dice import read_image as colour_dice_image
from farmbox.vision.files import VisionInputError
from farmbox.vision.render.dice import render_scene


def test_enroll_then_read_json(samples, setup, tmp_path, capsys):
    model = tmp_path / "dice.npz"
    assert main(["vision", "enroll", "dice", str(samples), "--model", str(model)]) == 0
    assert model.is_file()
    assert "enrolled 20 photos" in capsys.readouterr().out
    paths = []
    truths = []
    for seed, opts in ((901, {}), (902, {"hidden": "red"})):
        image, truth = render_scene(seed, setup=setup, **opts)
        path = tmp_path / f"roll{seed}.jpg"
        cv2.imwrite(str(path), image)
        paths.append(path)
        truths.append(truth)
    assert main(["vision", "read", "dice", "--model", str(model), *map(str, paths), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    objs = [json.loads(line) for line in lines]
    for obj, path in zip(objs, paths):
        assert set(obj) == {"image", "faces", "confidence", "reason"}
        assert obj["image"] == str(path) and 0.0 <= obj["confidence"] <= 1.0
    assert objs[0]["faces"] in (list(truths[0]["faces"]), None)
    assert objs[1]["faces"] is None and objs[1]["reason"] == "one die hidden"


def test_read_plain_text(model_path, setup, tmp_path, capsys):
    image, truth = render_scene(903, setup=setup)
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), image)
    assert main(["vision", "read", "dice", "--model", str(model_path), str(path)]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"{path}: ") and ("unsure" in out or ",".join(truth["faces"]) in out)


def test_unreadable_image_is_exit_2(model_path, tmp_path, capsys):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\x00garbage")
    assert main(["vision", "read", "dice", "--model", str(model_path), str(bad), "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"farmbox vision: error: cannot read image {bad}: not an image"]


def test_a_folder_given_as_an_image_is_exit_2_naming_it(model_path, tmp_path, capsys):
    folder = tmp_path / "photos"
    folder.mkdir()
    assert main(["vision", "read", "dice", "--model", str(model_path), str(folder), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [f"farmbox vision: error: cannot read image {folder}: a folder, not an image file"]


@pytest.mark.parametrize("kind", ["dice", "cards", "colour-dice"])
def test_a_model_path_that_cannot_be_written_is_refused_before_enrolling(kind, tmp_path, capsys):
    samples = tmp_path / "samples"
    (samples / "rabbit").mkdir(parents=True)
    for model, why in ((tmp_path / "no" / "such" / "m.npz", f"no folder {tmp_path / 'no' / 'such'}"),
                       (samples, "it is a folder")):
        assert main(["vision", "enroll", kind, str(samples), "--model", str(model)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.strip().splitlines() == [
            f"farmbox vision: error: cannot write the model to {model}: {why}"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["rabbit", "samples"]


def test_bad_model_is_exit_2(tmp_path, capsys):
    model = tmp_path / "m.npz"
    model.write_text("not a model")
    image = tmp_path / "x.png"
    cv2.imwrite(str(image), render_scene(1)[0])
    assert main(["vision", "read", "dice", "--model", str(model), str(image)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "dice model" in err[0] and "corrupt" in err[0]


def test_enroll_bad_folder_is_exit_2_and_writes_nothing(tmp_path, capsys):
    model = tmp_path / "m.npz"
    assert main(["vision", "enroll", "dice", str(tmp_path / "none"), "--model", str(model)]) == 2
    assert "samples folder" in capsys.readouterr().err
    assert not model.exists()


@pytest.mark.parametrize("faces, reason, line", [
    (("rabbit", "fox"), "", "a.jpg: rabbit,fox (confidence 0.91)"),
    (None, "unsure", "a.jpg: unsure (confidence 0.91)"),
    (None, "die out of view", "a.jpg: unsure: die out of view (confidence 0.91)"),
])
def test_the_plain_text_line_names_the_reason_once(faces, reason, line):
    from pathlib import Path

    from farmbox.firmware.cli.vision_dice import text_line
    from farmbox.vision.dice.reader import DiceReading

    assert text_line(Path("a.jpg"), DiceReading(faces, 0.912, reason)) == line


def _jpeg(image) -> bytes:
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    return buf.tobytes()


def _with_thumbnail(whole: bytes, thumbnail: bytes) -> bytes:
    """``whole`` with an APP1 segment holding a complete small JPEG (as an EXIF thumbnail
    sits) right after its SOI marker."""
    body = b"Exif\x00\x00" + thumbnail
    return whole[:2] + b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body + whole[2:]


def test_a_jpeg_cut_short_is_refused_and_a_whole_one_read(model_path, setup, tmp_path, capsys):
    """libjpeg decodes a cut-short file's first part and paints the rest grey; the reader
    would read half a table as the table.  A whole file with a thumbnail (a JPEG of its own,
    ending with its own end marker) and data appended after the end (a phone's motion photo)
    is read."""
    image, _ = render_scene(904, setup=setup)
    whole = _with_thumbnail(_jpeg(image), _jpeg(cv2.resize(image, (160, 120)))) + b"\x00ftypmp42" + b"\xff\xd8" * 8
    good = tmp_path / "whole.jpg"
    good.write_bytes(whole)
    assert main(["vision", "read", "dice", "--model", str(model_path), str(good), "--json"]) == 0
    capsys.readouterr()
    end = whole.index(b"\x00ftyp")
    for cut in (end // 2, end - 1):
        short = tmp_path / f"cut{cut}.jpg"
        short.write_bytes(whole[:cut])
        assert cv2.imread(str(short)) is not None      # the decoder alone takes it
        assert main(["vision", "read", "dice", "--model", str(model_path), str(short), "--json"]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.strip().splitlines() == [
            f"farmbox vision: error: cannot read image {short}: the JPEG file is cut short (its end is missing)"]
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert main(["vision", "read", "dice", "--model", str(model_path), str(empty)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"farmbox vision: error: cannot read image {empty}: an empty file"]
    # the card and colour-dice readers load their images the same way
    for read_image in (cards_image, colour_dice_image):
        for path, problem in ((short, "cut short"), (empty, "an empty file")):
            with pytest.raises(VisionInputError, match=problem):
                read_image(path)
        assert read_image(good).shape == image.shape


def test_an_image_file_too_large_to_read_whole_is_refused(model_path, setup, tmp_path, capsys, monkeypatch):
    from farmbox.vision import files

    image, _ = render_scene(905, setup=setup)
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), image)
    assert main(["vision", "read", "dice", "--model", str(model_path), str(path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(files, "MAX_FILE_BYTES", path.stat().st_size - 1)
    assert main(["vision", "read", "dice", "--model", str(model_path), str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"farmbox vision: error: cannot read image {path}: a file of ")
    assert "is too large" in err[0]


def test_a_grey_scale_image_is_refused_by_each_reader_and_a_blank_one_read(model_path, setup, tmp_path, capsys):
    """The readers tell the two dice, a SET card's colour and a Fun Farm card's marks apart by
    their colours: in a grey-scale image a card would be named by its shape alone, with full
    confidence (a green card read as the purple one).  Such a file (or a colour file of three
    equal channels, a monochrome camera's) is refused in one line, exit 2, by each reader and
    each enrollment; the same frame in colour is read, and a blank frame, one flat shade, is
    read as a table with nothing on it."""
    image, _ = render_scene(905, setup=setup)
    grey_file, grey_copy, colour, blank = (tmp_path / n for n in ("grey.png", "grey3.png", "colour.png", "blank.png"))
    cv2.imwrite(str(grey_file), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    cv2.imwrite(str(grey_copy), cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR))
    cv2.imwrite(str(colour), image)
    cv2.imwrite(str(blank), np.full_like(image, 90))
    for path in (grey_file, grey_copy):
        assert main(["vision", "read", "dice", "--model", str(model_path), str(path), "--json"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.strip().splitlines() == [
            f"farmbox vision: error: cannot read image {path}: it has no colour (a grey-scale image), and the "
            f"readers tell cards and dice apart by their colours"]
        for loader in (cards_image, colour_dice_image):
            with pytest.raises(VisionInputError, match="it has no colour"):
                loader(path)
    for path in (colour, blank):
        assert main(["vision", "read", "dice", "--model", str(model_path), str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["image"] == str(path)
    samples = tmp_path / "deck" / "one-card"
    samples.mkdir(parents=True)
    cv2.imwrite(str(samples / "shot.png"), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(samples.parent), "--model", str(model)]) == 2
    assert "it has no colour" in capsys.readouterr().err and not model.exists()


def test_enrolling_names_a_photo_of_another_face_weak(samples, tmp_path, capsys):
    """The CLI ends with the check of its own photos, as the box's guided enrollment does: a
    sheep put among the rabbits is named, with what it reads as."""
    import shutil

    folder = tmp_path / "SAMPLES"
    shutil.copytree(samples, folder)
    rabbit = sorted((folder / "rabbit").iterdir())[0]
    shutil.copyfile(sorted((folder / "sheep").iterdir())[0], rabbit)
    assert main(["vision", "enroll", "dice", str(folder), "--model", str(tmp_path / "dice.npz")]) == 0
    err = capsys.readouterr().err
    weak = [line for line in err.splitlines() if line.startswith("weak photo")]
    assert f"weak photo {rabbit}: it reads as the sheep (shoot it again with the rabbit up)" in weak
    # the photos as taken: none named
    assert main(["vision", "enroll", "dice", str(samples), "--model", str(tmp_path / "good.npz")]) == 0
    assert "weak photo" not in capsys.readouterr().err
