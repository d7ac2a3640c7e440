"""The event stream every follower of a game shares (the OLED's box, the web view, MQTT).

A box publishes what happened (a settled action with its journal sequence number, a new
screen, an alert); followers subscribe with a callback. Publishing never blocks the box: a
follower that raises is logged and dropped, so one broken follower cannot stop the game.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table: ``kind`` (``action``, ``alert``, ...), the
    journal's sequence number (0 when it is not a journaled action) and its data."""

    kind: str
    seq: int = 0
    data: dict[str, Any] = field(default_factory=dict)


Follower = Callable[[Event], None]


class EventStream:
    """Publish :class:`Event` s to every subscribed follower, in order.

    >>> seen = []
    >>> stream = EventStream()
    >>> stream.subscribe(seen.append)
    >>> stream.publish(Event("alert", data={"name": "wolf"}))
    >>> seen[0].data["name"]
    'wolf'
    """

    def __init__(self) -> None:
        self._followers: list[Follower] = []
        self._lock = threading.Lock()
        #: Events published so far (the box tells "settled" after a step that published any).
        self.published = 0

    def subscribe(self, follower: Follower) -> None:
        with self._lock:
            self._followers.append(follower)

    def unsubscribe(self, follower: Follower) -> None:
        with self._lock:
            if follower in self._followers:
                self._followers.remove(follower)

    def publish(self, event: Event) -> None:
        with self._lock:
            followers = list(self._followers)
            self.published += 1
        for follower in followers:
            try:
                follower(event)
            except Exception:  # a follower's bug must not stop the game
                log.exception("event follower %r failed; dropped", follower)
                self.unsubscribe(follower)
