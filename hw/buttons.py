"""Push buttons: gpiozero Buttons (to GND, pull-up) with our own debounce and hold.

Every push ends in exactly one of:

- ``press``: let go before ``hold_time`` (sent when the button is let go, since
  only then is it known not to be a hold);
- ``hold`` (sent once, ``hold_time`` after the push, while still down) followed
  by ``release`` when let go; a hold is never also a press.

Debounce is ours because gpiozero's mock pins ignore ``bounce_time``: an edge
within ``debounce_ms`` of the last accepted edge is contact bounce and is
ignored, and when the window closes the pin is read once more so a real change
hidden in the bounce is not lost. Accepting the first edge keeps presses snappy.

Edge times come from the pin factory where it gives them: lgpio hands gpiozero the
kernel's timestamp of the edge, so two Fun Farm buzzers pushed a few ms apart keep
their true order even when the callbacks run late or swapped under CPU load. See
:func:`edge_time_ns`.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from gpiozero import Button
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockPin

Kind = Literal["press", "hold", "release", "down"]


#: How old an edge time may be and still be believed (older: a clock we do not know).
EDGE_AGE_LIMIT_NS = 60_000_000_000
#: How far in the future (float rounding of the factory's seconds) it may be.
EDGE_SKEW_NS = 1_000_000


def edge_time_ns(ticks: object, now_ns: int | None = None, now_real_ns: int | None = None) -> int | None:
    """The edge time ``ticks`` (a pin factory's seconds) as ``time.monotonic_ns()``; None if
    it is not a time we can place.

    gpiozero passes the factory's ``ticks`` to the device with every edge: lgpio's is the
    kernel's edge timestamp (CLOCK_MONOTONIC for the GPIO character device, or
    CLOCK_REALTIME where the line asked for it), the mock and RPi.GPIO factories'
    ``time.monotonic()`` when the edge was seen. Either clock is recognised by the age it
    gives the edge (0 to 60 s; the two clocks are decades apart) and a realtime stamp is
    moved onto the monotonic clock; anything else is None and the caller uses its own time.

    >>> edge_time_ns(100.25, now_ns=100_300_000_000, now_real_ns=1_800_000_000_000_000_000)
    100250000000
    >>> edge_time_ns(1_799_999_999.5, now_ns=100_000_000_000, now_real_ns=1_800_000_000_000_000_000)
    99500000000
    >>> edge_time_ns(5.0, now_ns=100_000_000_000, now_real_ns=1_800_000_000_000_000_000) is None
    True
    """
    if not isinstance(ticks, (int, float)) or isinstance(ticks, bool) or ticks != ticks:
        return None
    now_ns = time.monotonic_ns() if now_ns is None else now_ns
    now_real_ns = time.time_ns() if now_real_ns is None else now_real_ns
    stamp_ns = round(ticks * 1_000_000_000)
    for clock_now_ns, offset_ns in ((now_ns, 0), (now_real_ns, now_ns - now_real_ns)):
        age_ns = clock_now_ns - stamp_ns
        if -EDGE_SKEW_NS <= age_ns <= EDGE_AGE_LIMIT_NS:
            return min(stamp_ns + offset_ns, now_ns)
    return None


@dataclass(frozen=True)
class ButtonEvent:
    """One thing a button did; ``t_ns`` is on the ``time.monotonic_ns()`` clock: the GPIO
    edge's own time for press, release and down (:func:`edge_time_ns`), the moment the
    hold time ran out for hold."""

    name: str
    kind: Kind
    t_ns: int


class Debouncer:
    """The debounce and hold rules for one button, as a pure state machine.

    Times are integers in ns. ``edge`` and ``settle`` return the event kind to
    send (or None); ``edge`` sets :attr:`settle_due` when it ignored a bounce,
    and the owner must then call ``settle`` with the pin's level at that time.

    >>> d = Debouncer(debounce_ns=30_000_000)
    >>> d.edge(True, 0), d.edge(False, 1_000_000), d.settle_due
    (None, None, 30000000)
    >>> d.settle(False, 30_000_000)
    'press'
    """

    def __init__(self, debounce_ns: int) -> None:
        self.debounce_ns = debounce_ns
        self.pressed = False
        self.held = False
        self.settle_due: int | None = None
        self._accepted_ns: int | None = None

    def edge(self, pressed: bool, t_ns: int) -> Kind | None:
        """The pin changed to ``pressed`` at ``t_ns``."""
        if pressed == self.pressed:
            return None
        if self._accepted_ns is not None and t_ns - self._accepted_ns < self.debounce_ns:
            self.settle_due = self._accepted_ns + self.debounce_ns
            return None
        return self._accept(pressed, t_ns)

    def settle(self, pressed: bool, t_ns: int) -> Kind | None:
        """The bounce window is over and the pin reads ``pressed``."""
        self.settle_due = None
        if pressed == self.pressed:
            return None
        return self._accept(pressed, t_ns)

    def hold(self) -> Kind | None:
        """The button has been down for the hold time (gpiozero's ``when_held``)."""
        if self.pressed and not self.held:
            self.held = True
            return "hold"
        return None

    def _accept(self, pressed: bool, t_ns: int) -> Kind | None:
        self.pressed = pressed
        self._accepted_ns = t_ns
        if pressed:
            self.held = False
            return None
        return "release" if self.held else "press"


class ButtonPanel:
    """Named buttons on BCM pins; their events arrive on :attr:`events`.

    >>> from farmbox.hw.pins import simulated_pins
    >>> with simulated_pins() as pins:
    ...     panel = ButtonPanel({"ok": 13}, hold_time=1.0, debounce_ms=0)
    ...     pins.pin(13).drive_low(); pins.pin(13).drive_high()
    ...     panel.get(timeout=1).kind
    ...     panel.close()
    'press'
    """

    def __init__(self, pins: Mapping[str, int], hold_time: float = 1.0, debounce_ms: int = 30,
                 pin_factory: Factory | None = None) -> None:
        self.events: queue.Queue[ButtonEvent] = queue.Queue()
        self.hold_time = hold_time
        self.debounce_ms = debounce_ms
        self.pins = dict(pins)
        self._lock = threading.Lock()
        self._timers: dict[str, threading.Timer] = {}
        self._debouncers = {name: Debouncer(debounce_ms * 1_000_000) for name in pins}
        self._buttons: dict[str, Button] = {}
        self._closed = False
        #: Also send a "down" event, timestamped at the push edge, for every accepted push
        #: (the Fun Farm buzzers race on the push, not on the let-go). Off by default.
        self.down_events = False
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, hold_time=hold_time, pin_factory=pin_factory)
                self._buttons[name] = button
                # Defaults make these zero-argument callables, so gpiozero passes nothing.
                button.when_pressed = lambda name=name: self._edge(name, True)
                button.when_released = lambda name=name: self._edge(name, False)
                button.when_held = lambda name=name: self._held(name)
        except Exception:
            self.close()
            raise

    def get(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next event, waiting up to ``timeout`` s (None: forever); None if none came."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def is_pressed(self, name: str) -> bool:
        """Whether ``name`` is down now (debounced)."""
        return self._debouncers[name].pressed

    def tap(self, name: str) -> None:
        """Mock pins only: push ``name`` and let go, as the demo bot does.

        Waits out the debounce window after each edge so back-to-back taps
        count separately; the press event arrives on :attr:`events`.
        """
        pin = self._mock_pin(name)
        gap = (self.debounce_ms + 1) / 1000 if self.debounce_ms else 0.0
        pin.drive_low()
        time.sleep(gap)
        pin.drive_high()
        time.sleep(gap)

    def hold(self, name: str) -> None:
        """Mock pins only: hold ``name`` down until its hold event is sent, then let go."""
        pin = self._mock_pin(name)
        pin.drive_low()
        debouncer = self._debouncers[name]
        deadline = time.monotonic() + self.hold_time + 2.0
        while not (debouncer.pressed and debouncer.held) and time.monotonic() < deadline:
            time.sleep(0.005)
        pin.drive_high()
        if self.debounce_ms:
            time.sleep((self.debounce_ms + 1) / 1000)

    def close(self) -> None:
        """Release the pins and stop the timers (safe to call twice)."""
        with self._lock:
            self._closed = True
            timers, self._timers = list(self._timers.values()), {}
        for timer in timers:
            timer.cancel()
        for button in self._buttons.values():
            # gpiozero's hold thread polls every 0.1 s before it notices a stop;
            # wake them all first so closing 15 buttons does not take 1.5 s.
            hold_thread = getattr(button, "_hold_thread", None)
            if hold_thread is not None:
                hold_thread.stopping.set()
                hold_thread.holding.set()
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _mock_pin(self, name: str) -> MockPin:
        pin = self._buttons[name].pin
        if not isinstance(pin, MockPin):
            raise TypeError(f"button {name!r} is on a real pin; only mock pins can be pushed by code")
        return pin

    def _edge(self, name: str, pressed: bool) -> None:
        now_ns = time.monotonic_ns()
        # gpiozero stores the edge's ticks on the device just before it calls us
        # (EventsMixin._fire_events), on the thread that reports the edge.
        button = self._buttons.get(name)
        t_ns = edge_time_ns(getattr(button, "_last_changed", None), now_ns)
        if t_ns is None:
            t_ns = now_ns
        with self._lock:
            if self._closed:
                return
            debouncer = self._debouncers[name]
            was_down = debouncer.pressed
            kind = debouncer.edge(pressed, t_ns)
            if self.down_events and debouncer.pressed and not was_down:
                self.events.put(ButtonEvent(name, "down", t_ns))
            if debouncer.settle_due is not None and name not in self._timers:
                delay = max(0, debouncer.settle_due - time.monotonic_ns()) / 1e9
                timer = threading.Timer(delay, self._settle, args=(name,))
                timer.daemon = True
                self._timers[name] = timer
                timer.start()
            if kind:  # under the lock, so a hold and its release cannot swap places
                self.events.put(ButtonEvent(name, kind, t_ns))

    def _settle(self, name: str) -> None:
        t_ns = time.monotonic_ns()
        with self._lock:
            self._timers.pop(name, None)
            button = self._buttons.get(name)
            if self._closed or button is None:
                return
            debouncer = self._debouncers[name]
            was_down = debouncer.pressed
            kind = debouncer.settle(button.is_pressed, t_ns)
            if self.down_events and debouncer.pressed and not was_down:
                self.events.put(ButtonEvent(name, "down", t_ns))
            if kind:
                self.events.put(ButtonEvent(name, kind, t_ns))

    def _held(self, name: str) -> None:
        t_ns = time.monotonic_ns()
        with self._lock:
            if self._closed:
                return
            kind = self._debouncers[name].hold()
            if kind:
                self.events.put(ButtonEvent(name, kind, t_ns))
