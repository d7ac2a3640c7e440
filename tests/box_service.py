"""Helpers for the in-process tests of the box's services: record what systemd would be told,
run a service's ``serve`` in a thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class Recorder:
    """A notifier that keeps every message (READY=1, STATUS=..., WATCHDOG=1, STOPPING=1)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, message: str) -> None:
        self.sent.append(message)

    def statuses(self) -> list[str]:
        return [m.removeprefix("STATUS=") for m in self.sent if m.startswith("STATUS=")]


def wait_for(test: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Poll ``test`` until it is true (True) or ``seconds`` pass (False)."""
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


class Serving:
    """``serve(config, hw, stop, notifier)`` running in a thread until :meth:`stop`."""

    def __init__(self, serve: Callable[..., int], config: Any, hw: Any) -> None:
        self.notifier = Recorder()
        self._stop = threading.Event()
        self.result: list[int] = []
        self._thread = threading.Thread(
            target=lambda: self.result.append(serve(config, hw, self._stop, self.notifier)))
        self._thread.start()
        assert wait_for(lambda: "READY=1" in self.notifier.sent), "no READY=1"

    def stop(self) -> int:
        """Stop the service; its exit status."""
        self._stop.set()
        self._thread.join(timeout=10)
        assert not self._thread.is_alive(), "the service did not stop"
        return self.result[0]
