"""Lights and buzzer: every alert plays its own pattern, seen in the mock pins' state history."""

from __future__ import annotations

import itertools
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from farmbox.hw.buzzer import Buzzer
from farmbox.hw.lights import Lights
from farmbox.hw.patterns import ALERTS, LIGHT_PATTERNS, SOUND_PATTERNS

LEDS = {"fox": 17, "wolf": 27, "dog": 22, "ok": 23}
FAST = 0.005  # tempo: patterns at 1/200 speed


def expected_levels(steps, lit) -> list[bool]:
    """On/off changes ``lit(step)`` makes from dark, ending dark (the player's rest)."""
    out: list[bool] = []
    state = False
    for _, what in steps:
        now = lit(what)
        if now != state:
            out.append(now)
            state = now
    if state:
        out.append(False)
    return out


def wait_for(condition, timeout: float = 5.0) -> bool:
    """Poll ``condition`` until true (the pattern thread needs a moment to start)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


@pytest.fixture
def lights(mock_factory):
    with_lights = Lights(LEDS, tempo=FAST)
    yield with_lights
    with_lights.close()


@pytest.mark.parametrize("alert", ALERTS)
def test_each_light_follows_its_pattern(lights, mock_factory, alert):
    for pin in LEDS.values():
        mock_factory.pin(pin).clear_states()
    lights.alert(alert, wait=True)
    for name, pin in LEDS.items():
        want = expected_levels(LIGHT_PATTERNS[alert], lambda lit, name=name: name in lit)
        assert levels_all(mock_factory.pin(pin)) == want, name


def levels_all(pin) -> list[bool]:
    """The pin's on/off changes since ``clear_states`` (drop the starting reading)."""
    return [bool(s.state) for s in pin.states[1:]]


def test_fox_wolf_and_dog_light_different_leds(lights, mock_factory):
    lit = {}
    for alert in ("fox", "wolf", "dog"):
        for pin in LEDS.values():
            mock_factory.pin(pin).clear_states()
        lights.alert(alert, wait=True)
        lit[alert] = {n for n, p in LEDS.items() if True in levels_all(mock_factory.pin(p))}
    assert lit == {"fox": {"fox"}, "wolf": {"wolf"}, "dog": {"dog", "ok"}}


def test_alert_is_non_blocking_and_off_stops_it(mock_factory):
    lights = Lights(LEDS, tempo=1.0)
    try:
        lights.alert("wolf")  # 1.8 s at full speed
        assert lights.playing  # returned at once, still playing
        assert wait_for(lambda: mock_factory.pin(LEDS["wolf"]).state)
        lights.off()
        assert not lights.playing
        assert not any(mock_factory.pin(p).state for p in LEDS.values())
    finally:
        lights.close()


def test_a_new_alert_cuts_the_old_one_short(mock_factory):
    lights = Lights(LEDS, tempo=1.0)
    try:
        lights.alert("wolf")
        assert wait_for(lambda: mock_factory.pin(LEDS["wolf"]).state)
        lights.tempo = FAST
        lights.alert("fox", wait=True)
        assert not mock_factory.pin(LEDS["wolf"]).state
        assert levels_all(mock_factory.pin(LEDS["wolf"])) == [True, False]  # one flash, cut short
    finally:
        lights.close()


def test_set_lights_one_led_steadily(lights, mock_factory):
    lights.set("ok", True)
    assert mock_factory.pin(LEDS["ok"]).state and not mock_factory.pin(LEDS["fox"]).state
    lights.set("ok", False)
    assert not mock_factory.pin(LEDS["ok"]).state


def test_pwm_leds_work_on_pwm_pins(mock_factory):
    lights = Lights(LEDS, pwm=True, tempo=FAST)
    try:
        lights.alert("activate", wait=True)
        assert [s.state for s in mock_factory.pin(LEDS["ok"]).states[1:]] == [1.0, 0.0]
    finally:
        lights.close()


def test_unknown_alert_is_a_clear_error(lights):
    with pytest.raises(ValueError, match="unknown alert 'bear'"):
        lights.alert("bear")


class RecordingPWMPin(MockPWMPin):
    """A mock PWM pin that also remembers every frequency it was set to."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies: list[float] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        if value is not None:
            self.frequencies.append(value)


@pytest.fixture
def recording_factory():
    saved = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=RecordingPWMPin)
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = saved


@pytest.mark.parametrize("alert", ALERTS)
def test_tonal_buzzer_plays_the_notes(recording_factory, alert):
    buzzer = Buzzer(18, tonal=True, tempo=FAST)
    try:
        pin = recording_factory.pin(18)
        pin.frequencies.clear()
        buzzer.alert(alert, wait=True)
        notes = [n for _, n in SOUND_PATTERNS[alert] if n is not None]
        assert pin.frequencies == pytest.approx([Tone(n).frequency for n in notes])
        assert pin.state == 0  # silent afterwards
    finally:
        buzzer.close()


@pytest.mark.parametrize("alert", ALERTS)
def test_plain_buzzer_beeps_the_rhythm(mock_factory, alert):
    buzzer = Buzzer(18, tonal=False, tempo=FAST)
    try:
        pin = mock_factory.pin(18)
        pin.clear_states()
        buzzer.alert(alert, wait=True)
        want = expected_levels(SOUND_PATTERNS[alert], lambda note: note is not None)
        assert [bool(s.state) for s in pin.states[1:]] == want
    finally:
        buzzer.close()


def rhythm(steps, sounding) -> tuple:
    """Durations of the on and off runs, the shape a listener or watcher notices."""
    runs = [(on, sum(s for s, _ in group)) for on, group in
            itertools.groupby(steps, key=lambda step: sounding(step[1]))]
    return tuple((on, round(seconds, 3)) for on, seconds in runs)


def test_all_patterns_are_distinct():
    lights = {a: tuple(LIGHT_PATTERNS[a]) for a in ALERTS}
    tunes = {a: tuple(SOUND_PATTERNS[a]) for a in ALERTS}
    beeps = {a: rhythm(SOUND_PATTERNS[a], lambda n: n is not None) for a in ALERTS}
    for table in (lights, tunes, beeps):
        assert len(set(table.values())) == len(ALERTS), table


def test_every_pattern_ends_at_rest_and_stays_short():
    for a in ALERTS:
        assert LIGHT_PATTERNS[a][-1][1] == frozenset()
        assert SOUND_PATTERNS[a][-1][1] is None
        assert sum(s for s, _ in LIGHT_PATTERNS[a]) <= 3.0
        assert sum(s for s, _ in SOUND_PATTERNS[a]) <= 3.0
