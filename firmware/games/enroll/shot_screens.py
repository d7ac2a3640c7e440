"""The card and colour-dice enrollment screens: pure functions from a shot session to a
128x64 image (texts from the ``enroll`` catalogs, like the dice enrollment's screens).

    python -m tests.enroll_box.gallery   # tests/enroll_box/reference + docs/screens (3x)
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.canvas import BODY, WIDTH, blank, header, hint
from farmbox.firmware.box.drawing.font import LINE, draw_text, fit
from farmbox.firmware.box.drawing.icons import draw_icon
from farmbox.firmware.games.enroll.screens import (
    TEXT_X,
    THUMB,
    Translate,
    _lines,
    bar,
    building,
    capturing,
    clear_table,
    dithered,
    error,
    review,
    wrap,
)
from farmbox.firmware.games.enroll.shots import Phase, ShotSession, Subject, crop

#: The titles of each kind of enrollment: (enrolling, learning, enrolled).
TITLES = {
    "cards": ("ENROLL CARDS", "LEARNING THE CARDS", "CARDS ENROLLED"),
    "colour-dice": ("ENROLL COLOUR DICE", "LEARNING THE COLOURS", "COLOURS ENROLLED"),
}
#: Weak subjects listed on the check screen at most (the rest are counted).
LISTED = 4


def _count(done: int, total: int) -> str:
    return f"{done}/{total}"


def _picture(draw: ImageDraw.ImageDraw, image: Image.Image, subject: Subject) -> None:
    """The subject's own picture in a 42x42 frame at the left (a camera icon without one)."""
    top = BODY + 2
    draw.rectangle((0, top, THUMB - 1, top + THUMB - 1), outline=1)
    if subject.picture is None:
        draw_icon(draw, (3, top + 3), "camera", 3)
        return
    pic = subject.picture.convert("1")
    pic.thumbnail((THUMB - 4, THUMB - 4))
    image.paste(pic, ((THUMB - pic.width) // 2, top + (THUMB - pic.height) // 2))


def prompt(tr: Translate, kind: str, subject: Subject, number: int, of: int, done: int,
           total: int) -> Image.Image:
    """Which card (or colour up on which die) to put alone on the table next."""
    image, draw = blank()
    header(draw, tr(TITLES[kind][0]), _count(done, total))
    _picture(draw, image, subject)
    y = _lines(draw, TEXT_X, BODY + 2, [subject.name, tr("ALONE ON THE"), tr("TABLE"),
                                        tr("PHOTO %d OF %d") % (number, of)], 4)
    bar(draw, (TEXT_X, y + 1, WIDTH - 1, y + 6), done / total if total else 0.0)
    hint(draw, tr("OK:TAKE HOLD:UNDO"))
    return image


def review_shot(tr: Translate, photo: Image.Image, subject: Subject, done: int,
                total: int) -> Image.Image:
    """The photo just taken, cropped round what was found: keep it or retake it."""
    image, draw = blank()
    header(draw, tr("KEEP THIS PHOTO?"), _count(done, total))
    thumb = dithered(photo)
    thumb.thumbnail((THUMB, THUMB))
    image.paste(thumb, ((THUMB - thumb.width) // 2, BODY + 1 + (THUMB - thumb.height) // 2))
    draw.rectangle((0, BODY, THUMB + 1, BODY + THUMB + 1), outline=1)
    _lines(draw, TEXT_X + 4, BODY + 4, wrap(subject.name, WIDTH - TEXT_X - 4), 4)
    hint(draw, tr("OK:KEEP BACK:RETAKE"))
    return image


def weak(tr: Translate, names: list[str]) -> Image.Image:
    """The leave-one-out check found weak subjects: shoot them again, or keep the model."""
    image, draw = blank()
    header(draw, tr("SHOOT AGAIN?"), tr("%d WEAK") % len(names))
    shown = names if len(names) <= LISTED else names[:LISTED - 1]
    lines = [fit(n, WIDTH) for n in shown]
    if len(shown) < len(names):
        lines.append(tr("AND %d MORE") % (len(names) - len(shown)))
    y = BODY + 1
    for line in lines:
        draw_text(draw, (0, y), line)
        y += LINE + 1
    hint(draw, tr("OK:REDO BACK:KEEP"))
    return image


def done(tr: Translate, kind: str, subjects: int, photos: int, still_weak: int) -> Image.Image:
    """Model and photos written; how the check went."""
    image, draw = blank()
    header(draw, tr(TITLES[kind][2]))
    draw_icon(draw, (2, BODY + 4), "star" if not still_weak else "cross", 3)
    first = tr("%d CARDS") % subjects if kind == "cards" else tr("%d COLOURS") % subjects
    check = tr("ALL PASS THE CHECK") if not still_weak else tr("%d STILL WEAK") % still_weak
    _lines(draw, TEXT_X, BODY + 2, [first, tr("%d PHOTOS") % photos, *wrap(check, WIDTH - TEXT_X)], 4)
    hint(draw, tr("ANY BUTTON: FINISH"))
    return image


def learning(tr: Translate, kind: str, fraction: float) -> Image.Image:
    """Learning from the photos: a bar and a percentage."""
    return building(tr, fraction, TITLES[kind][1])


def render(session: ShotSession, tr: Translate) -> Image.Image:
    """The screen for the session's phase."""
    n, total = session.progress()
    phase, kind = session.phase, session.reader.kind
    if phase in (Phase.CLEAR, Phase.QUIT) and session.reader.wants_table:
        return clear_table(tr, n, total, TITLES[kind][0])
    if phase is Phase.CAPTURE:
        return capturing(tr, n, total)
    if phase is Phase.ERROR:
        message, _, detail = session.error.partition("|")
        return error(tr, message, detail)
    if phase is Phase.BUILD:
        return learning(tr, kind, session.fraction)
    if phase is Phase.CHECK:
        return weak(tr, [s.name for s in session.weak])
    if phase is Phase.DONE and session.learned is not None:
        return done(tr, kind, len(session.subjects), session.learned.photos, len(session.weak))
    step = session.step
    if phase is Phase.REVIEW and session.capture is not None:
        if step is None or session.background is None and session.reader.wants_table:
            return review(tr, crop(session.capture, THUMB * 2), None, None, n, total)
        return review_shot(tr, crop(session.capture, THUMB * 2), step.subject, n, total)
    if step is None:  # every photo kept: learning starts
        return learning(tr, kind, 0.0)
    return prompt(tr, kind, step.subject, step.number, session.per_subject, n, total)


def example_card() -> Image.Image:
    """A drawn stand-in for a card's picture (for the reference screens)."""
    pic = Image.new("1", (38, 38), 0)
    d = ImageDraw.Draw(pic)
    d.rounded_rectangle((6, 1, 31, 36), radius=3, outline=1)
    d.ellipse((11, 8, 26, 20), outline=1)
    d.rectangle((10, 25, 16, 31), fill=1)
    d.rectangle((21, 25, 27, 31), outline=1)
    return pic


__all__ = ["TITLES", "done", "example_card", "learning", "prompt", "render", "review_shot", "weak"]

