"""``farmbox demo``: the whole box on simulated hardware, played by the bot."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageSequence

from farmbox.firmware.box.i18n import translator
from farmbox.firmware.cli import main
from farmbox.firmware.games.superfarmer.demo import DemoCamera, demo_dice_model, demo_model_key
from farmbox.firmware.games.superfarmer.screens import progress
from farmbox.hw.camera import CameraGone
from farmbox.vision.dice import DiceModel


def test_demo_plays_a_game_streams_frames_and_saves_a_gif(tmp_path, capsys):
    gif = tmp_path / "demo.gif"
    assert main(["demo", "--fast", "--no-camera", "--players", "2", "--seed", "3",
                 "--gif", str(gif)]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith("farmer ") and " won after " in last and str(gif) in last
    assert "▀" in out and "█" in out  # the OLED frames, as half-blocks
    frames = int(last.split(";")[1].split()[0])
    with Image.open(gif) as im:
        n = sum(1 for _ in ImageSequence.Iterator(im))
        assert im.size == (384, 192)
    assert n == frames > 20
    assert not list(tmp_path.glob("*.tmp"))


def test_demo_bad_arguments_are_one_line_exit_2(tmp_path, capsys):
    assert main(["demo", "--players", "9", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "chess", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "--gif", str(tmp_path / "no" / "x.gif")]) == 2
    assert main(["demo", "funfarm", "--players", "11", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "funfarm", "--players", "1", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "cardgame", "--players", "7", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "cardgame", "--variant", "compact", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "--variant", "compact", "--players", "1",
                 "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 8 and all(line.startswith("farmbox demo: error:") for line in err)
    assert "'chess'" in err[1] and "2-10 for funfarm, got 11" in err[3]
    assert "2-10 for funfarm, got 1" in err[4] and "2-6 for cardgame, got 7" in err[5]
    assert "superfarmer demo only" in err[6] and "compact is for 2-6" in err[7]
    assert not (tmp_path / "x.gif").exists()


def test_camera_is_the_default_enrolled_once_and_cached(tmp_path, capsys, monkeypatch):
    """`farmbox demo`: every roll a rendered camera frame read by the real reader; the model
    is enrolled on the first run (progress on stderr and on the OLED) and cached."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    gif = tmp_path / "solo.gif"
    assert main(["demo", "--fast", "--quiet", "--players", "1", "--seed", "4",
                 "--gif", str(gif)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("farmer 1 won after ")
    assert "enrolling the demo dice" in err and "timed out" not in err
    cached = list((tmp_path / "cache" / "farmbox").glob("demo-dice-*.npz"))
    assert [p.name for p in cached] == [f"demo-dice-{demo_model_key()}.npz"]
    assert not list((tmp_path / "cache" / "farmbox").glob(".*"))  # no temp file left
    with Image.open(gif) as im:  # the OLED's progress screen comes first
        first = im.convert("L")
    expected = progress(translator("en"), "ENROLLING DICE", 1 / 60).convert("L")
    assert first.tobytes() == expected.resize((384, 192), 0).tobytes()
    assert gif_frames(gif) == int(out.split(";")[1].split()[0])
    # A second run finds the model in the cache: no enrollment.
    shown = []
    path, was_cached = demo_dice_model(tmp_path, shown.append)
    assert (path, was_cached, shown) == (cached[0], True, [])
    # A damaged cache file is enrolled again and replaced, with progress.
    cached[0].write_bytes(b"not a model")
    path, was_cached = demo_dice_model(tmp_path, shown.append, progress=False)
    assert (path, was_cached) == (cached[0], False)
    assert shown == sorted(shown) and shown[-1] == 1.0 and len(shown) >= 5
    DiceModel.load(path)


def test_solitaire_demo_without_camera(tmp_path, capsys):
    gif = tmp_path / "solo.gif"
    assert main(["demo", "--fast", "--quiet", "--no-camera", "--players", "1", "--seed", "4",
                 "--gif", str(gif)]) == 0
    assert capsys.readouterr().out.startswith("farmer 1 won after ")
    assert gif.exists()


def test_demo_camera_reads_pushed_frames_in_order_then_the_last_again():
    camera = DemoCamera(idle=0.01)
    with pytest.raises(CameraGone, match="no frame yet"):
        camera.read()
    a, b = np.zeros((4, 4, 3), np.uint8), np.ones((4, 4, 3), np.uint8)
    camera.push(a, 2)
    camera.push(b)
    assert [camera.read() is x for x in (a, a, b)] == [True] * 3
    assert camera.read() is b  # a still table: the last frame again
    camera.close()
    with pytest.raises(CameraGone, match="closed"):
        camera.read()


def test_camera_flags(tmp_path, capsys):
    assert main(["demo", "cardgame", "--camera", "--gif", str(tmp_path / "x.gif")]) == 2
    assert "--camera" in capsys.readouterr().err
    assert main(["demo", "cardgame", "--no-camera", "--fast", "--quiet", "--seed", "3",
                 "--gif", str(tmp_path / "c.gif")]) == 0
    assert (tmp_path / "c.gif").exists()


def gif_frames(path) -> int:
    with Image.open(path) as im:
        assert im.size == (384, 192)
        return sum(1 for _ in ImageSequence.Iterator(im))


def test_funfarm_demo_defaults_to_four_players(tmp_path, capsys):
    gif = tmp_path / "funfarm.gif"
    assert main(["demo", "funfarm", "--fast", "--seed", "2", "--gif", str(gif)]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith("player ") and " won with " in last and str(gif) in last
    assert "█" in out  # frames streamed as half-blocks
    assert gif_frames(gif) == int(last.split("; ")[1].split()[0]) > 20
    assert not list(tmp_path.glob("*.tmp"))


def test_cardgame_demo_through_the_cli(tmp_path, capsys):
    gif = tmp_path / "cards.gif"
    assert main(["demo", "cardgame", "--fast", "--quiet", "--players", "4", "--seed", "3",
                 "--gif", str(gif)]) == 0
    last = capsys.readouterr().out.strip().splitlines()
    assert len(last) == 1  # quiet: the result line only
    assert "box totals = engine totals" in last[0] and "F4 " in last[0] and "F5 " not in last[0]
    assert gif_frames(gif) == int(last[0].split(" frames")[0].split()[-1])
