"""Buttons on gpiozero mock pins: presses, holds, contact bounce, and the pure debouncer."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.hw.buttons import ButtonEvent, ButtonPanel, Debouncer

OK, BACK = 13, 19
MS = 1_000_000


def drain(panel: ButtonPanel, quiet: float = 0.15) -> list[ButtonEvent]:
    """Every event until none arrives for ``quiet`` seconds."""
    events = []
    while (event := panel.get(timeout=quiet)) is not None:
        events.append(event)
    return events


@pytest.fixture
def panel(mock_factory):
    # hold_time is generous so a busy machine pausing mid-press cannot turn it into a hold
    with ButtonPanel({"ok": OK, "back": BACK}, hold_time=0.6, debounce_ms=30) as p:
        yield p


def test_short_press_is_one_press_sent_on_release(panel, mock_factory):
    pin = mock_factory.pin(OK)
    before = time.monotonic_ns()
    pin.drive_low()
    assert panel.get(timeout=0.05) is None  # not yet known to be a press rather than a hold
    time.sleep(0.05)
    pin.drive_high()
    events = drain(panel)
    assert [(e.name, e.kind) for e in events] == [("ok", "press")]
    assert before < events[0].t_ns <= time.monotonic_ns()
    # floating at first, then the pull-up, pushing took it low, letting go high again
    assert len(pin.states) == 4
    pin.assert_states([False, True, False, True])


def test_bounces_within_debounce_give_one_press(mock_factory):
    # a wide window, so the bounces below surely fall inside it even on a loaded machine
    with ButtonPanel({"ok": OK}, hold_time=1.0, debounce_ms=150) as panel:
        pin = mock_factory.pin(OK)
        for _ in range(4):  # a bouncy contact closing
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        time.sleep(0.2)
        for _ in range(3):  # and opening
            pin.drive_high()
            pin.drive_low()
        pin.drive_high()
        assert [(e.name, e.kind) for e in drain(panel, quiet=0.3)] == [("ok", "press")]
        assert len(pin.states) == 2 + 16  # floating, pulled up, then every bounce really happened


def test_without_debounce_the_same_bounces_are_many_presses(mock_factory):
    with ButtonPanel({"ok": OK}, hold_time=0.3, debounce_ms=0) as bare:
        pin = mock_factory.pin(OK)
        for _ in range(4):
            pin.drive_low()
            pin.drive_high()
        assert [e.kind for e in drain(bare)] == ["press"] * 4


def test_release_hidden_in_bounce_is_not_lost(panel, mock_factory):
    pin = mock_factory.pin(OK)
    pin.drive_low()
    pin.drive_high()  # within the window: looks like bounce, but the button stays up
    assert [e.kind for e in drain(panel)] == ["press"]
    assert not panel.is_pressed("ok")


def test_long_press_is_a_hold_then_release_and_not_a_press(panel, mock_factory):
    pin = mock_factory.pin(BACK)
    pin.drive_low()
    hold = panel.get(timeout=2)
    assert (hold.name, hold.kind) == ("back", "hold")
    time.sleep(0.7)  # longer than another hold_time: still only one hold
    pin.drive_high()
    assert [(e.name, e.kind) for e in drain(panel)] == [("back", "release")]


def test_two_buttons_keep_their_own_names(panel, mock_factory):
    panel.tap("ok")
    panel.tap("back")
    panel.tap("ok")
    assert [(e.name, e.kind) for e in drain(panel)] == [("ok", "press"), ("back", "press"), ("ok", "press")]


def test_hold_helper_sends_hold_and_release(panel):
    panel.hold("ok")
    panel.hold("ok")  # a second hold right after is its own hold, not a leftover
    panel.tap("ok")
    assert [e.kind for e in drain(panel)] == ["hold", "release", "hold", "release", "press"]


def test_close_releases_the_pins(mock_factory):
    panel = ButtonPanel({"ok": OK}, hold_time=0.3, debounce_ms=0)
    panel.close()
    panel.close()
    again = ButtonPanel({"ok": OK}, hold_time=0.3, debounce_ms=0)  # pin free again
    mock_factory.pin(OK).drive_low()
    mock_factory.pin(OK).drive_high()
    assert again.get(timeout=1).kind == "press"
    again.close()


def test_a_pin_used_twice_is_refused(mock_factory):
    with pytest.raises(Exception, match="13"):
        ButtonPanel({"ok": OK, "also_ok": OK}, hold_time=0.3, debounce_ms=0)
    ButtonPanel({"ok": OK}, hold_time=0.3, debounce_ms=0).close()  # nothing left reserved


# The debouncer alone, with made-up clocks.

def test_debouncer_doctest_story():
    d = Debouncer(30 * MS)
    assert d.edge(True, 0) is None and d.pressed
    assert d.edge(False, 10 * MS) is None and d.settle_due == 30 * MS
    assert d.settle(False, 30 * MS) == "press"
    assert d.edge(True, 100 * MS) is None
    assert d.hold() == "hold" and d.hold() is None
    assert d.edge(False, 2000 * MS) == "release"


bursts = st.lists(
    st.tuples(st.integers(min_value=0, max_value=6),           # bounces before settling
              st.integers(min_value=1, max_value=29),          # ms the bouncing lasts (< window)
              st.integers(min_value=31, max_value=400),        # ms the contact then stays put
              st.booleans()),                                  # held past hold time?
    min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(bursts)
def test_every_push_is_exactly_one_press_or_one_hold_then_release(pushes):
    """Any bounce shorter than the window: one event per push (press) or hold+release."""
    d = Debouncer(30 * MS)
    t = 0
    kinds: list[str] = []
    expected: list[str] = []

    def feed(kind):
        if kind:
            kinds.append(kind)

    for bounces, span_ms, stay_ms, held in pushes:
        gap = span_ms * MS // (2 * bounces + 1)
        for level in (True, False):  # push, then let go, each edge with its bounces
            start = t
            for _ in range(bounces):
                feed(d.edge(level, t))
                t += gap
                feed(d.edge(not level, t))
                t += gap
            feed(d.edge(level, t))
            if d.settle_due is not None:
                assert d.settle_due == start + 30 * MS
                t = max(t, d.settle_due)
                feed(d.settle(level, t))
            assert d.pressed == level
            if level and held:
                feed(d.hold())
            t += stay_ms * MS
        expected += ["hold", "release"] if held else ["press"]
    assert kinds == expected
