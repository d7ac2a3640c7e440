"""The journal of any game: an append-only file of JSON lines, one per settled action, fsync'ed.

Each line is ``{"action": {...}, "seq": N, "state": {...}, "crc": "xxxxxxxx"}``: the action,
its sequence number (1, 2, 3, ... in a file), the game state it led to (self-contained: a
record alone says where the game stood) and the CRC32 of the line's other fields in canonical
JSON. Each game names its file and brings its :class:`Replay`, which says what a record's
action does to the game; :meth:`Journal.open` replays the actions through it, checks each
result against the recorded state and resumes.

One flipped byte costs at most that record: a bad record in the middle is skipped and the
replay resumes from the next good record's own state (:meth:`Replay.resume`; the seq numbers
say how many were skipped); two records merged by a flipped newline are split again; a torn
tail (power cut mid-write) is cut off. The bad bytes are kept beside the journal as
``*.corrupt-N`` (never overwriting an earlier copy), the file is rewritten without them and
what was skipped is reported in one line (:attr:`Replay.problem`). A game whose replay cannot
resume from a recorded state keeps the good records before the first bad one.

A write that fails (ENOSPC, EIO) raises :class:`JournalWriteError` and leaves the file as it
was: the next :meth:`Journal.append` first cuts off whatever part of the line reached the
disk, so a retried record is never doubled. A new game starts a new file; the old one is
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

from farmbox.firmware.box.files import check_writable_target, fsync_dir, write_atomically
from farmbox.firmware.rules.errors import RulesError

log = logging.getLogger(__name__)

Action = dict[str, Any]
#: Old journals kept after rotation.
KEEP = 20


class JournalError(ValueError):
    """A journal that cannot be used at all (its folder is not usable, it is not a file)."""


class JournalWriteError(OSError):
    """A record could not be written and synced (disk full, I/O error): nothing of it counts.

    Not bad input: the box shows it, withholds the acknowledgement and retries the write.
    """


class CannotResume(Exception):
    """A game's :class:`Replay` cannot take up a recorded state without replaying to it."""


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


#: Every record's line starts so (canonical JSON, keys sorted): where a merged line splits.
_RECORD_START = b'{"action":'


def _records_in(line: bytes) -> list[tuple[dict[str, Any], bytes]]:
    """The good records in a bad ``line`` (two records whose newline was flipped into
    another byte), each with its repaired line; empty if none is readable."""
    found: list[tuple[dict[str, Any], bytes]] = []
    starts = [i for i in range(len(line)) if line.startswith(_RECORD_START, i)]
    ends = [*starts[1:], len(line)]
    k = 0
    while k < len(starts):
        for end in (e for e in ends if e > starts[k]):
            piece = line[starts[k]:end]
            good = None
            for candidate in (piece if piece.endswith(b"\n") else piece + b"\n",
                              piece[:-1] + b"\n"):
                try:
                    good = (decode(candidate), candidate)
                    break
                except ValueError:
                    continue
            if good is not None:
                found.append(good)
                k = next((i for i, start in enumerate(starts) if start >= end), len(starts))
                break
        else:
            k += 1
    return found


@dataclass
class Replay:
    """What :meth:`Journal.open` found: each game subclasses it with where its game stands
    and says what a record's action does (:meth:`begin`, :meth:`preview`, :meth:`apply`,
    :meth:`resume`)."""

    seq: int = 0
    #: Records lost (skipped bad records and a torn tail), and the one line saying which.
    dropped: int = 0
    problem: str = ""
    #: The seq numbers of the records skipped or cut off.
    skipped: list[int] = field(default_factory=list)
    #: Records whose own state was taken up after a gap (not replayed to).
    resumed: int = 0
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

    def matches(self, new: Recordable | None, recorded: Any) -> bool:
        """Whether ``new`` (from :meth:`preview`) is the state a record says its action led
        to; a game whose records carry more than the state (a checkpoint) compares its part."""
        return (None if new is None else new.to_dict()) == recorded

    def resume(self, action: Action, state: Any) -> None:
        """Take up ``state``, recorded after ``action``, as the current state without
        replaying to it (the records before it were bad); the undo history starts afresh.
        A ValueError if ``state`` is not a state of this game; :class:`CannotResume` (the
        default) if the game cannot: the journal then keeps only the records before the
        first bad one."""
        raise CannotResume(type(self).__name__)


R = TypeVar("R", bound=Replay)

_REPLAY_ERRORS = (ValueError, KeyError, TypeError, RulesError)


