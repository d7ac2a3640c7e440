"""The demos' frame stream: every frame kept, printed unless quiet, saved as one GIF."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageSequence

from farmbox.firmware.box.demo_stream import FrameStream, check_gif_path, write_gif


class Screen:
    size = (128, 64)

    def __init__(self) -> None:
        self.shown: list[Image.Image] = []
        self.contrast = 7

    def show(self, image: Image.Image) -> None:
        self.shown.append(image)


def frame(x: int) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((x, 10, x + 9, 19), fill=1)
    return image


def test_tap_shows_keeps_and_prints_every_frame(tmp_path):
    out = io.StringIO()  # not a terminal: frames listed, each followed by a rule
    stream = FrameStream(quiet=False, out=out)
    screen = Screen()
    display = stream.tap(screen)
    for x in (0, 40, 80):
        display.show(frame(x))
    assert len(screen.shown) == len(stream.frames) == 3
    assert display.size == (128, 64) and display.contrast == 7  # the rest passes through
    text = out.getvalue()
    assert text.count("-" * 128) == 3 and "█" in text and "\x1b" not in text
    gif = tmp_path / "f.gif"
    stream.save_gif(gif)
    with Image.open(gif) as im:
        frames = [f.convert("L").copy() for f in ImageSequence.Iterator(im)]
    assert len(frames) == 3 and frames[1].size == (384, 192)
    assert frames[1].getpixel((40 * 3 + 1, 10 * 3 + 1)) == 255
    assert frames[0].getpixel((40 * 3 + 1, 10 * 3 + 1)) == 0


def test_quiet_prints_nothing_but_keeps_frames():
    out = io.StringIO()
    stream = FrameStream(quiet=True, out=out)
    stream.tap(Screen()).show(frame(5))
    assert out.getvalue() == "" and len(stream.frames) == 1


def test_no_frames_or_no_folder_is_a_one_line_error(tmp_path):
    with pytest.raises(ValueError, match="no frames"):
        write_gif([], tmp_path / "x.gif")
    with pytest.raises(ValueError, match="does not exist"):
        check_gif_path(tmp_path / "missing" / "x.gif")
    check_gif_path(None)
    assert list(tmp_path.iterdir()) == []
