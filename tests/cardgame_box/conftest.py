"""Shared set-up: a simulated box (gpiozero MockFactory pins) with a temp journal."""

from __future__ import annotations

import random

import pytest

from farmbox.firmware.games.cardgame.demo import CardgameBox, simulated_config
from farmbox.firmware.games.cardgame.session import Setup
from farmbox.firmware.rules.cardgame import Game, GameOptions
from farmbox.firmware.rules.cardgame.bots import make_bot
from farmbox.hw import open_hardware
from farmbox.hw.pins import simulated_pins


@pytest.fixture
def pins():
    with simulated_pins() as factory:
        yield factory


@pytest.fixture
def journal_dir(tmp_path):
    return tmp_path / "journal"


@pytest.fixture
def open_box(pins, journal_dir):
    """open_box(setup) -> a started CardgameBox on mock pins (closed after the test)."""
    opened = []

    def make(setup: Setup | None = None, players: int = 3) -> CardgameBox:
        config = simulated_config(str(journal_dir), setup.players if setup else players)
        hw = open_hardware(config)
        box = CardgameBox(hw, journal_dir, setup=setup)
        opened.append(box)
        box.start()
        return box

    make.stop = lambda box: (opened.remove(box), box.close(), box.hw.close())
    yield make
    for box in opened:
        box.close()
        box.hw.close()


def engine_game(setup: Setup, seed: int) -> tuple[Game, list]:
    rng = random.Random(seed)
    bots = [make_bot(("greedy", "spoiler", "random")[i % 3], rng) for i in range(setup.players)]
    game = Game(setup.players, rng, GameOptions(setup.advanced_water, setup.predators,
                                                setup.team_seats), names=setup.names)
    return game, bots
