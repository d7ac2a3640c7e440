"""The journal of any game: an append-only file of JSON lines, one per settled action, fsync'ed.

Each line is ``{"action": {...}, "seq": N, "state": {...}, "crc": "xxxxxxxx"}``: the action,
its sequence number (1, 2, 3, ... in a file), the game state it led to (self-contained: a
record alone says where the game stood) and the CRC32 of the line's other fields in canonical
JSON. Each game names its file and brings its :class:`Replay`, which says what a record's
action does to the game; :meth:`Journal.open` replays the actions through it, checks each
result against the recorded state and resumes. A torn or corrupt tail (power cut mid-write)
is cut off, kept beside the journal as ``*.corrupt-N`` for the curious, and reported; the
game resumes from the last good record. A new game starts a new file; the old one is
renamed ``<name>-<time>-<seq>.jsonl``.
"""

from __future__ import annotations

import json
import logging
import os
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from farmbox.firmware.box.files import check_writable_target, fsync_dir
from farmbox.firmware.rules.errors import RulesError

log = logging.getLogger(__name__)

Action = dict[str, Any]
#: Old journals kept after rotation.
KEEP = 20


class JournalError(ValueError):
    """A journal that cannot be used at all (its first record is bad, unreadable dir)."""


def _canonical(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Recordable(Protocol):
    """A game state the journal can record: it says itself as JSON-ready data."""

    def to_dict(self) -> Any: ...


def encode(seq: int, action: Action, state: Recordable | None) -> bytes:
    """One journal line (with its newline); ``state`` None records ``null`` (a card game
    undone back to its set-up)."""
    body = _canonical({"seq": seq, "action": action,
                       "state": None if state is None else state.to_dict()})
    crc = zlib.crc32(body.encode())
    return (body[:-1] + f',"crc":"{crc:08x}"}}\n').encode()


def decode(line: bytes) -> dict[str, Any]:
    """Parse and verify one line; ValueError naming the problem if it is torn or corrupt."""
    if not line.endswith(b"\n"):
        raise ValueError("torn record (no end of line)")
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"unreadable record ({exc.msg if hasattr(exc, 'msg') else exc})") from None
    if not isinstance(record, dict) or not isinstance(record.get("crc"), str):
        raise ValueError("record without a CRC")
    crc = record.pop("crc")
    if f"{zlib.crc32(_canonical(record).encode()):08x}" != crc:
        raise ValueError("CRC mismatch")
    if not isinstance(record.get("seq"), int) or not isinstance(record.get("action"), dict):
        raise ValueError("record without seq or action")
    return record


@dataclass
class Replay:
    """What :meth:`Journal.open` found: each game subclasses it with where its game stands
    and says what a record's action does (:meth:`begin`, :meth:`preview`, :meth:`apply`)."""

    seq: int = 0
    #: Records cut off the end (torn/corrupt), and why.
    dropped: int = 0
    problem: str = ""
    actions: list[Action] = field(default_factory=list)

    def begin(self, action: Action, state: Any) -> None:
        """Called with the file's first record (a ``new_game`` action) and its recorded state."""
        raise NotImplementedError

    def preview(self, action: Action) -> Recordable | None:
        """The state ``action`` leads to; raises a rules error (or ValueError) if illegal."""
        raise NotImplementedError

    def apply(self, action: Action, new: Any) -> None:
        """Make ``new`` (from :meth:`preview` of ``action``) the current state."""
        raise NotImplementedError


R = TypeVar("R", bound=Replay)


class Journal(Generic[R]):
    """The journal of one table's current game: the file ``name`` in ``directory``, replayed
    through a new ``replay()`` (the game's :class:`Replay`) on :meth:`open`."""

    def __init__(self, directory: str | os.PathLike[str], name: str,
                 replay: Callable[[], R]) -> None:
        self.dir = Path(directory)
        self.path = self.dir / name
        self.seq = 0
        self._new_replay = replay
        self._file: Any = None

    # -- reading ----------------------------------------------------------
    def open(self, progress: Callable[[int, int], None] | None = None) -> R:
        """Replay the journal (if any), repair a bad tail, and open it for appending."""
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"journal dir {self.dir}: {exc.strerror or exc}") from None
        try:
            check_writable_target(self.path)  # never append to a device or through a symlink
        except ValueError as exc:
            raise JournalError(f"journal: {exc}") from None
        replay = self._new_replay()
        if self.path.exists():
            self._replay_into(replay, progress)
        self._file = open(self.path, "ab")
        if replay.seq == 0:
            fsync_dir(self.dir)
        self.seq = replay.seq
        return replay

    def _replay_into(self, found: R, progress: Callable[[int, int], None] | None,
                     every: int = 200) -> None:
        """Replay the file's records through ``found``, counting them in its ``seq``,
        ``dropped``, ``problem`` and ``actions``; a torn or corrupt tail is cut off and kept
        beside the file as ``*.corrupt-N``. ``progress(done, total)`` is called every
        ``every`` records and after the last one."""
        data = self.path.read_bytes()
        lines = data.splitlines(keepends=True)
        good_bytes = 0
        for i, line in enumerate(lines):
            try:
                record = decode(line)
                if record["seq"] != found.seq + 1:
                    raise ValueError(f"sequence {record['seq']} after {found.seq}")
                action = record["action"]
                if found.seq == 0:
                    if action.get("action") != "new_game":
                        raise ValueError("the first record is not a new game")
                    found.begin(action, record["state"])
                new = found.preview(action)
                if (None if new is None else new.to_dict()) != record["state"]:
                    raise ValueError("replayed state differs from the recorded state")
                found.apply(action, new)
            except (ValueError, KeyError, TypeError, RulesError) as exc:
                found.dropped = len(lines) - i
                where = "last record" if found.dropped == 1 else f"record {i + 1} of {len(lines)}"
                found.problem = f"{self.path.name}: {where}: {exc}"
                break
            found.seq = record["seq"]
            found.actions.append(action)
            good_bytes += len(line)
            if progress is not None and (i % every == 0 or i == len(lines) - 1):
                progress(i + 1, len(lines))
        if found.dropped:
            log.warning("journal: %s; dropped %d record(s), resuming after seq %d",
                        found.problem, found.dropped, found.seq)
            keep = self.path.with_name(f"{self.path.name}.corrupt-{found.seq}")
            keep.write_bytes(data[good_bytes:])
            with open(self.path, "r+b") as f:
                f.truncate(good_bytes)
                f.flush()
                os.fsync(f.fileno())
            fsync_dir(self.dir)

    # -- writing ----------------------------------------------------------
    def append(self, action: Action, state: Recordable | None) -> int:
        """Write one record and fsync it; returns its sequence number."""
        if self._file is None:
            raise JournalError("journal is not open")
        if action.get("action") == "new_game" and self.seq:
            self.rotate()
        line = encode(self.seq + 1, action, state)
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())
        self.seq += 1
        return self.seq

    def rotate(self) -> Path:
        """Close the current game's file under an archive name and start an empty one."""
        self._file.close()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        old = self.path.with_name(f"{self.path.stem}-{stamp}-{self.seq}{self.path.suffix}")
        os.replace(self.path, old)
        self._file = open(self.path, "ab")
        fsync_dir(self.dir)
        self.seq = 0
        archived = sorted(self.dir.glob(f"{self.path.stem}-*{self.path.suffix}"),
                          key=lambda p: p.stat().st_mtime)
        for stale in archived[:-KEEP]:
            stale.unlink()
        return old

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
