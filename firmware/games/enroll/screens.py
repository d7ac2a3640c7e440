"""The dice enrollment screens: pure functions from the enrollment session to a 128x64 image.

Texts come from the ``enroll`` catalogs (``firmware/box/i18n/<lang>/LC_MESSAGES/enroll.po``, read
directly: no compile step); the big icon of the face to show carries the meaning.

    python -m farmbox.firmware.games.enroll.screens            # tests/enroll_box/reference + docs/screens (3x)
    python -m farmbox.firmware.games.enroll.screens --out DIR  # write them somewhere else
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.canvas import BODY, WIDTH, blank, header, hint
from farmbox.firmware.box.drawing.font import LINE, draw_text, draw_text_centred, fit, text_width
from farmbox.firmware.box.drawing.icons import SIZE, draw_icon
from farmbox.firmware.box.i18n import po_translator
from farmbox.firmware.games.enroll.session import EnrollSession, Phase, die_crop, weak_faces

Translate = Callable[[str], str]
DOMAIN = "enroll"
#: Left column (big icon or photo) width; texts start right of it.
TEXT_X = 44
THUMB = 42


@cache
def translator(language: str = "en") -> Translate:
    """The enrollment texts in ``language``; a text missing from the catalog stays English."""
    return po_translator(DOMAIN, language, "enrollment")


# --- drawing pieces --------------------------------------------------------------

def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels (a word too long is cut)."""
    lines: list[str] = []
    for word in text.upper().split():
        if lines and text_width(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(fit(word, width))
    return lines


def _lines(draw: ImageDraw.ImageDraw, x: int, y: int, lines: list[str], most: int) -> int:
    for line in lines[:most]:
        draw_text(draw, (x, y), fit(line, WIDTH - x))
        y += LINE
    return y


def big_die(draw: ImageDraw.ImageDraw, xy: tuple[int, int], face: str, red: bool) -> None:
    """``face`` at 3x in a die frame: thin border green, double border red."""
    x, y = xy
    side = SIZE * 3 + 6
    draw.rectangle((x, y, x + side - 1, y + side - 1), outline=1)
    if red:
        draw.rectangle((x + 1, y + 1, x + side - 2, y + side - 2), outline=1)
    draw_icon(draw, (x + 3, y + 3), face, 3)


def bar(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fraction: float) -> None:
    x0, y0, x1, y1 = box
    fraction = min(1.0, max(0.0, fraction))
    draw.rectangle(box, outline=1)
    if fraction > 0:
        draw.rectangle((x0 + 2, y0 + 2, x0 + 2 + round((x1 - x0 - 4) * fraction), y1 - 2), fill=1)


_BAYER = np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]]) / 16 + 1 / 32


