"""The Fun Farm buzzer referee: buzzers + camera readings -> rules engine -> journal -> screen.

Each player has a buzzer button (``player1`` .. ``player10``) and the Farmer has one more
(``farmer``). A buzz counts at the push edge: the panel's ``down`` event, timestamped with
``time.monotonic_ns()`` in the GPIO callback. The camera (or the Farmer, by hand) reports the
card turned into the circle and the colours rolled; from that moment each buzz takes the next
activated animal (or, with ``buzz_takes = "all"``, the first takes everything:
:func:`farmbox.firmware.rules.funfarm.buzz`). Buzzes less than :data:`TIE_NS` (1 ms) after the
first one are a tie, settled by the rules' :class:`TieRule` (default REROLL: nobody takes the
cards, the Farmer rolls again). Buzzes after the throw (the dice seen moving, or the Farmer
opening dice entry) but before the roll is known are held and judged once it is; only a buzz
before the throw is a false start. The race closes :attr:`FunFarmSession.race_time` seconds
after the roll is known (on the box's clock, through :meth:`FunFarmSession.tick`) or when the
next card is turned; what nobody caught has escaped.

Every settled action is written to the journal (fsync'ed) *before* the session's state
changes; actions carry the seed of any random choice (the penalty card, the tie deal), so
:class:`FunFarmJournal` replays a game exactly after a power cut. Each record also repeats the
game's rules (:func:`game_record`: players, options, the deck or, for the packaged deck, its
digest), so any good record is enough to resume from, even when the first one is unreadable.

The Farmer's button: between rounds it opens card entry (when there is no camera, or it
missed the card), while the dice are unread it opens colour entry, after the roll it ends
the round, after the game it starts a new one. In entry screens ``prev``/``next`` (or a
short press of the Farmer's button) move, ``ok`` (or holding the Farmer's button) picks,
``back`` leaves.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from farmbox.firmware.box.history import UNDO_DEPTH
from farmbox.firmware.box.journal import CannotResume, Journal, Replay
from farmbox.firmware.box.observations import CameraLost, CardsSeen, DiceSeen
from farmbox.firmware.games.funfarm.deck_file import read_deck
from farmbox.firmware.rules.funfarm import (
    BuzzTakes,
    ColourRoll,
    Escaped,
    Event,
    EventKind,
    FarmState,
    FunFarmRules,
    Phase,
    TieRule,
    Turn,
    buzz,
    close_race,
    deck_as_data,
    draw,
    end_round,
    load_deck,
    new_game,
    parse_deck,
    roll,
)

log = logging.getLogger(__name__)

#: Buzzes less than this after the first buzz of a race are a tie (1 ms).
TIE_NS = 1_000_000
#: A dice reading at least this sure activates the cards without asking (the colour-dice
#: reader already reports a die it is unsure of as None; its right readings score 0.65-0.9
#: on rendered frames, so 0.6 lets those through and sends the rest to the Farmer).
CONFIDENT = 0.6
#: A notice (journal repaired, camera gone) stays up this long unless something dismisses it.
NOTICE_SECONDS = 4.0
#: After the first buzz the loop waits this long for other pushes of the same millisecond.
RACE_WAIT_NS = 3_000_000
#: The race for a round closes this long after the roll is known (s; ``[funfarm] race_time``).
RACE_TIME = 8.0

Action = dict[str, Any]


# ---------------------------------------------------------------------------
# What the session is told


@dataclass(frozen=True, order=True)
class Buzz:
    """Player ``player`` (0-based) pushed their buzzer at ``t_ns`` (monotonic ns)."""

    t_ns: int
    player: int


def first_buzz(buzzes: Iterable[Buzz], tie_ns: int = TIE_NS) -> tuple[tuple[int, ...], int]:
    """The players who buzzed first (the earliest and everyone less than ``tie_ns`` after
    it, in time order, each once) and the earliest time.

    >>> first_buzz([Buzz(5_400_000, 2), Buzz(5_000_000, 0), Buzz(9_000_000, 1)])
    ((0, 2), 5000000)
    """
    ordered = sorted(buzzes)
    if not ordered:
        raise ValueError("no buzz")
    t0 = ordered[0].t_ns
    first = [b.player for b in ordered if b.t_ns - t0 < tie_ns]
    return tuple(dict.fromkeys(first)), t0


def races(buzzes: Iterable[Buzz], tie_ns: int = TIE_NS) -> list[tuple[tuple[int, ...], int]]:
    """Split buzzes into successive races: :func:`first_buzz`, then the same on the rest."""
    rest = sorted(buzzes)
    out = []
    while rest:
        players, t0 = first_buzz(rest, tie_ns)
        out.append((players, t0))
        rest = [b for b in rest if b.t_ns - t0 >= tie_ns]
    return out


# ---------------------------------------------------------------------------
# Actions: the journal's records, applied by one pure function


def rules_from(action: Action) -> FunFarmRules:
    """The rules a ``new_game`` action names: the deck it carries (or, in a journal written
    before decks were recorded, the deck file it names), the tie rule and the options. A
    record without ``buzz_takes`` / ``escaped`` was written before they existed, when one
    buzz took everything and escaped cards stayed: those are the rules it replays with."""
    data = action.get("deck_data")
    if data is not None:
        deck = parse_deck(data, "the journal's deck")
    else:
        deck = read_deck(action.get("deck") or None)
    return FunFarmRules(deck=deck, tie=TieRule(action.get("tie", TieRule.REROLL.value)),
                        buzz_takes=BuzzTakes(action.get("buzz_takes", BuzzTakes.ALL.value)),
                        escaped=Escaped(action.get("escaped", Escaped.STAY.value)))


def new_game_action(players: int, rules: FunFarmRules, seed: int, deck: str | None = None,
                    farmer: int = 0, race_time: float = RACE_TIME) -> Action:
    """The journal's first record: players, the options, the seed and the deck itself."""
    return {"action": "new_game", "players": players, "tie": rules.tie.value,
            "buzz_takes": rules.buzz_takes.value, "escaped": rules.escaped.value,
            "race_time": race_time, "seed": seed, "deck": deck,
            "deck_data": deck_as_data(rules.deck), "farmer": farmer}


