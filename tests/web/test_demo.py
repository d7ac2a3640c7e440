"""Issue 14, left open 2: ``farmbox demo`` (what ``make demo`` runs) serves the table view
while it plays and prints its URL."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request

import pytest

from farmbox.firmware.cli import main
from farmbox.firmware.web.server import TableServer


def fetch(url: str) -> dict:
    with urllib.request.urlopen(url + "api/view", timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("game", ["superfarmer", "funfarm", "cardgame"])
def test_the_demo_serves_the_table_view_while_it_plays(game, tmp_path, monkeypatch, capsys):
    """The page is fetched as the demo's table view is stopped (the game over, the demo's box
    still open): it shows the demo's game at its last record. The port asked for is taken,
    so the demo serves on a free one and says which."""
    seen: dict = {}
    real_stop = TableServer.stop

    def stop(server: TableServer) -> None:
        seen["view"] = fetch(server.url)
        seen["seq"] = server.box.journal.seq
        seen["port"] = server.port
        real_stop(server)

    monkeypatch.setattr(TableServer, "stop", stop)
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        assert main(["demo", game, "--fast", "--quiet", "--no-camera", "--seed", "3",
                     "--web-port", str(busy), "--gif", str(tmp_path / "demo.gif")]) == 0
    assert seen["view"]["game"] == game and seen["view"]["seq"] == seen["seq"] > 1
    assert seen["port"] != busy
    err = capsys.readouterr().err
    assert f"(this machine: http://127.0.0.1:{seen['port']}/)" in err
    assert "table view on http://" in err


def test_farmbox_demo_prints_the_table_view_url(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "farmbox.firmware", "demo", "--fast", "--quiet",
                           "--no-camera", "--web-port", "0", "--gif", str(tmp_path / "a.gif")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "table view" not in proc.stderr  # 0: none
    proc = subprocess.run([sys.executable, "-m", "farmbox.firmware", "demo", "--fast", "--quiet",
                           "--no-camera", "--gif", str(tmp_path / "b.gif")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stderr.splitlines() if ln.startswith("table view on http://"))
    assert line.rstrip().endswith("/)") and ":" in line.split("http://")[1]


def test_a_bad_web_port_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "farmbox.firmware", "demo", "--web-port", "70000",
                           "--gif", str(tmp_path / "c.gif")], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "farmbox demo: error: --web-port must be 0-65535, got 70000"
