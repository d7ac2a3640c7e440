"""The card game's screens: pure functions from the scorekeeper to a 128x64 1-bit image.

Built from the dice game's canvas, font and icons; texts come from the ``cardgame`` catalogs
(``firmware/box/i18n/<lang>/LC_MESSAGES/cardgame.po``, read directly: no compile step).
Farmers are F1..F6 in seat order (clockwise from round 1's first farmer).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing.canvas import BODY, HINT, WIDTH, blank, header, hint
from farmbox.firmware.box.drawing.font import LINE, draw_text, fit, text_width
from farmbox.firmware.box.i18n import po_translator
from farmbox.firmware.box.names import seat_name
from farmbox.firmware.games.cardgame.icons import SIZE, draw_card_icon
from farmbox.firmware.games.cardgame.session import (
    SETUP_CHOICES,
    Entry,
    Phase,
    Question,
    Scorekeeper,
    Setup,
    TableState,
    setup_choices,
    winners,
)
from farmbox.firmware.rules.cardgame import Animal, Tally
from farmbox.firmware.rules.cardgame.scoring import Attack, ColumnScore, WaterScore

Translate = Callable[[str], str]
DOMAIN = "cardgame"


@cache
def translator(language: str = "en") -> Translate:
    """The card game's texts in ``language``; a text missing from the catalog stays English."""
    return po_translator(DOMAIN, language, "card game")


# --- drawing pieces --------------------------------------------------------------

def big_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, scale: int) -> int:
    """``text`` in the small font blown up ``scale`` times; returns the x after it."""
    width = max(1, text_width(text))
    small = Image.new("1", (width, LINE - 1), 0)
    draw_text(ImageDraw.Draw(small), (0, 0), text)
    draw.bitmap(xy, small.resize((width * scale, (LINE - 1) * scale), Image.Resampling.NEAREST), fill=1)
    return xy[0] + width * scale


#: Our own 5x7 digits for the numbers being entered (the small font's 3x5 ones blur at scale).
_DIGITS = {
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
}


@lru_cache(maxsize=64)
def _number_mask(text: str, scale: int) -> Image.Image:
    mask = Image.new("1", (6 * len(text) - 1, 7), 0)
    for i, ch in enumerate(text):
        for y, row in enumerate(_DIGITS[ch].split("|")):
            for x, c in enumerate(row):
                if c == "#":
                    mask.putpixel((i * 6 + x, y), 1)
    return mask.resize((mask.width * scale, 7 * scale), Image.Resampling.NEAREST)


def big_number(draw: ImageDraw.ImageDraw, value: int, right: int = WIDTH - 1,
               top: int = BODY + 4, scale: int = 4) -> None:
    """A number right-aligned at ``right``, big enough to read across the table."""
    mask = _number_mask(str(value), scale)
    draw.bitmap((right - mask.width + 1, top), mask, fill=1)


def _round(tr: Translate, state: TableState) -> str:
    return tr("ROUND %d/2") % state.round


def _farmer(tr: Translate, seat: int, names: Sequence[str] = ()) -> str:
    """The farmer's name (names.json, in capitals) or "FARMER n"."""
    name = seat_name(names, seat)
    return name.upper() if name else tr("FARMER %d") % (seat + 1)


