"""Point 7 (bugs are not bad input) and point 5 for the journal, with the real ``farmbox``
process: bad input is one line and exit 2, a bug is a traceback and exit 1."""

from __future__ import annotations

import errno
import os
import socket

import pytest

from farmbox.firmware.box.config import ConfigError
from farmbox.firmware.cli import is_bad_input
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.rules.superfarmer import Herd
from tests.faults.conftest import CLI, run, serving, write_config


def test_an_argparse_error_is_one_line_and_exit_2():
    result = run(CLI, ["run", "--no-such-flag"])
    assert result.code == 2
    assert result.err == ["farmbox: error: unrecognized arguments: --no-such-flag"]
    missing = run(CLI, ["odds"])
    assert missing.code == 2 and missing.err == [
        "farmbox odds: error: the following arguments are required: HERD"], missing.err


def test_a_bad_setting_is_one_line_and_exit_2(tmp_path):
    config = write_config(tmp_path)
    config.write_text(config.read_text() + "[buzzer]\npin = 99\n")
    result = run(CLI, ["run", "--config", str(config)])
    assert result.code == 2 and len(result.err) == 1 and "99" in result.err[0], result.err


def test_a_bug_in_the_service_is_a_traceback_and_exit_1(tmp_path):
    config = write_config(tmp_path)
    result = run(CLI, ["run", "--config", str(config)],
                 {"bug": "farmbox.firmware.games.superfarmer.box:Service.begin"})
    assert result.code == 1, result.err
    assert result.err[0] == "Traceback (most recent call last):" and "KeyError" in result.err[-1]


def test_a_failing_disk_at_start_is_waited_out_never_bad_input(tmp_path):
    """EIO on the journal while the new game's record is written: ``farmbox run`` says so,
    retries with backoff and carries on once the disk answers; never exit 2 (which the unit's
    RestartPreventExitStatus keeps down), and SIGTERM still ends it with status 0."""
    config = write_config(tmp_path)
    plan = {"journal": {"write": [1, 2, 3], "errno": errno.EIO}}
    with serving(CLI, ["run", "--config", str(config)], plan) as service:
        seen = service.wait_for_line("journal writes again")
        assert seen is not None, service.err
        assert any("not written" in line for line in service.err)
    assert service.code == 0, service.err[-5:]
    replay = SuperFarmerJournal(tmp_path / "journal").open()
    assert replay.dropped == 0 and replay.seq == 1  # the new game's record, once


@pytest.mark.parametrize("make", ["symlink", "directory", "fifo"])
def test_the_journal_never_replaces_a_symlink_a_directory_or_a_device(tmp_path, make):
    config = write_config(tmp_path)
    with socket.socket() as free:  # the table view on: it starts only once the journal is open
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    config.write_text(config.read_text().replace("port = 0", f'port = {port}\nbind = "127.0.0.1"'))
    journal = tmp_path / "journal"
    journal.mkdir()
    target = journal / "superfarmer.jsonl"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    if make == "symlink":
        target.symlink_to(victim)
    elif make == "directory":
        target.mkdir()
    else:
        os.mkfifo(target)
    result = run(CLI, ["run", "--config", str(config)])
    assert result.code == 2 and len(result.err) == 1 and "not replaced" in result.err[0], result.err
    assert victim.read_text() == "keep me"
    assert target.is_symlink() if make == "symlink" else True
    assert target.is_dir() if make == "directory" else True


def test_what_is_bad_input_and_what_is_a_bug(tmp_path):
    try:
        Herd.parse("rabbit=x")
    except ValueError as exc:
        assert is_bad_input(exc)  # the rules' own error class
    assert is_bad_input(ConfigError("[game] players must be 2-6"))
    try:
        open(tmp_path / "missing.toml")
    except OSError as exc:
        assert is_bad_input(exc)  # a file the user named
    try:
        int("seven")
    except ValueError as exc:
        assert not is_bad_input(exc)  # a ValueError from a builtin in a test: not ours
    assert not is_bad_input(TypeError("unsupported operand"))
    assert not is_bad_input(KeyError("players"))
    assert not is_bad_input(OSError(errno.EIO, "Input/output error"))


def test_opencv_is_quiet_before_it_loads():
    assert os.environ.get("OPENCV_LOG_LEVEL") == "ERROR"  # set by importing the CLI (above)


def test_library_warnings_do_not_reach_stderr():
    """A command that loads the libraries (Pillow, numpy via the solver) says nothing else."""
    result = run(CLI, ["odds", "rabbit=3,sheep=1"])
    assert result.code == 0 and result.err == [], result.err
    bad = run(CLI, ["odds", "rabbit=x"])
    assert bad.code == 2 and len(bad.err) == 1 and "rabbit" in bad.err[0], bad.err


def test_libpng_warnings_do_not_reach_stderr(tmp_path):
    """A PNG with a broken colour profile makes libpng warn on fd 2; the command still says
    one line (here: the missing model) and nothing else."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    w, h = 64, 48
    rows = b"".join(b"\x00" + bytes([120, 60, 30] * w) for _ in range(h))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"iCCP", b"bad\x00\x00" + zlib.compress(b"no profile" * 20))
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    image = tmp_path / "profile.png"
    image.write_bytes(png)
    result = run(CLI, ["vision", "read", "dice", "--model", str(tmp_path / "none.npz"), str(image)])
    assert result.code == 2
    assert result.err == [f"farmbox vision: error: dice model {tmp_path / 'none.npz'} not found"]


def test_the_math_libraries_get_one_thread_before_they_load():
    """Importing the CLI sets one thread for OpenBLAS and OpenMP before numpy loads (they read
    it once, then); an owner's own setting is kept."""
    import subprocess
    import sys

    probe = ("import os, sys; import farmbox.firmware.cli; "
             "print('numpy' in sys.modules, os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "1", "1"]
    done = subprocess.run([sys.executable, "-c", probe], env={**env, "OPENBLAS_NUM_THREADS": "3"},
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "3", "1"]
