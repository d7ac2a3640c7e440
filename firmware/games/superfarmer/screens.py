"""The Super Farmer screens: pure functions from game/session state to a 128x64 1-bit image.

Texts go through ``tr`` (gettext for the configured language); the icons carry the meaning.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from farmbox.firmware.box.drawing.canvas import (
    BODY,
    HINT,
    WIDTH,
    arrow,
    blank,
    die,
    header,
    herd_grid,
    herd_row,
    hint,
)
from farmbox.firmware.box.drawing.font import LINE, draw_text, fit
from farmbox.firmware.box.drawing.icons import SIZE, draw_icon
from farmbox.firmware.box.drawing.notices import camera_gone, journal_repaired, progress, table_view
from farmbox.firmware.box.i18n import Translate
from farmbox.firmware.box.names import seat_name
from farmbox.firmware.rules.superfarmer import Event, EventKind, Exchange
from farmbox.firmware.rules.superfarmer.dice import GREEN, RED, Face
from farmbox.firmware.rules.superfarmer.game import GameState
from farmbox.firmware.rules.superfarmer.herd import LIVESTOCK


def _alarm(tr: Translate, camera_ok: bool) -> str:
    return "" if camera_ok else tr("NO CAMERA")


def _farmer(tr: Translate, player: int, names: Sequence[str] = ()) -> str:
    """The farmer's name (names.json, in capitals) or "FARMER n"."""
    name = seat_name(names, player)
    return name.upper() if name else tr("FARMER %d") % (player + 1)


def farm(state: GameState, tr: Translate, camera_ok: bool = True,
         names: Sequence[str] = ()) -> Image.Image:
    """The current farm: its animals, how many of the five species it holds, what to press."""
    image, draw = blank()
    header(draw, _farmer(tr, state.current, names), tr("TURN %d") % (state.turns[state.current] + 1),
           _alarm(tr, camera_ok))
    herd_grid(draw, state.farm)
    # Progress towards a complete farm: one box per species, filled when held.
    x0, y0 = 96 + 2, BODY + 16 + 2
    for i, animal in enumerate(LIVESTOCK):
        x = x0 + i * 6
        draw.rectangle((x, y0, x + 4, y0 + 7), outline=1, fill=1 if state.farm[animal] else 0)
    hint(draw, tr("OK:DICE >:TRADE <:HERD") if not state.exchanged else tr("OK:DICE <:HERD"))
    return image


def stock(state: GameState, tr: Translate, camera_ok: bool = True) -> Image.Image:
    """The main herd."""
    image, draw = blank()
    header(draw, tr("MAIN HERD"), str(state.stock.size), _alarm(tr, camera_ok))
    herd_grid(draw, state.stock)
    hint(draw, tr("ANY BUTTON: BACK"))
    return image


