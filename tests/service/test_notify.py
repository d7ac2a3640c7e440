"""systemd notify protocol: READY and WATCHDOG on a NOTIFY_SOCKET bound by the test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

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
{extra}
""")
    return path


def test_ready_status_and_watchdog_arrive(tmp_path):
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(20)
    env = dict(os.environ, NOTIFY_SOCKET=sock_path, WATCHDOG_USEC="200000")
    proc = subprocess.Popen([sys.executable, "-m", "firmware.service", "--config",
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
