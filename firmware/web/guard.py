"""The PIN that turns the read-only table view into a remote for the table.

The PIN is compared in constant time (:func:`hmac.compare_digest`), and each client
(address) gets :attr:`PinGuard.TRIES` wrong PINs before it is locked out; each further
lock-out doubles, so guessing a 4-digit PIN takes days instead of seconds. Time is
injected, so the tests need no sleeping.

>>> now = [0.0]
>>> guard = PinGuard("2468", clock=lambda: now[0])
>>> guard.check("phone", "2468")
'ok'
>>> [guard.check("phone", "0000") for _ in range(5)][-1]
'wrong'
>>> guard.check("phone", "2468")
'locked'
>>> now[0] += guard.LOCKOUT
>>> guard.check("phone", "2468")
'ok'
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Failures:
    count: int = 0
    lockouts: int = 0
    locked_until: float = 0.0


class PinGuard:
    """Check PINs per client: ``ok``, ``wrong``, ``locked`` or ``no_pin`` (read-only box)."""

    #: Wrong PINs before a lock-out.
    TRIES = 5
    #: The first lock-out (s); each next one doubles, up to :attr:`LONGEST`.
    LOCKOUT = 30.0
    LONGEST = 3600.0
    #: Clients remembered at most (the oldest are forgotten first).
    CLIENTS = 1024

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._pin = pin.encode()
        self._clock = clock
        self._failures: dict[str, _Failures] = {}
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return bool(self._pin)

    def retry_after(self, client: str) -> float:
        """Seconds until ``client`` may try again (0: now)."""
        with self._lock:
            f = self._failures.get(client)
            return 0.0 if f is None else max(0.0, f.locked_until - self._clock())

    def check(self, client: str, given: str) -> str:
        """Judge one attempt of ``client`` with PIN ``given``."""
        if not self._pin:
            return "no_pin"
        now = self._clock()
        with self._lock:
            f = self._failures.get(client)
            if f is not None and now < f.locked_until:
                return "locked"
            right = hmac.compare_digest(given.encode(), self._pin)
            if right:
                self._failures.pop(client, None)
                return "ok"
            if f is None:
                if len(self._failures) >= self.CLIENTS:
                    self._failures.pop(next(iter(self._failures)))
                f = self._failures[client] = _Failures()
            f.count += 1
            if f.count >= self.TRIES:
                f.locked_until = now + min(self.LONGEST, self.LOCKOUT * 2 ** f.lockouts)
                f.lockouts += 1
                f.count = 0
            return "wrong"
