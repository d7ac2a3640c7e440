"""Files the box writes are written whole or not at all, and only over regular files.

One helper for every file the firmware writes (the solved advisor tables, screen references,
the demo's GIF): a synced temp file in the same folder, renamed over the target, the folder
synced. It never replaces a device, a directory or what a symlink points to: writing a
model to ``/dev/full`` as root must not turn the device into a regular file.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(d / "a.txt", b"hello")
>>> (d / "a.txt").read_bytes()
b'hello'
>>> write_atomically(d, b"x")
Traceback (most recent call last):
...
farmbox.firmware.box.files.NotARegularFile: ... is a directory: not replaced
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


class NotARegularFile(ValueError):
    """The target exists and is a device, a directory, a symlink or another special file."""


def check_writable_target(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path if a regular file may be written there (it is absent or a regular
    file, and its folder exists); :class:`NotARegularFile` or ValueError naming it otherwise."""
    target = Path(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise ValueError(f"{target}: folder {target.parent} does not exist") from None
        return target
    if stat.S_ISLNK(st.st_mode):
        raise NotARegularFile(f"{target} is a symlink: not replaced")
    if stat.S_ISDIR(st.st_mode):
        raise NotARegularFile(f"{target} is a directory: not replaced")
    if not stat.S_ISREG(st.st_mode):
        raise NotARegularFile(f"{target} is a device or special file: not replaced")
    return target


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Make a rename or a new file in folder ``path`` survive a power cut."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: str | os.PathLike[str], data: bytes | Callable[[BinaryIO], None],
                     mode: int = 0o644) -> None:
    """Write ``data`` (bytes, or a function that writes to the open file) to ``path`` whole
    or not at all."""
    target = check_writable_target(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                data(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)


def replace_folder(folder: str | os.PathLike[str], fill: Callable[[Path], None]) -> None:
    """Replace ``folder`` as a whole with what ``fill`` writes into a new folder beside it
    (its folders made readable, 0755), renamed into place; on any error the old one stays."""
    import shutil

    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    old = folder.with_name(f".{folder.name}.old")
    try:
        fill(tmp)
        for d in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
            os.chmod(d, 0o755)
        if old.exists():
            shutil.rmtree(old)
        if folder.exists():
            os.replace(folder, old)
        os.replace(tmp, folder)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old.exists() and not folder.exists():
            os.replace(old, folder)
        raise
