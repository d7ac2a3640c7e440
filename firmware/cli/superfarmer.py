"""Super Farmer commands: odds, settle, simulate, advise.

The rules never read the clock: this module times the simulations (and
:func:`settled_rolls_per_second` times :func:`settle` for the bench), and shows a
progress bar when the advisor's model for a variant has to be solved first.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from farmbox.firmware.rules.superfarmer import ANIMALS, CLASSIC, VARIANTS, Herd, Roll, Rules, settle, variant
from farmbox.firmware.rules.superfarmer.odds import odds
from farmbox.firmware.rules.superfarmer.simulate import settle_sample
from farmbox.firmware.rules.superfarmer.strategies import Strategy

if TYPE_CHECKING:  # numpy tables: imported by the commands that need them
    from farmbox.firmware.rules.superfarmer.solitaire import Model


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="classic", choices=sorted(VARIANTS),
                   help="rule set (default: classic)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("odds", help="exact odds of one roll for a farm")
    p.add_argument("herd", metavar="HERD", help="e.g. rabbit=6,sheep=1 ('' is an empty farm)")
    p.add_argument("--stock", metavar="HERD", help="main herd (default: endless, as seed 004)")
    _add_variant(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser("settle", help="settle one roll for a farm")
    p.add_argument("--herd", required=True, metavar="HERD")
    p.add_argument("--stock", metavar="HERD",
                   help="main herd (default: the full set minus this farm)")
    p.add_argument("--roll", required=True, metavar="GREEN,RED")
    _add_variant(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_settle)

    p = sub.add_parser("simulate", help="play many simulated games and report turns to win")
    _add_variant(p)
    p.add_argument("--strategy", default="advisor", metavar="S",
                   help="naive, greedy, hoard or advisor (default: advisor); with several "
                        "players a comma list gives one per seat")
    p.add_argument("--players", type=int, default=1, metavar="N", help="farms at the table (default 1)")
    p.add_argument("--games", type=int, default=1000, metavar="N", help="games to play (default 1000)")
    p.add_argument("--seed", type=int, metavar="N", help="random seed (default: a fresh one, reported)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("advise", help="the best exchange for a farm, and why")
    p.add_argument("herd", metavar="HERD", help="the farm, e.g. rabbit=14,sheep=2")
    p.add_argument("--stock", metavar="HERD",
                   help="main herd (default: the full set minus this farm, as in solitaire)")
    _add_variant(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_advise)


def _parse_herd(text: str, what: str) -> Herd:
    try:
        return Herd.parse(text)
    except ValueError as exc:
        raise ValueError(f"bad {what}: {exc}") from None


def cmd_odds(args: argparse.Namespace) -> int:
    rules = variant(args.variant)
    farm = _parse_herd(args.herd, "HERD")
    stock = _parse_herd(args.stock, "--stock") if args.stock is not None else None
    if stock is not None:
        # As settle and advise: the farm and the herd together fit in the full set.
        rules.stock_for(farm + stock)
    result = odds(farm, stock, rules)
    if args.json:
        out = {"herd": farm.as_dict(), "variant": rules.name,
               "stock": stock.as_dict() if stock else "endless", **result.as_dict()}
        print(json.dumps(out))
        return 0
    print(f"farm {str(farm) or '(empty)'} ({farm.value} rabbits), {rules.name} rules, "
          f"{'endless herd' if stock is None else 'herd ' + str(stock)}")
    print(f"expected gain per roll: {result.expected_gain} = {float(result.expected_gain):.3f} rabbits")
    print(f"chance of losing something: {result.loss} = {float(result.loss):.1%}")
    for animal, p in result.gain.items():
        print(f"  gains {animal.key:<6} {str(p):>7} = {float(p):6.1%}")
    print(f"chance to complete the farm this roll: {float(result.win):.1%}")
    return 0


def cmd_settle(args: argparse.Namespace) -> int:
    rules = variant(args.variant)
    farm = _parse_herd(args.herd, "--herd")
    roll = Roll.parse(args.roll)
    if args.stock is not None:
        stock = _parse_herd(args.stock, "--stock")
        # The farm and the herd together can never hold more than the full set.
        rules.stock_for(farm + stock)
    else:
        stock = rules.stock_for(farm)
    result = settle(farm, stock, roll, rules)
    if args.json:
        print(json.dumps({
            "herd": result.farm.as_dict(),
            "stock": result.stock.as_dict(),
            "roll": {"green": roll.green.value, "red": roll.red.value},
            "events": [e.as_dict() for e in result.events],
            "winner": result.won,
        }))
        return 0
    print(f"roll {roll}: {str(farm) or '(empty)'} -> {str(result.farm) or '(empty)'}")
    for e in result.events:
        print(f"  {e}")
    if result.won:
        print("  the farm is complete: winner!")
    return 0


@contextmanager
def solve_progress(rules: Rules) -> Iterator[Callable[[float], None]]:
    """A progress callback for the advisor's solver: a tqdm bar on stderr, from the first call.

    Nothing is shown when the model is read from a table (the solver is never called).
    """
    from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

    bar: Any = None

    def progress(fraction: float) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=100, unit="%", file=sys.stderr, leave=False, disable=None,
                       desc=f"solving the {rules.name} advisor (once; then cached)",
                       bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")
        bar.update(max(0, round(fraction * 100) - bar.n))

    try:
        yield progress
    finally:
        if bar is not None:
            bar.close()


def advisor_model(rules: Rules) -> Model:
    """The advisor's model for ``rules``: shipped, cached or solved now (with a progress bar)."""
    from farmbox.firmware.box.solved_tables import model_for

    with solve_progress(rules) as progress:
        return model_for(rules, progress=progress)


