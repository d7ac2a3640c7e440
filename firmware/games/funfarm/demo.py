"""``farmbox demo funfarm``: a whole Fun Farm game refereed on simulated hardware, played by bots.

Bots push the mock buzzer pins (gpiozero MockFactory) with human-like reaction times
(lognormal, median ~430 ms, seeded), sometimes too early (a false start), sometimes when
nothing is activated (a wrong buzz), sometimes in the same millisecond (a tie). The
Farmer bot turns cards and rolls; with ``vision`` (default: when not ``fast``) each roll is
a rendered frame of the two colour dice read by the real reader of :mod:`farmbox.vision.colour_dice`
(enrolled at start from rendered samples), and an unsure reading is corrected on the buttons,
as a Farmer would. The turned card is reported to the referee from the seeded RNG (the card
reader is not wired in yet). ``fast`` keeps the order of the pushes and the same-millisecond
ties but not their real spacing: the race is replayed in a few ms of real time.

Every OLED frame goes to the terminal (unless ``quiet``) and to an animated GIF.
"""

from __future__ import annotations

import dataclasses
import math
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.demo_stream import FrameStream, check_gif_path
from farmbox.firmware.box.i18n import LANGUAGES
from farmbox.firmware.box.observations import CardsSeen, DiceSeen
from farmbox.firmware.games.funfarm.box import Referee, rules_of
from farmbox.firmware.games.funfarm.screens import render
from farmbox.firmware.games.funfarm.session import Entry, FunFarmJournal
from farmbox.firmware.rules.funfarm import ColourRoll, FunFarmRules, Phase, random_roll
from farmbox.hw import open_hardware
from farmbox.hw.pins import simulated_pins

#: Bot behaviour per round (probabilities) and reaction times (ms).
FALSE_START = 0.03
WRONG_BUZZ = 0.06
MISSES = 0.15
SAME_MS = 0.07
REACTION_MEDIAN_MS = 430.0
REACTION_SIGMA = 0.25
MAX_ROUNDS = 300


class Tally:
    """How the camera did in the demo: readings taken as they came, and fixed by hand."""

    def __init__(self) -> None:
        self.rolls = self.rolls_read = self.cards = self.cards_read = 0

    def __str__(self) -> str:
        return (f"camera read {self.rolls_read}/{self.rolls} rolls and "
                f"{self.cards_read}/{self.cards} cards (the rest entered on the buttons)")


class ColourDiceEye:
    """Rendered frames of the rolled dice, read by the real colour-dice reader.

    Frames are 480x360, the reader's own working width, which renders 4x faster than
    960x720; the model is enrolled from frames of the same size (two per colour and die)."""

    SIZE = (480, 360)

    def __init__(self, workdir: Path, seed: int) -> None:
        from PIL import Image

        from farmbox.vision import colour_dice as reader
        from farmbox.vision.render import colour_dice as render

        self._reader, self._render = reader, render
        root = workdir / "colour-dice"
        n = 0
        for body in ("white", "black"):
            for colour in render.COLOURS:
                folder = root / body / colour
                folder.mkdir(parents=True)
                for k in range(2):
                    frame = render.scene(seed * 100_003 + n, {body: colour}, size=self.SIZE).image
                    Image.fromarray(frame[:, :, ::-1]).save(folder / f"{k}.png")
                    n += 1
        self.model = reader.enroll(root)
        self._seed = seed * 7919

    def look(self, roll: ColourRoll) -> DiceSeen:
        self._seed += 1
        frame = self._render.scene(self._seed, {"white": roll.white, "black": roll.black},
                                   size=self.SIZE).image
        reading = self._reader.read_frame(self.model, frame)
        return DiceSeen(reading.dice.get("black"), reading.dice.get("white"), reading.confidence)


class CardEye:
    """Rendered frames of the circle with the card just turned, read by the real card reader."""

    #: Cards of the circle drawn in a frame besides the new one (the newest ones).
    SHOWN = 9

    def __init__(self, workdir: Path, seed: int) -> None:
        from farmbox.vision import cards as reader
        from farmbox.vision.render import cards as render

        self._render = render
        render.enrollment_samples(workdir / "cards", per_card=1, seed=seed)
        self.reader = reader.CardReader(reader.enroll(workdir / "cards"))
        self._seed = seed * 104_729

    def look(self, circle: tuple[str, ...], new: str) -> CardsSeen:
        self._seed += 1
        frame = self._render.scene(self._seed, ids=list(circle[-self.SHOWN:]) + [new]).image
        return CardsSeen(tuple(r.id for r in self.reader.read(frame) if r.id is not None))


