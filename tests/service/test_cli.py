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


def test_solitaire_demo(tmp_path, capsys):
    gif = tmp_path / "solo.gif"
    assert main(["demo", "--fast", "--quiet", "--players", "1", "--seed", "4",
                 "--gif", str(gif)]) == 0
    assert capsys.readouterr().out.startswith("farmer 1 won after ")
    assert gif.exists()


def gif_frames(path) -> int:  # noqa: ANN001
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
