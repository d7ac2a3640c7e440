"""The Fun Farm screens: pure functions from the referee session to a 128x64 1-bit image.

- :func:`table`: between rounds and while the dice are unread: the circle (small icons,
  two rows), the last verdict (e.g. a false start) and the scores.
- :func:`race`: after the roll: the circle (activated cards inverted), one slot per activated
  animal in race order (open: inverted; taken: who took it and by how many ms; escaped:
  struck through), the dice, the last verdict and the scores.
- :func:`card_entry`, :func:`colour_entry`: the Farmer's manual fallback.
- :func:`winner`.

The texts are in ``firmware/box/i18n/<lang>/LC_MESSAGES/funfarm.po`` (read by :func:`translator`);
the shared notices (camera gone, journal repaired) come from the box's own catalog.

In the scores line the Farmer's number is underlined and the player the last verdict is
about is inverted.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from farmbox.firmware.box.drawing import notices
from farmbox.firmware.box.drawing.canvas import BODY, HINT, WIDTH, blank, header, hint
from farmbox.firmware.box.drawing.font import LINE, draw_text, draw_text_centred, fit, text_width
from farmbox.firmware.box.drawing.icons import draw_icon
from farmbox.firmware.box.i18n import Translate, po_translator
from farmbox.firmware.box.i18n import translator as box_translator
from farmbox.firmware.box.names import seat_name
from farmbox.firmware.games.funfarm.icons import SIZE, draw_animal, draw_die
from farmbox.firmware.games.funfarm.session import Buzz, Entry, FunFarmSession, Take, Verdict
from farmbox.firmware.rules.funfarm import EventKind, FarmState, FunFarmRules, Phase

#: Rows of the verdict line and the scores line.
VERDICT_Y = HINT - LINE
SCORES_Y = HINT

DOMAIN = "funfarm"


def translator(language: str = "en") -> Translate:
    """The Fun Farm texts in ``language``; a text missing from the catalog stays English."""
    return po_translator(DOMAIN, language, "Fun Farm")


def render(session: FunFarmSession, language: str = "en",
           names: Sequence[str] = ()) -> Image.Image:
    """The screen for ``session`` as it is now; ``names``: the players' (names.json), which
    the verdict, the race slots and the winner use instead of seat numbers."""
    tr = translator(language)
    notice = session.notice
    if notice is not None and notice.kind == "journal":
        dropped, _, seq = notice.detail.partition("/")
        return notices.journal_repaired(box_translator(language), int(dropped), int(seq))
    if notice is not None and notice.kind == "camera_gone":
        return notices.camera_gone(box_translator(language), notice.detail)
    s, rules = session.state, session.rules
    if session.entry is Entry.CARD:
        cards = session.entry_cards
        return card_entry(s, rules, cards[session.cursor], session.cursor, len(cards), tr)
    if session.entry in (Entry.BLACK, Entry.WHITE):
        return colour_entry(rules, session.entry is Entry.BLACK, session.black, session.white,
                            session.guess is not None, tr)
    if s.phase is Phase.OVER:
        return winner(s, tr, names)
    if s.phase is Phase.CATCH:
        return race(s, rules, session.verdict, tr, session.takes, names)
    return table(s, rules, session.verdict, session.camera, tr, session.held, names)


# ---------------------------------------------------------------------------
# Pieces


def _animal(rules: FunFarmRules, card: int) -> str:
    return rules.deck.cards[card].animal.value


def _header(draw: ImageDraw.ImageDraw, s: FarmState, tr: Translate) -> None:
    left = tr("TIE-BREAK %d") % s.tiebreaks if s.tiebreaks else tr("ROUND %d") % s.round
    header(draw, left, tr("DECK %d") % len(s.draw_pile))


def circle_rows(draw: ImageDraw.ImageDraw, s: FarmState, rules: FunFarmRules, top: int,
                rows: int, invert: bool = True) -> None:
    """The circle as small icons, oldest first, activated ones inverted (unless not
    ``invert``); "+N" if too many."""
    per_row = 9
    cards: Sequence[int] = s.circle
    room = per_row * rows
    if len(cards) > room:  # keep the activated cards in view, say how many are hidden
        active = [c for c in cards if c in s.uncaught]
        rest = [c for c in cards if c not in s.uncaught]
        cards = (active + rest)[: room - 1]
    for i, card in enumerate(cards):
        x, y = (i % per_row) * 14, top + (i // per_row) * 13
        if card in s.uncaught and invert:
            draw.rectangle((x, y - 1, x + SIZE + 1, y + SIZE), fill=1)
            draw_animal(draw, (x + 1, y), _animal(rules, card), fill=0)
        else:
            draw_animal(draw, (x + 1, y), _animal(rules, card))
    hidden = len(s.circle) - len(cards)
    if hidden:
        draw_text(draw, ((room - 1) % per_row * 14 + 1, top + (rows - 1) * 13 + 3), f"+{hidden}")
    if not s.circle:
        draw_text(draw, (0, top + 3), "-")


def scores(draw: ImageDraw.ImageDraw, s: FarmState, mark: Sequence[int] = (),
           y: int = SCORES_Y, totals: Sequence[int] | None = None) -> None:
    """Every player's card count in seat order (or ``totals``: the game's, on the winner
    screen); the Farmer underlined, ``mark`` inverted."""
    n = s.players
    cell = WIDTH // n
    for p, count in enumerate(s.scores if totals is None else totals):
        text = f"{p + 1}:{count}" if n <= 6 else str(count)
        if s.tiebreaks and p not in s.contenders and totals is None:
            text = "-" if n > 6 else f"{p + 1}:-"
        w = text_width(text)
        x = p * cell + (cell - w) // 2
        if p in mark:
            draw.rectangle((x - 1, y - 1, x + w, y + 5), fill=1)
            draw_text(draw, (x, y - 1), text, fill=0)
        else:
            draw_text(draw, (x, y - 1), text)
        if p == s.farmer:
            draw.line((x, y + 6, x + w - 1, y + 6), fill=1)


def seat(player: int, tr: Translate, names: Sequence[str] = ()) -> str:
    """Player ``player`` (0-based) as the screen names them: their name (names.json), else
    ``P3``."""
    name = seat_name(names, player)
    return name.upper() if name else tr("P%d") % (player + 1)


def _players(players: Sequence[int], tr: Translate, names: Sequence[str] = ()) -> str:
    return " ".join(seat(p, tr, names) for p in players)


def colour_name(colour: str, tr: Translate) -> str:
    """A die colour (``"red"``) as the screen says it."""
    return tr(colour.upper())


def verdict_text(v: Verdict, tr: Translate,
                 names: Sequence[str] = ()) -> tuple[str, str | None, bool]:
    """One line about the last race, the animal icon to put after it (a penalty card's), and
    whether it is good news (shown inverted)."""
    kinds = v.kinds
    who = _players(v.players, tr, names)
    if EventKind.CLOSED in kinds:  # the slots show what escaped
        return "-", None, False
    if EventKind.TIEBREAK in kinds:
        ev = next(e for e in v.events if e.kind is EventKind.TIEBREAK)
        return tr("TIE! PLAY ON: %s") % _players(ev.players, tr, names), None, False
    if EventKind.TIE in kinds:
        tie = "=".join(seat(p, tr, names) for p in v.players)
        if EventKind.DEALT in kinds:
            return tr("TIE %s: SHARED") % tie, None, True
        return tr("TIE %s: ROLL AGAIN") % tie, None, False
    if EventKind.CAUGHT in kinds:
        ev = next(e for e in v.events if e.kind is EventKind.CAUGHT)
        ms = v.reaction_ms[0] if v.reaction_ms else None
        taker = seat_name(names, ev.player)  # type: ignore[arg-type]
        if taker:
            line = tr("%s TAKES %d") % (taker.upper(), len(ev.cards))
        else:
            line = tr("P%d TAKES %d") % (ev.player + 1, len(ev.cards))  # type: ignore[operator]
        if ms is not None:
            line += f" {ms}MS"
        return line, None, True
    what = tr("TOO EARLY") if EventKind.FALSE_START in kinds else tr("NOTHING ON")
    if EventKind.PENALTY in kinds:
        return f"{who} {what} -1", "penalty", False
    return f"{who} {what}", None, False


def _verdict_line(draw: ImageDraw.ImageDraw, v: Verdict | None, s: FarmState,
                  rules: FunFarmRules, tr: Translate, idle: str, invert_idle: bool,
                  names: Sequence[str] = ()) -> None:
    if v is None:
        text, icon, good = idle, None, invert_idle
    else:
        text, icon, good = verdict_text(v, tr, names)
    room = WIDTH - (SIZE + 2 if icon else 0)
    text = fit(text, room)
    w = text_width(text)
    if good:
        draw.rectangle((0, VERDICT_Y - 1, w + 1, VERDICT_Y + 5), fill=1)
        draw_text(draw, (1, VERDICT_Y - 1), text, fill=0)
    else:
        draw_text(draw, (0, VERDICT_Y - 1), text)
    if icon and v is not None:
        pen = [e for e in v.events if e.kind is EventKind.PENALTY]
        for i, e in enumerate(pen[: (WIDTH - w - 2) // (SIZE + 1)]):
            draw_animal(draw, (w + 2 + i * (SIZE + 1), VERDICT_Y - 4), _animal(rules, e.cards[0]))


def _marked(v: Verdict | None) -> tuple[int, ...]:
    return v.players if v is not None and v.kinds - {EventKind.TIEBREAK} else ()


# ---------------------------------------------------------------------------
# Screens


def table(s: FarmState, rules: FunFarmRules, verdict: Verdict | None, camera: bool,
          tr: Translate, held: Sequence[Buzz] = (), names: Sequence[str] = ()) -> Image.Image:
    """Waiting for a card (DRAW) or for the dice (ROLL); ``held``: buzzes after the throw,
    waiting for the roll to be known (``P3 P1 ...``)."""
    image, draw = blank()
    _header(draw, s, tr)
    circle_rows(draw, s, rules, BODY + 2, 2)
    if s.phase is Phase.DRAW:
        idle = tr("TURN A CARD") if camera else tr("FARMER: ENTER CARD")
    else:
        idle = tr("ROLL THE DICE") if camera else tr("FARMER: ENTER DICE")
    if held:
        verdict = None
        idle = _players(list(dict.fromkeys(b.player for b in sorted(held))), tr, names) + " ..."
    _verdict_line(draw, verdict, s, rules, tr, idle, False, names)
    scores(draw, s, _marked(verdict))
    return image


def animal_races(s: FarmState, rules: FunFarmRules) -> list[tuple[int, ...]]:
    """The round's activated cards by animal, in the order the buzzes take them (most cards
    first, ties: the card turned earliest), taken and escaped ones included."""
    groups: dict[str, list[int]] = {}
    for card in s.activated:  # in the circle's order at the roll
        groups.setdefault(_animal(rules, card), []).append(card)
    order = sorted(groups.values(), key=lambda cards: (-len(cards), s.activated.index(cards[0])))
    return [tuple(cards) for cards in order]


def take_text(take: Take, tr: Translate, room: int, names: Sequence[str] = ()) -> str:
    """Who took an animal and by how many ms, as wide as ``room`` allows: ``P3 +18MS`` (18 ms
    before the next other player's buzz) or ``P3 412MS`` (nobody else buzzed: the reaction
    time), shortened to ``P3+18`` or ``P3`` when narrow; tied players dealt the cards are
    ``P1=P3``."""
    who = "=".join(seat(p, tr, names) for p in take.players)
    if text_width(who) > room:  # a name too long for the slot: the seat number
        who = "=".join(tr("P%d") % (p + 1) for p in take.players)
    if take.lead_ms is not None:
        tries = [f"{who} +{take.lead_ms}MS", f"{who}+{take.lead_ms}"]
    elif take.reaction_ms is not None:
        tries = [f"{who} {take.reaction_ms}MS", f"{who} {take.reaction_ms}"]
    else:
        tries = []
    for text in tries + [who]:
        if text_width(text) <= room:
            return text
    return fit(who, room)


def race_slots(draw: ImageDraw.ImageDraw, s: FarmState, rules: FunFarmRules,
               takes: Sequence[Take], tr: Translate, top: int, right: int,
               names: Sequence[str] = ()) -> None:
    """One slot per activated animal, two rows of one to three columns left of x =
    ``right``: the animal (inverted while it can still be caught, struck through when it
    escaped) and who took it (:func:`take_text`)."""
    races = animal_races(s, rules)
    taker = {c: t for t in takes for c in t.cards}
    columns = 1 if len(races) <= 2 else 2 if len(races) <= 4 else 3
    width = right // columns
    for i, cards in enumerate(races[: 2 * columns]):
        x, y = (i % columns) * width, top + (i // columns) * 11
        name = _animal(rules, cards[0])
        room = width - SIZE - 6
        take = next((taker[c] for c in cards if c in taker), None)
        if any(c in s.uncaught for c in cards):
            draw.rectangle((x, y, x + SIZE + 1, y + SIZE - 2), fill=1)
            draw_animal(draw, (x + 1, y), name, fill=0)
            if len(cards) > 1:
                draw_text(draw, (x + SIZE + 4, y + 3), fit(f"x{len(cards)}", room))
        elif take is not None:
            draw_animal(draw, (x + 1, y), name)
            draw_text(draw, (x + SIZE + 4, y + 3), take_text(take, tr, room, names))
        else:  # escaped: nobody caught it before the race closed
            draw_animal(draw, (x + 1, y), name)
            draw.line((x, y + SIZE - 2, x + SIZE + 1, y), fill=1)
            draw_text(draw, (x + SIZE + 4, y + 3), "-")


def race(s: FarmState, rules: FunFarmRules, verdict: Verdict | None,
         tr: Translate, takes: Sequence[Take] = (), names: Sequence[str] = ()) -> Image.Image:
    """After the roll: the activated animals, each its own race, the dice, the verdict."""
    image, draw = blank()
    _header(draw, s, tr)
    circle_rows(draw, s, rules, BODY + 2, 1, invert=False)  # the slots below say what is on
    top = BODY + 14
    dice_x = WIDTH - 2 * SIZE - 4
    if s.activated:
        race_slots(draw, s, rules, takes, tr, top, dice_x - 2, names)
    else:
        draw_text(draw, (0, top + 8), "-")
    if s.roll is not None:
        draw_die(draw, (dice_x, top + 2), s.roll.black, black=True)
        draw_die(draw, (WIDTH - SIZE - 1, top + 2), s.roll.white, black=False)
    idle = tr("BUZZ!") if s.uncaught else tr("NOTHING ON: DO NOT BUZZ")
    if s.activated and not s.uncaught:
        idle = "-"
    _verdict_line(draw, verdict, s, rules, tr, idle, bool(s.uncaught), names)
    scores(draw, s, _marked(verdict))
    return image


def card_entry(s: FarmState, rules: FunFarmRules, card: int, index: int, count: int,
               tr: Translate) -> Image.Image:
    """The Farmer picks the card just turned."""
    image, draw = blank()
    header(draw, tr("WHICH CARD?"), f"{index + 1}/{count}")
    c = rules.deck.cards[card]
    draw_animal(draw, (2, BODY + 2), c.animal.value, 3)
    draw_die(draw, (46, BODY + 4), c.black, black=True)
    draw_text(draw, (62, BODY + 7), fit(colour_name(c.black, tr), WIDTH - 62))
    draw_die(draw, (46, BODY + 20), c.white, black=False)
    draw_text(draw, (62, BODY + 23), fit(colour_name(c.white, tr), WIDTH - 62))
    hint(draw, tr(">:NEXT OK:PICK"))
    return image


def colour_entry(rules: FunFarmRules, black: bool, black_i: int, white_i: int, unsure: bool,
                 tr: Translate) -> Image.Image:
    """The Farmer sets the colour up on the black, then the white die."""
    image, draw = blank()
    faces = rules.deck.black_faces if black else rules.deck.white_faces
    colour = faces[black_i if black else white_i]
    header(draw, tr("BLACK DIE?") if black else tr("WHITE DIE?"),
           tr("UNSURE") if unsure else "")
    draw_die(draw, (4, BODY + 3), colour, black=black, scale=3)
    draw_text(draw, (46, BODY + 8), fit(colour_name(colour, tr), WIDTH - 46))
    if not black:
        done = rules.deck.black_faces[black_i]
        draw_die(draw, (46, BODY + 20), done, black=True)
        draw_text(draw, (62, BODY + 23), fit(colour_name(done, tr), WIDTH - 62))
    hint(draw, tr(">:NEXT OK:PICK"))
    return image


def winner(s: FarmState, tr: Translate, names: Sequence[str] = ()) -> Image.Image:
    """The game is over: who won with the game's real totals (after a tie-break: the totals
    it began with, and the tie-break's own cards), or the tied players sharing it."""
    image, draw = blank()
    header(draw, tr("GAME OVER"), tr("ROUND %d") % s.round)
    totals = s.totals
    draw_icon(draw, (2, BODY + 4), "star", 2)
    if s.winner is None:  # nothing was left to break the tie with: shared
        tied = "=".join(seat(p, tr, names) for p in s.contenders)
        draw_text_centred(draw, BODY + 6, fit(tr("TIE %s: SHARED") % tied, WIDTH - 28),
                          WIDTH + 28)
        draw_text_centred(draw, BODY + 16, tr("%d CARDS") % totals[s.contenders[0]], WIDTH + 28)
        mark: tuple[int, ...] = s.contenders
    else:
        w = s.winner
        won = seat_name(names, w)
        line = tr("%s WINS") % won.upper() if won else tr("PLAYER %d WINS") % (w + 1)
        draw_text_centred(draw, BODY + 6, fit(line, WIDTH - 28), WIDTH + 28)
        draw_text_centred(draw, BODY + 16, tr("%d CARDS") % totals[w], WIDTH + 28)
        mark = (w,)
    if s.tiebreaks:
        line = (tr("TIE-BREAK %d") % s.tiebreaks + " "
                + ":".join(str(s.scores[p]) for p in s.contenders))
        draw_text_centred(draw, BODY + 26, fit(line, WIDTH - 28), WIDTH + 28)
    draw_text(draw, (0, VERDICT_Y - 1), fit(tr("FARMER: NEW GAME"), WIDTH))
    scores(draw, s, mark, totals=totals)
    return image