def farmer_grid(draw: ImageDraw.ImageDraw, x0: int, items: Sequence[str],
                marked: Sequence[int] = (), top: int = BODY + 1) -> None:
    """Up to six short lines in two columns of three; ``marked`` ones inverted."""
    for i, text in enumerate(items):
        x, y = x0 + (i // 3) * ((WIDTH - x0) // 2), top + (i % 3) * (LINE + 1)
        text = fit(text, (WIDTH - x0) // 2 - 3)
        if i in marked:
            draw.rectangle((x - 1, y - 1, x + text_width(text), y + LINE - 1), fill=1)
            draw_text(draw, (x, y), text, fill=0)
        else:
            draw_text(draw, (x, y), text)


def _summary(draw: ImageDraw.ImageDraw, text: str) -> None:
    draw_text(draw, (0, HINT - LINE - 1), fit(text, WIDTH))


# --- setup --------------------------------------------------------------------------

SETUP_LABELS = {"players": "FARMERS", "advanced_water": "WATER", "predators": "PREDATORS",
                "teams": "TEAMS"}


def setup_value(tr: Translate, option: str, value: object) -> str:
    if option == "players":
        return str(value)
    if option == "advanced_water":
        return tr("ADVANCED") if value else tr("BASIC")
    if option == "predators":
        return {"off": tr("OFF"), "token": tr("TOKEN"), "hard": tr("BOTH")}[str(value)]
    return {0: tr("NO TEAMS"), 2: tr("PAIRS"), 3: tr("THREES")}[int(value)]  # type: ignore[call-overload]


def setup(draft: Setup, option: int, tr: Translate) -> Image.Image:
    """One mode option at game start: its name, its value big, what the arrows do."""
    image, draw = blank()
    names = list(SETUP_CHOICES)
    name = names[option]
    header(draw, tr("NEW CARD GAME"), f"{option + 1}/{len(names)}")
    draw_text(draw, (0, BODY + 2), fit(tr(SETUP_LABELS[name]), WIDTH))
    value = getattr(draft, name)
    if value not in setup_choices(name, draft.players):
        value = setup_choices(name, draft.players)[0]
    text = setup_value(tr, name, value)
    scale = 3 if text_width(text) * 3 <= WIDTH - 30 else 2
    big_text(draw, (0, BODY + 13), text, scale)
    icon = {"players": "chicken", "advanced_water": "water", "predators": "fox",
            "teams": "dog"}[name]
    draw_card_icon(draw, (WIDTH - 2 * SIZE, BODY + 10), icon, 2)
    hint(draw, tr("<> CHANGE OK:NEXT"))
    return image


# --- entry --------------------------------------------------------------------------

FIELD_LABELS = {"cards": "CARDS", "icons": "ANIMAL ICONS", "dogs": "DOG ICONS",
                "water": "WATER ICONS", "cats": "CATS"}
FIELD_ICONS = {"cards": "card", "dogs": "dog", "water": "water", "cats": "cat"}


def _progress(draw: ImageDraw.ImageDraw, setup_: Setup, q: Question) -> None:
    """A box per column under the big icon: filled once entered, dotted = now."""
    assert q.animal is not None
    now = setup_.animals.index(q.animal)
    y = HINT - 7
    for i in range(len(setup_.animals)):
        x = i * 6
        draw.rectangle((x, y, x + 4, y + 4), outline=1, fill=1 if i < now else 0)
        if i == now:
            draw.point((x + 2, y + 2), fill=1)


def count_entry(state: TableState, entry: Entry, q: Question, value: int,
                tr: Translate, names: Sequence[str] = ()) -> Image.Image:
    """One number of one column: whose farm, the column's animal big, what to count, the number."""
    image, draw = blank()
    header(draw, _farmer(tr, q.seat, names), _round(tr, state))
    assert q.animal is not None
    draw_card_icon(draw, (0, BODY + 1), q.animal.value, 3)
    if q.field == "icons":
        for dx, dy in ((40, BODY + 4), (52, BODY + 4), (46, BODY + 16)):
            draw_card_icon(draw, (dx, dy), q.animal.value)
    else:
        draw_card_icon(draw, (40, BODY + 4), FIELD_ICONS[q.field], 2)
    draw_text(draw, (40, BODY + 31), fit(tr(FIELD_LABELS[q.field]), 88))
    big_number(draw, value, top=BODY + 2)
    _progress(draw, state.setup, q)
    hint(draw, tr("<> -/+ OK:NEXT BACK:UNDO"))
    return image


def cabbage_entry(state: TableState, q: Question, value: int, tr: Translate,
                  names: Sequence[str] = ()) -> Image.Image:
    image, draw = blank()
    header(draw, _farmer(tr, q.seat, names), _round(tr, state))
    draw_card_icon(draw, (0, BODY + 1), "cabbage", 3)
    draw_text(draw, (40, BODY + 4), fit(tr("CABBAGE POINTS"), 88))
    draw_text(draw, (40, BODY + 4 + LINE), fit(tr("THIS ROUND"), 88))
    big_number(draw, value, top=BODY + 2 + 2 * LINE, scale=3)
    hint(draw, tr("<> -/+ OK:NEXT BACK:UNDO"))
    return image


def token_entry(state: TableState, value: int, tr: Translate) -> Image.Image:
    """Which face the predator token showed this round."""
    image, draw = blank()
    header(draw, tr("PREDATOR TOKEN"), _round(tr, state))
    for i, name in enumerate(("fox", "wolf")):
        x = 14 + i * 64
        draw_card_icon(draw, (x, BODY + 3), name, 3)
        if i == value:
            draw.rectangle((x - 3, BODY + 1, x + 38, BODY + 40), outline=1)
    hint(draw, tr("<> CHOOSE OK:NEXT"))
    return image


def confirm(state: TableState, entry: Entry, q: Question, tr: Translate,
            names: Sequence[str] = ()) -> Image.Image:
    """A farmer's whole entry at a glance before it is confirmed."""
    image, draw = blank()
    name = seat_name(names, q.seat)
    header(draw, (name.upper() + ", OK?") if name else tr("FARMER %d, OK?") % (q.seat + 1),
           _round(tr, state))
    farm = entry.farms[q.seat]
    for i, col in enumerate(farm.columns):
        x, y = (i % 3) * 43, BODY + (i // 3) * 14
        draw_card_icon(draw, (x, y), col.animal.value)
        text = str(col.icons + col.cats)
        if col.dogs:
            text += f" D{col.dogs}"
        if col.water:
            text += f" W{col.water}"
        draw_text(draw, (x + SIZE + 1, y + 3), fit(text, 43 - SIZE - 2))
    if not farm.columns:
        draw_text(draw, (0, BODY + 3), tr("NO COLUMNS"))
    y = BODY + 29
    draw_card_icon(draw, (0, y), "cabbage")
    draw_text(draw, (SIZE + 1, y + 3), f"+{farm.cabbage}")
    cats = sum(c.cats for c in farm.columns)
    if cats:
        draw_card_icon(draw, (43, y), "cat")
        draw_text(draw, (43 + SIZE + 1, y + 3), str(cats))
    hint(draw, tr("OK:YES BACK:FIX"))
    return image


def prey_entry(state: TableState, q: Question, value: int, tr: Translate,
               names: Sequence[str] = ()) -> Image.Image:
    """The card a farmer gave up to a predator: its animal icons, then its water icons."""
    image, draw = blank()
    assert q.predator is not None and q.animal is not None
    header(draw, _farmer(tr, q.seat, names), tr("FOX!") if q.predator.value == "fox" else tr("WOLF!"))
    draw_card_icon(draw, (0, BODY + 1), q.predator.value, 2)
    draw_card_icon(draw, (28, BODY + 1), q.animal.value, 2)
    draw_text(draw, (0, BODY + 27), fit(tr("CARD GIVEN UP:"), 80))
    label = tr("ANIMAL ICONS") if q.field == "icons" else tr("WATER ICONS")
    draw_text(draw, (0, BODY + 27 + LINE), fit(label, 80))
    big_number(draw, value, top=BODY + 2)
    hint(draw, tr("<> -/+ OK:NEXT BACK:UNDO"))
    return image


# --- the breakdown --------------------------------------------------------------------

def _names(n: int) -> list[str]:
    return [f"F{i + 1}" for i in range(n)]


def _seats(names: Sequence[str], chosen: Sequence[str]) -> list[int]:
    return [i for i, n in enumerate(names) if n in chosen]


def attack_page(a: Attack, names: Sequence[str], tr: Translate) -> Image.Image:
    image, draw = blank()
    draw_card_icon(draw, (0, BODY + 1), a.predator.value, 2)
    draw_card_icon(draw, (6, BODY + 26), a.animal.value)
    farmer_grid(draw, 30, [f"{n} {tr('D')}{a.dogs[n]}" for n in names], _seats(names, a.attacked))
    if not a.attacked:
        _summary(draw, tr("SAME DOGS: NO ATTACK"))
    else:
        lost = [n for n in a.attacked if n in a.lost]
        _summary(draw, (" ".join(lost) + " " + tr("LOSE A CARD")) if lost
                 else tr("NOTHING TO LOSE"))
    return image


def column_page(c: ColumnScore, names: Sequence[str], tr: Translate) -> Image.Image:
    image, draw = blank()
    draw_card_icon(draw, (0, BODY + 1), c.animal.value, 2)
    farmer_grid(draw, 30, [f"{n} {c.icons[n]}" for n in names], _seats(names, c.leaders))
    _summary(draw, " ".join(c.leaders) + f" +{c.points}")
    return image


def water_page(w: WaterScore, names: Sequence[str], tr: Translate) -> Image.Image:
    image, draw = blank()
    draw_card_icon(draw, (0, BODY + 1), "water", 2)
    farmer_grid(draw, 30, [f"{n} +{w.points[n]}" for n in names],
                [i for i, n in enumerate(names) if w.points[n]])
    if w.declared is not None:
        best = max(w.declared.values(), default=0)
        _summary(draw, tr("ADVANCED: BEST %d") % best if best else tr("ADVANCED: ALL 0"))
    else:
        _summary(draw, tr("+1 PER WATER ICON"))
    return image


def cats_page(cats: dict[str, int], names: Sequence[str], tr: Translate) -> Image.Image:
    image, draw = blank()
    draw_card_icon(draw, (0, BODY + 1), "cat", 2)
    farmer_grid(draw, 30, [f"{n} {-cats[n]}" for n in names],
                [i for i, n in enumerate(names) if cats[n]])
    _summary(draw, tr("-1 PER CAT"))
    return image


def totals_page(t: Tally, names: Sequence[str], tr: Translate) -> Image.Image:
    image, draw = blank()
    draw_card_icon(draw, (0, BODY + 1), "star", 2)
    farmer_grid(draw, 30, [f"{n} {t.totals[n]}" for n in names])
    gains = "  ".join(f"{n}+{t.totals[n] - t.before[n] + t.cabbage[n]}" for n in names)
    _summary(draw, gains)
    return image


def breakdown(keeper: Scorekeeper, tr: Translate) -> Image.Image:
    """One page of the round's scoring: a predator attack, a column, water, cats, totals."""
    state = keeper.state
    assert state is not None
    pages = keeper.pages()
    page = min(keeper.page, len(pages) - 1)
    kind, item = pages[page]
    names = state.setup.names
    if kind == "attack":
        image = attack_page(item, names, tr)
    elif kind == "column":
        image = column_page(item, names, tr)
    elif kind == "water":
        image = water_page(item, names, tr)
    elif kind == "cats":
        image = cats_page(item, names, tr)
    else:
        image = totals_page(item, names, tr)
    draw = ImageDraw.Draw(image)
    header(draw, tr("ROUND %d SCORING") % state.round, f"{page + 1}/{len(pages)}")
    hint(draw, tr("<> PAGE OK:TO THE TRACK") if page == len(pages) - 1
         else tr("<> PAGE OK:NEXT BACK:FIX"))
    return image


# --- the track and the winner -------------------------------------------------------------

def track_end(scores: Sequence[int]) -> int:
    """The track drawn from 0 to this: at least 40, else the best score rounded up to 10."""
    return max(40, math.ceil(max(scores, default=0) / 10) * 10)


def scoreboard(state: TableState, tr: Translate) -> Image.Image:
    """The score track: one lane per farmer (or team), its marker and its total."""
    image, draw = blank()
    done = len(state.results)
    header(draw, tr("SCOREBOARD"), tr("AFTER ROUND %d") % done if done else _round(tr, state))
    scores = state.scores
    teams = state.setup.team_seats
    lanes = ([(chr(ord("A") + i), sum(scores[s] for s in t)) for i, t in enumerate(teams)]
             if teams else [(f"F{i + 1}", s) for i, s in enumerate(scores)])
    end = track_end([v for _, v in lanes])
    step = min(10, (HINT - BODY - 2) // len(lanes))
    left, right = 10, WIDTH - 16
    for i, (label, value) in enumerate(lanes):
        y = BODY + 1 + i * step
        draw_text(draw, (0, y), label)
        mid = y + 3
        draw.line((left, mid, right, mid), fill=1)
        for tick in range(0, end + 1, 10):
            x = left + round(tick * (right - left) / end)
            draw.line((x, mid - 1, x, mid + 1), fill=1)
        x = left + round(min(value, end) * (right - left) / end)
        draw.rectangle((x - 1, mid - 3, x + 1, mid + 2), fill=1)
        number = str(value)
        draw_text(draw, (WIDTH - text_width(number), y), number)
    if teams:
        legend = " ".join(chr(ord("A") + i) + "=" + "+".join(f"F{s + 1}" for s in t)
                          for i, t in enumerate(teams))
        _summary(draw, legend)
    hint(draw, tr("ANY BUTTON: BACK") if state.over else tr("OK: ENTER ROUND %d") % state.round)
    return image


def winner(state: TableState, tr: Translate) -> Image.Image:
    """After round 2: who won, with how many points, and which tie-break decided."""
    image, draw = blank()
    seats, how = winners(state)
    header(draw, tr("WINNER"))
    draw_card_icon(draw, (0, BODY + 2), "star", 3)
    who = " ".join(f"F{s + 1}" for s in seats)
    draw_text(draw, (42, BODY + 2), fit(who, WIDTH - 42))
    draw_text(draw, (42, BODY + 2 + LINE),
              fit(tr("WINS!") if len(seats) == 1 else tr("WIN!"), WIDTH - 42))
    last = state.results[-1]
    team = state.setup.team_seats
    points = (sum(last.totals[s] for t in team if seats[0] in t for s in t) if team
              else last.totals[seats[0]])
    draw_text(draw, (42, BODY + 2 + 2 * LINE), fit(tr("%d POINTS") % points, WIDTH - 42))
    if how == "longest":
        _summary(draw, tr("TIE: LONGEST COLUMN %d") % max(last.longest[s] for s in seats))
    elif how == "shared":
        _summary(draw, tr("TIE: SHARED WIN"))
    hint(draw, tr("OK:NEW GAME <>:TRACK"))
    return image


def render(keeper: Scorekeeper, language: str = "en", names: Sequence[str] = ()) -> Image.Image:
    """The screen for ``keeper`` as it is now (``names``: the players', from names.json)."""
    tr = translator(language)
    phase = keeper.phase
    state = keeper.state
    if phase is Phase.SETUP or state is None:
        return setup(keeper.draft_setup, keeper.option, tr)
    if phase is Phase.SCOREBOARD:
        return scoreboard(state, tr)
    if phase is Phase.WINNER:
        return winner(state, tr)
    if phase is Phase.BREAKDOWN:
        return breakdown(keeper, tr)
    entry = keeper.entry
    q = entry.question
    assert q is not None
    if q.kind == "token":
        return token_entry(state, keeper.value, tr)
    if q.kind == "confirm":
        return confirm(state, entry, q, tr, names)
    if q.kind == "cabbage":
        return cabbage_entry(state, q, keeper.value, tr, names)
    if q.kind == "prey":
        return prey_entry(state, q, keeper.value, tr, names)
    return count_entry(state, entry, q, keeper.value, tr, names)


__all__ = ["Animal", "big_text", "breakdown", "cabbage_entry", "confirm", "count_entry",
           "prey_entry", "render", "scoreboard", "setup", "token_entry", "track_end",
           "translator", "winner"]
