"""Drawing pieces shared by the screens: a blank frame, the header bar, herds, dice, hints;
and PNG files (:func:`save`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.font import LINE, draw_text, fit, text_width
from farmbox.firmware.box.drawing.icons import SIZE, draw_icon, icon_mask
from farmbox.firmware.box.files import write_atomically
from farmbox.firmware.rules.superfarmer.dice import Face
from farmbox.firmware.rules.superfarmer.herd import ANIMALS, Herd

#: The project's root (tests/ and docs/ are below it).
ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 128, 64
#: First row below the header bar.
BODY = 11
#: Row of the hint line at the bottom.
HINT = HEIGHT - LINE + 1


def blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


def header(draw: ImageDraw.ImageDraw, left: str, right: str = "", alarm: str = "") -> None:
    """Title at the left, a figure at the right; ``alarm`` replaces it, inverted."""
    draw_text(draw, (0, 0), fit(left, 84 if (right or alarm) else WIDTH))
    if alarm:
        w = text_width(alarm)
        draw.rectangle((WIDTH - w - 3, 0, WIDTH - 1, 7), fill=1)
        draw_text(draw, (WIDTH - w - 1, 0), alarm, fill=0)
    elif right:
        draw_text(draw, (WIDTH - text_width(right), 0), right)
    draw.line((0, 9, WIDTH - 1, 9), fill=1)


def hint(draw: ImageDraw.ImageDraw, text: str) -> None:
    draw_text(draw, (0, HINT), fit(text, WIDTH))


def icon_name(thing: object) -> str:
    """Icon of an Animal or a Face."""
    if isinstance(thing, Face):
        return thing.value
    return thing.key  # type: ignore[attr-defined]


def dim_icon(draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str) -> None:
    """An icon drawn at half the pixels (checkerboard): "none of these"."""
    draw.bitmap(xy, _dimmed(name), fill=1)


@lru_cache(maxsize=32)
def _dimmed(name: str) -> Image.Image:
    mask = icon_mask(name).copy()
    for y in range(SIZE):
        for x in range(SIZE):
            if (x + y) % 2:
                mask.putpixel((x, y), 0)
    return mask


def herd_grid(draw: ImageDraw.ImageDraw, herd: Herd, top: int = BODY) -> None:
    """The seven animals with their counts, four to a row; absent ones dimmed."""
    for i, animal in enumerate(ANIMALS):
        x, y = (i % 4) * 32, top + (i // 4) * 16
        n = herd[animal]
        if n:
            draw_icon(draw, (x, y), animal.key)
        else:
            dim_icon(draw, (x, y), animal.key)
        draw_text(draw, (x + SIZE + 2, y + 3), str(n))


def herd_row(draw: ImageDraw.ImageDraw, x: int, y: int, herd: Herd) -> int:
    """``count icon`` pairs left to right; returns the x after them."""
    for animal, n in herd.items():
        x = draw_text(draw, (x, y + 3), str(n)) + 1
        draw_icon(draw, (x, y), animal.key)
        x += SIZE + 3
    return x


def die(draw: ImageDraw.ImageDraw, xy: tuple[int, int], face: Face, red: bool,
        scale: int = 1) -> None:
    """A die showing ``face``: the green die has a thin border, the red one a thick border."""
    x, y = xy
    side = SIZE * scale + 6
    draw.rectangle((x, y, x + side - 1, y + side - 1), outline=1)
    if red:
        draw.rectangle((x + 1, y + 1, x + side - 2, y + side - 2), outline=1)
    draw_icon(draw, (x + 3, y + 3), face.value, scale)


def arrow(draw: ImageDraw.ImageDraw, x: int, y: int) -> int:
    """A small right arrow centred on row ``y``; returns the x after it."""
    draw.line((x, y, x + 5, y), fill=1)
    draw.line((x + 3, y - 2, x + 5, y), fill=1)
    draw.line((x + 3, y + 2, x + 5, y), fill=1)
    return x + 8


def save(image: Image.Image, path: Path, scale: int = 1) -> None:
    """Write a PNG atomically (temp file + rename)."""
    if scale != 1:
        image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    write_atomically(path, lambda fh: image.save(fh, format="PNG"))
