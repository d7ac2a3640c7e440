"""Fast Monte Carlo games with the real rules functions.

Speed comes from remembering: per farm (and main herd, when farms share it) the
strategy's exchange is chosen and applied once with :func:`apply_exchange`, and
each distinct roll is settled once with :func:`settle`; a turn is then a couple
of dict lookups. The random generator is injected, so a seed reproduces a run.
Nothing here reads the clock: a caller that wants speed figures times the call and
hands the seconds to :meth:`SolitaireResult.timed` / :meth:`TableResult.timed`.

>>> import random
>>> r = simulate_solitaire(STRATEGIES["hoard"], games=20, rng=random.Random(1))
>>> r.games, len(r.turns)
(20, 20)
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .dice import ALL_ROLLS, Roll
from .exchanges import apply_exchange
from .herd import Herd
from .settle import settle
from .strategies import STRATEGIES, Strategy
from .variants import CLASSIC, Rules

#: For each of the 144 equally likely rolls, the index of its distinct roll.
_DISTINCT = tuple(dict.fromkeys(ALL_ROLLS))
_CLASS_OF = tuple(_DISTINCT.index(r) for r in ALL_ROLLS)
_N = len(ALL_ROLLS)

#: Marks a farm that wins by its exchange alone.
WON = "won"

Progress = Callable[[int], None]


@dataclass(frozen=True)
class SolitaireResult:
    """Turns to win of each solitaire game (and, once :meth:`timed`, how long they took)."""

    strategy: str
    variant: str
    turns: list[int]
    settled: int = 0
    #: Wall-clock seconds of the run, given by the caller that timed it (0: not timed).
    seconds: float = 0.0
    #: CPU time of this process (one core): the fair speed figure on a busy machine.
    cpu_seconds: float = 0.0

    def timed(self, seconds: float, cpu_seconds: float) -> "SolitaireResult":
        """This result with the run's measured wall-clock and CPU seconds."""
        return replace(self, seconds=seconds, cpu_seconds=cpu_seconds)

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

    def as_dict(self) -> dict[str, Any]:
        t = sorted(self.turns)
        return {
            "variant": self.variant, "players": 1, "strategy": self.strategy,
            "games": self.games, "mean_turns": round(self.mean_turns, 3),
            "median_turns": self.median_turns,
            "p10_turns": t[len(t) // 10], "p90_turns": t[(len(t) * 9) // 10],
            "max_turns": t[-1],
            "games_per_second": round(self.games_per_second, 1) if self.seconds > 0 else None,
            "games_per_cpu_second":
                round(self.games_per_cpu_second, 1) if self.cpu_seconds > 0 else None,
        }


Counts = tuple[int, ...]
#: A remembered farm: WON, or the successor of each distinct roll (None: not settled
#: yet, WON: the roll wins) followed by the (farm, herd) that rolls.
Entry = str | list[Counts | str | None | tuple[Herd, Herd]]
#: A settled roll at a table: the farm's and the herd's counts after it, and whether it won.
Step = tuple[Counts, Counts, bool]
#: A remembered (farm, herd) at a table: won by the exchange (WON, farm, herd), or the step
#: of each distinct roll (None: not settled yet) followed by the (farm, herd) that rolls.
TableEntry = tuple[str, Counts, Counts] | list[Step | None | tuple[Herd, Herd]]


class SolitaireTable:
    """Remembered turns of one strategy: farm -> exchange applied -> 144 successors."""

    def __init__(self, strategy: Strategy, rules: Rules = CLASSIC) -> None:
        self.strategy = strategy
        self.rules = rules
        self._entries: dict[Counts, Entry] = {}
        self.settled = 0

    def entry(self, counts: Counts) -> Entry:
        """WON, or a list of 25 successor slots (None = not settled yet) plus the farm."""
        e = self._entries.get(counts)
        if e is None:
            rules = self.rules
            farm = Herd._trusted(counts)
            stock = rules.herd_sizes - farm
            ex = self.strategy.choose(farm, stock, rules)
            if ex is not None:
                farm, stock = apply_exchange(farm, stock, ex)
            slots: list[Counts | str | None | tuple[Herd, Herd]] = [None] * len(_DISTINCT)
            e = WON if farm.is_complete() else slots + [(farm, stock)]
            self._entries[counts] = e
        return e

    def successor(self, e: Entry, k: int) -> Counts | None:
        """Settle distinct roll ``k`` for a remembered entry (None: the roll wins)."""
        assert isinstance(e, list)
        last = e[-1]
        assert isinstance(last, tuple) and isinstance(last[0], Herd)
        farm, stock = last
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
            nxt = e[k]
            if nxt is None:
                nxt = successor(e, k)
                if nxt is None:
                    break
            elif nxt is WON:
                break
            farm = nxt  # type: ignore[assignment]  # a successor's counts (checked above)
        turns.append(t)
        if progress is not None and (g + 1) % step == 0:
            progress(step)
    if progress is not None and games % step:
        progress(games % step)
    return SolitaireResult(strategy.name, rules.name, turns, table.settled - settled_before)


# ---------------------------------------------------------------------------
# Several players


@dataclass
class TableResult:
    """Winners and lengths of multi-player games (``seconds``: given by a caller that timed them)."""

    strategies: list[str]
    variant: str
    winners: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.winners)

    def timed(self, seconds: float, cpu_seconds: float) -> "TableResult":
        """This result with the run's measured wall-clock and CPU seconds."""
        return replace(self, seconds=seconds, cpu_seconds=cpu_seconds)

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

    def as_dict(self) -> dict[str, Any]:
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
    memo: list[dict[tuple[Counts, Counts], TableEntry]] = [{} for _ in strategies]
    by_name: dict[str, dict[tuple[Counts, Counts], TableEntry]] = {}
    for seat, strat in enumerate(strategies):
        memo[seat] = by_name.setdefault(strat.name, {})
    result = TableResult([strat.name for strat in strategies], rules.name)
    step = max(1, games // 100)
    start = rules.starting.counts
    for g in range(games):
        farms: list[Counts] = [start] * players
        stock: Counts = tuple(t - players * s for t, s in zip(total, start))
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
                    if f.is_complete():
                        e = (WON, f.counts, s.counts)
                    else:
                        slots: list[Step | None | tuple[Herd, Herd]] = [None] * len(_DISTINCT)
                        e = slots + [(f, s)]
                    table[key] = e
                if isinstance(e, tuple):  # won by the exchange
                    farms[seat], stock = e[1], e[2]
                    winner = seat
                    break
                k = _CLASS_OF[int(rnd() * _N)]
                nxt = e[k]
                if nxt is None:
                    f, s = e[-1]  # type: ignore[misc]  # the last slot is the (farm, herd)
                    r = settle(f, s, _DISTINCT[k], rules)
                    nxt = e[k] = (r.farm.counts, r.stock.counts, r.won)
                farms[seat], stock, won = nxt  # type: ignore[misc]  # a settled step
                if won:
                    winner = seat
                    break
        result.winners.append(winner)
        result.rounds.append(rounds)
        if progress is not None and (g + 1) % step == 0:
            progress(step)
    if progress is not None and games % step:
        progress(games % step)
    return result


def settle_sample(rolls: int = 100_000, rules: Rules = CLASSIC,
                  rng: random.Random | None = None) -> list[tuple[Herd, Herd, Roll]]:
    """Random (farm, main herd, roll) triples from 1000 random farms, to time :func:`settle` on.

    >>> len(settle_sample(10, rng=random.Random(0)))
    10
    """
    rng = rng or random.Random(0)
    full = rules.herd_sizes.counts
    farms = []
    for _ in range(1000):
        farm = Herd(tuple(rng.randint(0, min(n, 12)) for n in full))  # type: ignore[arg-type]
        farms.append((farm, rules.herd_sizes - farm))
    picks = [(farms[rng.randrange(1000)], ALL_ROLLS[rng.randrange(_N)]) for _ in range(rolls)]
    return [(farm, stock, roll) for (farm, stock), roll in picks]


__all__ = ["STRATEGIES", "SolitaireResult", "SolitaireTable", "TableResult",
           "settle_sample", "simulate_solitaire", "simulate_table"]
