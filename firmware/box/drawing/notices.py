"""Screens every game shows: the camera is gone, the journal was repaired, long work's progress."""

from __future__ import annotations

from PIL import Image

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
