"""The Fun Farm screens, pixel for pixel against the reference PNGs, and on the real display."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from farmbox.firmware.box.drawing.canvas import WIDTH
from farmbox.firmware.box.drawing.font import fit, text_width
from farmbox.firmware.box.i18n import LANGUAGES, catalog_path, messages
from farmbox.firmware.games.funfarm.icons import ICONS, SIZE, animal_mask, draw_die
from farmbox.firmware.games.funfarm.screens import colour_name, render, translator
from farmbox.firmware.rules.funfarm import FunFarmRules, Phase
from tests.funfarm_box.gallery import all_screens
from tests.reference_images import assert_matches_reference, reference_names

REFERENCE = Path(__file__).parent / "reference"
SCENES = all_screens()
FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def test_every_reference_has_a_scene():
    assert reference_names(REFERENCE) == set(SCENES)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_matches_reference(name):
    assert_matches_reference(SCENES[name], REFERENCE / f"{name}.png", "tests.funfarm_box.gallery")


def test_animal_icons_are_distinct_and_crisp():
    masks = {name: animal_mask(name).tobytes() for name in ICONS}
    assert len(set(masks.values())) == len(ICONS) == 6
    for name in ICONS:
        small, big = animal_mask(name), animal_mask(name, 3)
        assert big.size == (SIZE * 3, SIZE * 3)
        # every dot is a clean 3x3 block: no smoothing, no half pixels
        for y in range(SIZE * 3):
            for x in range(SIZE * 3):
                assert big.getpixel((x, y)) == small.getpixel((x // 3, y // 3))


def test_black_and_white_dice_differ():
    black, white = Image.new("1", (12, 12)), Image.new("1", (12, 12))
    from PIL import ImageDraw

    draw_die(ImageDraw.Draw(black), (0, 0), "red", black=True)
    draw_die(ImageDraw.Draw(white), (0, 0), "red", black=False)
    # filled vs outline, the letter dark on the black die and lit on the white one
    lit = lambda im: sum(im.getpixel((x, y)) > 0 for x in range(12) for y in range(12))  # noqa: E731
    assert lit(black) > 2 * lit(white)
    assert black.getpixel((6, 6)) != white.getpixel((6, 6)) or \
        black.getpixel((5, 5)) != white.getpixel((5, 5))


def test_the_box_shows_what_the_session_renders(table):
    """The dummy OLED's last frame is the rendered screen (after a card and a roll)."""
    from .conftest import activating

    rules = table.session.rules
    card = table.session.state.draw_pile[0]
    table.turn(rules.deck.cards[card].id)
    r = activating(rules, card)
    table.roll(r.black, r.white)
    assert table.session.state.phase is Phase.CATCH
    shown = table.hw.display.last_image
    assert shown.convert("1").tobytes() == render(table.session).tobytes()


def _catalog(language: str) -> dict[str, str]:
    assert catalog_path("funfarm", language).is_file()
    return messages("funfarm", language)


def test_every_fun_farm_text_has_a_polish_entry():
    en, pl = _catalog("en"), _catalog("pl")
    assert set(en) == set(pl) and all(en[k] == k for k in en)
    assert all(pl[k] and pl[k] != k for k in pl), [k for k in pl if pl[k] in ("", k)]
    for k in en:  # the same placeholders, in the same order
        assert re.findall(r"%[ds]", k) == re.findall(r"%[ds]", pl[k]), k
    sources = sorted((FIRMWARE / "games" / "funfarm").glob("*.py"))
    used = set()
    for path in sources:
        used |= set(re.findall(r'\btr\("([^"]+)"\)', path.read_text(encoding="utf-8")))
    deck = FunFarmRules().deck
    colours = {c.upper() for c in deck.black_faces + deck.white_faces}
    assert len(used) > 20 and used | colours == set(en), (used | colours) ^ set(en)


def test_a_missing_text_stays_english_and_a_bad_language_is_refused():
    assert translator("pl")("NO SUCH TEXT") == "NO SUCH TEXT"
    assert colour_name("purple", translator("pl")) == "FIOLETOWA"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        translator("de")


