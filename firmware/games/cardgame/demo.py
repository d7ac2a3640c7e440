"""The card game's demo (``farmbox demo cardgame``).

:func:`run_demo` plays a whole two-round game with the rules engine's bots, then a scripted
farmer enters each round's numbers on mock buttons; the frames stream to the terminal and to
an animated GIF, and the box's totals are checked against the engine's.
"""

from __future__ import annotations

import logging
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.demo_stream import FrameStream, check_gif_path
from farmbox.firmware.games.cardgame.bot import RoundTruth, next_move, setup_move
from farmbox.firmware.games.cardgame.box import CardgameBox
from farmbox.firmware.games.cardgame.session import Phase, Setup, winners
from farmbox.firmware.rules.cardgame import Game, GameOptions
from farmbox.firmware.rules.cardgame.bots import make_bot
from farmbox.firmware.rules.cardgame.game import play_turn
from farmbox.hw import open_hardware
from farmbox.hw.pins import simulated_pins

log = logging.getLogger("farmbox.cardgame")

BUTTONS = ("prev", "next", "ok", "back")
#: The bots of the demo, cycled over the seats.
LINEUP = ("greedy", "spoiler", "random")


def simulated_config(journal_dir: str, players: int, fast: bool = True) -> Any:
    """The packaged config on simulated hardware, for the demo and the tests."""

    return load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": journal_dir}, game={"mode": "cardgame", "players": players},
        buttons={"debounce_ms": 1 if fast else 20, "hold_time": 0.05 if fast else 0.3})


def tap(box: CardgameBox, kind: str, name: str) -> None:
    """Push a mock button (a press, or a hold for undo) and handle what it sent."""
    buttons = box.hw.buttons
    (buttons.tap if kind == "press" else buttons.hold)(name)
    if not box.step(timeout=2.0):
        raise RuntimeError(f"the {kind} of {name!r} never arrived")
    box.drain()  # a hold's release


def enter_round(box: CardgameBox, truth: RoundTruth, slip_at: int | None = None) -> int:
    """Enter one round's numbers with the buttons, as a person at the table; returns taps.

    ``slip_at``: after that many answers, confirm a wrong number once and undo it by holding.
    """
    keeper = box.keeper
    assert keeper is not None
    taps = 0
    if keeper.phase is Phase.SCOREBOARD:
        tap(box, "press", "ok")
        taps += 1
    slipped = False
    while True:
        state = keeper.state
        q = keeper.question
        if (slip_at is not None and not slipped and state is not None and q is not None
                and len(state.answers) == slip_at and q.kind == "count"
                and keeper.value == truth.answer(q) and q.high > keeper.value):
            for kind, name in (("press", "next"), ("press", "ok"), ("hold", "back")):
                tap(box, kind, name)
            slipped, taps = True, taps + 3
            continue
        move = next_move(keeper, truth)
        if move is None:
            return taps
        tap(box, *move)
        taps += 1


def play_round(game: Game, bots: list[Any]) -> RoundTruth:
    """Phases 1-3 of one round by the engine; what the table sees when scoring starts."""
    game.start_round()
    while not game.round_over:
        play_turn(game, bots[game.next_turn()])
    game.add_gifts(bots)
    farms = list(game.farms)
    record = game.score(bots)
    return RoundTruth.from_record(farms, record, game.names)


def run_demo(players: int, seed: int, fast: bool, quiet: bool, gif_path: Path | None,
             follow: Callable[[Any], Any] | None = None) -> int:
    """A whole game: the engine's bots play, a scripted farmer enters it on the buttons;
    ``follow(box)`` starts what follows the box while it plays (the table view), stopped
    when the game is over.

    Prints the winner and the GIF path; returns 0 when the box's totals equal the engine's
    (1 when they differ). Bad arguments raise ValueError with a one-line message.
    """

    if not 2 <= players <= 6:
        raise ValueError(f"the card game is for 2-6 farmers, got {players}")
    check_gif_path(gif_path)
    rng = random.Random(seed)
    setup = Setup(players, advanced_water=False, predators="token")
    bots = [make_bot(LINEUP[i % len(LINEUP)], rng) for i in range(players)]
    game = Game(players, rng, GameOptions(setup.advanced_water, setup.predators),
                names=setup.names)
    stream = FrameStream(quiet, pause=0.0 if fast else 0.03)
    journal_dir = tempfile.mkdtemp(prefix="farmbox-cardgame-")
    config = simulated_config(journal_dir, players, fast)
    taps = 0
    try:
        with simulated_pins():
            hw = open_hardware(config)
            hw.display = stream.tap(hw.display)
            box = CardgameBox(hw, journal_dir, config.ui.language, setup)
            follower = None
            try:
                keeper = box.start()
                follower = follow(box) if follow is not None else None
                while keeper.phase is Phase.SETUP:
                    tap(box, *setup_move(keeper, setup))
                    taps += 1
                for number in (1, 2):
                    truth = play_round(game, bots)
                    taps += enter_round(box, truth, slip_at=7 if number == 1 else None)
                    if keeper.state is None or keeper.state.scores != tuple(game.scores):
                        print(f"round {number}: the box says {keeper.state and keeper.state.scores}"
                              f", the engine {tuple(game.scores)}", file=sys.stderr)
                        return 1
                    if number == 1:
                        tap(box, "press", "ok")  # the scoreboard, then round 2's entry
                        taps += 1
                assert keeper.state is not None
                seats, how = winners(keeper.state)
                result = game.result()
            finally:
                if follower is not None:
                    follower.stop()
                box.close()
                hw.close()
    finally:
        shutil.rmtree(journal_dir, ignore_errors=True)
    if seats != result.winners:
        print(f"the box's winners {seats} differ from the engine's {result.winners}",
              file=sys.stderr)
        return 1
    if gif_path is not None:
        stream.save_gif(gif_path)
    scores = ", ".join(f"F{i + 1} {s}" for i, s in enumerate(keeper.state.scores))
    who = " and ".join(f"farmer {s + 1}" for s in seats)
    tie = {"score": "", "longest": " (tie-break: longest column)", "shared": " (shared win)"}[how]
    print(f"{who} won{tie}; scores {scores}; box totals = engine totals; {taps} button taps, "
          f"{len(stream.frames)} frames" + (f" saved to {gif_path}" if gif_path else ""))
    return 0


def main(args: Any, players: int) -> int:
    """``farmbox demo cardgame``: the exit status."""
    if args.camera:
        raise ValueError("--camera: the card game's demo enters numbers on the buttons")
    return run_demo(players, args.seed, args.fast, args.quiet, args.gif,
                    follow=getattr(args, "follow", None))


__all__ = ["CardgameBox", "main", "enter_round", "play_round", "run_demo", "simulated_config", "tap"]