def run_demo(players: int, seed: int, fast: bool, quiet: bool, gif_path: Path | None,
             vision: bool | None = None, language: str = "en",
             follow: Callable[[Any], Any] | None = None) -> int:
    """Play one refereed game with the screens in ``language``; print the winner and the GIF
    path; 0 on success. ``follow(box)`` starts what follows the box while it plays (the
    table view): its ``stop()`` is called when the game is over."""

    if not 2 <= players <= 10:
        raise ValueError(f"--players must be 2-10 for Fun Farm, got {players}")
    if language not in LANGUAGES:
        raise ValueError(f"--language must be {' or '.join(LANGUAGES)}, got {language!r}")
    check_gif_path(gif_path)
    vision = (not fast) if vision is None else vision
    stream = FrameStream(quiet, pause=0.0 if fast else 0.03)
    workdir = Path(tempfile.mkdtemp(prefix="farmbox-funfarm-"))
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(workdir / "journal")},
        game={"mode": "funfarm", "players": players}, ui={"language": language},
        buttons={"debounce_ms": 1, "hold_time": 0.3})
    rng = random.Random(seed)
    try:
        eye, cards_eye = _eyes(workdir, seed) if vision else (None, None)
        with simulated_pins():
            hw = open_hardware(config)
            hw.display = stream.tap(hw.display)
            referee = Referee(hw, lambda s, names: render(s, language, names),
                              FunFarmJournal(config.journal.dir), players, rules_of(config),
                              camera=True, rng=random.Random(seed),
                              race_time=config.funfarm.race_time)
            follower = follow(referee) if follow is not None else None
            try:
                tally = Tally()
                rounds = _play(referee, hw, config, rng, eye, fast, cards_eye, tally)
                state = referee.session.state
            finally:
                if follower is not None:
                    follower.stop()
                referee.close()
                hw.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if gif_path is not None:
        stream.save_gif(gif_path)
    w = state.winner if state.winner is not None else 0
    where = f"; {len(stream.frames)} frames saved to {gif_path}" if gif_path is not None else ""
    if vision:
        print(tally, file=sys.stderr)
    if state.winner is None:  # every card escaped or caught, the leaders level: shared
        who = " and ".join(str(p + 1) for p in state.contenders)
        print(f"players {who} share the win with {state.totals[state.contenders[0]]} cards "
              f"after {rounds} rounds{where}")
    else:
        print(f"player {w + 1} won with {state.totals[w]} cards after {rounds} rounds{where}")
    return 0


def _eyes(workdir: Path, seed: int) -> tuple[ColourDiceEye | None, CardEye | None]:
    """The two readers, enrolled from rendered samples (either may be missing)."""
    eyes: list[Any] = []
    for kind, what in ((ColourDiceEye, "colour-dice"), (CardEye, "card")):
        try:
            eyes.append(kind(workdir, seed))
        except (ImportError, AttributeError, ValueError, OSError) as exc:  # optional here
            print(f"{what} reader unavailable ({exc}); the seeded RNG stands in",
                  file=sys.stderr)
            eyes.append(None)
    return eyes[0], eyes[1]


def _play(referee: Referee, hw: Any, config: Any, rng: random.Random,
          eye: ColourDiceEye | None, fast: bool, cards_eye: CardEye | None = None,
          tally: Tally | None = None) -> int:
    session = referee.session
    rules = session.rules
    tally = tally or Tally()
    pins = {p: hw.pin_factory.pin(pin) for p, pin in enumerate(config.buttons.buzzers)}
    rounds = 0

    def tap(name: str) -> None:
        hw.buttons.tap(name)
        _settle(referee)

    while not session.state.over and rounds < MAX_ROUNDS:
        s = session.state
        if s.phase in (Phase.DRAW, Phase.CATCH):
            if s.draw_pile:  # the Farmer turns the next card; the camera sees the circle
                card = rules.deck.cards[rng.choice(sorted(s.draw_pile))].id
                circle = tuple(rules.deck.cards[c].id for c in s.circle)
                seen = (cards_eye.look(circle, card) if cards_eye is not None
                        else CardsSeen(circle + (card,)))
                referee.inbox.put(seen)
                _settle(referee)
                tally.cards += 1
                tally.cards_read += session.state.phase is Phase.ROLL
                if session.state.phase is not Phase.ROLL:  # the reader missed it: by hand
                    _enter_card(session, card, tap, hw)
                    _settle(referee)
            else:
                tap("farmer")  # no card left: the Farmer closes the round
                continue
            rounds += 1
            _pause(fast, 0.1)
        if session.state.phase is not Phase.ROLL:
            continue
        _push(pins, [p for p in session.state.contenders if rng.random() < FALSE_START],
              fast, referee)
        roll = random_roll(rules, rng)
        dice = eye.look(roll) if eye is not None else DiceSeen(roll.black, roll.white)
        race = _reactions(session.state, rules, roll, rng)
        lead_ms = race[0][0] if race and fast else 0.0
        # The throw (the dice tumble), then the reading; --fast stamps both back by the first
        # bot's simulated reaction time, so the screen shows that time.
        thrown = time.monotonic_ns() - int(lead_ms * 1e6)
        referee.inbox.put(DiceSeen(None, None, t_ns=thrown))
        referee.inbox.put(dataclasses.replace(dice, t_ns=thrown))
        _settle(referee)
        tally.rolls += 1
        tally.rolls_read += session.state.phase is Phase.CATCH and session.state.roll == roll
        if session.entry in (Entry.BLACK, Entry.WHITE):  # the reader was unsure: fix by hand
            _enter_roll(session, roll, tap)
        if session.state.phase is not Phase.CATCH:
            continue
        _race(pins, race, fast, referee)
        _pause(fast, 0.3)
    return rounds


