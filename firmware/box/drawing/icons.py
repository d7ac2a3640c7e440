"""Our own 12x12 pixel-art icons of the animals, predators and dice, drawn for a 1-bit OLED.

Each icon is rows of ``#`` (lit) and ``.`` (dark); :func:`draw_icon` puts one
on a PIL image at any whole-number scale.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

SIZE = 12

_ART: dict[str, str] = {
    "rabbit": """
....#.#.....
....#.#.....
....#.#.....
....###.....
...#####....
...#.####...
...######...
....######..
...########.
.##########.
..#########.
...##...##..
""",
    "sheep": """
............
...#.#.#....
..########..
.##########.
###########.
#.#########.
####.######.
.#.#######..
...#######..
....#.#.#.#.
....#.#.#.#.
............
""",
    "pig": """
............
..#......#..
.###....###.
.##########.
############
#.##########
##.#########
.##########.
..########..
..#..#.#.#..
..#..#.#.#..
............
""",
    "cow": """
#..#........
.##.........
####........
#.##########
####...##..#
.###...##..#
..####....##
..##########
..#.#....#.#
..#.#....#.#
..#.#....#.#
............
""",
    "horse": """
...##.......
..####......
.#.####.....
######.#....
##..####....
....#######.
....########
....#######.
....#.#..#.#
....#.#..#.#
....#.#..#.#
............
""",
    "small_dog": """
............
............
#..#........
####........
#.##......#.
####......#.
.###########
..#########.
..#######...
..#.#..#.#..
..#.#..#.#..
............
""",
    "big_dog": """
##.##.......
#####.......
#.###.......
######.....#
####.#.....#
..###.#....#
..##########
..#########.
..#########.
..##.#..##.#
..##.#..##.#
..##.#..##.#
""",
    "fox": """
..#.#.......
..###.......
.####.......
##.##...###.
..###..####.
..#######.#.
...#######..
...######...
...#....#...
..##...##...
............
............
""",
    "wolf": """
..#.........
.##.........
####........
.####.......
..###.......
..####......
..#####.....
..######....
..######....
..##.###...#
..##.####.##
.###.#######
""",
    "camera": """
............
....####....
############
#..........#
#...####...#
#..#....#..#
#..#....#..#
#..#....#..#
#...####...#
#..........#
############
............
""",
    "star": """
.....##.....
.....##.....
....####....
############
.##########.
..########..
...######...
...##..##...
..##....##..
..#......#..
............
............
""",
    "cross": """
##........##
###......###
.###....###.
..###..###..
...######...
....####....
....####....
...######...
..###..###..
.###....###.
###......###
##........##
""",
}


def art_rows(art: str) -> tuple[str, ...]:
    """Pixel art (``SIZE`` lines of ``SIZE`` dots, ``#`` lit) as its rows; ValueError if not."""
    rows = tuple(r for r in art.strip().splitlines())
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError(f"icon art must be {SIZE}x{SIZE}")
    return rows


def art_mask(rows: tuple[str, ...], scale: int = 1, mirror: bool = False) -> Image.Image:
    """Rows from :func:`art_rows` as a mode-"1" mask, ``scale`` pixels per dot."""
    mask = Image.new("1", (SIZE, SIZE), 0)
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "#":
                mask.putpixel(((SIZE - 1 - x) if mirror else x, y), 1)
    if scale != 1:
        mask = mask.resize((SIZE * scale, SIZE * scale), Image.Resampling.NEAREST)
    return mask


ICONS: dict[str, tuple[str, ...]] = {name: art_rows(art) for name, art in _ART.items()}


@lru_cache(maxsize=128)
def icon_mask(name: str, scale: int = 1, mirror: bool = False) -> Image.Image:
    """Icon ``name`` as a mode-"1" mask, ``scale`` pixels per dot."""
    return art_mask(ICONS[name], scale, mirror)


def draw_icon(draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str, scale: int = 1,
              fill: int = 1, mirror: bool = False) -> None:
    """Draw icon ``name`` with its top-left corner at ``xy``, ``scale`` pixels per dot."""
    draw.bitmap(xy, icon_mask(name, scale, mirror), fill=fill)
