"""Fun Farm: the circle of cards, the colour roll, catches, penalties, end and tie-breaks.

Pure functions from a :class:`FarmState` to a :class:`Turn` (new state + events).  Randomness
(the shuffle, the penalty card, the tie deal) comes only from an injected ``random.Random``.

A round: the Farmer turns the top card into the circle (:func:`draw`), rolls both dice
(:func:`roll`), players catch animals (:func:`catch`, the table game) or press buzzers
(:func:`buzz`, the variant the box referees), then :func:`end_round` lets the uncaught cards
escape, passes the Farmer role left and ends the game after the round in which the last card
was drawn.

>>> import random
>>> rules = FunFarmRules()
>>> s = new_game(3, rules, random.Random(1))
>>> t = draw(s, rules)
>>> len(t.state.circle), t.state.phase.value
(1, 'roll')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import IllegalAction, InvalidRoll, InvalidState
from .deck import Animal, Deck, load_deck


class TieRule(enum.Enum):
    """What happens when two or more buzzers are pressed in the same millisecond.

    REROLL (default): nobody takes the cards; the Farmer rolls again with the same circle and
    no new card.  Fair because nobody can be told apart, and a new roll is a new race.
    DEAL: the activated cards are dealt one at a time to the tied players, starting with a
    randomly chosen one (the injected RNG), so counts differ by at most one.
    """

    REROLL = "reroll"
    DEAL = "deal"


class BuzzTakes(enum.Enum):
    """What one buzz takes in the buzzer variant.

    ONE_ANIMAL (default): each activated animal is its own race; a buzz takes the animal with
    the most activated cards still uncaught (ties: the card turned earliest) and every such
    card showing it, the next buzz the next animal; the same player may buzz again (two hands).
    ALL: the first buzz takes every activated card of the round (for small children).
    """

    ONE_ANIMAL = "one_animal"
    ALL = "all"


class Escaped(enum.Enum):
    """What happens to an activated card nobody caught before the race closed.

    LEAVE (default): it escaped and leaves the game ("zwierzak uciekł i nie może być już
    złapany"); only cards that were not activated stay in the circle.
    STAY: it stays in the circle and can be activated again by a later roll.
    """

    LEAVE = "leave"
    STAY = "stay"


class Phase(enum.Enum):
    DRAW = "draw"    # between rounds: the Farmer is about to turn a card
    ROLL = "roll"    # a card is turned, the dice are not read yet
    CATCH = "catch"  # the roll is read: catch (or buzz) now
    OVER = "over"


class EventKind(enum.Enum):
    DRAWN = "drawn"              # card turned into the circle
    ROLLED = "rolled"            # cards = the activated cards
    CAUGHT = "caught"            # player took cards
    WRONG_CATCH = "wrong_catch"  # caught an animal that was not activated
    FALSE_START = "false_start"  # buzzed before the dice were read
    EMPTY_BUZZ = "empty_buzz"    # buzzed when the roll activated nothing
    LATE_BUZZ = "late_buzz"      # buzzed after the round's cards were taken: ignored
    PENALTY = "penalty"          # player returned cards[0] to the circle
    NO_PENALTY = "no_penalty"    # a mistake with an empty pile costs nothing
    TIE = "tie"                  # buzzers pressed in the same millisecond
    DEALT = "dealt"              # a tied player got cards by the DEAL rule
    ESCAPED = "escaped"          # activated, uncaught when the race closed (left, or stayed)
    CLOSED = "closed"            # the race closed before the round's end (the time ran out)
    TIEBREAK = "tiebreak"        # tied players' cards shuffled into a new deck
    WON = "won"                  # player = the winner; None: the tied ``players`` share it


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; ``player`` is 0-based, ``cards`` are card numbers."""

    kind: EventKind
    player: int | None = None
    cards: tuple[int, ...] = ()
    players: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind.value}
        if self.player is not None:
            d["player"] = self.player
        if self.cards:
            d["cards"] = list(self.cards)
        if self.players:
            d["players"] = list(self.players)
        return d


