"""Card game screens: pixel for pixel against the reference PNGs, texts, icons.

Regenerate the references after an intended change with
``python -m tests.cardgame_box.gallery``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from farmbox.firmware.box.drawing.font import GLYPHS
from farmbox.firmware.box.i18n import LANGUAGES, messages
from farmbox.firmware.games.cardgame.icons import CARD_ICONS, card_icon_mask
from farmbox.firmware.games.cardgame.screens import render, translator
from farmbox.firmware.games.cardgame.session import Scorekeeper, Setup
from tests.cardgame_box.gallery import all_screens
from tests.reference_images import assert_matches_reference, reference_names

REFERENCE = Path(__file__).parent / "reference"
SCREENS = all_screens()


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reference(name):
    assert_matches_reference(SCREENS[name], REFERENCE / f"{name}.png",
                             "tests.cardgame_box.gallery")


def test_every_reference_has_a_screen():
    assert reference_names(REFERENCE) == set(SCREENS)


def test_languages_differ_in_texts_not_in_numbers():
    assert SCREENS["en_cards"].tobytes() != SCREENS["pl_cards"].tobytes()
    box = (0, 11, 128, 40)  # the big icon and the big number
    assert SCREENS["en_cards"].crop(box).tobytes() == SCREENS["pl_cards"].crop(box).tobytes()


def catalog(lang):
    return messages("cardgame", lang)


def test_catalogs_have_the_same_texts_and_every_glyph():
    en, pl = catalog("en"), catalog("pl")
    assert set(en) == set(pl) and len(en) > 40
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            if key:
                assert text, f"{lang}: {key!r} untranslated"
                missing = {c for c in text.upper() if c not in GLYPHS}
                assert not missing, f"{lang}: no glyph for {missing} in {text!r}"
                assert text.count("%d") == key.count("%d"), f"{lang}: {key!r} -> {text!r}"
    assert translator("pl")("WINNER") == "ZWYCIĘZCA" and translator("en")("WINNER") == "WINNER"
    with pytest.raises(ValueError, match="unknown language"):
        translator("de")


def test_own_icons_are_distinct_and_drawn():
    masks = {name: card_icon_mask(name).tobytes() for name in CARD_ICONS}
    assert len(set(masks.values())) == len(masks) >= 6
    for name in ("chicken", "cat", "cabbage", "water", "dog"):
        lit = card_icon_mask(name).convert("L").histogram()[255]
        assert 20 < lit < 110, name
    assert card_icon_mask("rabbit").size == (12, 12)  # the dice game's animals are reused
    with pytest.raises(KeyError):
        card_icon_mask("unicorn")


def test_a_new_box_shows_the_setup():
    assert render(Scorekeeper(Setup(players=4))).tobytes() == SCREENS["en_setup_players"].tobytes()
