"""The systemd notify protocol of the box's one runtime (:mod:`farmbox.firmware.box.runtime`).

``READY=1`` once the journal is replayed and the game is on screen, ``STATUS=...`` when the
one-line summary changes, ``WATCHDOG=1`` at half of ``WATCHDOG_USEC`` (none when systemd set
no watchdog) and ``STOPPING=1`` on the way out. Messages go through sdnotify to
``NOTIFY_SOCKET`` (sdnotify sends nothing when it is unset); tests pass any object with a
``notify(message)`` method instead.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Protocol

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
