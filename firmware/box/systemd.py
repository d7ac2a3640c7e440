"""The systemd notify protocol, shared by the box's three services (one per game mode).

``READY=1`` once the journal is replayed and the game is on screen, ``STATUS=...`` when the
one-line summary changes, ``WATCHDOG=1`` at half of ``WATCHDOG_USEC`` (none when systemd set
no watchdog) and ``STOPPING=1`` on the way out. Messages go through sdnotify to
``NOTIFY_SOCKET`` (sdnotify sends nothing when it is unset); tests pass any object with a
``notify(message)`` method instead.

:func:`serve_game` is the life of the Fun Farm and card-game services: open the hardware,
start the game (its journal replayed), then step it until SIGTERM/SIGINT (or ``stop``),
keeping systemd told, and close everything.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import sdnotify


class Notifier(Protocol):
    def notify(self, message: str) -> None:
        ...


class SystemdLink:
    """What the service tells systemd: ready, its status, that it is alive, that it stops."""

    def __init__(self, notifier: Notifier | None = None,
                 watchdog_usec: str | None = None) -> None:
        self.notifier: Notifier = notifier or sdnotify.SystemdNotifier()
        if watchdog_usec is None:
            watchdog_usec = os.environ.get("WATCHDOG_USEC", "")
        usec = int(watchdog_usec) if watchdog_usec.strip().isdigit() else 0
        #: Seconds between WATCHDOG=1 pings (0: systemd set no watchdog).
        self.watchdog_interval = usec / 2e6 if usec > 0 else 0.0
        self._next_ping = 0.0
        self._status = ""

    def ready(self, now: float, status: str = "") -> None:
        """The journal is replayed and the game shown: READY=1, the status, a first ping."""
        self.notifier.notify("READY=1")
        if status:
            self.status(status)
        self.ping(now, force=True)

    def status(self, text: str) -> None:
        """STATUS=text, only when it changed."""
        if text != self._status:
            self._status = text
            self.notifier.notify(f"STATUS={text}")

    def ping(self, now: float, force: bool = False) -> None:
        """WATCHDOG=1 when half of the watchdog time has passed since the last one."""
        if self.watchdog_interval and (force or now >= self._next_ping):
            self.notifier.notify("WATCHDOG=1")
            self._next_ping = now + self.watchdog_interval

    def stopping(self) -> None:
        self.notifier.notify("STOPPING=1")


def stop_on_sigterm(stop: threading.Event) -> None:
    """From here on SIGTERM (systemctl stop) sets ``stop`` (only from the main thread)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: stop.set())


class Running(NamedTuple):
    """A started game, as :func:`serve_game` drives it."""

    #: Handle at most one event, waiting up to the given seconds.
    step: Callable[[float], Any]
    #: The one-line STATUS for systemd.
    status: Callable[[], str]
    close: Callable[[], None]


def serve_game(config: Any, start: Callable[[Any, threading.Event], Running],
               hardware: Any = None, stop: threading.Event | None = None,
               notifier: Notifier | None = None) -> int:
    """Open ``config``'s hardware (unless ``hardware`` is given), ``start(hw, stop)`` the game,
    run :func:`serve_loop` until ``stop``, then close the game and the hardware it opened."""
    from farmbox.hw import open_hardware  # noqa: PLC0415

    stop = stop or threading.Event()
    stop_on_sigterm(stop)
    link = SystemdLink(notifier)
    hw = hardware or open_hardware(config)
    try:
        game = start(hw, stop)
        try:
            return serve_loop(game.step, game.status, link, stop)
        finally:
            stop.set()
            game.close()
    finally:
        if hardware is None:
            hw.close()


def serve_loop(step: Callable[[float], Any], status: Callable[[], str], link: SystemdLink,
               stop: threading.Event, clock: Callable[[], float] = time.monotonic) -> int:
    """READY, then ``step(0.05)`` until ``stop`` (or Ctrl-C) with STATUS and WATCHDOG kept
    up to date, then STOPPING; returns the exit status 0."""
    link.ready(clock(), status())
    try:
        while not stop.is_set():
            step(0.05)
            link.status(status())
            link.ping(clock())
    except KeyboardInterrupt:
        pass
    link.stopping()
    return 0