def _events(draw, x: int, y: int, events: Sequence[Event], tr: Translate) -> None:
    shown = [e for e in events if e.animal is not None and e.kind is not EventKind.CAPPED]
    for i, e in enumerate(shown[:6]):
        sign = "+" if e.kind is EventKind.BRED else "-"
        ex, ey = (x, y + i * 14) if len(shown) <= 3 else (x + (i // 3) * 30, y + (i % 3) * 14)
        nx = draw_text(draw, (ex, ey + 3), f"{sign}{e.count}") + 1
        draw_icon(draw, (nx, ey), e.animal.key)  # type: ignore[union-attr]
        if e.kind is EventKind.DOG_USED and len(shown) <= 3:
            draw_text(draw, (nx + SIZE + 2, ey + 3), fit(tr("SAVED"), WIDTH - nx - SIZE - 2))
    if not shown:
        draw_text(draw, (x, y + 3), tr("NOTHING"))


def roll_result(state: GameState, tr: Translate, player: int | None = None,
                camera_ok: bool = True, names: Sequence[str] = ()) -> Image.Image:
    """The last roll: the two dice and what they did to the farm that rolled them."""
    image, draw = blank()
    who = player if player is not None else (state.current - 1) % state.players
    header(draw, _farmer(tr, who, names) + " " + tr("ROLL"), "", _alarm(tr, camera_ok))
    if state.last_roll is not None:
        die(draw, (2, BODY + 4), state.last_roll.green, red=False, scale=2)
        die(draw, (34, BODY + 4), state.last_roll.red, red=True, scale=2)
    _events(draw, 70, BODY, state.last_events, tr)
    hint(draw, tr("ANY BUTTON: NEXT FARMER"))
    return image


def predator(state: GameState, tr: Translate, player: int | None = None,
             camera_ok: bool = True, names: Sequence[str] = ()) -> Image.Image:
    """Fox and/or wolf came: the predator big, what was lost, or which dog saved the farm."""
    image, draw = blank()
    who = player if player is not None else (state.current - 1) % state.players
    kinds = {e.kind for e in state.last_events}
    saved = [e for e in state.last_events if e.kind is EventKind.DOG_USED]
    roll = state.last_roll
    came = [n for n, on in (("fox", roll is not None and roll.fox),
                            ("wolf", roll is not None and roll.wolf)) if on]
    title = " ".join(tr("FOX!") if n == "fox" else tr("WOLF!") for n in came)
    header(draw, _farmer(tr, who, names), title, _alarm(tr, camera_ok))
    scale = 3 if len(came) == 1 else 2
    for i, name in enumerate(came):
        draw_icon(draw, (2 + i * 26, BODY + 3), name, scale)
    x = 44 if len(came) == 1 else 56
    if saved and not (kinds & {EventKind.LOST_TO_FOX, EventKind.LOST_TO_WOLF}):
        draw_text(draw, (x, BODY + 1), fit(tr("THE DOG SAVED"), WIDTH - x))
        draw_text(draw, (x, BODY + 1 + LINE), fit(tr("THE FARM!"), WIDTH - x))
        for i, e in enumerate(saved):
            draw_icon(draw, (x + i * 16, BODY + 20), e.animal.key if e.animal else "star")
    else:
        losses = [e for e in state.last_events
                  if e.kind in (EventKind.LOST_TO_FOX, EventKind.LOST_TO_WOLF, EventKind.DOG_USED)]
        _events(draw, x, BODY, losses, tr)
    hint(draw, tr("ANY BUTTON: NEXT FARMER"))
    return image


def trade(state: GameState, menu: Sequence[object], cursor: int, tr: Translate,
          camera_ok: bool = True) -> Image.Image:
    """The exchange menu: three lines around the cursor, the advisor's pick starred."""
    image, draw = blank()
    offer = menu[cursor]
    title = tr("TRADE %d/%d") % (cursor + 1, len(menu))
    if getattr(offer, "partner", None) is not None:
        title += " " + tr("WITH %d") % (offer.partner + 1)  # type: ignore[attr-defined]
    header(draw, title, "", _alarm(tr, camera_ok))
    first = max(0, min(cursor - 1, len(menu) - 3))
    for row, i in enumerate(range(first, min(first + 3, len(menu)))):
        y = BODY + row * 15
        item = menu[i]
        if i == cursor:
            draw.rectangle((0, y - 1, 4, y + SIZE), fill=1)
        ex: Exchange = item.exchange  # type: ignore[attr-defined]
        x = herd_row(draw, 7, y, ex.gives)
        x = arrow(draw, x, y + 5)
        x = herd_row(draw, x, y, ex.takes)
        if getattr(item, "advised", False):  # the advisor's pick: a star at the right
            if x <= WIDTH - SIZE:
                draw_icon(draw, (WIDTH - SIZE, y), "star")
            else:
                draw_text(draw, (WIDTH - 3, y + 3), "*")
    hint(draw, tr("<> CHOOSE OK:TRADE BACK:NO"))
    return image


def consent(state: GameState, offer: object, tr: Translate,
            camera_ok: bool = True, names: Sequence[str] = ()) -> Image.Image:
    """Compact: the partner must agree on the buttons."""
    image, draw = blank()
    partner = offer.partner  # type: ignore[attr-defined]
    name = seat_name(names, partner)
    header(draw, (name.upper() + ", OK?") if name else tr("FARMER %d, OK?") % (partner + 1), "",
           _alarm(tr, camera_ok))
    ex: Exchange = offer.exchange  # type: ignore[attr-defined]
    draw_text(draw, (0, BODY + 2), fit(tr("YOU GET"), 40))
    herd_row(draw, 42, BODY, ex.gives)
    draw_text(draw, (0, BODY + 20), fit(tr("YOU GIVE"), 40))
    herd_row(draw, 42, BODY + 18, ex.takes)
    hint(draw, tr("OK:YES BACK:NO"))
    return image


def dice_entry(state: GameState, red: bool, index: int, green_face: Face | None,
               tr: Translate, camera_ok: bool = True, names: Sequence[str] = ()) -> Image.Image:
    """Enter a roll by hand: pick the green die's face, then the red one's."""
    image, draw = blank()
    faces = (RED if red else GREEN).distinct()
    header(draw, tr("RED DIE") if red else tr("GREEN DIE"), _farmer(tr, state.current, names),
           _alarm(tr, camera_ok))
    for i, face in enumerate(faces):
        x = 1 + i * 25
        draw_icon(draw, (x + 1, BODY + 6), face.value, 2)
        if i == index:
            draw.rectangle((x - 1, BODY + 4, x + 26, BODY + 31), outline=1)
            if red:
                draw.rectangle((x, BODY + 5, x + 25, BODY + 30), outline=1)
    if green_face is not None:
        draw_icon(draw, (WIDTH - SIZE, HINT - SIZE - 3), green_face.value)
    hint(draw, tr("<> CHOOSE OK:NEXT"))
    return image


def confirm(state: GameState, faces: tuple[Face, Face], confidence: float, tr: Translate,
            camera_ok: bool = True, names: Sequence[str] = ()) -> Image.Image:
    """The camera is unsure: is this the roll?"""
    image, draw = blank()
    header(draw, tr("IS THIS THE ROLL?"), _farmer(tr, state.current, names), _alarm(tr, camera_ok))
    die(draw, (2, BODY + 4), faces[0], red=False, scale=2)
    die(draw, (34, BODY + 4), faces[1], red=True, scale=2)
    draw_text(draw, (70, BODY + 6), fit(tr("SURE %d%%") % round(confidence * 100), 58))
    draw_text(draw, (70, BODY + 20), "?", 1)
    hint(draw, tr("OK:YES <>:FIX"))
    return image


def winner(state: GameState, tr: Translate, camera_ok: bool = True,
           names: Sequence[str] = ()) -> Image.Image:
    """A complete farm: the winner (and the places so far when playing on)."""
    image, draw = blank()
    first = state.winner if state.winner is not None else 0
    header(draw, tr("WINNER"), "", _alarm(tr, camera_ok))
    draw_icon(draw, (2, BODY + 2), "star", 3)
    draw_text(draw, (44, BODY + 2), fit(_farmer(tr, first, names), WIDTH - 44))
    draw_text(draw, (44, BODY + 2 + LINE), fit(tr("WINS!"), WIDTH - 44))
    for i, animal in enumerate(LIVESTOCK):
        draw_icon(draw, (44 + i * 16, BODY + 4 + 2 * LINE), animal.key)
    if len(state.places) > 1:
        places = " ".join(f"{n + 1}.P{p + 1}" for n, p in enumerate(state.places))
        draw_text(draw, (0, HINT - LINE), fit(places, WIDTH))
    hint(draw, tr("OK:NEW GAME") if state.over else tr("ANY BUTTON: PLAY ON"))
    return image


def new_game(tr: Translate) -> Image.Image:
    image, draw = blank()
    header(draw, tr("NEW GAME?"))
    for i, animal in enumerate(LIVESTOCK):
        draw_icon(draw, (20 + i * 18, BODY + 10), animal.key)
    hint(draw, tr("OK:YES BACK:NO"))
    return image


__all__ = ["camera_gone", "confirm", "consent", "dice_entry", "farm", "journal_repaired",
           "new_game", "predator", "progress", "roll_result", "stock", "table_view", "trade",
           "winner"]
