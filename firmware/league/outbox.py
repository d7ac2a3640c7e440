"""The box's outbox: every message is on disk (SQLite, WAL) before it is sent, and stays
until the league acknowledged it, so a broker that is down or restarts loses nothing.

>>> box = Outbox(":memory:")
>>> box.add({"type": "action", "seq": 1})
1
>>> [m["n"] for m in box.pending()]
[1]
>>> box.acknowledge(1); box.pending()
[]
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any


class Outbox:
    """Numbered messages (``n`` from 1, never reused) with the league's acknowledgement."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            if str(path) != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("CREATE TABLE IF NOT EXISTS outbox (n INTEGER PRIMARY KEY AUTOINCREMENT,"
                             " body TEXT NOT NULL)")
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")

    def add(self, message: dict[str, Any]) -> int:
        """Store ``message`` (its ``n`` is assigned here); returns n."""
        with self._lock:
            cur = self._db.execute("INSERT INTO outbox (body) VALUES ('')")
            n = int(cur.lastrowid or 0)
            self._db.execute("UPDATE outbox SET body = ? WHERE n = ?",
                             (json.dumps({**message, "n": n}, separators=(",", ":")), n))
            return n

    def pending(self, limit: int = 500) -> list[dict[str, Any]]:
        """The messages not yet acknowledged, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT body FROM outbox WHERE n > ? ORDER BY n LIMIT ?",
                                    (self.acknowledged_locked(), limit)).fetchall()
        return [json.loads(body) for (body,) in rows]

    @property
    def last(self) -> int:
        """The newest n given out (0: none yet)."""
        with self._lock:
            row = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").fetchone()
        return int(row[0]) if row else 0

    def acknowledged_locked(self) -> int:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'acked'").fetchone()
        return int(row[0]) if row else 0

    @property
    def acknowledged(self) -> int:
        with self._lock:
            return self.acknowledged_locked()

    def acknowledge(self, n: int) -> None:
        """The league holds every message up to ``n``: forget them."""
        with self._lock:
            if n <= self.acknowledged_locked():
                return
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('acked', ?)", (str(n),))
            self._db.execute("DELETE FROM outbox WHERE n <= ?", (n,))

    def get(self, key: str, default: str = "") -> str:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def put(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def close(self) -> None:
        with self._lock:
            self._db.close()