def _digest(deck_data: dict[str, Any]) -> str:
    text = json.dumps(deck_data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_record(players: int, rules: FunFarmRules, deck: str | None = None,
                race_time: float = RACE_TIME) -> Action:
    """What every journal record repeats of its game: enough to take the game up from that
    record alone. The packaged deck is named by its digest, any other deck is carried whole.

    >>> sorted(game_record(3, FunFarmRules()))
    ['buzz_takes', 'deck', 'deck_sha', 'escaped', 'players', 'race_time', 'tie']
    """
    game: Action = {"players": players, "tie": rules.tie.value,
                    "buzz_takes": rules.buzz_takes.value, "escaped": rules.escaped.value,
                    "race_time": race_time, "deck": deck}
    data = deck_as_data(rules.deck)
    if data == deck_as_data(load_deck()):
        game["deck_sha"] = _digest(data)
    else:
        game["deck_data"] = data
    return game


def rules_of_game(game: Any) -> tuple[FunFarmRules, int, float]:
    """The rules, players and race time a record's :func:`game_record` names
    (:class:`CannotResume` if it names none, or a packaged deck this version does not ship)."""
    if not isinstance(game, dict):
        raise CannotResume("the record does not carry its game's rules")
    if "deck_data" not in game:
        data = deck_as_data(load_deck())
        if game.get("deck_sha") != _digest(data):
            raise CannotResume("the record's deck is not the deck this version ships")
        game = {**game, "deck_data": data}
    return rules_from(game), int(game["players"]), float(game.get("race_time", 0.0))


@dataclass(frozen=True)
class Recorded:
    """One record's state: the game state after its action and the game's rules."""

    state: FarmState
    game: Action

    def to_dict(self) -> dict[str, Any]:
        return {**self.state.to_dict(), "game": self.game}


#: Where the session writes each action and the :class:`Recorded` state after it.
Commit = Callable[[Action, Recorded], None]


def apply(state: FarmState | None, action: Action, rules: FunFarmRules) -> Turn:
    """The engine's answer to one journal action (raises RulesError/ValueError if illegal)."""
    kind = action.get("action")
    rng = random.Random(action.get("seed", 0))
    if kind == "new_game":
        s = new_game(int(action["players"]), rules, rng, int(action.get("farmer", 0)))
        return Turn(s, ())
    if state is None:
        raise ValueError(f"{kind!r} before a new game")
    if kind == "draw":
        card = action.get("card")
        if card is not None:
            i = rules.deck.index(card)
            if i not in state.draw_pile:
                raise ValueError(f"card {card!r} is not in the deck still to be drawn")
            state = replace(state, draw_pile=(i,) + tuple(c for c in state.draw_pile if c != i))
        return draw(state, rules)
    if kind == "roll":
        return roll(state, rules, rules.parse_roll(str(action["roll"])))
    if kind == "buzz":
        return buzz(state, rules, [int(p) for p in action["players"]], rng)
    if kind == "close":
        return close_race(state, rules)
    if kind == "end_round":
        return end_round(state, rules, rng)
    raise ValueError(f"unknown action {kind!r}")


def undone(history: Sequence[FarmState]) -> FarmState:
    """The state an ``undo`` record leads to: the one before the last action."""
    if not history:
        raise ValueError("nothing to undo")
    return history[-1]


def remember(history: list[FarmState], action: Action, before: FarmState | None) -> None:
    """Keep ``before`` for undo as ``action`` replaces it (a new game forgets them all;
    an undo takes the last back); at most :data:`UNDO_DEPTH` are kept."""
    kind = action.get("action")
    if kind == "new_game" or before is None:
        history.clear()
    elif kind == "undo":
        history.pop()
    else:
        history.append(before)
        del history[:-UNDO_DEPTH]


# ---------------------------------------------------------------------------
# The journal


@dataclass
class FarmReplay(Replay):
    """What :meth:`FunFarmJournal.open` found."""

    state: FarmState | None = None
    players: int = 0
    rules: FunFarmRules | None = None

    race_time: float = RACE_TIME
    #: The game's :func:`game_record`, which records repeat.
    game: Action | None = None
    #: The states before the last actions (for undo), as the session keeps them.
    history: list[FarmState] = field(default_factory=list)

    def begin(self, action: Action, state: Any) -> None:
        """The file's ``new_game`` record: its rules (deck, tie rule, options), its players
        and its race time."""
        self.rules = rules_from(action)
        self.players = int(action["players"])
        self.race_time = float(action.get("race_time", 0.0))
        self.game = game_record(self.players, self.rules, action.get("deck"), self.race_time)

    def matches(self, new: Any, recorded: Any) -> bool:
        """The replayed state is the record's (a record written before records repeated
        their game has no ``game``; one that has it must name this game)."""
        if new is None or not isinstance(recorded, dict):
            return False
        if "game" in recorded and recorded["game"] != self.game:
            return False
        return bool(new.to_dict() == {k: v for k, v in recorded.items() if k != "game"})

    def preview(self, action: Action) -> FarmState:
        if self.rules is None:
            raise ValueError("a record before the game's new_game record")
        if action.get("action") == "undo":
            return undone(self.history)
        return apply(self.state, action, self.rules).state

    def apply(self, action: Action, new: FarmState) -> None:
        remember(self.history, action, self.state)
        self.state = new

    def resume(self, action: Action, state: Any) -> None:
        """After a bad record: take up the recorded state under the rules the record
        repeats (or, in a journal written before records repeated them, the rules of the
        game's first record: when that one is the bad record, the game cannot resume)."""
        if not isinstance(state, dict):
            raise ValueError("a record without a game state")
        if "game" in state:
            if self.game is None or state["game"] != self.game:
                self.rules, self.players, self.race_time = rules_of_game(state["game"])
                self.game = state["game"]
        elif self.rules is None:
            raise CannotResume("the new-game record with the deck and options is unreadable")
        assert self.rules is not None
        self.state = FarmState.from_dict({k: v for k, v in state.items() if k != "game"},
                                         self.rules)
        self.history = []  # what came before the bad record is not known for sure


class FunFarmJournal(Journal[FarmReplay]):
    """The box's journal (JSON lines, CRC, fsync, repair), replayed through the Fun Farm rules."""

    def __init__(self, directory: str | os.PathLike[str], name: str = "funfarm.jsonl") -> None:
        super().__init__(directory, name, FarmReplay)


# ---------------------------------------------------------------------------
# The session


class Entry(enum.Enum):
    """Manual entry by the Farmer (no camera, or it missed something)."""

    CARD = "card"
    BLACK = "black"
    WHITE = "white"


@dataclass(frozen=True)
class Verdict:
    """What the last buzz race did, for the screen."""

    events: tuple[Event, ...]
    players: tuple[int, ...]
    #: Reaction time of each player in ``players`` (ms since the dice were read), or None.
    reaction_ms: tuple[int | None, ...] = ()

    @property
    def tie(self) -> bool:
        return any(e.kind is EventKind.TIE for e in self.events)

    @property
    def kinds(self) -> set[EventKind]:
        return {e.kind for e in self.events}


@dataclass(frozen=True)
class Take:
    """One race of the round that someone won: who took which cards, how fast, by how much."""

    #: The taker, or the tied players the cards were dealt to.
    players: tuple[int, ...]
    cards: tuple[int, ...]
    #: When the (first) winning buzz was pushed (monotonic ns).
    t_ns: int
    #: Reaction time: ms from the throw (or, without one, from the roll being known).
    reaction_ms: int | None = None
    #: Ms before the next other player's buzz (None: nobody else buzzed yet).
    lead_ms: int | None = None

    @property
    def dealt(self) -> bool:
        return len(self.players) > 1


@dataclass(frozen=True)
class Notice:
    kind: str
    detail: str
    since: float


class FunFarmSession:
    """One table's Fun Farm game: buzzes, readings and the Farmer's button in, actions out."""

    def __init__(self, players: int, rules: FunFarmRules, commit: Commit | None = None,
                 camera: bool = False, state: FarmState | None = None,
                 rng: random.Random | None = None, deck: str | None = None,
                 race_time: float = RACE_TIME, history: list[FarmState] | None = None) -> None:
        self.rules = rules
        self.deck_path = deck
        #: The states before the last actions, for undo (the journal replays them too).
        self.history: list[FarmState] = history if history is not None else []
        #: Seconds from the roll being known to the race closing (0: only the next card).
        self.race_time = race_time
        #: Rules, race time and deck file for the next new game, when they differ from this
        #: game's (a game resumed from its journal keeps the rules it began with).
        self.next_game: tuple[FunFarmRules, float, str | None] | None = None
        self._commit = commit or (lambda action, state: None)
        self.rng = rng or random.Random()
        self.camera = camera
        self.alerts: list[str] = []
        self.verdict: Verdict | None = None
        self.entry: Entry | None = None
        self.cursor = 0
        self.black = 0
        self.white = 0
        self.guess: DiceSeen | None = None
        self.notice: Notice | None = None
        #: The table view's address is on the screen (``prev`` outside entry; any press: back).
        self.showing_url = False
        #: Dice readings count only after the dice were seen moving since the last card.
        self.armed = False
        self.rolled_ns: int | None = None
        #: When the dice were thrown (camera: first seen moving; by hand: entry opened).
        self.thrown_ns: int | None = None
        #: Buzzes after the throw, before the roll is known: judged when it is.
        self.held: list[Buzz] = []
        #: This round's won races, and every buzz since the roll was known (for the leads).
        self.takes: list[Take] = []
        self.round_buzzes: list[Buzz] = []
        #: Box clock (s) when the race was first seen open; the race closes race_time later.
        self.race_since: float | None = None
        self.state: FarmState
        #: What each record repeats of this game (:func:`game_record`).
        self.game = game_record(state.players if state is not None else players, rules, deck,
                                race_time)
        if state is None:
            self.state = new_game(players, rules, random.Random(0))  # replaced just below
            self.new_game(players)
        else:
            self.state = state

    @property
    def players(self) -> int:
        return self.state.players

    def _seed(self) -> int:
        return self.rng.getrandbits(32)

    def _do(self, action: Action) -> Turn:
        if action.get("action") == "undo":
            turn = Turn(undone(self.history), ())
        else:
            turn = apply(self.state, action, self.rules)  # raises if illegal: nothing written
        game = self.game
        if action["action"] == "new_game":
            game = game_record(int(action["players"]), self.rules, self.deck_path,
                               self.race_time)
        self._commit(action, Recorded(turn.state, game))  # journal first (fsync) ...
        self.game = game
        remember(self.history, action, self.state)
        self.state = turn.state                       # ... then memory, then the screen
        if self.notice is not None and self.notice.kind == "journal":
            self.notice = None  # the game goes on: the repair was seen
        return turn

    def new_game(self, players: int | None = None) -> None:
        """A new shuffled game (the journal rotates); the Farmer role starts at player 1."""
        players = players or self.players
        if self.next_game is not None:
            self.rules, self.race_time, self.deck_path = self.next_game
            self.next_game = None
        action = new_game_action(players, self.rules, self._seed(), self.deck_path,
                                 race_time=self.race_time)
        self._do(action)
        self.verdict, self.entry = None, None
        self._new_throw()

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    def undo(self) -> None:
        """Take the last action back (a race awarded wrongly, a card drawn by mistake),
        journaled; ValueError when there is nothing to undo."""
        before = self.state
        self._do({"action": "undo"})
        self.verdict, self.entry, self.guess = None, None, None
        if self.state.round != before.round or self.state.phase is not before.phase:
            self._new_throw()
        # a race taken back is no longer one of this round's takes
        self.takes = [t for t in self.takes
                      if all(any(c in pile for pile in self.state.piles) for c in t.cards)]

    def award(self, player: int) -> None:
        """The table gives the open race to ``player`` (0-based; the buzzer missed it):
        journaled as that player's buzz, without a reaction time; ValueError when no race
        is open or the player cannot take it."""
        st = self.state
        if st.phase is not Phase.CATCH or not st.uncaught:
            raise ValueError("no open race to award")
        if not 0 <= player < self.players or player not in st.contenders:
            raise ValueError(f"player {player + 1} cannot take this race")
        turn = self._do({"action": "buzz", "players": [player], "seed": self._seed(),
                         "source": "web"})
        self.verdict = Verdict(turn.events, (player,), (None,))
        won = [e for e in turn.events if e.kind in (EventKind.CAUGHT, EventKind.DEALT)]
        if won:
            self.alerts.append("win")
            self.takes.append(Take((player,), tuple(c for e in won for c in e.cards),
                                   time.monotonic_ns()))
        self._leads()

    def _new_throw(self, keep_takes: bool = False) -> None:
        """Forget the throw (a new card, a re-roll): the next roll is a new race."""
        self.armed, self.rolled_ns, self.thrown_ns, self.race_since = False, None, None, None
        self.held = []
        if not keep_takes:
            self.takes, self.round_buzzes = [], []

    # -- the table ------------------------------------------------------------
    def card_turned(self, card: str | None, source: str = "camera") -> None:
        """A new card lies in the circle: close the last round if open, then draw it."""
        if self.state.phase is Phase.CATCH:
            self._end_round()
        if self.state.phase is not Phase.DRAW:
            return
        self._do({"action": "draw", "card": card, "source": source})
        self.verdict, self.entry = None, None
        self._new_throw()

    def thrown(self, t_ns: int) -> None:
        """The dice were thrown at ``t_ns``: from now on a buzz is held, not a false start."""
        if self.state.phase is Phase.ROLL and self.thrown_ns is None:
            self.thrown_ns = t_ns

    def dice_read(self, colours: ColourRoll, t_ns: int, source: str = "camera") -> None:
        """The roll is known: activate the matching cards; the race started at the throw
        (or at ``t_ns`` if nobody saw the throw); the buzzes held since are judged now."""
        self._do({"action": "roll", "roll": str(colours), "source": source})
        self.rolled_ns = t_ns
        self.race_since = None
        self.entry, self.guess, self.verdict = None, None, None
        if self.state.activated:
            self.alerts.append("activate")
        held, self.held = self.held, []
        if held:
            self.buzzes(held)

    @property
    def started_ns(self) -> int | None:
        """When the race started: the throw, else the roll being known."""
        return self.thrown_ns if self.thrown_ns is not None else self.rolled_ns

    def buzzes(self, buzzes: Sequence[Buzz]) -> None:
        """Buzzer pushes (any order): settled race by race, earliest first. Pushes after
        the throw while the roll is not known yet are held until it is."""
        valid = [b for b in buzzes
                 if 0 <= b.player < self.players and b.player in self.state.contenders]
        for players, t0 in races(valid):
            if self.state.over:
                return
            st = self.state
            in_race = [b for b in valid if 0 <= b.t_ns - t0 < TIE_NS]
            if st.phase is Phase.ROLL and self.thrown_ns is not None and t0 >= self.thrown_ns:
                self.held.extend(in_race)  # after the throw: judged once the roll is known
                continue
            if st.phase is Phase.CATCH:
                self.round_buzzes.extend(in_race)
            if st.phase is Phase.CATCH and st.activated and not st.uncaught:
                self._leads()
                continue  # too late: the round's cards are taken; nothing to record
            action = {"action": "buzz", "players": list(players), "seed": self._seed()}
            times = {p: min(b.t_ns for b in in_race if b.player == p) for p in players}
            start = self.started_ns
            ms: tuple[int | None, ...] = tuple(
                None if start is None or st.phase is not Phase.CATCH
                else max(0, (times[p] - start) // 1_000_000) for p in players)
            turn = self._do(action)
            kinds = {e.kind for e in turn.events}
            self.verdict = Verdict(turn.events, players, ms)
            won = [e for e in turn.events if e.kind in (EventKind.CAUGHT, EventKind.DEALT)]
            if won:
                self.alerts.append("win")
                self.takes.append(Take(players, tuple(c for e in won for c in e.cards), t0,
                                       ms[0]))
            elif kinds & {EventKind.FALSE_START, EventKind.EMPTY_BUZZ}:
                self.alerts.append("mistake")
            self._leads()
            if EventKind.TIE in kinds and self.state.phase is Phase.ROLL:
                # The same dice still lie there: wait for the new roll, a new race; the
                # rest of these pushes belonged to the race the tie called off.
                self._new_throw(keep_takes=True)
                return

    def _leads(self) -> None:
        """Each take's lead: ms to the first later buzz of another player."""
        out = []
        for take in self.takes:
            after = [b.t_ns for b in self.round_buzzes
                     if b.t_ns >= take.t_ns and b.player not in take.players]
            lead = (min(after) - take.t_ns) // 1_000_000 if after else None
            out.append(replace(take, lead_ms=lead))
        self.takes = out

    def _end_round(self) -> None:
        turn = self._do({"action": "end_round", "seed": self._seed()})
        self.rolled_ns, self.race_since = None, None
        if any(e.kind is EventKind.WON for e in turn.events):
            self.alerts.append("win")
            self.verdict = None
        elif any(e.kind is EventKind.TIEBREAK for e in turn.events):
            self.verdict = Verdict(turn.events, ())

    # -- the camera -------------------------------------------------------------
    def cards_seen(self, obs: CardsSeen) -> None:
        """The card reader's view: exactly one card not yet drawn means it was just turned."""
        known = {c.id: i for i, c in enumerate(self.rules.deck.cards)}
        pile = set(self.state.draw_pile)
        new = sorted({cid for cid in obs.ids if cid in known and known[cid] in pile})
        if len(new) != 1 or self.state.over or self.state.phase is Phase.ROLL:
            return
        self.card_turned(new[0], "camera")

    def dice_seen(self, obs: DiceSeen, t_ns: int) -> None:
        """The colour-dice reader's view (also while the dice roll)."""
        if obs.moving:
            self.armed = True
            self.thrown(t_ns)
            return
        if self.state.phase is not Phase.ROLL or not self.armed:
            return
        if obs.black is not None and obs.white is not None and obs.confidence >= CONFIDENT:
            self.armed = False
            self.dice_read(self.rules.check_roll(ColourRoll(obs.black, obs.white)), t_ns)
        else:  # unsure: the Farmer confirms or corrects the guess by hand
            self.guess = obs
            self._open_colours(obs)

    # -- the Farmer's and the menu buttons ------------------------------------------
    def press(self, button: str, t_ns: int = 0) -> None:
        """A short press of ``farmer``, ``prev``, ``next``, ``ok`` or ``back``."""
        if self.notice is not None:
            self.notice = None
            return
        if self.entry is not None:
            self._on_entry({"farmer": "next"}.get(button, button), t_ns)
            return
        if self.showing_url or button == "prev":
            self.showing_url = not self.showing_url
            return
        if button != "farmer":
            return
        phase = self.state.phase
        if phase is Phase.OVER:
            self.new_game()
        elif phase is Phase.DRAW:
            if not self.state.draw_pile:
                self.card_turned(None, "buttons")  # a tie-break round without a card
            else:
                self.entry, self.cursor = Entry.CARD, 0
        elif phase is Phase.ROLL:
            self._open_colours(None, t_ns)
        elif phase is Phase.CATCH:
            self._end_round()

    def hold(self, button: str, t_ns: int = 0) -> None:
        """Holding the Farmer's button picks in an entry screen."""
        if self.entry is not None and button == "farmer":
            self._on_entry("ok", t_ns)

    def _open_colours(self, guess: DiceSeen | None, t_ns: int = 0) -> None:
        """Colour entry opens; by hand that is the throw (buzzes from now on are held)."""
        self.thrown(t_ns)
        deck = self.rules.deck
        self.black = deck.black_faces.index(guess.black) if guess and guess.black in deck.black_faces else 0
        self.white = deck.white_faces.index(guess.white) if guess and guess.white in deck.white_faces else 0
        self.entry = Entry.BLACK

    @property
    def entry_cards(self) -> tuple[int, ...]:
        """The cards the Farmer may pick (still in the deck), in deck order."""
        return tuple(sorted(self.state.draw_pile))

    def _on_entry(self, b: str, t_ns: int) -> None:
        deck = self.rules.deck
        if self.entry is Entry.CARD:
            n = len(self.entry_cards)
            if b in ("next", "prev") and n:
                self.cursor = (self.cursor + (1 if b == "next" else -1)) % n
            elif b == "ok" and n:
                self.card_turned(deck.cards[self.entry_cards[self.cursor]].id, "buttons")
            elif b == "back":
                self.entry = None
        elif self.entry is Entry.BLACK:
            if b in ("next", "prev"):
                self.black = (self.black + (1 if b == "next" else -1)) % len(deck.black_faces)
            elif b == "ok":
                self.entry = Entry.WHITE
            elif b == "back":
                self.entry = None
        elif self.entry is Entry.WHITE:
            if b in ("next", "prev"):
                self.white = (self.white + (1 if b == "next" else -1)) % len(deck.white_faces)
            elif b == "ok":
                self.armed = False
                self.dice_read(ColourRoll(deck.black_faces[self.black],
                                          deck.white_faces[self.white]),
                               t_ns or time.monotonic_ns(), "buttons")
            elif b == "back":
                self.entry = Entry.BLACK

    # -- the rest -------------------------------------------------------------------
    def report(self, kind: str, detail: str, now: float) -> None:
        """Show a notice (e.g. the journal lost its torn last record)."""
        self.notice = Notice(kind, detail, now)
        self.alerts.append("error")

    def camera_lost(self, reason: str, now: float) -> None:
        """The camera stopped answering: say so once (the buttons keep working)."""
        if self.notice is None or self.notice.kind != "camera_gone":
            self.report("camera_gone", reason, now)

    def tick(self, now: float) -> None:
        """Time passes (``now``: the box's clock, s): notices expire; the race closes
        :attr:`race_time` after it was first seen open, its uncaught cards escape."""
        if self.notice is not None and now - self.notice.since > NOTICE_SECONDS:
            self.notice = None
        st = self.state
        if st.phase is not Phase.CATCH or not st.uncaught or self.race_time <= 0:
            self.race_since = None
            return
        if self.race_since is None:
            self.race_since = now
        elif now - self.race_since >= self.race_time:
            turn = self._do({"action": "close"})
            self.race_since = None
            if self.verdict is None:  # else the last take stays up; the slots show the rest
                self.verdict = Verdict(turn.events, ())

    def take_alerts(self) -> list[str]:
        """Alerts (activate, win, mistake, error) raised since the last call."""
        out, self.alerts = self.alerts, []
        return out


def player_of(button: str) -> int | None:
    """``player3`` -> 2; other names -> None."""
    if button.startswith("player") and button[6:].isdigit():
        return int(button[6:]) - 1
    return None


__all__ = ["CONFIDENT", "RACE_TIME", "TIE_NS", "Buzz", "CameraLost", "CardsSeen", "DiceSeen",
           "Entry", "FarmReplay", "Recorded", "FunFarmJournal", "FunFarmSession", "Take", "Verdict", "apply",
           "first_buzz", "game_record", "new_game_action", "player_of", "races", "rules_from", "rules_of_game"]
