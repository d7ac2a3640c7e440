"""The card game's scorekeeper on the box: the numbers of each farm entered on four buttons.

The camera cannot read the cards yet, so after phase 2 of each round the table enters, farmer
by farmer and column by column (rabbit ... horse), the animal cards, the animal icons on them,
dog icons, water icons and cats, then the cabbage points the farmer earned during the round.
With predators, the token's face comes first and, for each attacked column of two or more
cards, the card given up (its icons and water). The round is then scored by the rules engine's
own scorekeeper (:func:`farmbox.firmware.rules.cardgame.scorecard.tally`, what ``farmbox cardgame
score`` runs), shown step by step, and put on the track.

Everything confirmed is an *action* (a JSON-ready dict) applied by the pure :func:`apply`:

- ``{"action": "new_game", "setup": {"players": 4, "advanced_water": false, ...}}``
- ``{"action": "enter", "key": "F2.rabbit.icons", "value": 3}`` (one confirmed number)
- ``{"action": "farmer", "seat": 1, "farm": {...}}`` (a farmer's whole entry, confirmed)
- ``{"action": "score", "round": 1, "totals": [...]}`` (the round's result)
- ``{"action": "undo"}``

Each goes through ``commit(action, state)`` (the journal, fsync'ed) before the session
changes, so a power cut loses at most the number being dialled; replaying the journal
resumes the entry at exactly the same question.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from farmbox.firmware.box.history import History, NothingToUndo
from farmbox.firmware.box.journal import Journal, Replay
from farmbox.firmware.rules.cardgame import (
    CAT,
    COLUMN_ORDER,
    Animal,
    Card,
    CardGameError,
    Farm,
    Predator,
    Scorecard,
    ScoringOptions,
    Tally,
    default_teams,
    tally,
)

Action = dict[str, Any]
Commit = Callable[[Action, "TableState | None"], None]

PREDATOR_MODES = ("off", "token", "hard")
#: The numbers entered for each column, in the order asked.
COLUMN_FIELDS = ("cards", "icons", "dogs", "water", "cats")
#: Highest number the buttons go to for any field.
MOST = 60
NAME = "cardgame.jsonl"


# --- the game's settings and state ----------------------------------------------

@dataclass(frozen=True)
class Setup:
    """Set at game start: farmers, advanced water, predators (off/token/hard), team size (0: none)."""

    players: int = 2
    advanced_water: bool = False
    predators: str = "off"
    teams: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            raise CardGameError(f"the card game is for 2-6 farmers, got {self.players!r}")
        if self.predators not in PREDATOR_MODES:
            raise CardGameError(f"predators must be one of {', '.join(PREDATOR_MODES)}, "
                                f"not {self.predators!r}")
        if self.teams:
            default_teams(self.players, self.teams)  # raises for a bad combination

    @property
    def animals(self) -> tuple[Animal, ...]:
        """The columns in play: no horses with 4 or fewer farmers."""
        return COLUMN_ORDER if self.players >= 5 else COLUMN_ORDER[:-1]

    @property
    def fields(self) -> tuple[str, ...]:
        """No cats with 4 or fewer farmers (they stay in the box)."""
        return COLUMN_FIELDS if self.players >= 5 else COLUMN_FIELDS[:-1]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"F{i + 1}" for i in range(self.players))

    @property
    def team_seats(self) -> tuple[tuple[int, ...], ...]:
        return default_teams(self.players, self.teams) if self.teams else ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Setup":
        unknown = set(data) - {"players", "advanced_water", "predators", "teams"}
        if unknown:
            raise CardGameError(f"setup: unknown key {sorted(unknown)[0]!r}")
        return cls(**dict(data))


@dataclass(frozen=True)
class ColumnCount:
    """What the table counted in one column: cards, animal icons on them, dogs, water, cats."""

    animal: Animal
    cards: int
    icons: int
    dogs: int = 0
    water: int = 0
    cats: int = 0

    def as_list(self) -> list[int]:
        return [self.cards, self.icons, self.dogs, self.water, self.cats]


@dataclass(frozen=True)
class FarmCount:
    """One farmer's entry for a round: the columns they have and their cabbage points."""

    columns: tuple[ColumnCount, ...]
    cabbage: int = 0

    def column(self, animal: Animal) -> ColumnCount | None:
        return next((c for c in self.columns if c.animal is animal), None)

    def as_dict(self) -> dict[str, Any]:
        return {"columns": {c.animal.value: c.as_list() for c in self.columns},
                "cabbage": self.cabbage}