def _reactions(state: Any, rules: FunFarmRules, roll: ColourRoll,
               rng: random.Random) -> list[tuple[float, int]]:
    """(ms after the roll is read, player) for every bot that buzzes, earliest first."""
    active = any(rules.activates(c, roll) for c in state.circle)
    out = []
    for p in state.contenders:
        if active and rng.random() >= MISSES:
            ms = REACTION_MEDIAN_MS * math.exp(rng.gauss(0, REACTION_SIGMA))
        elif not active and rng.random() < WRONG_BUZZ:
            ms = 1.4 * REACTION_MEDIAN_MS * math.exp(rng.gauss(0, REACTION_SIGMA))
        else:
            continue
        out.append((round(ms, 3), p))
    out.sort()
    if len(out) >= 2 and rng.random() < SAME_MS:  # two hands on the same millisecond
        out[1] = (out[0][0], out[1][1])
    return out


def _race(pins: dict[int, Any], race: list[tuple[float, int]], fast: bool,
          referee: Referee) -> None:
    """Push the buzzers in order; pushes of the same millisecond back to back."""
    start = time.monotonic()
    last_ms: int | None = None
    for ms, p in race:
        if fast:
            if last_ms is not None and int(ms) != last_ms:
                time.sleep(0.0025)
        else:
            wait = start + ms / 1000 - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        pins[p].drive_low()
        last_ms = int(ms)
    time.sleep(0.003)
    for _, p in race:
        pins[p].drive_high()
    _settle(referee)


def _push(pins: dict[int, Any], players: list[int], fast: bool, referee: Referee) -> None:
    """False starts: these players push before the dice are read."""
    if players:
        _race(pins, [(float(i * 40), p) for i, p in enumerate(players)], fast, referee)


def _enter_roll(session: Any, roll: ColourRoll, tap: Any) -> None:
    deck = session.rules.deck
    for entry, faces, want in ((Entry.BLACK, deck.black_faces, roll.black),
                               (Entry.WHITE, deck.white_faces, roll.white)):
        if session.entry is not entry:
            return
        for _ in range(len(faces)):
            if faces[session.black if entry is Entry.BLACK else session.white] == want:
                break
            tap("next")
        tap("ok")


def _enter_card(session: Any, card: str, tap: Any, hw: Any) -> None:
    """The Farmer's fallback: open card entry, step to ``card``, hold to pick."""
    if session.state.phase is Phase.CATCH:
        tap("farmer")  # close the round first
    tap("farmer")
    want = session.rules.deck.index(card)
    for _ in range(len(session.entry_cards)):
        if session.entry is not Entry.CARD or session.entry_cards[session.cursor] == want:
            break
        tap("farmer")
    hw.buttons.hold("farmer")


def _settle(referee: Referee) -> None:
    """Let the referee handle everything queued (button callbacks are synchronous on mock
    pins; the race window needs a few ms)."""
    time.sleep(0.006)
    while referee.step(timeout=0.004):
        pass


def _pause(fast: bool, seconds: float) -> None:
    if not fast:
        time.sleep(seconds)


def main(args: Any, players: int) -> int:
    """``farmbox demo funfarm``: the exit status."""
    return run_demo(players, args.seed, args.fast, args.quiet, args.gif,
                    vision=args.camera, language=args.language,
                    follow=getattr(args, "follow", None))
