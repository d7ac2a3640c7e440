"""The Fun Farm screens, pixel for pixel against the reference PNGs, and on the real display."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from firmware.rules.funfarm import Phase
from firmware.screens.funfarm import render, scenes
from firmware.screens.funfarm_icons import ICONS, SIZE, animal_mask, draw_die
from tests.reference_images import assert_matches_reference, reference_names

REFERENCE = Path(__file__).parent / "reference"
SCENES = scenes()


def test_every_reference_has_a_scene():
    assert reference_names(REFERENCE) == set(SCENES)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_matches_reference(name):
    assert_matches_reference(SCENES[name], REFERENCE / f"{name}.png", "firmware.screens.funfarm")


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