@dataclass(frozen=True)
class RoundResult:
    """One scored round: the predators, each farmer's cabbage, round points and new total."""

    predators: tuple[str, ...]
    cabbage: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    longest: tuple[int, ...]


@dataclass(frozen=True)
class TableState:
    """The whole game on the box: the setup, the round being entered, the rounds scored."""

    setup: Setup
    round: int = 1
    #: The confirmed answers of this round, in the order asked (see :func:`walk`).
    answers: tuple[int, ...] = ()
    results: tuple[RoundResult, ...] = ()
    #: Each farm after the last scoring, seat -> animal -> [cards, icons, dogs, water, cats]
    #: (the cards stay on the table: round 2 starts from these numbers).
    carry: tuple[dict[str, list[int]], ...] = ()

    @property
    def over(self) -> bool:
        return len(self.results) >= 2

    @property
    def scores(self) -> tuple[int, ...]:
        """The track before this round (after the game: the final scores)."""
        return self.results[-1].totals if self.results else (0,) * self.setup.players

    def to_dict(self) -> dict[str, Any]:
        return {"setup": asdict(self.setup), "round": self.round, "answers": list(self.answers),
                "results": [{k: list(v) for k, v in asdict(r).items()} for r in self.results],
                "carry": [dict(c) for c in self.carry]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TableState":
        return cls(Setup.from_dict(data["setup"]), int(data["round"]),
                   tuple(int(a) for a in data["answers"]),
                   tuple(RoundResult(**{k: tuple(v) for k, v in r.items()})
                         for r in data["results"]),
                   tuple({k: [int(x) for x in v] for k, v in c.items()} for c in data["carry"]))


# --- the questions of a round ---------------------------------------------------

@dataclass(frozen=True)
class Question:
    """One thing to enter: ``kind`` is token, count, cabbage, confirm or prey."""

    kind: str
    key: str
    seat: int = -1
    animal: Animal | None = None
    field: str = ""
    low: int = 0
    high: int = MOST
    default: int = 0
    predator: Predator | None = None


@dataclass
class Entry:
    """A round's answers read back: what is known so far and the next question."""

    predators: tuple[Predator, ...] = ()
    farms: list[FarmCount] = field(default_factory=list)
    #: The farmer being entered: their columns so far (animal -> numbers).
    draft: dict[Animal, list[int]] = field(default_factory=dict)
    #: (seat, animal) -> (icons, water) of the card given up to a predator.
    prey: dict[tuple[int, Animal], tuple[int, int]] = field(default_factory=dict)
    asked: list[tuple[Question, int]] = field(default_factory=list)
    question: Question | None = None

    @property
    def done(self) -> bool:
        return self.question is None


def _carried(state: TableState, seat: int, animal: Animal) -> list[int]:
    if seat < len(state.carry):
        return list(state.carry[seat].get(animal.value, [0, 0, 0, 0, 0]))
    return [0, 0, 0, 0, 0]


def attacks(setup: Setup, predators: Sequence[Predator],
            farms: Sequence[FarmCount]) -> list[tuple[Predator, Animal, tuple[int, ...]]]:
    """Which seats each predator attacks (the fewest dogs, when not all equal), in order."""
    out = []
    for predator in predators:
        for animal in predator.prey:
            dogs = [(f.column(animal).dogs if f.column(animal) else 0) for f in farms]  # type: ignore[union-attr]
            attacked: tuple[int, ...] = ()
            if len(set(dogs)) > 1:
                attacked = tuple(s for s, d in enumerate(dogs) if d == min(dogs))
            out.append((predator, animal, attacked))
    return out


def walk(state: TableState) -> Entry:
    """Read this round's answers in question order; the next question is ``entry.question``.

    The order: the token's face (token mode), then each farmer in seat order: per column
    cards (0 skips the column), icons, dogs, water, cats (5-6 farmers); the farmer's cabbage
    points; their confirmation; then the cards given up to predators (icons, water).
    """
    setup = state.setup
    entry = Entry()
    answers = iter(state.answers)

    def ask(q: Question) -> int | None:
        value = next(answers, None)
        if value is None:
            entry.question = q
            return None
        if not q.low <= value <= q.high:
            raise CardGameError(f"{q.key} = {value}: expected {q.low}-{q.high}")
        entry.asked.append((q, value))
        return value

    if setup.predators == "token":
        face = ask(Question("token", "token", high=1))
        if face is None:
            return entry
        entry.predators = ((Predator.FOX, Predator.WOLF)[face],)
    elif setup.predators == "hard":
        entry.predators = (Predator.FOX, Predator.WOLF)
    for seat, name in enumerate(setup.names):
        entry.draft = {}
        for animal in setup.animals:
            before = _carried(state, seat, animal)
            numbers: list[int] = []
            for i, fld in enumerate(setup.fields):
                low = 0
                if fld == "icons":
                    low = numbers[0]  # at least one icon per card
                default = max(low, before[i])
                value = ask(Question("count", f"{name}.{animal.value}.{fld}", seat, animal, fld,
                                     low, MOST, default))
                if value is None:
                    if numbers:
                        entry.draft[animal] = numbers
                    return entry
                numbers.append(value)
                if fld == "cards" and value == 0:
                    break
            if numbers[0]:
                entry.draft[animal] = numbers + [0] * (5 - len(numbers))
        cabbage = ask(Question("cabbage", f"{name}.cabbage", seat))
        if cabbage is None:
            return entry
        farm = FarmCount(tuple(ColumnCount(a, *n) for a, n in entry.draft.items()), cabbage)
        if ask(Question("confirm", f"{name}.confirm", seat, low=1, high=1, default=1)) is None:
            entry.farms.append(farm)  # shown on the confirmation screen, not yet confirmed
            return entry
        entry.farms.append(farm)
        entry.draft = {}
    for predator, animal, attacked in attacks(setup, entry.predators, entry.farms):
        for seat in attacked:
            col = entry.farms[seat].column(animal)
            if col is None:
                continue
            if col.cards == 1:
                entry.prey[(seat, animal)] = (col.icons, col.water)
                continue
            key = f"{setup.names[seat]}.{predator.value}.{animal.value}"
            icons = ask(Question("prey", key + ".icons", seat, animal, "icons", 1,
                                 col.icons - (col.cards - 1), 1, predator))
            if icons is None:
                return entry
            water = ask(Question("prey", key + ".water", seat, animal, "water", 0, col.water, 0,
                                 predator))
            if water is None:
                entry.prey[(seat, animal)] = (icons, -1)
                return entry
            entry.prey[(seat, animal)] = (icons, water)
    extra = len(state.answers) - len(entry.asked)
    if extra:
        raise CardGameError(f"{extra} answer(s) after the last question of the round")
    return entry


# --- scoring with the rules engine ----------------------------------------------

def column_cards(col: ColumnCount, prey: tuple[int, int] | None) -> list[Card]:
    """Cards with the counted totals: the card given up first (if any), the rest after it."""
    cards: list[Card] = []
    icons, water, n = col.icons, col.water, col.cards
    if prey is not None:
        # The dogs sit on a card that stays, unless the column has no other card.
        cards.append(Card(col.animal, icons=prey[0], water=prey[1],
                          small_dogs=0 if n > 1 else col.dogs))
        icons, water, n = icons - prey[0], water - prey[1], n - 1
    if n:
        cards.append(Card(col.animal, icons=icons - (n - 1), water=water, small_dogs=col.dogs))
        cards += [Card(col.animal) for _ in range(n - 1)]
    return cards


def scorecard(state: TableState, entry: Entry | None = None) -> Scorecard:
    """The round as the engine's :class:`Scorecard` (cabbage is already on the track)."""
    entry = entry or walk(state)
    if not entry.done:
        raise CardGameError(f"the round is not fully entered (next: {entry.question.key})")  # type: ignore[union-attr]
    setup = state.setup
    farms, prey = [], {}
    for seat, count in enumerate(entry.farms):
        farm = Farm()
        for col in count.columns:
            given = entry.prey.get((seat, col.animal))
            for card in column_cards(col, given):
                farm, _ = farm.add(card)
            for _ in range(col.cats):
                farm, _ = farm.add(CAT, col.animal)
            if given is not None:
                prey[(setup.names[seat], col.animal)] = 1
        farms.append(farm)
    before = tuple(s + f.cabbage for s, f in zip(state.scores, entry.farms))
    teams = tuple(tuple(setup.names[s] for s in team) for team in setup.team_seats)
    return Scorecard(setup.names, tuple(farms), tuple(() for _ in farms), before,
                     ScoringOptions(setup.advanced_water, entry.predators), teams, prey)


def score(state: TableState, entry: Entry | None = None) -> Tally:
    """Score the entered round with the engine's scorekeeper (``farmbox cardgame score``)."""
    return tally(scorecard(state, entry))


def winners(state: TableState) -> tuple[tuple[int, ...], str]:
    """The winning seats and how they won: "score", "longest" (column) or "shared"."""
    last = state.results[-1]
    teams = state.setup.team_seats or tuple((s,) for s in range(state.setup.players))
    keys = [(sum(last.totals[s] for s in t), max(last.longest[s] for s in t)) for t in teams]
    best = max(keys)
    won = [i for i, k in enumerate(keys) if k == best]
    top = [i for i, k in enumerate(keys) if k[0] == best[0]]
    how = "shared" if len(won) > 1 else "longest" if len(top) > 1 else "score"
    return tuple(sorted(s for i in won for s in teams[i])), how


# --- actions -------------------------------------------------------------------

def new_game_action(setup: Setup) -> Action:
    return {"action": "new_game", "setup": asdict(setup)}


def apply(state: TableState | None, action: Action) -> TableState:
    """The state after ``action`` (undo is handled by :class:`Timeline`); raises on a bad one."""
    kind = action.get("action")
    if kind == "new_game":
        return TableState(Setup.from_dict(action["setup"]))
    if state is None:
        raise CardGameError("no game: the first action must be a new game")
    if kind == "correct":
        return corrected(state, action)
    if state.over:
        raise CardGameError("the game is over")
    entry = walk(state)
    q = entry.question
    if kind == "enter":
        if q is None or q.kind == "confirm":
            raise CardGameError(f"nothing to enter now (got {action.get('key')})")
        if action.get("key") != q.key:
            raise CardGameError(f"expected {q.key}, got {action.get('key')}")
        value = action.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or not q.low <= value <= q.high:
            raise CardGameError(f"{q.key} = {value!r}: expected {q.low}-{q.high}")
        return replace(state, answers=state.answers + (value,))
    if kind == "farmer":
        if q is None or q.kind != "confirm" or action.get("seat") != q.seat:
            raise CardGameError(f"farmer {action.get('seat')} is not waiting for confirmation")
        if action.get("farm") != entry.farms[q.seat].as_dict():
            raise CardGameError(f"farmer {q.seat + 1}'s entry differs from the numbers entered")
        return replace(state, answers=state.answers + (1,))
    if kind == "score":
        if q is not None:
            raise CardGameError(f"the round is not fully entered (next: {q.key})")
        t = score(state, entry)
        names = state.setup.names
        totals = tuple(t.totals[n] for n in names)
        if action.get("round") != state.round or list(action.get("totals", [])) != list(totals):
            raise CardGameError("the round's result differs from the scoring of the entries")
        farms = t.round.farms
        result = RoundResult(tuple(p.value for p in entry.predators),
                             tuple(f.cabbage for f in entry.farms),
                             tuple(t.round.points[n] for n in names), totals,
                             tuple(farms[n].longest for n in names))
        carry = tuple({c.animal.value: [c.length, c.icons - len(c.cats), c.dogs, c.water,
                                        len(c.cats)] for c in farms[n].columns} for n in names)
        return replace(state, round=2, answers=(), results=state.results + (result,), carry=carry)
    raise CardGameError(f"unknown action {kind!r}")


def corrected(state: TableState, action: Action) -> TableState:
    """A scored round's points for one farmer, corrected by the table (``{"action":
    "correct", "round": 1, "seat": 0, "points": 14}``): that round's total and every later
    one move by the difference; the entries stay as they were."""
    n, seat, points = action.get("round"), action.get("seat"), action.get("points")
    if not isinstance(n, int) or not 1 <= n <= len(state.results):
        raise CardGameError(f"round {n!r} is not scored yet")
    if not isinstance(seat, int) or not 0 <= seat < state.setup.players:
        raise CardGameError(f"no farmer {seat!r} at this table")
    if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 999:
        raise CardGameError(f"points {points!r}: expected 0-999")
    delta = points - state.results[n - 1].points[seat]
    results = list(state.results)
    for i in range(n - 1, len(results)):
        r = results[i]
        bumped = tuple(t + delta if s == seat else t for s, t in enumerate(r.totals))
        results[i] = replace(r, totals=bumped, points=(
            tuple(points if s == seat else p for s, p in enumerate(r.points)) if i == n - 1
            else r.points))
    return replace(state, results=tuple(results))


def score_action(state: TableState) -> Action:
    t = score(state)
    return {"action": "score", "round": state.round,
            "totals": [t.totals[n] for n in state.setup.names]}


class Timeline(History[TableState | None]):
    """The current state and the states before it (for undo), as in the dice game's session."""

    def __init__(self, state: TableState | None = None) -> None:
        super().__init__(state)

    def begin(self, action: Action, state: Any) -> None:
        """Replaying a journal: nothing to set up, the ``new_game`` action starts the table."""

    def preview(self, action: Action) -> TableState | None:
        if action.get("action") == "undo":
            try:
                return self.undone()
            except NothingToUndo as exc:
                raise CardGameError(str(exc)) from None
        return apply(self.state, action)


# --- the journal -----------------------------------------------------------------

@dataclass
class CardgameReplay(Replay):
    """What :class:`CardgameJournal` found: the table's timeline (None: no game yet)."""

    table: Timeline = field(default_factory=lambda: Timeline())

    @property
    def timeline(self) -> Timeline | None:
        return self.table if self.table.state is not None else None

    def begin(self, action: Action, state: Any) -> None:
        self.table.begin(action, state)

    def resume(self, action: Action, state: Any) -> None:
        """After a bad record: take up the recorded table (its set-up is part of it)."""
        self.table = Timeline(None if state is None else TableState.from_dict(state))

    def preview(self, action: Action) -> TableState | None:
        return self.table.preview(action)

    def apply(self, action: Action, new: Any) -> None:
        self.table.apply(action, new)


class CardgameJournal(Journal[CardgameReplay]):
    """The card game's journal (the box's file format: JSON lines, CRC, fsync)."""

    def __init__(self, directory: str | os.PathLike[str], name: str = NAME) -> None:
        super().__init__(directory, name, CardgameReplay)


# --- the session: buttons -> actions -------------------------------------------------

class Phase(enum.Enum):
    SETUP = "setup"          # the mode options, one screen each
    ENTRY = "entry"          # a number (or the token, or a farmer's confirmation)
    BREAKDOWN = "breakdown"  # the round's scoring, page by page
    SCOREBOARD = "scoreboard"
    WINNER = "winner"


#: The setup screens: option name -> its choices.
SETUP_CHOICES: dict[str, tuple[Any, ...]] = {
    "players": (2, 3, 4, 5, 6),
    "advanced_water": (False, True),
    "predators": PREDATOR_MODES,
    "teams": (0, 2, 3),
}


def setup_choices(option: str, players: int) -> tuple[Any, ...]:
    """The choices for ``option`` given the farmers chosen (teams only with 4 or 6)."""
    if option == "teams":
        return (0, 2) if players == 4 else (0, 2, 3) if players == 6 else (0,)
    return SETUP_CHOICES[option]


class Scorekeeper:
    """One table's card game, button by button (prev/next/ok/back; hold any = undo)."""

    def __init__(self, setup: Setup | None = None, commit: Commit | None = None,
                 timeline: Timeline | None = None) -> None:
        self._commit = commit or (lambda action, state: None)
        self.timeline = timeline or Timeline()
        self.draft_setup = setup or Setup()
        self.option = 0
        self.value = 0
        self.page = 0
        self.alerts: list[str] = []
        self._board = False
        self._new_game = False
        #: The table view's address is on the screen (``prev`` on the scoreboard; any press: back).
        self.showing_url = False
        self._tally: tuple[TableState, Tally] | None = None
        self._entry: tuple[TableState, Entry] | None = None
        self._sync()
        if self.state is not None and self.state.results and not self.state.answers:
            self._board = True  # resumed between rounds: show where everyone stands

    # -- state ---------------------------------------------------------------
    @property
    def state(self) -> TableState | None:
        return self.timeline.state

    @property
    def entry(self) -> Entry:
        """This round's answers read back (cached: the state is immutable)."""
        state = self.state
        assert state is not None
        if self._entry is None or self._entry[0] is not state:
            self._entry = (state, walk(state))
        return self._entry[1]

    @property
    def question(self) -> Question | None:
        return None if self.state is None or self.state.over else self.entry.question

    @property
    def tally(self) -> Tally:
        """The scoring of the round entered (all its questions answered)."""
        state = self.state
        assert state is not None
        if self._tally is None or self._tally[0] is not state:
            self._tally = (state, score(state, self.entry))
        return self._tally[1]

    @property
    def phase(self) -> Phase:
        if self.state is None:
            return Phase.SETUP
        if self.state.over:
            return (Phase.SETUP if self._new_game else Phase.SCOREBOARD if self._board
                    else Phase.WINNER)
        if self._board:
            return Phase.SCOREBOARD
        return Phase.ENTRY if self.question is not None else Phase.BREAKDOWN

    def pages(self) -> list[tuple[str, Any]]:
        """The breakdown's pages: each attack, each column someone has, water, cats, totals."""
        t = self.tally
        out: list[tuple[str, Any]] = [("attack", a) for a in t.round.attacks]
        out += [("column", c) for c in t.round.columns if any(c.icons.values())]
        out += [("water", t.round.water), ("cats", t.round.cats), ("totals", t)]
        return out

    def _do(self, action: Action) -> None:
        new = self.timeline.preview(action)  # raises on a bad action: nothing written
        self._commit(action, new)            # journal first ...
        self.timeline.apply(action, new)     # ... then memory

    def _sync(self, value: int | None = None) -> None:
        """Put the number editor on the current question (its default, or ``value``)."""
        q = self.question
        if q is not None:
            self.value = q.default if value is None else min(max(value, q.low), q.high)

    # -- buttons -----------------------------------------------------------------
    def press(self, button: str) -> None:
        """A short press of prev, next, ok or back."""
        if self.showing_url:
            self.showing_url = False
            return
        getattr(self, f"_on_{self.phase.value}")(button)

    def hold(self, button: str) -> None:
        """Holding any button undoes the last confirmed number, farmer or round."""
        if self.phase is Phase.SETUP or not self.timeline.history:
            self.alerts.append("mistake")
            return
        undone = self._undo()
        self._board = False
        self._sync(undone)

    def _undo(self) -> int | None:
        """Undo the last action; returns the number it had confirmed (to edit it again)."""
        before = self.state
        self._do({"action": "undo"})
        after = self.state
        if (before is not None and after is not None and before.round == after.round
                and len(before.answers) == len(after.answers) + 1):
            return before.answers[-1]
        if after is not None and not after.over and walk(after).done:
            self.page = max(0, len(self.pages()) - 1)  # back on the last breakdown page
        return None

    @property
    def can_undo(self) -> bool:
        return self.phase is not Phase.SETUP and bool(self.timeline.history)

    def new_game(self) -> None:
        """A new game with this game's setup at once (the table view's new game)."""
        setup = self.state.setup if self.state is not None else self.draft_setup
        self._do(new_game_action(setup))
        self.option, self._new_game, self._board, self.page = 0, False, False, 0
        self._sync()

    def correct(self, round_number: int, seat: int, points: int) -> None:
        """Correct a scored round's points for ``seat`` (journaled; see :func:`corrected`)."""
        self._do({"action": "correct", "round": round_number, "seat": seat, "points": points})

    def _on_setup(self, b: str) -> None:
        names = list(SETUP_CHOICES)
        option = names[self.option]
        choices = setup_choices(option, self.draft_setup.players)
        current = getattr(self.draft_setup, option)
        i = choices.index(current) if current in choices else 0
        if b in ("next", "prev"):
            value = choices[(i + (1 if b == "next" else -1)) % len(choices)]
            fields = {option: value}
            if option == "players":
                fields["teams"] = 0
            self.draft_setup = replace(self.draft_setup, **fields)
        elif b == "ok":
            if current not in choices:
                self.draft_setup = replace(self.draft_setup, **{option: choices[0]})
            if self.option + 1 < len(names):
                self.option += 1
            else:
                self._do(new_game_action(self.draft_setup))
                self.option, self._new_game, self._board = 0, False, False
                self._sync()
        elif b == "back":
            if self.option:
                self.option -= 1
            elif self._new_game:
                self._new_game = False

    def _on_entry(self, b: str) -> None:
        q = self.question
        assert q is not None and self.state is not None
        if b in ("next", "prev"):
            if q.kind != "confirm":
                self.value = min(max(self.value + (1 if b == "next" else -1), q.low), q.high)
        elif b == "ok":
            if q.kind == "confirm":
                entry = self.entry
                self._do({"action": "farmer", "seat": q.seat,
                          "farm": entry.farms[q.seat].as_dict()})
            else:
                self._do({"action": "enter", "key": q.key, "value": self.value})
            self._sync()
            if self.question is None:
                self.page = 0
                self._predator_alerts()
        elif b == "back":
            if self.state.answers:
                self._sync(self._undo())
            elif self.state.results:
                self._board = True

    def _predator_alerts(self) -> None:
        for attack in self.tally.round.attacks:
            if attack.lost and attack.predator.value not in self.alerts:
                self.alerts.append(attack.predator.value)

    def _on_breakdown(self, b: str) -> None:
        last = len(self.pages()) - 1
        if b == "next" or (b == "ok" and self.page < last):
            self.page = min(self.page + 1, last)
        elif b == "prev":
            self.page = max(self.page - 1, 0)
        elif b == "ok":
            assert self.state is not None
            self._do(score_action(self.state))
            self._board = True
            if self.state.over:
                self._board = False
                self.alerts.append("win")
        elif b == "back":
            self._sync(self._undo())

    def _on_scoreboard(self, b: str) -> None:
        assert self.state is not None
        if b == "prev":
            self.showing_url = True  # the table view's address and QR code
        elif b == "ok" or b == "next" or self.state.over:
            self._board = False
            self._sync()

    def _on_winner(self, b: str) -> None:
        if b == "ok":
            self._new_game = True
            self.option = 0
            self.draft_setup = self.state.setup if self.state is not None else Setup()
        elif b in ("next", "prev"):
            self._board = True

    def take_alerts(self) -> list[str]:
        out, self.alerts = self.alerts, []
        return out


__all__ = ["Action", "CardgameJournal", "ColumnCount", "Entry", "FarmCount", "Phase",
           "Question", "RoundResult", "Scorekeeper", "Setup", "TableState", "Timeline",
           "apply", "attacks", "column_cards", "new_game_action",
           "score", "score_action", "scorecard", "walk", "winners"]