def dithered(grey: Image.Image) -> Image.Image:
    """A greyscale photo as 1-bit pixels: contrast stretched, ordered (Bayer) dither."""
    a = np.asarray(grey.convert("L"), np.float32)
    lo, hi = float(np.percentile(a, 2)), float(np.percentile(a, 98))
    a = np.clip((a - lo) / max(hi - lo, 1.0), 0, 1)
    h, w = a.shape
    threshold = np.tile(_BAYER, (h // 4 + 1, w // 4 + 1))[:h, :w]
    return Image.fromarray(((a > threshold) * 255).astype(np.uint8)).convert("1")


def _count(done: int, total: int) -> str:
    return f"{done}/{total}"


# --- the screens -----------------------------------------------------------------

def clear_table(tr: Translate, done: int, total: int, title: str = "ENROLL DICE") -> Image.Image:
    """First: clear the table, OK photographs it empty."""
    image, draw = blank()
    header(draw, tr(title), _count(done, total))
    draw_icon(draw, (2, BODY + 4), "camera", 3)
    _lines(draw, TEXT_X, BODY + 4, [tr("CLEAR THE TABLE"), tr("NOTHING ON IT:"),
                                    tr("A PHOTO OF IT")], 3)
    hint(draw, tr("OK:TAKE BACK:QUIT"))
    return image


def prompt(tr: Translate, face: str, die: str, number: int, of: int, done: int,
           total: int) -> Image.Image:
    """Which face of which die to put alone on the empty table next, its icon big."""
    image, draw = blank()
    header(draw, tr("RED DIE") if die == "red" else tr("GREEN DIE"), _count(done, total))
    big_die(draw, (0, BODY + 2), face, die == "red")
    y = _lines(draw, TEXT_X, BODY + 2, [tr("%s UP") % tr(face.upper()), tr("ALONE ON THE"),
                                        tr("EMPTY TABLE"), tr("PHOTO %d OF %d") % (number, of)], 4)
    bar(draw, (TEXT_X, y + 1, WIDTH - 1, y + 6), done / total if total else 0.0)
    hint(draw, tr("OK:TAKE HOLD:UNDO"))
    return image


def capturing(tr: Translate, done: int, total: int) -> Image.Image:
    """Waiting for a still table before the photo is taken."""
    image, draw = blank()
    header(draw, tr("TAKING PHOTO"), _count(done, total))
    draw_icon(draw, (2, BODY + 4), "camera", 3)
    _lines(draw, TEXT_X, BODY + 8, [tr("HANDS OFF"), tr("THE TABLE")], 2)
    hint(draw, tr("BACK:CANCEL"))
    return image


def review(tr: Translate, photo: Image.Image, face: str | None, die: str | None, done: int,
           total: int) -> Image.Image:
    """The photo just taken (the die, cropped and dithered): keep it or retake it."""
    image, draw = blank()
    header(draw, tr("KEEP THIS PHOTO?"), _count(done, total))
    thumb = dithered(photo)
    thumb.thumbnail((THUMB, THUMB))
    x, y = (THUMB - thumb.width) // 2, BODY + 1 + (THUMB - thumb.height) // 2
    image.paste(thumb, (x, y))
    draw.rectangle((0, BODY, THUMB + 1, BODY + THUMB + 1), outline=1)
    if face is None:
        _lines(draw, TEXT_X + 4, BODY + 10, wrap(tr("THE EMPTY TABLE"), WIDTH - TEXT_X - 4), 2)
    else:
        draw_icon(draw, (TEXT_X + 4, BODY + 2), face, 2)
        _lines(draw, TEXT_X + 4, BODY + 2 + 2 * SIZE + 2,
               [tr("%s UP") % tr(face.upper()), tr("RED DIE") if die == "red" else tr("GREEN DIE")], 2)
    hint(draw, tr("OK:KEEP BACK:RETAKE"))
    return image


def error(tr: Translate, message: str, detail: str = "") -> Image.Image:
    """Something went wrong (no die found, camera gone): any button retakes the step."""
    image, draw = blank()
    header(draw, tr("TRY AGAIN"))
    draw_icon(draw, (2, BODY + 4), "cross", 3)
    y = _lines(draw, TEXT_X, BODY + 2, wrap(tr(message), WIDTH - TEXT_X), 3)
    if detail:
        _lines(draw, TEXT_X, y + 1, wrap(detail, WIDTH - TEXT_X), max(0, 5 - (y - BODY - 2) // LINE))
    hint(draw, tr("ANY BUTTON: RETAKE"))
    return image


def building(tr: Translate, fraction: float, title: str = "LEARNING THE DICE") -> Image.Image:
    """Learning from the photos: a bar and a percentage."""
    image, draw = blank()
    header(draw, tr(title))
    fraction = min(1.0, max(0.0, fraction))
    bar(draw, (4, 28, WIDTH - 5, 38), fraction)
    draw_text_centred(draw, 44, f"{round(fraction * 100)}%")
    return image


def done(tr: Translate, photos: int, min_score: float, min_margin: float, still_weak: int = 0,
         unchecked: int = 0) -> Image.Image:
    """Model and photos written; the thresholds the leave-one-out reads of the photos set, and
    how the check of the photos went (weak photos kept as they are, photos it could not read)."""
    image, draw = blank()
    header(draw, tr("DICE ENROLLED"))
    draw_icon(draw, (2, BODY + 4), "cross" if still_weak else "star", 3)
    check = (tr("%d STILL WEAK") % still_weak if still_weak else
             tr("%d NOT CHECKED") % unchecked if unchecked else tr("ALL FACES CHECKED"))
    _lines(draw, TEXT_X, BODY + 2, [tr("%d PHOTOS") % photos, tr("ACCEPTS A FACE AT"),
                                    tr("SCORE >= %.2f") % min_score,
                                    tr("LEAD >= %.2f") % min_margin, check], 5)
    hint(draw, tr("ANY BUTTON: FINISH"))
    return image


def weak_face_names(tr: Translate, faces: list[tuple[str, str]], photos: list[int] | None = None
                    ) -> list[str]:
    """``(face, die)`` pairs as the check screen names them: "PIG, GREEN DIE" (with the count
    of its weak photos when more than one)."""
    names = []
    for i, (face, die) in enumerate(faces):
        on = tr("RED DIE") if die == "red" else tr("GREEN DIE")
        name = f"{tr(face.upper())}, {on}"
        count = photos[i] if photos else 1
        names.append(name if count < 2 else f"{name} ({count})")
    return names


def check(tr: Translate, names: list[str]) -> Image.Image:
    """Learned, but the leave-one-out check found weak photos: which faces, OK shoots them
    again, BACK keeps the model (the card enrollment's check screen)."""
    from farmbox.firmware.games.enroll.shot_screens import weak  # it draws on this module's pieces

    return weak(tr, names)


def render(session: EnrollSession, tr: Translate, fraction: float = 0.0) -> Image.Image:
    """The screen for the session's phase (``fraction``: how far learning is)."""
    n, total = session.progress()
    phase = session.phase
    if phase in (Phase.CLEAR, Phase.QUIT):
        return clear_table(tr, n, total)
    if phase is Phase.CAPTURE:
        return capturing(tr, n, total)
    if phase is Phase.ERROR:
        message, _, detail = session.error.partition("|")
        return error(tr, message, detail)
    if phase is Phase.BUILD:
        return building(tr, fraction)
    if phase is Phase.CHECK and session.learned is not None:
        faces = weak_faces(session.learned.weak)
        photos = [sum(1 for s in session.learned.weak if (s.face, s.die) == f) for f in faces]
        return check(tr, weak_face_names(tr, faces, photos))
    if phase is Phase.DONE and session.learned is not None:
        learned = session.learned
        return done(tr, learned.photos, learned.min_score, learned.min_margin,
                    len(weak_faces(learned.weak)), learned.unchecked)
    step = session.step
    if phase is Phase.REVIEW and session.capture is not None:
        face = None if session.capture.die is None else (step.face if step else None)
        return review(tr, die_crop(session.capture, THUMB * 2), face,
                      step.die if step and face else None, n, total)
    assert step is not None
    of = session.enrollment.plan.per_face
    return prompt(tr, step.face, step.die, step.number, of, n, total)


# --- reference pictures ------------------------------------------------------------

def example_photo() -> Image.Image:
    """A drawn stand-in for a die photo (not the renderer's, so the references stay put)."""
    photo = Image.new("L", (84, 84), 150)
    d = ImageDraw.Draw(photo)
    d.regular_polygon((42, 42, 34), 10, rotation=9, fill=70)
    d.regular_polygon((42, 42, 18), 5, rotation=20, fill=110, outline=230)
    d.ellipse((34, 34, 50, 48), fill=235)
    return photo


__all__ = ["building", "capturing", "check", "clear_table", "done", "error", "prompt",
           "render", "review", "translator", "weak_face_names"]
