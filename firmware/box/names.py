"""The players' names at a table: ``names.json`` beside the journal (not in it).

A name is the table's, not the game's: it survives a new game and a restart, and it is set
from the table view (with the PIN). The OLED shows it where it said "farmer 2", and the
league ranks players by it. A missing or unreadable file is no names (seat numbers).

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> save_names(folder, ["Ala", "Bolek"])
>>> load_names(folder)
('Ala', 'Bolek')
>>> seat_name(load_names(folder), 2) is None
True
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path

from farmbox.firmware.box.files import write_atomically

log = logging.getLogger(__name__)

FILE = "names.json"
#: The most names kept, and the longest name (the OLED's header has room for it).
MOST = 10
LONGEST = 16


def clean_names(names: object) -> tuple[str, ...]:
    """Names as the table gave them, tidied (spaces folded, at most :data:`LONGEST`
    characters); ValueError naming what is wrong."""
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ValueError("names must be a list of strings")
    if not 1 <= len(names) <= MOST:
        raise ValueError(f"names: 1-{MOST} of them, got {len(names)}")
    tidy = tuple(" ".join(n.split())[:LONGEST] for n in names)
    if not all(n and n.isprintable() for n in tidy):
        raise ValueError("names must not be empty")
    return tidy


def load_names(directory: str | os.PathLike[str]) -> tuple[str, ...]:
    """The names kept in ``directory`` (none if there is no readable names file)."""
    path = Path(directory) / FILE
    if not path.exists():
        return ()
    try:
        return clean_names(json.loads(path.read_text(encoding="utf-8"))["names"])
    except (ValueError, KeyError, TypeError, OSError) as exc:
        log.warning("%s: names ignored (%s)", path, exc)
        return ()


def save_names(directory: str | os.PathLike[str], names: Sequence[str]) -> None:
    """Keep ``names`` in ``directory`` (written whole or not at all)."""
    data = json.dumps({"names": list(names)}, ensure_ascii=False).encode()
    write_atomically(Path(directory) / FILE, data)


def seat_name(names: Sequence[str], seat: int) -> str | None:
    """The name of ``seat`` (0-based), or None when it has none."""
    return names[seat] if 0 <= seat < len(names) else None
