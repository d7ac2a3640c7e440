"""Many bot games in a row, and the win rates per seat and per bot.

Bots rotate round the table from game to game (game g puts bot ``(s + g) % n``
of the line-up in seat s), so seat effects and bot strength come apart.
A shared win counts as a share: 1/k to each of k winners (in team mode the
members of the winning team split the win).

>>> s = Standings(("greedy", "random"))
>>> for result in tournament(2, ("greedy", "random"), games=4, seed=1):
...     s.record(*result)
>>> s.games, round(sum(s.seat_wins), 6)
(4, 4.0)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .bots import make_bot
from .deck import check_players, load_deck
from .game import GameOptions, GameResult, play_game


def lineup(players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """The bots cycled to fill every seat."""
    check_players(players)
    if not bots:
        raise ValueError("name at least one bot")
    return tuple(bots[i % len(bots)] for i in range(players))


def tournament(players: int, bots: Sequence[str], games: int, seed: int = 0,
               options: GameOptions = GameOptions()) -> Iterator[tuple[tuple[str, ...], GameResult]]:
    """Yield (bot name per seat, result) for each game, from one seeded RNG."""
    names = lineup(players, bots)
    rng = random.Random(seed)
    deck = load_deck()
    for g in range(games):
        seats = tuple(names[(s + g) % players] for s in range(players))
        choosers = [make_bot(name, rng) for name in seats]
        yield seats, play_game(players, choosers, rng, options, deck)


@dataclass
class Standings:
    """Win shares and score sums per seat and per bot name."""

    lineup: tuple[str, ...]
    games: int = 0
    seat_wins: list[float] = field(default_factory=list)
    seat_scores: list[int] = field(default_factory=list)
    bot_wins: dict[str, float] = field(default_factory=dict)
    bot_seats: dict[str, int] = field(default_factory=dict)
    bot_scores: dict[str, int] = field(default_factory=dict)
    shared: int = 0

    def __post_init__(self) -> None:
        n = len(self.lineup)
        self.seat_wins = [0.0] * n
        self.seat_scores = [0] * n
        for name in self.lineup:
            self.bot_wins.setdefault(name, 0.0)
            self.bot_seats.setdefault(name, 0)
            self.bot_scores.setdefault(name, 0)

    def record(self, seats: Sequence[str], result: GameResult) -> None:
        self.games += 1
        share = 1 / len(result.winners)
        # In team mode a team's win is split among its members; it is shared only
        # when more than one team won.
        team = next((t for t in result.teams if result.winners[0] in t), (result.winners[0],))
        self.shared += len(result.winners) > len(team)
        for seat, name in enumerate(seats):
            self.bot_seats[name] += 1
            self.bot_scores[name] += result.scores[seat]
            self.seat_scores[seat] += result.scores[seat]
            if seat in result.winners:
                self.seat_wins[seat] += share
                self.bot_wins[name] += share

    def as_dict(self) -> dict[str, object]:
        g = max(self.games, 1)
        return {
            "games": self.games, "lineup": list(self.lineup), "shared_wins": self.shared,
            "seats": [{"seat": s + 1, "win_rate": self.seat_wins[s] / g,
                       "mean_score": self.seat_scores[s] / g} for s in range(len(self.lineup))],
            "bots": [{"bot": name, "seat_games": self.bot_seats[name],
                      "win_rate": self.bot_wins[name] / max(self.bot_seats[name], 1),
                      "mean_score": self.bot_scores[name] / max(self.bot_seats[name], 1)}
                     for name in self.bot_wins],
        }
