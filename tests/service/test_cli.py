"""``farmbox demo``: the whole box on simulated hardware, played by the bot."""

from __future__ import annotations

from PIL import Image, ImageSequence

from firmware.cli import main


def test_demo_plays_a_game_streams_frames_and_saves_a_gif(tmp_path, capsys):
    gif = tmp_path / "demo.gif"
    assert main(["demo", "--fast", "--players", "2", "--seed", "3", "--gif", str(gif)]) == 0
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
    assert main(["demo", "cardgame", "--gif", str(tmp_path / "x.gif")]) == 2
    assert main(["demo", "--gif", str(tmp_path / "no" / "x.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("farmbox demo: error:") for line in err)
    assert not (tmp_path / "x.gif").exists()


def test_solitaire_demo(tmp_path, capsys):
    gif = tmp_path / "solo.gif"
    assert main(["demo", "--fast", "--quiet", "--players", "1", "--seed", "4",
                 "--gif", str(gif)]) == 0
    assert capsys.readouterr().out.startswith("farmer 1 won after ")
    assert gif.exists()