@pytest.mark.parametrize("language", LANGUAGES)
def test_texts_fit_the_screen_uncut(language):
    """Every text at its widest (10 players, two-digit numbers) fits where it is drawn."""
    tr = translator(language)
    p = tr("P%d") % 10
    room = {  # text -> the pixels its place on the screen has
        tr("TIE-BREAK %d") % 10: 84, tr("ROUND %d") % 99: 84, tr("WHICH CARD?"): 84,
        tr("BLACK DIE?"): 84, tr("WHITE DIE?"): 84, tr("GAME OVER"): 84,
        tr("DECK %d") % 24: WIDTH - 84, tr("UNSURE"): WIDTH - 84,
        tr("TIE! PLAY ON: %s") % f"{p} {p}": WIDTH, tr("TIE %s: SHARED") % f"{p}={p}": WIDTH,
        tr("TIE %s: ROLL AGAIN") % f"{p}={p}": WIDTH,
        tr("P%d TAKES %d") % (10, 24) + " 9999MS": WIDTH,
        f"{p} {tr('TOO EARLY')} -1": WIDTH - 10, f"{p} {p} {tr('NOTHING ON')} -1": WIDTH - 10,
        tr("TURN A CARD"): WIDTH, tr("FARMER: ENTER CARD"): WIDTH,
        tr("ROLL THE DICE"): WIDTH, tr("FARMER: ENTER DICE"): WIDTH, tr("BUZZ!"): WIDTH,
        tr("NOTHING ON: DO NOT BUZZ"): WIDTH, tr(">:NEXT OK:PICK"): WIDTH,
        tr("PLAYER %d WINS") % 10: WIDTH - 28, tr("%d CARDS") % 24: WIDTH - 28,
        tr("FARMER: NEW GAME"): WIDTH,
    }
    room |= {colour_name(c, tr): WIDTH - 62 for c in FunFarmRules().deck.black_faces}
    for text, width in room.items():
        assert text_width(text) <= width and fit(text, width) == text.upper(), (text, width)
    assert tr("UNSURE") and text_width(tr("BLACK DIE?")) + text_width(tr("UNSURE")) < WIDTH - 4


def test_polish_screens_differ_from_english_but_not_in_pictures():
    """Same game, other words: the pictures above the text lines are the same pixels."""
    for name in (n for n in SCENES if not n.startswith("funfarm_pl_")):
        en, pl = SCENES[name], SCENES[name.replace("funfarm_", "funfarm_pl_")]
        assert en.tobytes() != pl.tobytes(), name
        if name in ("funfarm_turned", "funfarm_buzz", "funfarm_tie", "funfarm_held"):
            assert en.crop((0, 10, WIDTH, 40)).tobytes() == pl.crop((0, 10, WIDTH, 40)).tobytes()
        if name.startswith("funfarm_race_") or name == "funfarm_caught":  # the circle and the
            # animals' icons; who took them is words (P3 / G3)
            assert en.crop((0, 10, 14, 48)).tobytes() == pl.crop((0, 10, 14, 48)).tobytes()


def test_named_players_are_called_by_their_names(table):
    """Names from the table view (names.json) replace the seat numbers on the OLED: the
    verdict says who took the card; a name too long for a race slot falls back to P2."""
    from farmbox.firmware.games.funfarm.screens import take_text, verdict_text

    from .conftest import activating

    names = ("Ala", "Bolek", "Cela")
    table.referee.set_names(list(names))
    rules = table.session.rules
    card = table.session.state.draw_pile[0]
    table.turn(rules.deck.cards[card].id)
    r = activating(rules, card)
    table.roll(r.black, r.white)
    table.push((1,))
    session = table.session
    assert card in session.state.piles[1]
    text, _, good = verdict_text(session.verdict, translator("en"), names)
    assert good and text.startswith("BOLEK TAKES 1")
    shown = table.hw.display.last_image.convert("1").tobytes()
    assert shown == render(session, "en", names).tobytes() != render(session).tobytes()
    take = session.takes[-1]
    assert take_text(take, translator("en"), 200, names).startswith("BOLEK")
    assert take_text(take, translator("en"), 12, ("A very long name",) * 3).startswith("P2")