def settled_rolls_per_second(rolls: int = 100_000, rules: Rules = CLASSIC,
                             rng: random.Random | None = None) -> float:
    """Raw speed of :func:`settle` on random farms and rolls (no memory), per CPU second."""
    picks = settle_sample(rolls, rules, rng)
    c0 = time.process_time()
    for farm, stock, roll in picks:
        settle(farm, stock, roll, rules)
    return rolls / max(1e-9, time.process_time() - c0)


def _strategies(text: str, players: int) -> list[Strategy]:
    from farmbox.firmware.rules.superfarmer.strategies import strategy

    names = [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--strategy lists {len(names)} strategies for {players} players")
    return [strategy(n) for n in names]


def cmd_simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from farmbox.firmware.rules.superfarmer.simulate import simulate_solitaire, simulate_table

    rules = variant(args.variant)
    if args.games < 1:
        raise ValueError(f"--games must be at least 1, not {args.games}")
    if not rules.min_players <= args.players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
                         f"not {args.players}")
    strategies = _strategies(args.strategy, args.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    if any(s.name == "advisor" for s in strategies):
        advisor_model(rules)  # read (or solve once) before the clock starts
    with tqdm(total=args.games, unit="game", file=sys.stderr, leave=False,
              mininterval=0.25, disable=None) as bar:
        t0, c0 = time.perf_counter(), time.process_time()
        out: dict[str, Any]
        if args.players == 1:
            solo = simulate_solitaire(strategies[0], args.games, rules, rng, progress=bar.update)
            out = solo.timed(time.perf_counter() - t0, time.process_time() - c0).as_dict()
        else:
            table = simulate_table(strategies, args.games, rules, rng, progress=bar.update)
            out = table.timed(time.perf_counter() - t0, time.process_time() - c0).as_dict()
    out["seed"] = seed
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['games']} {rules.name} games, {args.players} player(s), seed {seed}: "
          f"mean {out['mean_turns']:.2f} turns, median {out['median_turns']:g} "
          f"({out['games_per_second']:,.0f} games/s)")
    if args.players > 1:
        print("wins per seat: " + ", ".join(
            f"{i + 1} {name} {rate:.1%}" for i, (name, rate) in
            enumerate(zip(out["strategies"], out["win_rate_per_seat"]))))
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    from farmbox.firmware.rules.superfarmer.advisor import advise

    rules = variant(args.variant)
    farm = _parse_herd(args.herd, "HERD")
    stock = _parse_herd(args.stock, "--stock") if args.stock is not None else None
    if stock is not None:
        rules.stock_for(farm + stock)  # a bad herd is an error before any solving
    a = advise(farm, stock, rules, model=advisor_model(rules))
    if args.json:
        print(json.dumps({**a.as_dict(), "variant": rules.name}))
        return 0
    print(f"farm {str(farm) or '(empty)'} ({farm.value} rabbits), {rules.name} rules")
    if a.exchange is None:
        print("advice: no exchange, just roll")
    elif a.wins_now:
        print(f"advice: exchange {a.exchange} -- the farm is complete: you win this turn")
    else:
        print(f"advice: exchange {a.exchange}")
    print(f"expected turns to win, counting this one: {a.turns_recommended:.2f}"
          + (f" (without it {a.turns_without:.2f}, {a.turns_saved:.2f} saved)"
             if a.exchange else ""))
    if a.gain_recommended is not None:
        print(f"expected gain of this roll: {float(a.gain_recommended):.3f} rabbits"
              + (f" (without the exchange {float(a.gain_without):.3f})" if a.exchange else ""))
    if a.capped:
        print("note: counts above the model's caps count as capped ("
              + ", ".join(f"{animal.key}<={cap}" for animal, cap in zip(ANIMALS, a.caps)) + ")")
    return 0
