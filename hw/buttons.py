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


@dataclass(frozen=True)
class ButtonEvent:
    """One thing a button did; ``t_ns`` is ``time.monotonic_ns()`` at the GPIO edge."""

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
        t_ns = time.monotonic_ns()
        with self._lock:
            if self._closed:
                return
            debouncer = self._debouncers[name]
            was_down = debouncer.pressed
            kind = debouncer.edge(pressed, t_ns)
            if self.down_events and debouncer.pressed and not was_down:
                self.events.put(ButtonEvent(name, "down", t_ns))
            if debouncer.settle_due is not None and name not in self._timers:
                delay = max(0, debouncer.settle_due - t_ns) / 1e9
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
