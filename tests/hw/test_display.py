"""The OLED: the real luma ssd1306/sh1106 drivers over a fake serial, and the stand-ins."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from farmbox.hw.config import DisplayConfig
from farmbox.hw.display import FakeSerial, fake_serial, open_display

W, H = 128, 64

# luma.oled 3.16 still calls Image.getdata, deprecated in Pillow 13; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


def known_image() -> Image.Image:
    """Corners lit, a line along y=9, a filled box: every byte position matters."""
    image = Image.new("1", (W, H))
    draw = ImageDraw.Draw(image)
    draw.point([(0, 0), (127, 63)], fill=1)
    draw.line([(0, 9), (60, 9)], fill=1)
    draw.rectangle([(70, 20), (90, 40)], fill=1)
    return image


def pages(image: Image.Image) -> list[int]:
    """The SSD1306 page layout worked out independently: byte page*128+x, bit y%8."""
    pixels = np.array(image, dtype=bool)
    out = [0] * (W * H // 8)
    for y, x in zip(*np.nonzero(pixels), strict=True):
        out[(y // 8) * W + x] |= 1 << (y % 8)
    return out


def test_ssd1306_init_sequence_and_blank_first_frame():
    serial = fake_serial()
    open_display(DisplayConfig(driver="ssd1306"), serial=serial)
    init = serial.commands[0]
    assert init[0] == 0xAE  # display off while configuring
    assert init[init.index(0xA8) + 1] == 0x3F  # multiplex ratio: 64 rows
    assert init[init.index(0x8D) + 1] == 0x14  # charge pump on
    assert init[init.index(0xDA) + 1] == 0x12  # COM pins for 128x64
    assert (0x81, 0xCF) in serial.commands  # contrast
    assert (0x21, 0, 127, 0x22, 0, 7) in serial.commands  # whole-screen window
    assert serial.data_sent == [[0] * 1024]  # cleared
    assert serial.commands[-1] == (0xAF,)  # display on


def test_ssd1306_sends_a_full_frame_of_the_known_image():
    serial = FakeSerial()
    display = open_display(DisplayConfig(driver="ssd1306"), serial=serial)
    serial.data_sent.clear()
    image = known_image()
    display.show(image)
    assert len(serial.data_sent) == 1
    frame = serial.data_sent[0]
    assert len(frame) == 1024
    assert frame == pages(image)
    assert frame[0] == 0x01 and frame[1023] == 0x80 and frame[128 + 5] == 0x02
    assert display.last_image.tobytes() == image.tobytes()


def test_ssd1306_upside_down_mirrors_both_ways():
    serial = FakeSerial()
    display = open_display(DisplayConfig(driver="ssd1306", rotate=2), serial=serial)
    image = Image.new("1", (W, H))
    image.putpixel((0, 0), 1)
    display.show(image)
    frame = serial.data_sent[-1]
    assert frame[1023] == 0x80 and sum(frame) == 0x80


@settings(max_examples=15, deadline=None)
@given(st.binary(min_size=W * H // 8, max_size=W * H // 8))
def test_ssd1306_any_image_round_trips(raw):
    serial = FakeSerial()
    display = open_display(DisplayConfig(driver="ssd1306"), serial=serial)
    image = Image.frombytes("1", (W, H), raw)
    display.show(image)
    assert serial.data_sent[-1] == pages(image)


def test_sh1106_sends_eight_pages_of_128_bytes():
    serial = FakeSerial()
    display = open_display(DisplayConfig(driver="sh1106"), serial=serial)
    serial.commands.clear()
    serial.data_sent.clear()
    image = known_image()
    display.show(image)
    assert serial.commands == [(0xB0 + page, 0x02, 0x10) for page in range(8)]
    assert [len(d) for d in serial.data_sent] == [128] * 8
    assert [byte for page in serial.data_sent for byte in page] == pages(image)


def test_close_blanks_a_real_oled():
    serial = FakeSerial()
    display = open_display(DisplayConfig(driver="ssd1306"), serial=serial)
    display.show(known_image())
    display.close()
    assert (0xAE,) in serial.commands[-3:] and serial.data_sent[-1] == [0] * 1024
    assert serial.cleaned_up


def test_missing_oled_names_the_bus_and_address():
    with pytest.raises(OSError, match=r"no ssd1306 at I2C address 0x3c on /dev/i2c-42"):
        open_display(DisplayConfig(driver="ssd1306", i2c_port=42))


@pytest.mark.parametrize("bad", [Image.new("1", (128, 32)), Image.new("L", (W, H)),
                                 Image.new("RGB", (W, H))])
def test_show_refuses_wrong_size_or_mode(bad):
    display = open_display(DisplayConfig(driver="dummy"))
    with pytest.raises(ValueError, match="128x64 mode '1'"):
        display.show(bad)
    assert display.last_image is None


def test_dummy_keeps_the_last_frame():
    display = open_display(DisplayConfig(driver="dummy"))
    assert display.size == (128, 64)
    image = known_image()
    display.show(image)
    assert np.array_equal(np.array(display.device.image), np.array(image))
    assert np.array_equal(np.array(display.last_image), np.array(image))
    display.close()


def frames(n: int) -> list[Image.Image]:
    out = []
    for i in range(n):
        image = known_image()
        ImageDraw.Draw(image).rectangle([(4 + 10 * i, 40), (10 + 10 * i, 60)], fill=1)
        out.append(image)
    return out


@pytest.mark.parametrize("scale", [1, 2])
def test_capture_writes_one_png_per_frame_matching_it(tmp_path, scale):
    display = open_display(DisplayConfig(driver="capture", output=str(tmp_path), scale=scale))
    shown = frames(3)
    for image in shown:
        display.show(image)
    display.close()
    written = sorted(tmp_path.glob("*.png"))
    assert [p.name for p in written] == ["frame_000001.png", "frame_000002.png", "frame_000003.png"]
    for path, image in zip(written, shown, strict=True):
        with Image.open(path) as png:
            assert png.size == (W * scale, H * scale)
            back = png.convert("L").resize((W, H), Image.NEAREST).point(lambda v: 255 if v > 127 else 0)
            assert np.array_equal(np.array(back) > 0, np.array(image))


def test_capture_needs_an_existing_folder(tmp_path):
    with pytest.raises(OSError, match="capture folder .*missing"):
        open_display(DisplayConfig(driver="capture", output=str(tmp_path / "missing")))


def test_gifanim_writes_an_animated_gif_on_close(tmp_path):
    gif = tmp_path / "demo.gif"
    display = open_display(DisplayConfig(driver="gifanim", output=str(gif), scale=2))
    shown = frames(4)
    for image in shown:
        display.show(image)
    assert not gif.exists()  # written whole, on close
    display.close()
    display.close()
    assert [p.name for p in tmp_path.iterdir()] == ["demo.gif"]  # no temp file left behind
    with Image.open(gif) as anim:
        assert anim.format == "GIF" and anim.n_frames == 4 and anim.size == (256, 128)
        for index, image in enumerate(shown):
            anim.seek(index)
            back = anim.convert("L").resize((W, H), Image.NEAREST)
            assert np.array_equal(np.array(back) > 127, np.array(image))


def test_gifanim_without_frames_writes_nothing(tmp_path):
    gif = tmp_path / "empty.gif"
    open_display(DisplayConfig(driver="gifanim", output=str(gif))).close()
    assert list(tmp_path.iterdir()) == []
