"""A whole game of Super Farmer: The Card Game, 2-6 farmers, two rounds.

Seats are numbered clockwise: round 1 passes left (seat + 1), round 2 passes
right (seat - 1) and the farmer right of the first farmer starts it. Each
round is phase 1 (turns: add, gift, pass), phase 2 (gifts onto the farms) and
phase 3 (:func:`score_round`). Every choice the rules leave to a farmer goes to
that seat's :class:`Chooser` (the bots in :mod:`.bots` are choosers).

>>> import random
>>> from .bots import GreedyBot
>>> result = play_game(3, [GreedyBot()] * 3, random.Random(1))
>>> len(result.rounds), len(result.scores)
(2, 3)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from ..errors import IllegalAction
from .cards import Animal, Card, CardGameError, Predator
from .deck import DEALS, GIFT_LIMITS, cards_for, check_players, load_deck
from .farm import Column, Farm
from .scoring import RoundScore, ScoringOptions, score_round
from .teams import check_teams

PREDATOR_MODES = ("off", "token", "hard")


class Placement(NamedTuple):
    """A card going onto a farm; ``column`` says where a cat joins (None for animals)."""

    card: Card
    column: Animal | None = None


class Chooser(Protocol):
    """The decisions a farmer makes. ``game`` is read-only for a chooser."""

    def add(self, game: "Game", seat: int, options: Sequence[Placement]) -> Placement: ...

    def gift(self, game: "Game", seat: int, cards: Sequence[Card],
             farmers: Sequence[int]) -> tuple[Card, int]: ...

    def discard(self, game: "Game", seat: int, cards: Sequence[Card]) -> Card: ...

    def cat_column(self, game: "Game", seat: int, columns: Sequence[Animal]) -> Animal: ...

    def prey(self, game: "Game", seat: int, column: Column) -> Card: ...


@dataclass(frozen=True, slots=True)
class GameOptions:
    """Modes: advanced water, predators (off / token toss / hard = both), teams (seats)."""

    advanced_water: bool = False
    predators: str = "off"
    teams: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.predators not in PREDATOR_MODES:
            raise CardGameError(f"predator mode must be one of {', '.join(PREDATOR_MODES)}, "
                                f"not {self.predators!r}")


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What happened in one round."""

    number: int
    first: int
    direction: int
    predators: tuple[Predator, ...]
    turns: int
    cabbage: tuple[int, ...]
    score: RoundScore


