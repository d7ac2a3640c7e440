"""Figures for the Super Farmer rules core: speed and strength of each strategy.

    .venv/bin/python bench/bench_rules.py [--games 10000] [--seed 2024] [--json]

Prints, per strategy, solitaire games per second (per CPU second of this one
process, so the figure holds on a busy machine; wall-clock in brackets; the memory
warms up from empty as in a fresh `farmbox simulate`) and the mean/median turns
to win, then the raw speed of settle() on random farms and rolls.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

from farmbox.firmware.box.solved_tables import model_for
from farmbox.firmware.cli.superfarmer import settled_rolls_per_second
from farmbox.firmware.rules.superfarmer import CLASSIC
from farmbox.firmware.rules.superfarmer.simulate import simulate_solitaire, simulate_table
from farmbox.firmware.rules.superfarmer.strategies import STRATEGIES


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="solitaire games per strategy")
    p.add_argument("--greedy-games", type=int, help="games for greedy (slow; default --games)")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--rolls", type=int, default=200_000, help="rolls for the settle() figure")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    t0 = time.perf_counter()
    model = model_for(CLASSIC)
    load = time.perf_counter() - t0
    rows = []
    for name, strategy in STRATEGIES.items():
        games = args.greedy_games if name == "greedy" and args.greedy_games else args.games
        t0, c0 = time.perf_counter(), time.process_time()
        r = simulate_solitaire(strategy, games, CLASSIC, random.Random(args.seed))
        r = r.timed(time.perf_counter() - t0, time.process_time() - c0)
        rows.append({**r.as_dict(), "settled_rolls": r.settled})
        if not args.json:
            print(f"{name:8s} {games:6d} games  mean {r.mean_turns:6.2f}  median "
                  f"{r.median_turns:5.1f}  p90 {rows[-1]['p90_turns']:4d}  "
                  f"{r.games_per_cpu_second:8,.0f} games/s ({r.games_per_second:,.0f} wall)",
                  flush=True)
    rolls = settled_rolls_per_second(args.rolls, CLASSIC, random.Random(args.seed))
    t0, c0 = time.perf_counter(), time.process_time()
    table = simulate_table([STRATEGIES["advisor"], STRATEGIES["hoard"], STRATEGIES["greedy"],
                            STRATEGIES["naive"]], max(1, args.games // 10), CLASSIC,
                           random.Random(args.seed))
    table = table.timed(time.perf_counter() - t0, time.process_time() - c0)
    out = {
        "python": platform.python_version(), "machine": platform.machine(),
        "games": args.games, "seed": args.seed, "strategies": rows,
        "settled_rolls_per_second": round(rolls),
        "model": {"caps": list(model.caps), "expected_turns_empty": round(
            model.expected_turns(CLASSIC.starting), 4), "load_seconds": round(load, 3)},
        "four_player_table": table.as_dict(),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"settle(): {rolls:,.0f} settled rolls/s (no memory)")
        print(f"advisor model: expected {out['model']['expected_turns_empty']} turns from an "
              f"empty farm, caps {model.caps}, loaded in {load:.2f}s")
        t = out["four_player_table"]
        print(f"4 players ({', '.join(t['strategies'])}), {t['games']} games: win rates "
              f"{t['win_rate_per_seat']}, mean {t['mean_turns']} rounds, "
              f"{t['games_per_cpu_second']} games/s ({t['games_per_second']} wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