@dataclass(frozen=True, slots=True)
class ColourRoll:
    """The colours up on the black and the white die."""

    black: str
    white: str

    def __str__(self) -> str:
        return f"{self.black},{self.white}"


@dataclass(frozen=True)
class FunFarmRules:
    """The deck and the named options of the buzzer variant."""

    deck: Deck = field(default_factory=load_deck)
    tie: TieRule = TieRule.REROLL
    buzz_takes: BuzzTakes = BuzzTakes.ONE_ANIMAL
    escaped: Escaped = Escaped.LEAVE
    min_players: int = 2
    max_players: int = 10

    def parse_roll(self, text: str) -> ColourRoll:
        """Parse ``BLACK,WHITE`` colour names (checked against the dice)."""
        parts = [p.strip().lower() for p in text.split(",")]
        if len(parts) != 2:
            raise InvalidRoll(f"bad roll {text!r}: expected BLACK,WHITE (two colours)")
        return self.check_roll(ColourRoll(parts[0], parts[1]))

    def check_roll(self, r: ColourRoll) -> ColourRoll:
        if r.black not in self.deck.black_faces:
            raise InvalidRoll(f"{r.black!r} is not on the black die")
        if r.white not in self.deck.white_faces:
            raise InvalidRoll(f"{r.white!r} is not on the white die")
        return r

    def activates(self, card: int, r: ColourRoll) -> bool:
        """A card is activated when its black colour OR its white colour was rolled."""
        c = self.deck.cards[card]
        return c.black == r.black or c.white == r.white


