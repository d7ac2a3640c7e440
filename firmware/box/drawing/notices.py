"""Screens every game shows: the camera is gone, the journal was repaired, long work's
progress, the table view's address (with a QR code to scan)."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.canvas import BODY, WIDTH, blank, header, hint
from farmbox.firmware.box.drawing.font import LINE, draw_text, draw_text_centred, fit
from farmbox.firmware.box.drawing.icons import draw_icon
from farmbox.firmware.box.i18n import Translate


def camera_gone(tr: Translate, detail: str = "") -> Image.Image:
    """The camera stopped answering: the buttons still work."""
    image, draw = blank()
    header(draw, tr("CAMERA GONE"))
    draw_icon(draw, (2, BODY + 2), "camera", 3)
    draw_icon(draw, (2 + 12, BODY + 2 + 12), "cross")
    draw_text(draw, (42, BODY + 4), fit(tr("ENTER DICE"), WIDTH - 42))
    draw_text(draw, (42, BODY + 4 + LINE), fit(tr("WITH BUTTONS"), WIDTH - 42))
    if detail:
        draw_text(draw, (42, BODY + 6 + 2 * LINE), fit(detail, WIDTH - 42))
    hint(draw, tr("ANY BUTTON: OK"))
    return image


def journal_repaired(tr: Translate, dropped: int, seq: int) -> Image.Image:
    """The journal's torn/corrupt tail was cut off; the game resumes from the last good record."""
    image, draw = blank()
    header(draw, tr("JOURNAL REPAIRED"))
    draw_icon(draw, (2, BODY + 2), "cross", 3)
    draw_text(draw, (42, BODY + 4), fit(tr("DROPPED: %d") % dropped, WIDTH - 42))
    draw_text(draw, (42, BODY + 4 + LINE), fit(tr("RESUMED: #%d") % seq, WIDTH - 42))
    hint(draw, tr("ANY BUTTON: OK"))
    return image


def journal_not_saved(tr: Translate, disk_full: bool, seq: int) -> Image.Image:
    """The last action could not be written (disk full, I/O error): it is retried, the game
    waits; nothing is lost (the table's state is the last saved record ``seq``)."""
    image, draw = blank()
    header(draw, tr("NOT SAVED"))
    draw_icon(draw, (2, BODY + 2), "cross", 3)
    draw_text(draw, (42, BODY + 4), fit(tr("DISK FULL" if disk_full else "DISK ERROR"), WIDTH - 42))
    draw_text(draw, (42, BODY + 4 + LINE), fit(tr("RESUMED: #%d") % seq, WIDTH - 42))
    hint(draw, tr("RETRYING..."))
    return image


def progress(tr: Translate, title: str, fraction: float) -> Image.Image:
    """Long work (replaying a journal): a bar and a percentage."""
    image, draw = blank()
    header(draw, fit(title, WIDTH))
    fraction = min(1.0, max(0.0, fraction))
    draw.rectangle((4, 28, WIDTH - 5, 38), outline=1)
    draw.rectangle((6, 30, 6 + round((WIDTH - 13) * fraction), 36), fill=1)
    draw_text_centred(draw, 44, f"{round(fraction * 100)}%")
    return image


#: A QR module is drawn this many pixels wide when the code fits the screen's height so.
QR_MODULE = 2
#: Lit modules kept around the code (the QR quiet zone; 4 by the standard, 2 is scanned fine
#: and leaves room for a bigger module), at least.
QR_QUIET = 2


@lru_cache(maxsize=4)
def qr_code(text: str) -> tuple[Image.Image, int]:
    """``text`` as a QR code, dark modules on a lit square of the OLED's height, and the
    pixels per module: :data:`QR_MODULE` when the code fits (a short URL does, version 2),
    else 1 (still one pixel per module, never blurred). Made once per text (the screen is
    redrawn on every button press): the image is shared, never to be drawn on."""
    import segno  # only a box that serves its table view draws a QR code

    code = segno.make_qr(text, error="L", boost_error=True)
    matrix = code.matrix
    n = len(matrix)
    side = 64
    scale = QR_MODULE if n * QR_MODULE + 2 * QR_QUIET * QR_MODULE <= side else 1
    if n * scale + 2 * QR_QUIET * scale > side:
        raise ValueError(f"{text!r} is too long for a QR code on the screen")
    image = Image.new("1", (side, side), 1)
    offset = (side - n * scale) // 2
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = offset + x * scale, offset + y * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)
    return image, scale


def table_view(tr: Translate, url: str | None) -> Image.Image:
    """The table view's address: a QR code to scan on the left, the URL spelt out on the
    right (host and port on lines of their own); "off" when the box serves none."""
    image, draw = blank()
    if url is None:
        header(draw, tr("TABLE VIEW"))
        draw_text(draw, (2, BODY + 6), fit(tr("OFF: NO WEB PORT"), WIDTH - 2))
        hint(draw, tr("ANY BUTTON: OK"))
        return image
    code, _ = qr_code(url)
    image.paste(code, (0, 0))
    parts = urlsplit(url)
    x = code.width + 3
    room = WIDTH - x
    lines = [tr("TABLE VIEW"), "", (parts.scheme + "://").upper(), (parts.hostname or "").upper(),
             f":{parts.port}" if parts.port else "", "", tr("SCAN ME")]
    for i, line in enumerate(lines):
        if line:
            draw_text(draw, (x, 1 + i * LINE), fit(line, room))
    draw.line((x, LINE, WIDTH - 1, LINE), fill=1)
    return image
