"""The league's SQLite: every game once, the players by name, wins per game type and an
Elo rating per player and game type with its history.

Games are rated in a fixed order -- when they ended (the box's clock), then box and game
-- so the ratings are a function of the games alone, whatever order the broker delivered
them in: :func:`elo` over the same games gives the same figures (the tests recompute
them from the boxes' journals). A game that arrives after games that ended later is
rated in its place: those later games are taken back and rated again after it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

START = 1500.0
K = 32.0


@dataclass(frozen=True)
class Played:
    """One finished game: its key, its type and the players' names best first."""

    ended: float
    box: str
    game: str
    game_type: str
    order: tuple[str, ...]

    @property
    def key(self) -> tuple[float, str, str]:
        return (self.ended, self.box, self.game)


def elo(games: Iterable[Played], ratings: dict[tuple[str, str], float] | None = None
        ) -> tuple[dict[tuple[str, str], float], list[tuple[Played, dict[str, tuple[float, float]]]]]:
    """Rate ``games`` in key order: each pair of players is one match (the better placed
    wins), K shared out over the table. Returns (ratings by (game type, name), history)."""
    table = dict(ratings or {})
    history = []
    for g in sorted(games, key=lambda g: g.key):
        before = {p: table.get((g.game_type, p), START) for p in g.order}
        delta = dict.fromkeys(g.order, 0.0)
        k = K / max(1, len(g.order) - 1)
        for i, a in enumerate(g.order):
            for b in g.order[i + 1:]:
                expected = 1.0 / (1.0 + 10 ** ((before[b] - before[a]) / 400.0))
                delta[a] += k * (1.0 - expected)
                delta[b] -= k * (1.0 - expected)
        change = {}
        for p in g.order:
            table[(g.game_type, p)] = before[p] + delta[p]
            change[p] = (before[p], table[(g.game_type, p)])
        history.append((g, change))
    return table, history


SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (box TEXT, n INTEGER, PRIMARY KEY (box, n));
CREATE TABLE IF NOT EXISTS games (box TEXT, game TEXT, game_type TEXT, ended REAL,
    players TEXT, received REAL, PRIMARY KEY (box, game));
CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS ratings (game_type TEXT, name TEXT, rating REAL, games INTEGER,
    wins INTEGER, PRIMARY KEY (game_type, name));
CREATE TABLE IF NOT EXISTS history (ended REAL, box TEXT, game TEXT, game_type TEXT,
    name TEXT, before REAL, after REAL);
