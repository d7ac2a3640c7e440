"""Bots: choosers that play a seat. ``random``, ``greedy`` (points now) and ``spoiler``.

greedy: adds the card that raises its projected score most (cabbage now plus the
columns it would lead, water and cats if the round were scored now); gifts the
card it values least to the open farmer with the lowest score.
spoiler: adds like greedy; gifts the card that helps its recipient least,
aimed at the leading open opponent.
In team mode both give a partner who is still open the card that helps them most.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Animal, Card
from .farm import Column, Farm
from .game import Game, Placement
from .scoring import least_loss
from .teams import team_of


def rivals_best(game: Game, seat: int) -> dict[Animal, int]:
    """The most icons any other farmer shows in each column."""
    best: dict[Animal, int] = {}
    for other, farm in enumerate(game.farms):
        if other != seat:
            for column in farm.columns:
                best[column.animal] = max(best.get(column.animal, 0), column.icons)
    return best


def projected(farm: Farm, rivals: dict[Animal, int]) -> int:
    """The farm's points if the round were scored now (basic water)."""
    led = sum(c.icons for c in farm.columns if c.icons >= rivals.get(c.animal, 0))
    return led + farm.water - farm.cats


def gain(farm: Farm, rivals: dict[Animal, int], placement: Placement,
         base: int | None = None) -> int:
    """Cabbage points plus the change in projected points from one placement."""
    if placement.card.is_cat and placement.column is None:
        return 0
    new, points = farm.add(placement.card, placement.column)
    return points + projected(new, rivals) - (projected(farm, rivals) if base is None else base)


def best_gain(game: Game, seat: int, card: Card,
              rivals: dict[Animal, int] | None = None) -> int:
    """What a card would be worth to a farmer at best (a cat on its best column)."""
    farm = game.farms[seat]
    rivals = rivals_best(game, seat) if rivals is None else rivals
    base = projected(farm, rivals)
    options = ([Placement(card, a) for a in farm.animals] if card.is_cat else [Placement(card)])
    return max((gain(farm, rivals, p, base) for p in options), default=-1)


class RandomBot:
    """Uniformly random legal choices."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def add(self, game: Game, seat: int, options: Sequence[Placement]) -> Placement:
        return self.rng.choice(list(options))

    def gift(self, game: Game, seat: int, cards: Sequence[Card],
             farmers: Sequence[int]) -> tuple[Card, int]:
        return self.rng.choice(list(cards)), self.rng.choice(list(farmers))

    def discard(self, game: Game, seat: int, cards: Sequence[Card]) -> Card:
        return self.rng.choice(list(cards))

    def cat_column(self, game: Game, seat: int, columns: Sequence[Animal]) -> Animal:
        return self.rng.choice(list(columns))

    def prey(self, game: Game, seat: int, column: Column) -> Card:
        return self.rng.choice(list(column.cards))


class GreedyBot:
    """Takes the most points it can see now; gifts what it values least."""

    name = "greedy"

    def add(self, game: Game, seat: int, options: Sequence[Placement]) -> Placement:
        farm, rivals = game.farms[seat], rivals_best(game, seat)
        base = projected(farm, rivals)
        return max(options, key=lambda p: gain(farm, rivals, p, base))

    def gift(self, game: Game, seat: int, cards: Sequence[Card],
             farmers: Sequence[int]) -> tuple[Card, int]:
        partners = [f for f in farmers if f in team_of(game.options.teams, seat)]
        if partners:
            rivals = {f: rivals_best(game, f) for f in partners}
            return max(((c, f) for c in cards for f in partners),
                       key=lambda cf: best_gain(game, cf[1], cf[0], rivals[cf[1]]))
        mine = rivals_best(game, seat)
        card = min(cards, key=lambda c: best_gain(game, seat, c, mine))
        return card, min(farmers, key=lambda f: game.scores[f])

    def discard(self, game: Game, seat: int, cards: Sequence[Card]) -> Card:
        mine = rivals_best(game, seat)
        return min(cards, key=lambda c: best_gain(game, seat, c, mine))

    def cat_column(self, game: Game, seat: int, columns: Sequence[Animal]) -> Animal:
        farm, rivals = game.farms[seat], rivals_best(game, seat)
        cat = Card(None)
        return max(columns, key=lambda a: gain(farm, rivals, Placement(cat, a)))

    def prey(self, game: Game, seat: int, column: Column) -> Card:
        return least_loss(game.names[seat], column)


class SpoilerBot(GreedyBot):
    """Adds like greedy; gifts the leading open opponent the card that helps them least."""

    name = "spoiler"

    def gift(self, game: Game, seat: int, cards: Sequence[Card],
             farmers: Sequence[int]) -> tuple[Card, int]:
        partners = [f for f in farmers if f in team_of(game.options.teams, seat)]
        if partners:
            return super().gift(game, seat, cards, farmers)
        rivals = {f: rivals_best(game, f) for f in farmers}
        return min(((c, f) for c in cards for f in farmers),
                   key=lambda cf: (best_gain(game, cf[1], cf[0], rivals[cf[1]]), -game.scores[cf[1]]))


BOTS = {"random": RandomBot, "greedy": GreedyBot, "spoiler": SpoilerBot}


def make_bot(name: str, rng: random.Random) -> RandomBot | GreedyBot:
    """A bot by name; the random bot draws from ``rng``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (expected one of {', '.join(BOTS)})")
    return RandomBot(rng) if name == "random" else BOTS[name]()
