"""Fast Monte Carlo games with the real rules functions.

Speed comes from remembering: per farm (and main herd, when farms share it) the
strategy's exchange is chosen and applied once with :func:`apply_exchange`, and
each distinct roll is settled once with :func:`settle`; a turn is then a couple
of dict lookups. The random generator is injected, so a seed reproduces a run.

>>> import random
>>> r = simulate_solitaire(STRATEGIES["hoard"], games=20, rng=random.Random(1))
>>> r.games, len(r.turns)
(20, 20)
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .dice import ALL_ROLLS
from .herd import Herd
from .superfarmer import CLASSIC, Rules, apply_exchange, settle
from .strategies import STRATEGIES, Strategy

#: For each of the 144 equally likely rolls, the index of its distinct roll.
_DISTINCT = tuple(dict.fromkeys(ALL_ROLLS))
_CLASS_OF = tuple(_DISTINCT.index(r) for r in ALL_ROLLS)
_N = len(ALL_ROLLS)

#: Marks a farm that wins by its exchange alone.
WON = "won"

Progress = Callable[[int], None]


@dataclass
class SolitaireResult:
    """Turns to win of each solitaire game."""

    strategy: str
    variant: str
    turns: list[int]
    seconds: float
    settled: int = 0
    #: CPU time of this process (one core): the fair speed figure on a busy machine.
    cpu_seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.turns)

    @property
    def mean_turns(self) -> float:
        return statistics.fmean(self.turns)

    @property
    def median_turns(self) -> float:
        return float(statistics.median(self.turns))

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def games_per_cpu_second(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else float("inf")

    def as_dict(self) -> dict[str, object]:
        t = sorted(self.turns)
        return {
            "variant": self.variant, "players": 1, "strategy": self.strategy,
            "games": self.games, "mean_turns": round(self.mean_turns, 3),
            "median_turns": self.median_turns,
            "p10_turns": t[len(t) // 10], "p90_turns": t[(len(t) * 9) // 10],
            "max_turns": t[-1], "games_per_second": round(self.games_per_second, 1),
            "games_per_cpu_second": round(self.games_per_cpu_second, 1),
        }


class SolitaireTable:
    """Remembered turns of one strategy: farm -> exchange applied -> 144 successors."""

    def __init__(self, strategy: Strategy, rules: Rules = CLASSIC) -> None:
        self.strategy = strategy
        self.rules = rules
        self._entries: dict[tuple[int, ...], object] = {}
        self.settled = 0

    def entry(self, counts: tuple[int, ...]) -> object:
        """WON, or a list of 25 successor slots (None = not settled yet) plus the farm."""
        e = self._entries.get(counts)
        if e is None:
            rules = self.rules
            farm = Herd._trusted(counts)
            stock = rules.herd_sizes - farm
            ex = self.strategy.choose(farm, stock, rules)
            if ex is not None:
                farm, stock = apply_exchange(farm, stock, ex)
            e = WON if farm.is_complete() else [None] * len(_DISTINCT) + [(farm, stock)]
            self._entries[counts] = e
        return e

    def successor(self, e: list, k: int) -> tuple[int, ...] | None:
        """Settle distinct roll ``k`` for a remembered entry (None: the roll wins)."""
        farm, stock = e[-1]
        result = settle(farm, stock, _DISTINCT[k], self.rules)
        self.settled += 1
        nxt = None if result.won else result.farm.counts
        e[k] = nxt if nxt is not None else WON
        return nxt

    def __len__(self) -> int:
        return len(self._entries)


def simulate_solitaire(strategy: Strategy, games: int = 1000, rules: Rules = CLASSIC,
                       rng: random.Random | None = None, max_turns: int = 100_000,
                       progress: Progress | None = None,
                       table: SolitaireTable | None = None) -> SolitaireResult:
    """Play ``games`` solitaire games; each counts every turn until the farm is complete."""
    rng = rng or random.Random()
    table = SolitaireTable(strategy, rules) if table is None else table
    rnd = rng.random
    entries = table._entries
    get_entry = table.entry
    successor = table.successor
    class_of = _CLASS_OF
    start = rules.starting.counts
    turns: list[int] = []
    step = max(1, games // 100)
    settled_before = table.settled
    t0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        farm = start
        t = 0
        while t < max_turns:
            t += 1
            e = entries.get(farm)
            if e is None:
                e = get_entry(farm)
            if e is WON:
                break
            k = class_of[int(rnd() * _N)]
            nxt = e[k]  # type: ignore[index]
            if nxt is None:
                nxt = successor(e, k)  # type: ignore[arg-type]
                if nxt is None:
                    break
            elif nxt is WON:
                break
            farm = nxt
        turns.append(t)
        if progress is not None and (g + 1) % step == 0:
            progress(step)
    if progress is not None and games % step:
        progress(games % step)
    return SolitaireResult(strategy.name, rules.name, turns, time.perf_counter() - t0,
                           table.settled - settled_before, time.process_time() - c0)


# ---------------------------------------------------------------------------
# Several players


@dataclass
class TableResult:
    """Winners and lengths of multi-player games."""

    strategies: list[str]
    variant: str
    winners: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.winners)

    def seat_win_rates(self) -> list[float]:
        n = max(1, self.games)
        return [sum(1 for w in self.winners if w == seat) / n
                for seat in range(len(self.strategies))]

    def strategy_win_rates(self) -> dict[str, float]:
        """Share of games won by each strategy per seat it held (1/players = fair)."""
        seats: dict[str, int] = {}
        for s in self.strategies:
            seats[s] = seats.get(s, 0) + 1
        wins = {s: 0 for s in seats}
        for w in self.winners:
            wins[self.strategies[w]] += 1
        n = max(1, self.games)
        return {s: wins[s] / (n * seats[s]) for s in seats}

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant, "players": len(self.strategies),
            "strategies": self.strategies, "games": self.games,
            "mean_turns": round(statistics.fmean(self.rounds), 3) if self.rounds else None,
            "median_turns": float(statistics.median(self.rounds)) if self.rounds else None,
            "win_rate_per_seat": [round(r, 4) for r in self.seat_win_rates()],
            "win_rate_per_strategy": {k: round(v, 4) for k, v in self.strategy_win_rates().items()},
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
            "games_per_cpu_second":
                round(self.games / self.cpu_seconds, 1) if self.cpu_seconds > 0 else None,
        }


def simulate_table(strategies: Sequence[Strategy], games: int = 1000, rules: Rules = CLASSIC,
                   rng: random.Random | None = None, max_rounds: int = 100_000,
                   progress: Progress | None = None) -> TableResult:
    """Play games of ``len(strategies)`` farms sharing one main herd, seat 0 first.

    A game ends at the first complete farm (its winner); ``rounds`` counts the
    winner's turns. Exchanges are with the main herd only.
    """
    players = len(strategies)
    if not max(1, rules.min_players) <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players}-{rules.max_players} "
                         f"players, not {players}")
    rng = rng or random.Random()
    rnd = rng.random
    total = rules.herd_sizes.counts
    # (strategy seat kind, farm, stock) -> WON or [25 successor slots, farm, stock]
    memo: list[dict[tuple, object]] = [{} for _ in strategies]
    by_name: dict[str, dict] = {}
    for seat, s in enumerate(strategies):
        memo[seat] = by_name.setdefault(s.name, {})
    result = TableResult([s.name for s in strategies], rules.name)
    step = max(1, games // 100)
    t0, c0 = time.perf_counter(), time.process_time()
    start = rules.starting.counts
    for g in range(games):
        farms = [start] * players
        stock = tuple(t - players * s for t, s in zip(total, start))
        winner, rounds = -1, 0
        while winner < 0 and rounds < max_rounds:
            rounds += 1
            for seat in range(players):
                farm = farms[seat]
                key = (farm, stock)
                table = memo[seat]
                e = table.get(key)
                if e is None:
                    # Counts come from valid herds, so skip re-validating them.
                    f, s = Herd._trusted(farm), Herd._trusted(stock)
                    others = [Herd._trusted(x) for i, x in enumerate(farms) if i != seat]
                    ex = strategies[seat].choose(f, s, rules, others)
                    if ex is not None:
                        f, s = apply_exchange(f, s, ex)
                    e = (WON, f.counts, s.counts) if f.is_complete() else \
                        [None] * len(_DISTINCT) + [(f, s)]
                    table[key] = e
                if e[0] is WON:  # type: ignore[index]
                    farms[seat], stock = e[1], e[2]  # type: ignore[index]
                    winner = seat
                    break
                k = _CLASS_OF[int(rnd() * _N)]
                nxt = e[k]  # type: ignore[index]
                if nxt is None:
                    f, s = e[-1]  # type: ignore[index]
                    r = settle(f, s, _DISTINCT[k], rules)
                    nxt = e[k] = (r.farm.counts, r.stock.counts, r.won)  # type: ignore[index]
                farms[seat], stock, won = nxt
                if won:
                    winner = seat
                    break
        result.winners.append(winner)
        result.rounds.append(rounds)
        if progress is not None and (g + 1) % step == 0:
            progress(step)
    if progress is not None and games % step:
        progress(games % step)
    result.seconds = time.perf_counter() - t0
    result.cpu_seconds = time.process_time() - c0
    return result


def settled_rolls_per_second(rolls: int = 100_000, rules: Rules = CLASSIC,
                             rng: random.Random | None = None) -> float:
    """Raw speed of :func:`settle` on random farms and rolls (no memory), per CPU second."""
    rng = rng or random.Random(0)
    full = rules.herd_sizes.counts
    farms = []
    for _ in range(1000):
        farm = Herd(tuple(rng.randint(0, min(n, 12)) for n in full))  # type: ignore[arg-type]
        farms.append((farm, rules.herd_sizes - farm))
    picks = [(farms[rng.randrange(1000)], ALL_ROLLS[rng.randrange(_N)]) for _ in range(rolls)]
    c0 = time.process_time()
    for (farm, stock), roll in picks:
        settle(farm, stock, roll, rules)
    return rolls / max(1e-9, time.process_time() - c0)


__all__ = ["STRATEGIES", "SolitaireResult", "SolitaireTable", "TableResult",
           "settled_rolls_per_second", "simulate_solitaire", "simulate_table"]
