"""The enrollment screens equal their reference PNGs pixel for pixel (regenerate with
``.venv/bin/python -m farmbox.firmware.games.enroll.screens``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

import farmbox.firmware.games.enroll.screens as screens
from farmbox.firmware.box.drawing.font import text_width
from farmbox.firmware.box.i18n import LANGUAGES
from tests.enroll_box import gallery

REFERENCE = Path(__file__).parent / "reference"
NAMES = sorted(gallery.all_screens())


@pytest.mark.parametrize("name", NAMES)
def test_screen_matches_reference(name):
    image = _screens()[name]
    reference = Image.open(REFERENCE / f"{name}.png").convert("1")
    assert image.mode == "1" and image.size == (128, 64)
    assert image.tobytes() == reference.tobytes(), \
        f"{name} changed: python -m tests.enroll_box.gallery rewrites the references"


_cache: dict = {}


def _screens():
    if not _cache:
        _cache.update(gallery.all_screens())
    return _cache


def test_regenerate_command_writes_the_references(tmp_path):
    assert gallery.main(["--out", str(tmp_path)]) == 0
    written = sorted(p.stem for p in tmp_path.glob("*.png"))
    assert written == NAMES == sorted(p.stem for p in REFERENCE.glob("*.png"))
    for name in NAMES:
        assert (tmp_path / f"{name}.png").read_bytes() == (REFERENCE / f"{name}.png").read_bytes()


def test_every_text_has_a_polish_translation():
    from farmbox.firmware.box.i18n import messages
    en, pl = messages("enroll", "en"), messages("enroll", "pl")
    assert set(en) == set(pl) and all(pl[k] for k in pl)
    source = Path(screens.__file__).read_text() + Path(screens.__file__).with_name(
        "session.py").read_text()
    import re
    used = set(re.findall(r'tr\("([^"]+)"\)', source)) | set(re.findall(r'_fail\("([^"]+)"', source))
    assert used and used <= set(en), used - set(en)
    assert {"RABBIT", "WOLF", "FOX"} <= set(en)


@pytest.mark.parametrize("language", LANGUAGES)
def test_hints_fit_the_screen(language):
    tr = screens.translator(language)
    for key in ("OK:TAKE BACK:QUIT", "OK:TAKE HOLD:UNDO", "OK:KEEP BACK:RETAKE",
                "ANY BUTTON: RETAKE", "ANY BUTTON: FINISH", "BACK:CANCEL"):
        assert text_width(tr(key)) <= 128, tr(key)


@given(st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZĄŁ", min_size=1, max_size=12),
                min_size=1, max_size=12), st.integers(40, 128))
def test_wrap_keeps_words_in_order_and_within_the_width(words, width):
    lines = screens.wrap(" ".join(words), width)
    assert all(text_width(line) <= width for line in lines)
    if all(text_width(w) <= width for w in words):
        assert " ".join(lines).split() == words