@dataclass(frozen=True, slots=True)
class GameResult:
    """Final scores per seat (and per team), the winners after the tie-breaks, the rounds."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]
    longest: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] = ()
    team_scores: tuple[int, ...] = ()


@dataclass
class Game:
    """The table: draw pile, hands, waiting piles, farms, gifts and the score track.

    Drive it with :meth:`start_round`, :meth:`take_turn` until :attr:`round_over`,
    :meth:`add_gifts` and :meth:`score`; or let :func:`play_game` do it all.
    """

    players: int
    rng: random.Random
    options: GameOptions = GameOptions()
    deck: Sequence[Card] | None = None
    first: int = 0
    names: tuple[str, ...] = ()
    # table state
    draw_pile: list[Card] = field(default_factory=list)
    out_of_play: tuple[Card, ...] = ()
    hands: list[list[Card]] = field(default_factory=list)
    waiting: list[deque[list[Card]]] = field(default_factory=list)
    farms: list[Farm] = field(default_factory=list)
    gifts: list[list[Card]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    round: int = 0
    direction: int = 1
    turn: int = 0
    turns: int = 0
    predators: tuple[Predator, ...] = ()
    cabbage: list[int] = field(default_factory=list)
    records: list[RoundRecord] = field(default_factory=list)
    scored: int = 0

    def __post_init__(self) -> None:
        n = check_players(self.players)
        if self.options.teams:
            check_teams(n, self.options.teams)
        if not 0 <= self.first < n:
            raise CardGameError(f"first farmer must be a seat 0-{n - 1}")
        full = tuple(self.deck) if self.deck is not None else load_deck()
        if len(set(full)) != len(full):
            raise CardGameError("every card of the deck must be told apart (serial numbers)")
        in_play = cards_for(full, n)
        kept = set(in_play)
        self.out_of_play = tuple(c for c in full if c not in kept)
        self.draw_pile = list(in_play)
        self.rng.shuffle(self.draw_pile)
        self.names = self.names or tuple(f"farmer {i + 1}" for i in range(n))
        if len(self.names) != n or len(set(self.names)) != n:
            raise CardGameError(f"need {n} different farmer names")
        self.hands = [[] for _ in range(n)]
        self.waiting = [deque() for _ in range(n)]
        self.farms = [Farm() for _ in range(n)]
        self.gifts = [[] for _ in range(n)]
        self.scores = [0] * n
        self.cabbage = [0] * n

    # --- state queries -------------------------------------------------
    @property
    def gift_limit(self) -> int:
        return GIFT_LIMITS[self.players]

    @property
    def round_over(self) -> bool:
        """Phase 1 ends when every hand and waiting pile is played out."""
        return not any(self.hands) and not any(self.waiting)

    @property
    def fourth(self) -> int:
        """The fourth farmer in turn order (holds the second extra deck with 5-6)."""
        return (self.first + 3 * self.direction) % self.players

    def seat_after(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    def all_cards(self) -> list[Card]:
        """Every card of the box, wherever it is (for conservation checks)."""
        cards = [*self.draw_pile, *self.out_of_play, *self.discards, *self.removed]
        for seat in range(self.players):
            cards += self.hands[seat] + self.gifts[seat] + list(self.farms[seat].cards())
            for pile in self.waiting[seat]:
                cards += pile
        return cards

    def legal_adds(self, seat: int, cards: Sequence[Card] | None = None) -> list[Placement]:
        """Placements for a card from hand: animals onto their column, cats onto any column."""
        cards = self.hands[seat] if cards is None else cards
        farm = self.farms[seat]
        out: list[Placement] = []
        for card in cards:
            if card.is_cat:
                out += [Placement(card, animal) for animal in farm.animals]
            else:
                out.append(Placement(card))
        if not out and cards:
            # Only cats and no column to join: the cat leaves the game (cannot happen
            # with the dealt hand sizes, but the engine must not stall).
            out = [Placement(card) for card in cards]
        return out

    def gift_targets(self, seat: int) -> list[int]:
        """Other farmers still under the gift limit."""
        return [s for s in range(self.players)
                if s != seat and len(self.gifts[s]) < self.gift_limit]

    # --- phase 1 -------------------------------------------------------
    def start_round(self) -> None:
        """Deal the hands and extra decks; in round 2 the right-hand farmer starts, passing right."""
        if self.round >= 2:
            raise IllegalAction("the game is over after two rounds")
        if self.round and self.scored != self.round:
            raise IllegalAction(f"round {self.round} is not scored yet")
        self.round += 1
        if self.round == 2:
            self.first = (self.first - 1) % self.players
            self.direction = -1
        deal = DEALS[self.players]
        if len(self.draw_pile) < deal.cards(self.players):
            raise CardGameError("not enough cards left in the deck to deal")
        for seat in range(self.players):
            self.hands[seat] = self._draw(deal.hand)
            self.gifts[seat] = []
        self.waiting[self.first].append(self._draw(deal.extra[0]))
        if len(deal.extra) > 1:
            self.waiting[self.fourth].append(self._draw(deal.extra[1]))
        self.turn = self.first
        self.turns = 0
        self.cabbage = [0] * self.players
        self.predators = self._toss()

    def _draw(self, n: int) -> list[Card]:
        cards, self.draw_pile = self.draw_pile[:n], self.draw_pile[n:]
        return cards

    def _toss(self) -> tuple[Predator, ...]:
        if self.options.predators == "hard":
            return (Predator.FOX, Predator.WOLF)
        if self.options.predators == "token":
            return (self.rng.choice((Predator.FOX, Predator.WOLF)),)
        return ()

    def next_turn(self) -> int:
        """The seat to play now (a farmer with an empty hand picks up a waiting pile)."""
        if self.round_over:
            raise IllegalAction("no cards left to play this round")
        for _ in range(self.players):
            seat = self.turn
            if not self.hands[seat] and self.waiting[seat]:
                self.hands[seat] = self.waiting[seat].popleft()
            if self.hands[seat]:
                return seat
            self.turn = self.seat_after(seat)
        raise IllegalAction("no farmer holds cards")  # pragma: no cover (round_over above)

    def take_turn(self, add: Placement, gift: Card | None, to: int | None) -> int:
        """Play the current farmer's turn: I add, II gift (or discard), III pass and pick up.

        ``to`` is the gifted farmer; None when every other farmer is at the gift
        limit: then ``gift`` is discarded and a random card from the deck goes to
        the farmer's own gifts (if the deck is empty, the discarded card does).
        Returns the cabbage points scored.
        """
        seat = self.next_turn()
        hand = self.hands[seat]
        # Check the whole turn first, so a refused turn changes nothing.
        if add not in self.legal_adds(seat):
            where = f" to the {add.column.value} column" if add.column else ""
            raise IllegalAction(f"{self.names[seat]} cannot add {add.card}{where}")
        rest = list(hand)
        rest.remove(add.card)
        targets = self.gift_targets(seat)
        if rest:
            if gift is None or gift not in rest:
                raise IllegalAction(f"{self.names[seat]} must gift another card from the hand")
            if targets and to not in targets:
                raise IllegalAction(f"cannot gift to seat {to!r} (open: {targets})")
            if not targets and to is not None:
                raise IllegalAction("every other farmer is at the gift limit: discard")
        hand.remove(add.card)
        if add.card.is_cat and add.column is None:
            self.removed.append(add.card)
            points = 0
        else:
            self.farms[seat], points = self.farms[seat].add(add.card, add.column)
        self.scores[seat] += points
        self.cabbage[seat] += points
        if hand:
            assert gift is not None
            hand.remove(gift)
            if targets:
                self.gifts[to].append(gift)  # type: ignore[index]
            else:
                self.discards.append(gift)
                drawn = self._draw(1) or [self.discards.pop()]
                self.gifts[seat] += drawn
        if hand:
            self.waiting[self.seat_after(seat)].append(hand)
        self.hands[seat] = self.waiting[seat].popleft() if self.waiting[seat] else []
        self.turn = self.seat_after(seat)
        self.turns += 1
        return points

    # --- phases 2 and 3 ------------------------------------------------
    def turn_order(self) -> list[int]:
        return [(self.first + i * self.direction) % self.players for i in range(self.players)]

    def add_gifts(self, choosers: Sequence[Chooser]) -> None:
        """Phase 2: animal gifts in the order each farmer picks, then cats from the first farmer."""
        if not self.round_over:
            raise IllegalAction("gifts are added after the last card of the round")
        for seat in range(self.players):
            animals = [c for c in self.gifts[seat] if not c.is_cat]
            while animals:
                pick = choosers[seat].add(self, seat, [Placement(c) for c in animals])
                if pick.card not in animals:
                    raise IllegalAction(f"{pick.card} is not an animal gift of {self.names[seat]}")
                animals.remove(pick.card)
                self.gifts[seat].remove(pick.card)
                self.farms[seat], points = self.farms[seat].add(pick.card)
                self.scores[seat] += points
                self.cabbage[seat] += points
        for seat in self.turn_order():
            for cat in [c for c in self.gifts[seat] if c.is_cat]:
                self.gifts[seat].remove(cat)
                columns = self.farms[seat].animals
                if not columns:
                    self.removed.append(cat)  # a cat cannot start a column
                    continue
                column = choosers[seat].cat_column(self, seat, columns)
                self.farms[seat], _ = self.farms[seat].add(cat, column)

    def score(self, choosers: Sequence[Chooser]) -> RoundRecord:
        """Phase 3: predators, columns, water, cats; points go onto the track."""
        if not self.round or self.scored == self.round:
            raise IllegalAction("no round waiting to be scored")
        if not self.round_over or any(self.gifts):
            raise IllegalAction("score after the last card is played and the gifts are added")
        seat_of = {name: i for i, name in enumerate(self.names)}
        result = score_round(
            dict(zip(self.names, self.farms)),
            ScoringOptions(self.options.advanced_water, self.predators),
            lambda name, column: choosers[seat_of[name]].prey(self, seat_of[name], column))
        for name, farm in result.farms.items():
            seat = seat_of[name]
            kept = set(farm.cards())
            self.removed += [c for c in self.farms[seat].cards() if c not in kept]
            self.farms[seat] = farm
            self.scores[seat] += result.points[name]
        record = RoundRecord(self.round, self.first, self.direction, self.predators,
                             self.turns, tuple(self.cabbage), result)
        self.records.append(record)
        self.scored = self.round
        return record

    def result(self) -> GameResult:
        """Winners: highest score (per team in team mode), then the longest column, else shared."""
        longest = tuple(farm.longest for farm in self.farms)
        teams = self.options.teams or tuple((s,) for s in range(self.players))
        team_scores = tuple(sum(self.scores[s] for s in team) for team in teams)
        keys = [(team_scores[i], max(longest[s] for s in team)) for i, team in enumerate(teams)]
        best = max(keys)
        winners = tuple(s for i, team in enumerate(teams) if keys[i] == best for s in team)
        return GameResult(tuple(self.scores), tuple(sorted(winners)), tuple(self.records),
                          longest, self.options.teams,
                          team_scores if self.options.teams else ())


def play_turn(game: Game, chooser: Chooser) -> int:
    """Ask the current farmer's chooser for the turn's three decisions and play it."""
    seat = game.next_turn()
    add = chooser.add(game, seat, game.legal_adds(seat))
    rest = list(game.hands[seat])
    rest.remove(add.card)
    if not rest:
        return game.take_turn(add, None, None)
    targets = game.gift_targets(seat)
    if targets:
        gift, to = chooser.gift(game, seat, rest, targets)
        return game.take_turn(add, gift, to)
    return game.take_turn(add, chooser.discard(game, seat, rest), None)


def play_game(players: int, choosers: Sequence[Chooser], rng: random.Random,
              options: GameOptions = GameOptions(), deck: Sequence[Card] | None = None,
              first: int = 0) -> GameResult:
    """Play two rounds with one chooser per seat and return the result."""
    if len(choosers) != players:
        raise CardGameError(f"need {players} choosers, got {len(choosers)}")
    game = Game(players, rng, options, deck, first)
    for _ in range(2):
        game.start_round()
        while not game.round_over:
            seat = game.next_turn()
            play_turn(game, choosers[seat])
        game.add_gifts(choosers)
        game.score(choosers)
    return game.result()