@dataclass(frozen=True)
class FarmState:
    """Everything needed to resume a game (immutable, JSON-serialisable)."""

    draw_pile: tuple[int, ...]           # face down, top first
    circle: tuple[int, ...]              # face up, in the order they arrived
    piles: tuple[tuple[int, ...], ...]   # each player's caught cards
    farmer: int = 0
    phase: Phase = Phase.DRAW
    roll: ColourRoll | None = None
    #: Cards the roll activated (fixed at the roll) and those of them still in the circle.
    activated: tuple[int, ...] = ()
    uncaught: tuple[int, ...] = ()
    round: int = 0
    #: Players still racing: everyone, or the tied players during a tie-break.
    contenders: tuple[int, ...] = ()
    tiebreaks: int = 0
    winner: int | None = None
    #: Cards that escaped (activated, nobody caught them): out of the game.
    escaped: tuple[int, ...] = ()
    #: Every player's cards when the first tie-break began (the game's real totals).
    game_scores: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.piles)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cards in each player's pile now (in a tie-break: the tie-break's cards)."""
        return tuple(len(p) for p in self.piles)

    @property
    def totals(self) -> tuple[int, ...]:
        """The game's cards per player: :attr:`scores`, or after a tie-break began the
        scores it began with (the tie-break only decides between the tied players)."""
        return self.game_scores or self.scores

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def cards_total(self) -> int:
        """Cards in the draw pile, the circle, the piles and escaped."""
        return len(self.draw_pile) + len(self.circle) + sum(self.scores) + len(self.escaped)

    def check(self, deck_size: int) -> None:
        """Raise :class:`InvalidState` unless every card is in exactly one place."""
        everything = (list(self.draw_pile) + list(self.circle)
                      + [c for p in self.piles for c in p] + list(self.escaped))
        if sorted(everything) != list(range(deck_size)):
            raise InvalidState(f"deck, circle, piles and escaped hold {len(everything)} cards "
                               f"(or repeats), expected each of {deck_size} once")
        if not set(self.uncaught) <= set(self.activated) or not set(self.uncaught) <= set(self.circle):
            raise InvalidState("uncaught activated cards must be in the circle")
        if not 0 <= self.farmer < self.players:
            raise InvalidState(f"Farmer {self.farmer} out of range")

    # -- serialisation -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; ``escaped`` and ``game_scores`` only when they hold something (so a
        journal written before they existed replays to the same dicts)."""
        d: dict[str, Any] = {
            "draw_pile": list(self.draw_pile), "circle": list(self.circle),
            "piles": [list(p) for p in self.piles], "farmer": self.farmer,
            "phase": self.phase.value, "roll": str(self.roll) if self.roll else None,
            "activated": list(self.activated), "uncaught": list(self.uncaught),
            "round": self.round, "contenders": list(self.contenders),
            "tiebreaks": self.tiebreaks, "winner": self.winner,
        }
        if self.escaped:
            d["escaped"] = list(self.escaped)
        if self.game_scores:
            d["game_scores"] = list(self.game_scores)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], rules: FunFarmRules) -> "FarmState":
        def ints(xs: Any) -> tuple[int, ...]:
            return tuple(int(x) for x in xs)

        try:
            state = cls(
                draw_pile=ints(d["draw_pile"]), circle=ints(d["circle"]),
                piles=tuple(ints(p) for p in d["piles"]), farmer=int(d["farmer"]),
                phase=Phase(d["phase"]),
                roll=rules.parse_roll(d["roll"]) if d.get("roll") else None,
                activated=ints(d["activated"]), uncaught=ints(d["uncaught"]),
                round=int(d["round"]), contenders=ints(d["contenders"]),
                tiebreaks=int(d["tiebreaks"]),
                winner=None if d.get("winner") is None else int(d["winner"]),
                escaped=ints(d.get("escaped", ())), game_scores=ints(d.get("game_scores", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidState(f"bad saved Fun Farm game: missing or malformed {exc}") from None
        state.check(len(rules.deck))
        return state


@dataclass(frozen=True, slots=True)
class Turn:
    """The state after an action and what happened."""

    state: FarmState
    events: tuple[Event, ...]


# ---------------------------------------------------------------------------
# Actions


def new_game(players: int, rules: FunFarmRules, rng: random.Random, farmer: int = 0) -> FarmState:
    """Shuffle the deck; ``farmer`` (0-based) starts."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction(f"Fun Farm is for {rules.min_players}-{rules.max_players} players, "
                            f"not {players}")
    if not 0 <= farmer < players:
        raise IllegalAction(f"no player {farmer + 1} to be the Farmer")
    pile = list(range(len(rules.deck)))
    rng.shuffle(pile)
    return FarmState(tuple(pile), (), ((),) * players, farmer=farmer,
                     contenders=tuple(range(players)))


def draw(state: FarmState, rules: FunFarmRules) -> Turn:
    """Start a round: the Farmer turns the top card into the circle.

    In a tie-break whose new deck is empty the round starts without a card.
    """
    _require(state, Phase.DRAW, "draw a card")
    if not state.draw_pile:
        return Turn(replace(state, phase=Phase.ROLL, round=state.round + 1), ())
    card = state.draw_pile[0]
    new = replace(state, draw_pile=state.draw_pile[1:], circle=state.circle + (card,),
                  phase=Phase.ROLL, round=state.round + 1)
    return Turn(new, (Event(EventKind.DRAWN, state.farmer, (card,)),))


def roll(state: FarmState, rules: FunFarmRules, colours: ColourRoll) -> Turn:
    """The dice are read: activate every circle card matching black OR white."""
    _require(state, Phase.ROLL, "read the dice")
    rules.check_roll(colours)
    active = tuple(c for c in state.circle if rules.activates(c, colours))
    new = replace(state, phase=Phase.CATCH, roll=colours, activated=active, uncaught=active)
    return Turn(new, (Event(EventKind.ROLLED, state.farmer, active),))


def catch(state: FarmState, rules: FunFarmRules, player: int, animal: Animal,
          rng: random.Random) -> Turn:
    """The table game: ``player`` grabbed ``animal``.

    Right (an uncaught activated card shows it): the catcher takes every such card.
    Wrong (anything else, also before the roll): the penalty.
    """
    _require_racing(state, player)
    taken = tuple(c for c in state.uncaught if rules.deck.cards[c].animal is animal)
    if state.phase is not Phase.CATCH or not taken:
        return _penalty(state, player, EventKind.WRONG_CATCH, rng)
    return Turn(_take(state, player, taken), (Event(EventKind.CAUGHT, player, taken),))


def race_order(state: FarmState, rules: FunFarmRules) -> tuple[tuple[int, ...], ...]:
    """The uncaught activated cards grouped by animal, in the order the buzzes take them:
    the animal with the most cards first, ties broken by the card turned earliest (the
    circle's order).

    >>> import random
    >>> rules = FunFarmRules()
    >>> s = new_game(2, rules, random.Random(0))
    >>> race_order(s, rules)
    ()
    """
    groups: dict[Animal, list[int]] = {}
    for card in state.circle:  # the circle is in the order the cards arrived
        if card in state.uncaught:
            groups.setdefault(rules.deck.cards[card].animal, []).append(card)
    order = sorted(groups.values(), key=lambda cards: (-len(cards), state.circle.index(cards[0])))
    return tuple(tuple(cards) for cards in order)


def buzz(state: FarmState, rules: FunFarmRules, pressers: Sequence[int],
         rng: random.Random) -> Turn:
    """The buzzer variant: ``pressers`` pressed first, in the same millisecond.

    Before the dice are read every presser made a false start; after a roll that activated
    nothing every presser made a mistake (both with the penalty).  One presser takes the
    next animal of :func:`race_order` with its cards (``rules.buzz_takes`` ONE_ANIMAL) or
    every uncaught activated card (ALL); two or more are a tie settled by ``rules.tie`` over
    the same cards.  Presses after the round's cards were taken (or the race closed) are
    late and ignored.
    """
    pressers = tuple(dict.fromkeys(pressers))
    if not pressers:
        raise IllegalAction("a buzz needs at least one player")
    for p in pressers:
        _require_racing(state, p)
    if state.phase is not Phase.CATCH or not state.activated:
        kind = EventKind.FALSE_START if state.phase is not Phase.CATCH else EventKind.EMPTY_BUZZ
        events: list[Event] = []
        for p in pressers:
            t = _penalty(state, p, kind, rng)
            state = t.state
            events.extend(t.events)
        return Turn(state, tuple(events))
    if not state.uncaught:
        return Turn(state, tuple(Event(EventKind.LATE_BUZZ, p) for p in pressers))
    if rules.buzz_takes is BuzzTakes.ALL:
        raced = state.uncaught
    else:
        raced = race_order(state, rules)[0]
    if len(pressers) == 1:
        return Turn(_take(state, pressers[0], raced),
                    (Event(EventKind.CAUGHT, pressers[0], raced),))
    tie = Event(EventKind.TIE, None, raced, pressers)
    if rules.tie is TieRule.REROLL:
        new = replace(state, phase=Phase.ROLL, roll=None, activated=(), uncaught=())
        return Turn(new, (tie,))
    order = list(pressers)
    start = rng.randrange(len(order))
    order = order[start:] + order[:start]
    shares: dict[int, list[int]] = {p: [] for p in order}
    for i, card in enumerate(raced):
        shares[order[i % len(order)]].append(card)
    events = [tie]
    for p in order:
        if shares[p]:
            state = _take(state, p, tuple(shares[p]))
            events.append(Event(EventKind.DEALT, p, tuple(shares[p])))
    return Turn(state, tuple(events))


def close_race(state: FarmState, rules: FunFarmRules) -> Turn:
    """The buzzer race closes before the round ends (its time ran out): the uncaught
    activated cards escape (``rules.escaped``: LEAVE takes them out of the game, STAY leaves
    them in the circle, not catchable until a later roll activates them); later buzzes are
    late.  The round goes on until the Farmer turns the next card (or ends it)."""
    _require(state, Phase.CATCH, "close the race")
    events = [Event(EventKind.CLOSED, None, state.uncaught)]
    if state.uncaught:
        events.append(Event(EventKind.ESCAPED, None, state.uncaught))
    return Turn(_escape(state, rules), tuple(events))


def end_round(state: FarmState, rules: FunFarmRules, rng: random.Random) -> Turn:
    """Close the round: uncaught cards escape (by ``rules.escaped``: they leave the game, or
    stay in the circle), the Farmer role passes left, and after the round that drew the last
    card the game ends or a tie-break begins."""
    _require(state, Phase.CATCH, "end the round")
    events: list[Event] = []
    if state.uncaught:
        events.append(Event(EventKind.ESCAPED, None, state.uncaught))
    state = replace(_escape(state, rules), phase=Phase.DRAW, roll=None, activated=())
    in_tiebreak = state.tiebreaks > 0
    if not state.draw_pile or in_tiebreak:
        scores = state.scores
        best = max(scores[p] for p in state.contenders)
        top = tuple(p for p in state.contenders if scores[p] == best)
        if len(top) == 1:
            state = replace(state, phase=Phase.OVER, winner=top[0])
            return Turn(state, tuple(events) + (Event(EventKind.WON, top[0], (), top),))
        if not state.draw_pile:
            # The tied players' cards become a new deck; the circle stays.
            pile = [c for p in top for c in state.piles[p]]
            if not pile and not state.circle:
                # Nothing left to catch (every card escaped or is in other piles): no
                # tie-break can ever decide it; the tied players share the win.
                state = replace(state, phase=Phase.OVER, winner=None, contenders=top,
                                game_scores=state.game_scores or scores)
                return Turn(state, tuple(events) + (Event(EventKind.WON, None, (), top),))
            rng.shuffle(pile)
            piles = tuple(() if p in top else cards for p, cards in enumerate(state.piles))
            state = replace(state, draw_pile=tuple(pile), piles=piles, contenders=top,
                            tiebreaks=state.tiebreaks + 1,
                            game_scores=state.game_scores or scores)
            events.append(Event(EventKind.TIEBREAK, None, tuple(pile), top))
    return Turn(replace(state, farmer=_next_farmer(state)), tuple(events))


def random_roll(rules: FunFarmRules, rng: random.Random) -> ColourRoll:
    """A fair roll of both dice (simulations and demos)."""
    return ColourRoll(rng.choice(rules.deck.black_faces), rng.choice(rules.deck.white_faces))


# ---------------------------------------------------------------------------


def _require(state: FarmState, phase: Phase, what: str) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over")
    if state.phase is not phase:
        raise IllegalAction(f"cannot {what} now (phase {state.phase.value})")


def _require_racing(state: FarmState, player: int) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over")
    if not 0 <= player < state.players:
        raise IllegalAction(f"no player {player + 1}")
    if player not in state.contenders:
        raise IllegalAction(f"player {player + 1} is not in the tie-break")


def _escape(state: FarmState, rules: FunFarmRules) -> FarmState:
    """The uncaught activated cards escape: out of the game (LEAVE) or left in the circle
    (STAY); either way nobody can catch them any more this round."""
    if rules.escaped is Escaped.LEAVE and state.uncaught:
        return replace(state, circle=tuple(c for c in state.circle if c not in state.uncaught),
                       escaped=state.escaped + state.uncaught, uncaught=())
    return replace(state, uncaught=())


def _take(state: FarmState, player: int, cards: tuple[int, ...]) -> FarmState:
    piles = list(state.piles)
    piles[player] = piles[player] + cards
    return replace(state, piles=tuple(piles),
                   circle=tuple(c for c in state.circle if c not in cards),
                   uncaught=tuple(c for c in state.uncaught if c not in cards))


def _penalty(state: FarmState, player: int, kind: EventKind, rng: random.Random) -> Turn:
    """A mistake: one random card of the culprit's pile back into the circle (not activated
    this round: activation happens at the roll)."""
    pile = state.piles[player]
    if not pile:
        return Turn(state, (Event(kind, player), Event(EventKind.NO_PENALTY, player)))
    i = rng.randrange(len(pile))
    card = pile[i]
    piles = list(state.piles)
    piles[player] = pile[:i] + pile[i + 1:]
    new = replace(state, piles=tuple(piles), circle=state.circle + (card,))
    return Turn(new, (Event(kind, player), Event(EventKind.PENALTY, player, (card,))))


def _next_farmer(state: FarmState) -> int:
    """Left of the Farmer; in a tie-break, a player outside the tie if there is one."""
    n = state.players
    order = [(state.farmer + k) % n for k in range(1, n + 1)]
    if state.tiebreaks:
        outside = [p for p in order if p not in state.contenders]
        if outside:
            return outside[0]
    return order[0]