CREATE TABLE IF NOT EXISTS boxes (box TEXT PRIMARY KEY, acked INTEGER, state TEXT);
CREATE INDEX IF NOT EXISTS history_order ON history (game_type, ended, box, game);
"""


class League:
    """The league's database at ``path``."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- taking messages -------------------------------------------------------------
    def take(self, box: str, message: dict[str, Any], received: float = 0.0) -> bool:
        """Store one message from ``box`` unless it is a double; True if it was new."""
        return self.take_many([(box, message, received)])[0]

    def take_many(self, items: list[tuple[str, dict[str, Any], float]]) -> list[bool]:
        """Store messages (box, message, received) in one transaction (one fsync for all);
        for each, True if it was new, False for a double. A bad message raises ValueError
        and stores nothing of this batch."""
        out = []
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                for box, message, received in items:
                    try:
                        n = int(message["n"])
                    except (KeyError, TypeError, ValueError):
                        raise ValueError(f"a message from {box} without a number n") from None
                    if db.execute("SELECT 1 FROM messages WHERE box = ? AND n = ?", (box, n)).fetchone():
                        out.append(False)
                        continue
                    db.execute("INSERT INTO messages VALUES (?, ?)", (box, n))
                    self._advance(box, n)
                    if message.get("type") == "result":
                        try:
                            self._result(box, message, received)
                        except (KeyError, TypeError, IndexError) as exc:
                            raise ValueError(f"a result from {box} without {exc}") from None
                    out.append(True)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return out

    def _result(self, box: str, m: dict[str, Any], received: float) -> None:
        db = self._db
        players = [str(p) for p in m["players"]]
        order = tuple(players[int(s)] for s in m["ranking"])
        game = Played(float(m["t"]), box, str(m["game"]), str(m["game_type"]), order)
        cur = db.execute("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?)",
                         (box, game.game, game.game_type, game.ended, json.dumps(list(order)), received))
        if not cur.rowcount:
            return  # the same game reported twice under two numbers: once is enough
        db.executemany("INSERT OR IGNORE INTO players VALUES (?)", [(p,) for p in order])
        # Games rated after this one (it ended earlier: boxes' results cross on the way) are
        # taken back and rated again after it; usually there are none or a few.
        later = db.execute("SELECT ended, box, game, name, before FROM history WHERE game_type = ? "
                           "AND (ended, box, game) > (?, ?, ?) ORDER BY ended, box, game",
                           (game.game_type, *game.key)).fetchall()
        current = {(game.game_type, name): rating for name, rating in db.execute(
            "SELECT name, rating FROM ratings WHERE game_type = ?", (game.game_type,))}
        again = dict.fromkeys((ended, box_, game_id) for ended, box_, game_id, _, _ in later)
        restored: set[str] = set()
        for *_, name, before in later:  # each player's rating before the first
            if name not in restored:
                restored.add(name)
                current[(game.game_type, name)] = before
        replay = [game]
        for ended, box_, game_id in again:
            (names,) = db.execute("SELECT players FROM games WHERE box = ? AND game = ?",
                                  (box_, game_id)).fetchone()
            replay.append(Played(ended, box_, game_id, game.game_type, tuple(json.loads(names))))
        if later:
            db.execute("DELETE FROM history WHERE game_type = ? AND (ended, box, game) > (?, ?, ?)",
                       (game.game_type, *game.key))
        self._rate(replay, current)

    def _rate(self, games: list[Played], current: dict[tuple[str, str], float]) -> None:
        table, history = elo(games, current)
        db = self._db
        for g, change in history:
            for name, (before, after) in change.items():
                db.execute("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (g.ended, g.box, g.game, g.game_type, name, before, after))
                db.execute("INSERT INTO ratings VALUES (?, ?, ?, 0, 0) ON CONFLICT (game_type, name) "
                           "DO UPDATE SET rating = excluded.rating", (g.game_type, name, after))

    def _advance(self, box: str, n: int) -> None:
        db = self._db
        db.execute("INSERT OR IGNORE INTO boxes VALUES (?, 0, NULL)", (box,))
        (top,) = db.execute("SELECT acked FROM boxes WHERE box = ?", (box,)).fetchone()
        if n != top + 1:
            return
        while db.execute("SELECT 1 FROM messages WHERE box = ? AND n = ?", (box, top + 1)).fetchone():
            top += 1
        db.execute("UPDATE boxes SET acked = ? WHERE box = ?", (top, box))

    def acked(self, box: str) -> int:
        """The highest n from ``box`` held with every one before it."""
        with self._lock:
            row = self._db.execute("SELECT acked FROM boxes WHERE box = ?", (box,)).fetchone()
        return int(row[0]) if row else 0

    def box_state(self, box: str, state: dict[str, Any]) -> None:
        """Keep the box's latest retained state (its dashboard figures)."""
        with self._lock:
            self._db.execute("INSERT INTO boxes VALUES (?, 0, ?) ON CONFLICT (box) DO UPDATE SET "
                             "state = excluded.state", (box, json.dumps(state)))

    # -- reading -------------------------------------------------------------------------
    def report(self) -> dict[str, Any]:
        """Everything ``farmbox league report --json`` prints."""
        with self._lock:
            db = self._db
            games = [{"box": b, "game": g, "game_type": t, "ended": e, "order": json.loads(p)}
                     for b, g, t, e, p in db.execute(
                         "SELECT box, game, game_type, ended, players FROM games ORDER BY ended, box, game")]
            played: dict[tuple[str, str], list[int]] = {}
            for g in games:
                for place, name in enumerate(g["order"]):
                    counts = played.setdefault((g["game_type"], name), [0, 0])
                    counts[0] += 1
                    counts[1] += place == 0
            board: dict[str, list[dict[str, Any]]] = {}
            for t, name, rating in db.execute(
                    "SELECT game_type, name, rating FROM ratings ORDER BY game_type, rating DESC, name"):
                n, wins = played.get((t, name), [0, 0])
                board.setdefault(t, []).append({"name": name, "rating": round(rating, 2),
                                                "games": n, "wins": wins})
            history = [{"game": g, "box": b, "game_type": t, "name": n, "before": round(x, 2),
                        "after": round(y, 2)} for b, g, t, n, x, y in db.execute(
                            "SELECT box, game, game_type, name, before, after FROM history "
                            "ORDER BY ended, box, game, name")]
            boxes = {b: json.loads(s) if s else None for b, s in db.execute("SELECT box, state FROM boxes")}
            players = [p for (p,) in db.execute("SELECT name FROM players ORDER BY name")]
        return {"games": games, "leaderboard": board, "history": history, "players": players,
                "boxes": boxes}

    def ratings(self) -> dict[tuple[str, str], float]:
        with self._lock:
            return {(t, n): r for t, n, r in self._db.execute("SELECT game_type, name, rating FROM ratings")}
