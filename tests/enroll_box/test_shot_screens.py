"""The card and colour-dice enrollment screens: every text in both catalogs, hints that fit,
the check screen counting what it cannot list (references: tests/enroll_box/test_screens.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import farmbox.firmware.games.enroll.shot_screens as shot_screens
from farmbox.firmware.box.drawing.font import text_width
from farmbox.firmware.box.i18n import LANGUAGES, messages
from farmbox.firmware.games.enroll import shots


def test_every_text_of_the_new_screens_is_in_both_catalogs():
    en, pl = messages("enroll", "en"), messages("enroll", "pl")
    source = Path(shot_screens.__file__).read_text() + Path(shots.__file__).read_text()
    used = set(re.findall(r'tr\("([^"]+)"\)', source)) | set(re.findall(r'_fail\("([^"]+)"', source))
    used |= {t for titles in shot_screens.TITLES.values() for t in titles}
    used |= {"NO CARD FOUND", "NO DIE FOUND IN THE FRAME"}
    assert len(used) > 25
    assert used <= set(en), used - set(en)
    assert used <= set(pl), used - set(pl)


@pytest.mark.parametrize("language", LANGUAGES)
def test_hints_and_titles_fit_the_screen(language):
    from farmbox.firmware.games.enroll.screens import translator

    tr = translator(language)
    for key in ("OK:REDO BACK:KEEP", "OK:TAKE HOLD:UNDO", "OK:KEEP BACK:RETAKE"):
        assert text_width(tr(key)) <= 128, tr(key)
    for titles in shot_screens.TITLES.values():
        assert all(text_width(tr(t)) <= 84 for t in titles), titles


def test_the_check_screen_lists_what_fits_and_counts_the_rest():
    from farmbox.firmware.games.enroll.screens import translator

    tr = translator("en")
    few = shot_screens.weak(tr, ["GOAT-2", "PIG-3"])
    many = shot_screens.weak(tr, ["GOAT-2", "PIG-3", "COW-1", "HORSE-4", "CHICK-2"])
    four = shot_screens.weak(tr, ["GOAT-2", "PIG-3", "COW-1", "HORSE-4"])
    assert few.tobytes() != many.tobytes() != four.tobytes()
    # "AND 2 MORE" replaces the fourth name once there are five
    assert four.crop((0, 36, 128, 46)).tobytes() != many.crop((0, 36, 128, 46)).tobytes()
