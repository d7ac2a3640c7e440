"""``run_demo``: a whole bot game entered on mock buttons, streamed and saved as a GIF."""

from __future__ import annotations

import pytest
from PIL import Image

from farmbox.firmware.games.cardgame.demo import run_demo


def test_demo_plays_a_whole_game_and_writes_the_gif(tmp_path, capsys):
    gif = tmp_path / "cardgame.gif"
    assert run_demo(2, 5, fast=True, quiet=False, gif_path=gif) == 0
    out = capsys.readouterr().out
    assert "box totals = engine totals" in out and str(gif) in out and " won" in out
    assert "█" in out  # frames streamed to the terminal as half-blocks
    with Image.open(gif) as image:
        assert image.size == (384, 192) and image.n_frames > 100


def test_demo_refuses_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="2-6 farmers, got 7"):
        run_demo(7, 1, True, True, None)
    with pytest.raises(ValueError, match="does not exist"):
        run_demo(2, 1, True, True, tmp_path / "no" / "x.gif")
    assert not (tmp_path / "no").exists()
