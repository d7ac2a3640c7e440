"""Games per second of the card game engine with bots, per player count.

Usage: .venv/bin/python bench/bench_cardgame.py [--games N] [--bots greedy,spoiler,random]
"""

from __future__ import annotations

import argparse
import time

from farmbox.firmware.rules.cardgame.game import GameOptions
from farmbox.firmware.rules.cardgame.tournament import tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default="greedy,spoiler,random")
    parser.add_argument("--predators", default="token", choices=("off", "token", "hard"))
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"{args.games} games per row, bots {','.join(bots)}, predators {args.predators}")
    for players in range(2, 7):
        start = time.perf_counter()
        turns = 0
        for _, result in tournament(players, bots, args.games, seed=players,
                                    options=GameOptions(predators=args.predators)):
            turns += sum(r.turns for r in result.rounds)
        elapsed = time.perf_counter() - start
        print(f"{players} farmers: {args.games / elapsed:7.1f} games/s "
              f"({turns / elapsed:8.0f} turns/s)")


if __name__ == "__main__":
    main()
