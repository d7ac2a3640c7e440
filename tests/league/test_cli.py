"""``farmbox league`` as a process against a real mosquitto: it stores a box's result once,
acknowledges it (retained), serves the leaderboard, and stops on SIGTERM with status 0."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

import paho.mqtt.client as mqtt

from tests.box_service import wait_for

from .conftest import free_port
from .test_broker import retained


def report(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/report.json", timeout=2) as r:
            return json.loads(r.read())
    except OSError:
        return None


def test_farmbox_league_stores_acks_and_serves_the_leaderboard(tmp_path, broker):
    web = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "farmbox.firmware", "league", "--port", str(broker.port),
                             "--web-port", str(web), "--bind", "127.0.0.1", "--db", str(tmp_path / "l.sqlite")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-box")
    try:
        assert wait_for(lambda: proc.poll() is not None or report(web) is not None, 30)
        assert proc.poll() is None, proc.stderr.read().decode()
        client.connect("127.0.0.1", broker.port)
        client.loop_start()
        result = {"n": 1, "type": "result", "box": "t1", "game": "g1", "game_type": "superfarmer",
                  "players": ["Ala", "Ola"], "ranking": [1, 0], "t": 1.0, "seq": 60}
        for _ in range(3):  # sent three times: stored once
            client.publish("farmbox/t1/events", json.dumps(result), qos=1).wait_for_publish(5)
        assert wait_for(lambda: len((report(web) or {}).get("games", [])) == 1, 15)
        assert retained(broker.port, "farmbox/t1/ack", 1) == {"farmbox/t1/ack": {"n": 1}}
        board = report(web)["leaderboard"]["superfarmer"]
        assert [r["name"] for r in board] == ["Ola", "Ala"] and board[0]["wins"] == 1
        with urllib.request.urlopen(f"http://127.0.0.1:{web}/", timeout=5) as r:
            page = r.read().decode()
        assert "Ola" in page and "farmbox league" in page
    finally:
        client.loop_stop()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err.decode()
    assert len(report_json(tmp_path)["games"]) == 1


def report_json(tmp_path) -> dict:
    out = subprocess.run([sys.executable, "-m", "farmbox.firmware", "league", "report", "--json",
                          "--db", str(tmp_path / "l.sqlite")], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)
