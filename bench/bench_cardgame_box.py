"""How long the card game's scorekeeper takes per button press (session + screen), no hardware.

    .venv/bin/python bench/bench_cardgame_box.py [--players 6] [--games 3]

Plays whole games with the engine's bots, enters them press by press through
:class:`farmbox.firmware.games.cardgame.session.Scorekeeper` and renders the screen after each press.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from farmbox.firmware.games.cardgame.bot import next_move, setup_move
from farmbox.firmware.games.cardgame.demo import LINEUP, play_round
from farmbox.firmware.games.cardgame.screens import render
from farmbox.firmware.games.cardgame.session import Phase, Scorekeeper, Setup
from farmbox.firmware.rules.cardgame import Game, GameOptions
from farmbox.firmware.rules.cardgame.bots import make_bot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    times: list[float] = []
    presses = []
    for seed in range(args.games):
        rng = random.Random(seed)
        setup = Setup(args.players, advanced_water=True, predators="hard")
        bots = [make_bot(LINEUP[i % 3], rng) for i in range(args.players)]
        game = Game(args.players, rng, GameOptions(True, "hard"), names=setup.names)
        keeper = Scorekeeper(setup)
        while keeper.phase is Phase.SETUP:
            keeper.press(setup_move(keeper, setup)[1])
        n = 0
        for _ in range(2):
            truth = play_round(game, bots)
            if keeper.phase is Phase.SCOREBOARD:
                keeper.press("ok")
            while (move := next_move(keeper, truth)) is not None:
                t0 = time.perf_counter()
                keeper.press(move[1])
                render(keeper)
                times.append(time.perf_counter() - t0)
                n += 1
        assert keeper.state.scores == tuple(game.scores)
        presses.append(n)
    times.sort()
    print(f"{args.players} farmers, {args.games} games, hard predators + advanced water: "
          f"{statistics.mean(presses):.0f} presses per game")
    print(f"press -> new frame: mean {statistics.mean(times) * 1e3:.2f} ms, "
          f"p99 {times[int(len(times) * 0.99)] * 1e3:.2f} ms, max {times[-1] * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
