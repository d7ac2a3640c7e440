"""The firmware's one file writer: whole or nothing, and never over a device, folder or link."""

from __future__ import annotations

import os

import pytest

from farmbox.firmware.box.demo_stream import check_gif_path
from farmbox.firmware.box.files import NotARegularFile, write_atomically
from farmbox.firmware.box.journal import JournalError
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal


def test_a_write_replaces_a_regular_file_whole(tmp_path):
    target = tmp_path / "table.npz"
    target.write_bytes(b"old")
    write_atomically(target, b"new contents")
    assert target.read_bytes() == b"new contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.npz"]  # no temp file left


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path):
    target = tmp_path / "frames.gif"
    target.write_bytes(b"old")

    def broken(fh):
        fh.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        write_atomically(target, broken)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frames.gif"]


def test_devices_folders_and_symlinks_are_never_replaced(tmp_path):
    real = tmp_path / "real.bin"
    real.write_bytes(b"kept")
    link = tmp_path / "link.bin"
    link.symlink_to(real)
    for path, what in ((tmp_path, "directory"), (link, "symlink"),
                       ("/dev/null", "device or special file")):
        with pytest.raises(NotARegularFile, match=what):
            write_atomically(path, b"x")
    assert real.read_bytes() == b"kept" and link.is_symlink()
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_the_demo_refuses_a_gif_path_it_could_not_write_before_it_starts(tmp_path):
    for path, what in ((tmp_path, "is a directory"), (tmp_path / "no" / "x.gif", "does not exist")):
        with pytest.raises(ValueError, match=what):
            check_gif_path(path)
    check_gif_path(tmp_path / "ok.gif")  # a new file in an existing folder is fine
    assert not (tmp_path / "ok.gif").exists()


def test_a_journal_that_is_a_symlink_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_bytes(b"")
    journal_dir = tmp_path / "journal"
    journal_dir.mkdir()
    (journal_dir / "superfarmer.jsonl").symlink_to(elsewhere)
    with pytest.raises(JournalError, match="symlink: not replaced"):
        SuperFarmerJournal(journal_dir).open()
    assert elsewhere.read_bytes() == b""
