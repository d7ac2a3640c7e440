"""Our own 12x12 pixel-art icons for the card game: chicken, cat, cabbage, water drop, dog, card.

The other animals (rabbit, sheep, pig, cow, horse) and the fox and wolf come from
:mod:`farmbox.firmware.box.drawing.icons`; :func:`draw_card_icon` draws either kind by name.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.icons import ICONS, SIZE, art_mask, art_rows
from farmbox.firmware.box.drawing.icons import icon_mask as _dice_game_mask

_ART: dict[str, str] = {
    "chicken": """
....##......
...####.....
...#.##.....
..######....
....###.....
....####..#.
...#######..
..########..
..#######...
...#####....
....#..#....
...##.##....
""",
    "cat": """
.#...#......
.##.##......
.#####......
.#.#.#......
.#####....#.
..###.....#.
..######..#.
.########.#.
.#########..
.########...
.#.#..#.#...
.#.#..#.#...
""",
    "cabbage": """
....####....
..##.#..##..
.#..#.#...#.
#..#...#..#.
#.#..#..#..#
#.#.#.#.#..#
#..#.#.#..#.
.#..###..##.
..##.#.##...
....###.....
.....#......
............
""",
    "water": """
.....#......
.....#......
....###.....
....###.....
...#####....
..#######...
..##.####...
.##.######..
.##.######..
.###.#####..
..#######...
...#####....
""",
    "dog": """
............
#...........
##..........
####........
#.###.....#.
#####.....#.
.##########.
..#########.
..#########.
..#.#...#.#.
..#.#...#.#.
..#.#...#.#.
""",
    "card": """
.#########..
#.........#.
#.#######.#.
#.#.....#.#.
#.#.###.#.#.
#.#.#.#.#.#.
#.#.###.#.#.
#.#.....#.#.
#.#######.#.
#.........#.
.#########..
............
""",
}


CARD_ICONS: dict[str, tuple[str, ...]] = {name: art_rows(art) for name, art in _ART.items()}


@lru_cache(maxsize=64)
def card_icon_mask(name: str, scale: int = 1) -> Image.Image:
    """Icon ``name`` (ours, else the dice game's) as a mode-"1" mask, ``scale`` px per dot."""
    if name not in CARD_ICONS:
        if name not in ICONS:
            raise KeyError(f"no icon {name!r}")
        return _dice_game_mask(name, scale)
    return art_mask(CARD_ICONS[name], scale)


def draw_card_icon(draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str, scale: int = 1,
                   fill: int = 1) -> None:
    """Draw icon ``name`` with its top-left corner at ``xy``."""
    draw.bitmap(xy, card_icon_mask(name, scale), fill=fill)


__all__ = ["CARD_ICONS", "SIZE", "card_icon_mask", "draw_card_icon"]
