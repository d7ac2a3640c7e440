"""Screens: pixel-for-pixel against the reference PNGs, fonts, catalogs, the real OLED driver.

Regenerate the references after an intended change with ``python -m tests.screens.gallery``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from farmbox.firmware.box.demo_stream import frame_text
from farmbox.firmware.box.drawing.font import GLYPHS, text_width
from farmbox.firmware.box.drawing.icons import ICONS
from farmbox.firmware.box.i18n import LANGUAGES, catalogs, messages, translator
from farmbox.firmware.games.superfarmer.render import render
from farmbox.firmware.games.superfarmer.session import Session
from farmbox.firmware.rules.superfarmer import CLASSIC
from tests.reference_images import assert_matches_reference, reference_names
from tests.screens.gallery import all_screens

REFERENCE = Path(__file__).parent / "reference"
SCREENS = all_screens()


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reference(name):
    assert_matches_reference(SCREENS[name], REFERENCE / f"{name}.png", "tests.screens.gallery")


def test_every_reference_has_a_screen():
    assert reference_names(REFERENCE) == set(SCREENS)


def test_screens_differ_between_languages_but_not_icons():
    assert SCREENS["en_farm"].tobytes() != SCREENS["pl_farm"].tobytes()
    # The herd grid (icons and counts) is the same in both languages.
    box = (0, 11, 128, 43)
    assert SCREENS["en_farm"].crop(box).tobytes() == SCREENS["pl_farm"].crop(box).tobytes()


def test_every_translated_character_has_a_glyph():
    assert len(catalogs()) == 8  # four catalogs in each of the two languages
    for po in catalogs():
        for text in messages(po.stem, po.parent.parent.name).values():
            missing = {c for c in text.upper() if c not in GLYPHS}
            assert not missing, f"{po}: no glyph for {missing} in {text!r}"


def test_every_catalog_has_both_languages_with_the_same_texts():
    """The one i18n path (polib): each English text has its Polish line, and no others."""
    for po in catalogs():
        domain = po.stem
        en, pl = messages(domain, "en"), messages(domain, "pl")
        assert en and set(en) == set(pl), (domain, set(en) ^ set(pl))
        assert all(pl[k] for k in pl), domain


def test_catalogs_translate_and_bad_language_is_refused():
    assert translator("pl")("WOLF!") == "WILK!"
    assert translator("en")("WOLF!") == "WOLF!"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        translator("de")


def test_icons_are_distinct_12x12():
    animals = ["rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog", "fox", "wolf"]
    arts = [ICONS[a] for a in animals]
    assert all(len(a) == 12 and all(len(r) == 12 for r in a) for a in arts)
    assert len(set(arts)) == len(arts)


def test_header_texts_fit_the_screen():
    for lang in LANGUAGES:
        tr = translator(lang)
        for msg in ("CAMERA GONE", "JOURNAL REPAIRED", "IS THIS THE ROLL?", "MAIN HERD"):
            assert text_width(tr(msg)) <= 128, (lang, msg)


def test_frame_text_is_two_rows_per_line():
    image = Image.new("1", (128, 64), 0)
    image.putpixel((0, 0), 1)
    image.putpixel((1, 1), 1)
    lines = frame_text(image).splitlines()
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:3] == "▀▄ "


def test_render_follows_the_session():
    s = Session(2, CLASSIC)
    farm = render(s)
    s.press("prev")
    assert render(s).tobytes() != farm.tobytes()
    assert render(s, "pl").tobytes() != render(s, "en").tobytes()


def test_real_ssd1306_driver_receives_the_frames():
    from luma.oled.device import ssd1306

    from farmbox.hw.display import fake_serial

    serial = fake_serial()
    device = ssd1306(serial, width=128, height=64)
    serial.data_sent.clear()
    image = SCREENS["en_farm"]
    device.display(image)
    assert len(serial.data_sent) == 1 and len(serial.data_sent[0]) == 1024
    # Decode the ssd1306 page layout (8 rows per byte, LSB on top) back into pixels.
    data = serial.data_sent[0]
    px = image.load()
    for page in range(8):
        for x in range(128):
            byte = data[page * 128 + x]
            for bit in range(8):
                assert bool(byte >> bit & 1) == bool(px[x, page * 8 + bit])
