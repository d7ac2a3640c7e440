"""systemd notify protocol: READY and WATCHDOG on a NOTIFY_SOCKET bound by the test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def write_config(tmp_path, extra: str = "") -> Path:
    path = tmp_path / "farmbox.toml"
    path.write_text(f"""
[hardware]
simulated = true
[display]
driver = "dummy"
[journal]
dir = "{tmp_path / 'journal'}"
[web]
port = 0
{extra}
""")
    return path


def test_ready_status_and_watchdog_arrive(tmp_path):
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(20)
    env = dict(os.environ, NOTIFY_SOCKET=sock_path, WATCHDOG_USEC="200000")
    proc = subprocess.Popen([sys.executable, "-m", "farmbox.firmware.games.superfarmer.box", "--config",
                             str(write_config(tmp_path))], cwd=ROOT, env=env,
                            stderr=subprocess.PIPE, text=True)
    messages: list[str] = []
    try:
        while messages.count("WATCHDOG=1") < 3:
            messages += sock.recv(4096).decode().split("\n")
        assert "READY=1" in messages
        assert messages.index("READY=1") < messages.index("WATCHDOG=1")
        assert any(m.startswith("STATUS=farmer 1's turn 1") for m in messages)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        while "STOPPING=1" not in messages:
            messages += sock.recv(4096).decode().split("\n")
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert "new classic game for 2 players" in proc.stderr.read()


def test_config_error_is_exit_2_one_line(tmp_path):
    bad = write_config(tmp_path, "[buttons]\nnxt = 5\n")
    proc = subprocess.run([sys.executable, "-m", "firmware", "run", "--config", str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "farmbox run: error:" in lines[0] and "nxt" in lines[0]
    assert not (tmp_path / "journal").exists()


def receive_until(sock: socket.socket, messages: list[str], done) -> None:
    while not done(messages):
        messages += sock.recv(4096).decode().split("\n")


GAMES = {
    # mode: (config lines, a STATUS the new game starts with, the log line of the start)
    "superfarmer": ("players = 1", "STATUS=farmer 1's turn 1", "new classic game for 1 players"),
    "funfarm": ("players = 3", "STATUS=round 0, draw, 24 cards to turn, caught 0/0/0",
                "Fun Farm for 3 players, record 1"),
    "cardgame": ("players = 4", "STATUS=setting up a new game", "card game: new game, record 0"),
}


@pytest.mark.parametrize("mode", sorted(GAMES))
def test_farmbox_run_notifies_systemd_in_every_mode(tmp_path, mode):
    """``farmbox run`` (the unit's ExecStart) for each [game] mode: READY after the journal
    replay, then STATUS and WATCHDOG pings; SIGTERM -> STOPPING and exit 0."""
    lines, status, logged = GAMES[mode]
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(20)
    config = write_config(tmp_path, f'[game]\nmode = "{mode}"\n{lines}\n')
    env = dict(os.environ, NOTIFY_SOCKET=sock_path, WATCHDOG_USEC="200000")
    proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config", str(config)],
                            cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    messages: list[str] = []
    try:
        receive_until(sock, messages, lambda m: m.count("WATCHDOG=1") >= 3)
        assert messages.index("READY=1") < messages.index("WATCHDOG=1")
        assert any(m.startswith(status) for m in messages)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        receive_until(sock, messages, lambda m: "STOPPING=1" in m)
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert logged in proc.stderr.read()
    assert list((tmp_path / "journal").iterdir())  # the journal is where the config says


@pytest.mark.parametrize("mode, lines, named", [
    ("superfarmer", 'variant = "compact"\nplayers = 1', "players must be 2-6"),
    ("funfarm", "players = 11", "players must be 2-10"),
    ("cardgame", "players = 1", "players must be 2-6"),
    ("cardgame", "player = 3", "'player'"),
])
def test_config_error_in_every_mode_is_exit_2_one_line(tmp_path, mode, lines, named):
    bad = write_config(tmp_path, f'[game]\nmode = "{mode}"\n{lines}\n')
    proc = subprocess.run([sys.executable, "-m", "firmware", "run", "--config", str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines_out = proc.stderr.strip().splitlines()
    assert len(lines_out) == 1 and lines_out[0].startswith("farmbox run: error:")
    assert named in lines_out[0]
    assert not (tmp_path / "journal").exists()
