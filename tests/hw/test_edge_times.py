"""Buzz times come from the GPIO edge, not from when the callback ran.

lgpio hands gpiozero the kernel's timestamp of each edge; under CPU load the Python
callbacks can run late and even swapped. These mock pins carry their own edge times (as
lgpio's do), and the callbacks are delivered in the wrong order on purpose: the Fun Farm
race must still go to whoever pushed first.
"""

from __future__ import annotations

import itertools
import time

import pytest
from gpiozero.pins.mock import MockPin

from farmbox.firmware.games.funfarm.session import Buzz, first_buzz, races
from farmbox.hw.buttons import ButtonPanel, edge_time_ns
from farmbox.hw.pins import simulated_pins

BUZZERS = {"player1": 4, "player2": 24, "player3": 25}


class StampedPin(MockPin):
    """A mock pin whose next edge carries the time the test gives it (seconds, like
    gpiozero's ticks), as an lgpio pin's edges carry the kernel's."""

    def __init__(self, *args, **kwargs) -> None:
        self.next_stamp: float | None = None
        super().__init__(*args, **kwargs)

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and self.next_stamp is not None:
            self._last_change, self.next_stamp = self.next_stamp, None
        return changed

    def push_at(self, stamp: float) -> None:
        self.next_stamp = stamp
        self.drive_low()


@pytest.fixture
def stamped_pins():
    with simulated_pins(StampedPin) as factory:
        yield factory


@pytest.fixture
def buzzers(stamped_pins):
    panel = ButtonPanel(BUZZERS, hold_time=1.0, debounce_ms=30)
    panel.down_events = True  # as the Fun Farm service sets
    try:
        yield panel
    finally:
        panel.close()


def downs(panel: ButtonPanel, count: int) -> list:
    events = [panel.get(timeout=5) for _ in range(count)]
    assert all(e is not None and e.kind == "down" for e in events), events
    return events


def test_a_late_callback_keeps_the_edge_time(stamped_pins, buzzers):
    stamp = time.monotonic() - 0.040  # the edge happened 40 ms before Python saw it
    stamped_pins.pin(24).push_at(stamp)
    (event,) = downs(buzzers, 1)
    assert event.name == "player2" and event.t_ns == round(stamp * 1e9)


@pytest.mark.parametrize("delivery", list(itertools.permutations(BUZZERS)))
def test_near_tied_buzzes_keep_their_true_order_whatever_order_the_callbacks_run(
        stamped_pins, buzzers, delivery):
    base = time.monotonic() - 0.100
    pushed_at = {"player1": base + 0.0120, "player2": base + 0.0040, "player3": base + 0.0075}
    for name in delivery:  # callbacks in this order, edges at pushed_at
        stamped_pins.pin(BUZZERS[name]).push_at(pushed_at[name])
    events = downs(buzzers, 3)
    assert [e.name for e in events] == list(delivery)  # the queue is in callback order...
    buzzes = [Buzz(e.t_ns, int(e.name[-1]) - 1) for e in events]
    # ...but the times are the edges': player2 first, then player3 (3.5 ms later), then player1
    assert races(buzzes, tie_ns=2_000_000) == [((1,), round(pushed_at["player2"] * 1e9)),
                                               ((2,), round(pushed_at["player3"] * 1e9)),
                                               ((0,), round(pushed_at["player1"] * 1e9))]
    assert first_buzz(buzzes, tie_ns=5_000_000)[0] == (1, 2)  # within 5 ms: a tie, in time order


def test_a_realtime_edge_stamp_is_moved_onto_the_monotonic_clock(stamped_pins, buzzers):
    """Were lgpio's stamps CLOCK_REALTIME, the order still holds on our monotonic clock."""
    now_real = time.time()
    stamped_pins.pin(4).push_at(now_real - 0.005)   # player1 pushed 5 ms ago
    stamped_pins.pin(25).push_at(now_real - 0.009)  # player3 pushed 9 ms ago, seen second
    first, second = downs(buzzers, 2)
    assert (first.name, second.name) == ("player1", "player3")
    assert second.t_ns < first.t_ns <= time.monotonic_ns()
    assert first.t_ns - second.t_ns == pytest.approx(4_000_000, abs=200_000)  # float seconds of 1.8e9


def test_an_edge_time_on_no_known_clock_falls_back_to_the_callback_time(stamped_pins, buzzers):
    before = time.monotonic_ns()
    stamped_pins.pin(24).push_at(12.5)  # neither monotonic nor realtime: ignored
    (event,) = downs(buzzers, 1)
    assert before <= event.t_ns <= time.monotonic_ns()


def test_debounce_judges_by_the_edge_times(stamped_pins):
    """Edges 50 ms apart by their stamps are a clean push and let-go, however fast the
    callbacks came; 10 ms apart is bounce, settled by reading the pin again."""
    with ButtonPanel({"ok": 13}, hold_time=1.0, debounce_ms=30) as panel:
        pin = stamped_pins.pin(13)
        base = time.monotonic() - 1.0
        pin.push_at(base)
        pin.next_stamp = base + 0.050
        pin.drive_high()
        event = panel.get(timeout=5)
        assert event is not None and event.kind == "press" and event.t_ns == round((base + 0.050) * 1e9)
        base += 0.5
        pin.push_at(base)
        pin.next_stamp = base + 0.010
        settled_after = time.monotonic_ns()
        pin.drive_high()
        event = panel.get(timeout=5)
        # the let-go was inside the window: the press comes from the settle read, timed then
        assert event is not None and event.kind == "press" and event.t_ns >= settled_after


@pytest.mark.parametrize("ticks", [None, "1.0", float("nan"), True])
def test_edge_time_ignores_what_is_not_a_time(ticks):
    assert edge_time_ns(ticks) is None