class Journal(Generic[R]):
    """The journal of one table's current game: the file ``name`` in ``directory``, replayed
    through a new ``replay()`` (the game's :class:`Replay`) on :meth:`open`."""

    def __init__(self, directory: str | os.PathLike[str], name: str,
                 replay: Callable[[], R]) -> None:
        self.dir = Path(directory)
        self.path = self.dir / name
        self.seq = 0
        self._new_replay = replay
        self._fd: int | None = None
        #: Bytes of whole, synced records in the file (a failed write is cut back to it).
        self._size = 0
        self._torn = False
        #: Writes that failed since the journal was opened.
        self.write_failures = 0

    # -- reading ----------------------------------------------------------
    def open(self, progress: Callable[[int, int], None] | None = None) -> R:
        """Replay the journal (if any), repair bad records, and open it for appending."""
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
        self._fd = self._open_for_append()
        self._size = os.fstat(self._fd).st_size
        if replay.seq == 0:
            fsync_dir(self.dir)
        self.seq = replay.seq
        return replay

    def _open_for_append(self) -> int:
        return os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
                       | os.O_NOFOLLOW, 0o644)  # a symlink put there since the check: refused

    def _replay_into(self, found: R, progress: Callable[[int, int], None] | None,
                     every: int = 200) -> None:
        """Replay the file's records through ``found``; bad ones are skipped (the replay
        resumes from the next good record's state), a torn tail is cut off, the bad bytes
        kept as ``*.corrupt-N`` and the file rewritten with the good records only.
        ``progress(done, total)`` is called every ``every`` lines and after the last one."""
        data = self.path.read_bytes()
        lines = data.splitlines(keepends=True)
        kept: list[bytes] = []
        bad: list[bytes] = []
        why: list[str] = []
        lost_lines = 0      # bad lines since the last good record
        gap = False         # a record before this one was not replayed
        first_bad: int | None = None
        repaired = False    # a line was mended (split, its newline restored)
        for i, line in enumerate(lines):
            try:
                pieces = [(decode(line), line)]
            except ValueError as exc:
                pieces = _records_in(line)
                first_bad = i if first_bad is None else first_bad
                if not pieces:
                    bad.append(line)
                    why.append(str(exc))
                    lost_lines += 1
                    gap = True
                    continue
                why.append(f"{exc}: split in two")
                repaired = True
            try:
                for record, raw in pieces:
                    gap, lost_lines = self._replay_one(found, record, raw, gap, lost_lines,
                                                       kept, bad, why)
            except CannotResume:  # keep the records before the first bad one
                assert first_bad is not None
                bad = lines[first_bad:]
                found.skipped.extend(range(found.seq + 1, found.seq + 1 + len(bad)))
                why.append(f"{type(found).__name__} cannot resume after a bad record")
                lost_lines = 0
                break
            if first_bad is None and gap:
                first_bad = i
            if progress is not None and (i % every == 0 or i == len(lines) - 1):
                progress(i + 1, len(lines))
        if lost_lines:  # bad records at the end: nothing after them to resume from
            found.skipped.extend(range(found.seq + 1, found.seq + 1 + lost_lines))
        if not bad and not repaired:
            return
        if bad:
            found.dropped = len(found.skipped)
            last_good = found.skipped[0] - 1 if found.skipped else found.seq
            keep = self._keep_aside(b"".join(bad), last_good)
            total = max(len(lines), found.seq + lost_lines)
            tail = " (the last record)" if found.skipped == [total] else ""
            found.problem = (f"{self.path.name}: skipped {_records(found.skipped)}{tail} of {total} "
                             f"({'; '.join(dict.fromkeys(why))}); resumed at record {found.seq}; "
                             f"bad bytes kept in {keep.name}")
            log.warning("journal: %s; dropped %d record(s), resuming after seq %d",
                        found.problem, found.dropped, found.seq)
        else:
            log.info("journal: %s: mended (%s)", self.path.name, "; ".join(why))
        good = b"".join(kept)
        if data.startswith(good):
            self._cut(len(good))  # bad records only at the end: cut them off in place
        else:
            write_atomically(self.path, good)

    def _replay_one(self, found: R, record: dict[str, Any], raw: bytes, gap: bool,
                    lost_lines: int, kept: list[bytes], bad: list[bytes],
                    why: list[str]) -> tuple[bool, int]:
        """Replay one readable record; returns the new (gap, lost_lines)."""
        seq = record["seq"]
        if seq <= found.seq:
            bad.append(raw)
            why.append(f"sequence {seq} after {found.seq}")
            return True, lost_lines + 1
        skipped = list(range(found.seq + 1, seq))
        if len(skipped) < lost_lines:  # continuity: each bad line stood for one record
            skipped = list(range(found.seq + 1, found.seq + 1 + lost_lines))
        try:
            # after a resume the undo history is gone: an undo is taken on its record's word
            self._take(found, record, gap or bool(skipped) or found.resumed > 0)
        except _REPLAY_ERRORS as exc:
            bad.append(raw)
            why.append(str(exc))
            return True, lost_lines + 1
        if lost_lines:  # a seq jump with no bad line between: repaired at an earlier start
            found.skipped.extend(skipped)
        found.seq = seq
        found.actions.append(record["action"])
        kept.append(raw)
        return False, 0

    def _take(self, found: R, record: dict[str, Any], gap: bool) -> None:
        """Replay one good ``record`` through ``found`` (``gap``: records before it were
        skipped: take up its own state if replaying to it is not possible)."""
        action, state = record["action"], record["state"]
        if found.seq == 0 and not gap:
            if action.get("action") != "new_game":
                raise ValueError("the first record is not a new game")
            found.begin(action, state)
        elif action.get("action") == "new_game":
            raise ValueError("a new game in the middle of a file")
        try:
            new = found.preview(action)
            if not found.matches(new, state):
                raise ValueError("replayed state differs from the recorded state")
        except _REPLAY_ERRORS:
            if not gap:
                raise
            found.resume(action, state)
            found.resumed += 1
            return
        found.apply(action, new)

    def _keep_aside(self, data: bytes, seq: int) -> Path:
        """Write ``data`` to a new ``<name>.corrupt-<seq>`` (``-<seq>.2``, ... if taken)."""
        n = 1
        while True:
            keep = self.path.with_name(f"{self.path.name}.corrupt-{seq}" + (f".{n}" if n > 1 else ""))
            try:
                fd = os.open(keep, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
            except FileExistsError:
                n += 1
                continue
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            return keep

    def _cut(self, size: int) -> None:
        with open(self.path, "r+b") as f:
            f.truncate(size)
            f.flush()
            os.fsync(f.fileno())
        fsync_dir(self.dir)

    # -- writing ----------------------------------------------------------
    def append(self, action: Action, state: Recordable | None) -> int:
        """Write one record and fsync it; returns its sequence number.

        :class:`JournalWriteError` if it could not be written and synced: the journal is
        then as before the call (the next append cuts off any part that reached the file).
        """
        if self._fd is None:
            raise JournalError("journal is not open")
        if action.get("action") == "new_game" and self.seq:
            self.rotate()
        line = encode(self.seq + 1, action, state)
        try:
            if self._torn:
                os.ftruncate(self._fd, self._size)
                self._torn = False
            self._torn = True  # until the whole line is synced
            view = memoryview(line)
            while view:
                view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
            self._torn = False
        except OSError as exc:
            self.write_failures += 1
            raise JournalWriteError(exc.errno, f"journal {self.path}: record {self.seq + 1} "
                                    f"not written: {exc.strerror or exc}") from exc
        self._size += len(line)
        self.seq += 1
        return self.seq

    def rotate(self) -> Path:
        """Close the current game's file under an archive name and start an empty one."""
        assert self._fd is not None, "open() first"
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        old = self.path.with_name(f"{self.path.stem}-{stamp}-{self.seq}{self.path.suffix}")
        try:
            if self._torn:
                os.ftruncate(self._fd, self._size)
                self._torn = False
            os.replace(self.path, old)
            try:
                fd = self._open_for_append()
            except OSError:
                os.replace(old, self.path)  # the game goes on in its own file
                raise
            fsync_dir(self.dir)
        except OSError as exc:
            self.write_failures += 1
            raise JournalWriteError(exc.errno, f"journal {self.path}: new game not started: "
                                    f"{exc.strerror or exc}") from exc
        os.close(self._fd)
        self._fd, self._size, self.seq = fd, 0, 0
        archived = sorted(self.dir.glob(f"{self.path.stem}-*{self.path.suffix}"),
                          key=lambda p: p.stat().st_mtime)
        for stale in archived[:-KEEP]:
            stale.unlink()
        return old

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _records(seqs: list[int]) -> str:
    """``record 30`` / ``records 3, 30-31``: the seq numbers in one short phrase."""
    runs: list[str] = []
    for seq in seqs:
        if runs and runs[-1].split("-")[-1] == str(seq - 1):
            runs[-1] = f"{runs[-1].split('-')[0]}-{seq}"
        else:
            runs.append(str(seq))
    return ("record " if len(seqs) == 1 else "records ") + ", ".join(runs)
