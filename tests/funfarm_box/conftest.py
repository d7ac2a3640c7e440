"""A refereed Fun Farm table on simulated hardware: real ButtonPanel on MockFactory pins."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from farmbox.firmware.box.config import Config, load_config
from farmbox.firmware.box.observations import CardsSeen, DiceSeen
from farmbox.firmware.games.funfarm.box import Referee
from farmbox.firmware.games.funfarm.screens import render
from farmbox.firmware.games.funfarm.session import FunFarmJournal
from farmbox.firmware.rules.funfarm import ColourRoll, FunFarmRules, TieRule
from farmbox.hw import Hardware, open_hardware
from farmbox.hw.pins import simulated_pins


class RecordingQueue(queue.Queue):
    """The panel's event queue, keeping a copy of every event the GPIO callbacks put."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list = []

    def put(self, item, block=True, timeout=None):
        self.log.append(item)
        super().put(item, block, timeout)


@dataclass
class Table:
    """The box and helpers to act at the table like people do."""

    config: Config
    hw: Hardware
    referee: Referee
    journal_dir: Path

    @property
    def session(self):
        return self.referee.session

    def settle(self) -> None:
        time.sleep(0.006)
        while self.referee.step(timeout=0.004):
            pass

    def push(self, *groups: tuple[int, ...]) -> None:
        """Push buzzers: players in one group in the same millisecond, groups 3 ms apart."""
        pins = self.hw.pin_factory
        for i, group in enumerate(groups):
            if i:
                time.sleep(0.003)
            for p in group:
                pins.pin(self.config.buttons.buzzers[p]).drive_low()
        time.sleep(0.003)
        for group in groups:
            for p in group:
                pins.pin(self.config.buttons.buzzers[p]).drive_high()
        self.settle()

    def turn(self, card: str) -> None:
        s = self.session.state
        ids = tuple(self.session.rules.deck.cards[c].id for c in s.circle) + (card,)
        self.referee.inbox.put(CardsSeen(ids))
        self.settle()

    def roll(self, black: str, white: str) -> None:
        self.referee.inbox.put(DiceSeen(None, None, t_ns=time.monotonic_ns()))
        self.referee.inbox.put(DiceSeen(black, white, t_ns=time.monotonic_ns()))
        self.settle()

    def downs(self) -> list:
        return [e for e in self.hw.buttons.events.log if e.kind == "down"]

    def inject_same_ms(self, *players: int) -> None:
        """Buzzer down events with one GPIO timestamp, as two hands on the same millisecond
        give (sequential Python cannot push two mock pins within 1 ms on a busy machine)."""
        from farmbox.hw.buttons import ButtonEvent

        t = time.monotonic_ns()
        for p in players:
            self.hw.buttons.events.put(ButtonEvent(f"player{p + 1}", "down", t))
        self.settle()

    def button(self, name: str) -> None:
        self.hw.buttons.tap(name)
        self.settle()


def open_table(journal_dir: Path, players: int, tie: TieRule = TieRule.REROLL,
               seed: int = 1, camera: bool = True, rules: FunFarmRules | None = None,
               clock=time.monotonic, race_time: float = 8.0) -> Table:
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(journal_dir)}, game={"mode": "funfarm", "players": players},
        buttons={"debounce_ms": 1, "hold_time": 0.2})
    hw = open_hardware(config)
    hw.buttons.events = RecordingQueue()
    referee = Referee(hw, lambda s, names: render(s, "en", names), FunFarmJournal(journal_dir), players,
                      rules or FunFarmRules(tie=tie), camera=camera, rng=random.Random(seed),
                      clock=clock, race_time=race_time)
    return Table(config, hw, referee, journal_dir)


@pytest.fixture
def pins() -> Iterator[object]:
    with simulated_pins() as factory:
        yield factory


@pytest.fixture
def table(tmp_path: Path, pins: object) -> Iterator[Table]:
    t = open_table(tmp_path / "journal", 3)
    yield t
    t.referee.close()
    t.hw.close()


class Clock:
    """The box's clock, moved by the test (a race closes on it, never on a sleep)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def two_animals(rules: FunFarmRules, pile: tuple[int, ...]) -> tuple[int, int, ColourRoll]:
    """Two cards of ``pile`` with different animals and the same black colour, and a roll
    that activates both (and no other card of the two)."""
    for a in pile:
        for b in pile:
            ca, cb = rules.deck.cards[a], rules.deck.cards[b]
            if a != b and ca.black == cb.black and ca.animal is not cb.animal:
                white = next(w for w in rules.deck.white_faces if w not in (ca.white, cb.white))
                return a, b, ColourRoll(ca.black, white)
    raise AssertionError("no two such cards")


def activating(rules: FunFarmRules, card: int) -> ColourRoll:
    """A roll that activates ``card`` (its black colour, a white colour it does not have)."""
    c = rules.deck.cards[card]
    white = next(w for w in rules.deck.white_faces if w != c.white)
    return ColourRoll(c.black, white)


def missing(rules: FunFarmRules, cards: tuple[int, ...]) -> ColourRoll | None:
    """A roll that activates none of ``cards`` (None if every roll activates one)."""
    for b in rules.deck.black_faces:
        for w in rules.deck.white_faces:
            r = ColourRoll(b, w)
            if not any(rules.activates(c, r) for c in cards):
                return r
    return None
