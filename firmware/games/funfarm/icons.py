"""Our own 12x12 pixel-art icons of the six Fun Farm animals and the two colour dice.

Drawn here for a 1-bit 128x64 OLED: every animal faces left and has a different
outline (horns, beard, snout, mane, spots, beak), so they tell apart at a glance.
A colour die is a square with the colour's initial: the black die filled (letter
dark), the white die an outline (letter lit).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.font import GLYPHS, draw_text, text_width
from farmbox.firmware.box.drawing.icons import SIZE, art_mask, art_rows

_ART: dict[str, str] = {
    "sheep": """
............
....#.#.#...
...#######..
.##########.
###.#######.
#.#########.
####.######.
.#..#######.
....#.#..#..
....#.#..#..
....#.#..#..
............
""",
    "goat": """
##..........
.##.........
..###.......
.####.......
####.######.
.##########.
..#.#######.
..#.#######.
....#.#..#.#
....#.#..#..
....#.#..#..
............
""",
    "pig": """
............
.#.......#..
.##.......#.
############
#.#########.
##.########.
.##########.
..########..
..#.#..#.#..
..#.#..#.#..
............
............
""",
    "horse": """
..#.........
.###........
####........
#.###.......
..####......
...########.
...#########
...########.
...#......#.
...#......#.
...#......#.
............
""",
    "cow": """
#...#.......
.###........
#####.......
#.#.#######.
#####.##..##
.###..##...#
..####....##
..#########.
..#.#....#.#
..#.#....#.#
..#.#....#.#
............
""",
    "chick": """
............
....###.....
...#####....
...#.###....
.#########..
...#########
...#########
....#######.
.....#####..
.....#..#...
....##.##...
............
""",
}


ICONS: dict[str, tuple[str, ...]] = {name: art_rows(art) for name, art in _ART.items()}


@lru_cache(maxsize=64)
def animal_mask(name: str, scale: int = 1) -> Image.Image:
    """Animal ``name`` as a mode-"1" mask, ``scale`` pixels per dot."""
    return art_mask(ICONS[name], scale)


def draw_animal(draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str, scale: int = 1,
                fill: int = 1) -> None:
    """Draw animal ``name`` with its top-left corner at ``xy``."""
    draw.bitmap(xy, animal_mask(name, scale), fill=fill)


def colour_letter(colour: str) -> str:
    """The initial a die shows for ``colour`` (our font has every capital)."""
    letter = colour[:1].upper()
    return letter if letter in GLYPHS else "?"


def draw_die(draw: ImageDraw.ImageDraw, xy: tuple[int, int], colour: str, black: bool,
             scale: int = 1) -> None:
    """A colour die ``SIZE * scale`` pixels wide showing ``colour``'s initial."""
    x, y = xy
    side = SIZE * scale
    box = (x, y, x + side - 1, y + side - 1)
    if black:
        draw.rounded_rectangle(box, radius=max(1, scale), fill=1)
    else:
        draw.rounded_rectangle(box, radius=max(1, scale), outline=1, width=scale)
    letter = colour_letter(colour)
    glyph = Image.new("1", (text_width(letter), 7), 0)
    draw_text(ImageDraw.Draw(glyph), (0, 0), letter)
    if scale != 1:
        glyph = glyph.resize((glyph.width * scale, glyph.height * scale), Image.Resampling.NEAREST)
    gx = x + (side - glyph.width) // 2
    gy = y + (side - glyph.height) // 2 + (scale if scale > 1 else 1) - 1
    draw.bitmap((gx, gy), glyph, fill=0 if black else 1)
