"""``farmbox run`` serves the table view beside the box ([web] port), and a port that
cannot be bound is one line and exit status 2."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request

from tests.box_service import wait_for


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config_file(tmp_path, port: int) -> str:
    path = tmp_path / "farmbox.toml"
    path.write_text(f'[hardware]\nsimulated = true\n[display]\ndriver = "dummy"\n[camera]\nsource = "none"\n[journal]\ndir = "{tmp_path / "journal"}"\n[web]\nport = {port}\nbind = "127.0.0.1"\n'
                    f'pin = "2468"\n')
    return str(path)


def run(config: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "farmbox.firmware", "run", "--config", config],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def fetch(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return json.loads(r.read())
    except OSError:
        return None


def test_farmbox_run_serves_the_table_view(tmp_path):
    port = free_port()
    proc = run(config_file(tmp_path, port))
    try:
        url = f"http://127.0.0.1:{port}/api/view"
        assert wait_for(lambda: proc.poll() is not None or (fetch(url) or {}).get("seq") == 1, 30)
        assert proc.poll() is None, proc.stderr.read().decode()
        view = fetch(url)
        assert view["game"] == "superfarmer" and view["pin"] is True and view["players"] == 2
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err.decode()
    assert f"table view on http://127.0.0.1:{port}/" in err.decode()


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = run(config_file(tmp_path, taken.getsockname()[1]))
        out, err = proc.communicate(timeout=60)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 2
    assert lines[-1].startswith("farmbox run: error: [web] port") and "Traceback" not in err.decode()
