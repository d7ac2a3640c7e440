"""Our own tiny capital-letter bitmap font (3-5 px wide, 5 px tall, Polish letters too).

Drawn here so a screen renders the same pixels on every machine and every
Pillow version. A glyph cell is 7 rows: one accent row, five body rows, one
row for an ogonek; a line of text is :data:`LINE` pixels tall.

>>> text_width("OK")
7
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

#: Height of one line of text (accent + body + ogonek + 1 px gap).
LINE = 8

_BODY: dict[str, str] = {
    "A": ".#.|#.#|###|#.#|#.#", "B": "##.|#.#|##.|#.#|##.", "C": ".##|#..|#..|#..|.##",
    "D": "##.|#.#|#.#|#.#|##.", "E": "###|#..|##.|#..|###", "F": "###|#..|##.|#..|#..",
    "G": ".##|#..|#.#|#.#|.##", "H": "#.#|#.#|###|#.#|#.#", "I": "###|.#.|.#.|.#.|###",
    "J": "..#|..#|..#|#.#|.#.", "K": "#.#|#.#|##.|#.#|#.#", "L": "#..|#..|#..|#..|###",
    "M": "#...#|##.##|#.#.#|#...#|#...#", "N": "#..#|##.#|#.##|#..#|#..#",
    "O": ".#.|#.#|#.#|#.#|.#.", "P": "##.|#.#|##.|#..|#..", "Q": ".#.|#.#|#.#|##.|.##",
    "R": "##.|#.#|##.|#.#|#.#", "S": ".##|#..|.#.|..#|##.", "T": "###|.#.|.#.|.#.|.#.",
    "U": "#.#|#.#|#.#|#.#|###", "V": "#.#|#.#|#.#|#.#|.#.",
    "W": "#...#|#...#|#.#.#|##.##|#...#", "X": "#.#|#.#|.#.|#.#|#.#",
    "Y": "#.#|#.#|.#.|.#.|.#.", "Z": "###|..#|.#.|#..|###",
    "0": "###|#.#|#.#|#.#|###", "1": ".#.|##.|.#.|.#.|###", "2": "##.|..#|.#.|#..|###",
    "3": "##.|..#|.#.|..#|##.", "4": "#.#|#.#|###|..#|..#", "5": "###|#..|##.|..#|##.",
    "6": ".##|#..|###|#.#|###", "7": "###|..#|.#.|.#.|.#.", "8": "###|#.#|###|#.#|###",
    "9": "###|#.#|###|..#|##.",
    " ": "..|..|..|..|..", ".": ".|.|.|.|#", ",": ".|.|.|#|#", ":": ".|#|.|#|.",
    "!": "#|#|#|.|#", "?": "##.|..#|.#.|...|.#.", "-": "...|...|###|...|...",
    "+": "...|.#.|###|.#.|...", "/": "..#|..#|.#.|#..|#..", ">": "#..|.#.|..#|.#.|#..",
    "<": "..#|.#.|#..|.#.|..#", "*": "...|#.#|.#.|#.#|...", "%": "#.#|..#|.#.|#..|#.#",
    "(": ".#|#.|#.|#.|.#", ")": "#.|.#|.#|.#|#.", "=": "...|###|...|###|...",
    "'": "#|#|.|.|.", "_": "...|...|...|...|###", "#": ".#.#.|#####|.#.#.|#####|.#.#.",
    # Polish capitals: the body of a Latin letter (stroke for Ł) plus an accent or ogonek.
    "Ą": ".#.|#.#|###|#.#|#.#", "Ć": ".##|#..|#..|#..|.##", "Ę": "###|#..|##.|#..|###",
    "Ł": ".#..|.#..|.##.|##..|.###", "Ń": "#..#|##.#|#.##|#..#|#..#", "Ó": ".#.|#.#|#.#|#.#|.#.",
    "Ś": ".##|#..|.#.|..#|##.", "Ź": "###|..#|.#.|#..|###", "Ż": "###|..#|.#.|#..|###",
}
#: Accent row above the body: acute (´) or dot (˙).
_ACCENT = {"Ć": "..#", "Ń": "..#.", "Ó": "..#", "Ś": "..#", "Ź": "..#", "Ż": ".#."}
#: Ogonek row below the body.
_OGONEK = {"Ą": "..#", "Ę": "..#"}


def _glyph(ch: str) -> tuple[int, tuple[tuple[int, int], ...]]:
    body = _BODY.get(ch) or _BODY["?"]
    rows = body.split("|")
    width = len(rows[0])
    pixels = [(x, y + 1) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"]
    for row_y, table in ((0, _ACCENT), (6, _OGONEK)):
        pixels += [(x, row_y) for x, c in enumerate(table.get(ch, "")) if c == "#"]
    return width, tuple(pixels)


GLYPHS: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {ch: _glyph(ch) for ch in _BODY}


def _lookup(ch: str) -> tuple[int, tuple[tuple[int, int], ...]]:
    return GLYPHS.get(ch) or GLYPHS["?"]


def text_width(text: str) -> int:
    """Width in pixels of ``text`` (capitalised), 1 px between letters."""
    text = text.upper()
    if not text:
        return 0
    return sum(_lookup(c)[0] + 1 for c in text) - 1


def fit(text: str, width: int) -> str:
    """``text`` cut so that it fits in ``width`` pixels (never wraps)."""
    text = text.upper()
    while text and text_width(text) > width:
        text = text[:-1]
    return text


@lru_cache(maxsize=512)
def _mask(ch: str) -> Image.Image:
    width, pixels = _lookup(ch)
    mask = Image.new("1", (width, LINE - 1), 0)
    for px, py in pixels:
        mask.putpixel((px, py), 1)
    return mask


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int = 1) -> int:
    """Draw ``text`` with its cell's top-left at ``xy``; returns the x after the text."""
    x, y = xy
    for ch in text.upper():
        mask = _mask(ch)
        draw.bitmap((x, y), mask, fill=fill)
        x += mask.width + 1
    return x


def draw_text_centred(draw: ImageDraw.ImageDraw, y: int, text: str, width: int = 128,
                      fill: int = 1) -> None:
    """Draw ``text`` centred on a ``width``-pixel line at row ``y``."""
    text = fit(text, width)
    draw_text(draw, ((width - text_width(text)) // 2, y), text, fill)
