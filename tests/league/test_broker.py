"""Three boxes, one league, a real mosquitto: the broker is killed (-9) and restarted
mid-game, one box loses its network for a while; at the end the league holds every game
exactly once and the ratings equal a recomputation from the boxes' journals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from farmbox.firmware.box.journal import decode
from farmbox.firmware.league import wire
from farmbox.firmware.league.outbox import Outbox
from farmbox.firmware.league.publisher import Publisher
from farmbox.firmware.league.service import LeagueService, leaderboard_html
from farmbox.firmware.league.store import League, Played, elo
from tests.box_service import wait_for

from .conftest import Cable, SimBox

NAMES = {"a": ["Ala", "Bolek"], "b": ["Ala", "Celina", "Dorota"], "c": ["Bolek", "Dorota"]}
GAMES_PER_BOX = 2


def retained(port: int, topic: str, count: int) -> dict[str, dict]:
    """The retained messages under ``topic`` on the broker (waits for ``count`` of them)."""
    import paho.mqtt.client as mqtt

    got: dict[str, dict] = {}
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-retained")
    client.on_message = lambda c, u, m: got.__setitem__(m.topic, json.loads(m.payload))
    client.on_connect = lambda c, u, f, r, p=None: c.subscribe(topic, qos=1)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        wait_for(lambda: len(got) >= count)
    finally:
        client.disconnect()
        client.loop_stop()
    return got


def journal_games(folder: Path) -> list[dict]:
    """Each finished game in a box's journal files (archived and current), oldest first."""
    out = []
    for path in sorted(folder.glob("superfarmer*.jsonl"), key=lambda p: p.stat().st_mtime_ns):
        records = [decode(line + b"\n") for line in path.read_bytes().splitlines()]
        order = wire.ranking("superfarmer", records[-1]["state"])
        if order is not None:
            out.append({"ranking": order})
    return out


def test_three_boxes_broker_killed_and_network_lost_every_game_once(tmp_path, broker):
    league = League(tmp_path / "league.sqlite")
    service = LeagueService(league, port=broker.port).start()
    cable = Cable(broker.port)  # box c's network
    boxes, publishers = {}, {}
    for seed, name in enumerate(NAMES, start=1):
        box = SimBox(tmp_path / name, seed, NAMES[name])
        port = cable.port if name == "c" else broker.port
        publishers[name] = Publisher(box, "superfarmer", name, Outbox(tmp_path / f"{name}.outbox"),
                                     port=port).start()
        box.begin()
        boxes[name] = box
    try:
        assert service.connected.wait(10)
        steps = 0
        playing = set(boxes)
        while playing:
            for name in sorted(playing):
                box = boxes[name]
                if not box.step():
                    if box.games + 1 >= GAMES_PER_BOX:
                        playing.discard(name)
                    else:
                        box.new_game()
            steps += 1
            if steps == 40:  # mid-game: the broker dies (kill -9) ...
                assert playing == set(boxes)
                broker.kill()
                assert wait_for(lambda: not any(p.connected for p in publishers.values()))
                assert wait_for(lambda: not service.connected.is_set())
            if steps == 120:  # ... and comes back with nothing queued
                broker.start()
                assert wait_for(lambda: all(p.connected for p in publishers.values()), 15)
            if steps == 200:
                assert "c" in playing
                cable.pull()   # box c off the network ...
                assert wait_for(lambda: not publishers["c"].connected)
            if steps == 300:
                assert "c" in playing
                cable.plug()   # ... and back
                assert wait_for(lambda: publishers["c"].connected, 15)
        if not cable.plugged:
            cable.plug()
        last = {name: publishers[name].outbox_last() for name in boxes}
        assert service.wait(lambda: all(league.acked(n) == last[n] for n in boxes), 60), (
            {n: (league.acked(n), last[n]) for n in boxes})
        # Every game once.
        report = league.report()
        assert len(report["games"]) == GAMES_PER_BOX * len(boxes)
        stored = {}
        for g in report["games"]:
            stored.setdefault(g["box"], []).append(g)
        recomputed_games = []
        for name, box in boxes.items():
            from_journal = journal_games(tmp_path / name)
            in_league = sorted(stored[name], key=lambda g: g["ended"])
            assert len(from_journal) == len(in_league) == GAMES_PER_BOX
            for journal, held in zip(from_journal, in_league):
                order = [NAMES[name][s] for s in journal["ranking"]]
                assert held["order"] == order
                recomputed_games.append(Played(held["ended"], name, held["game"], "superfarmer", tuple(order)))
            # No message stored twice: the league holds exactly 1..n of each box.
            assert league.acked(name) == last[name]
        ratings, _ = elo(recomputed_games)
        assert league.ratings() == pytest.approx(ratings)
        assert service.stored == sum(last.values())
        wins = {r["name"]: r["wins"] for r in report["leaderboard"]["superfarmer"]}
        assert sum(wins.values()) == len(report["games"])
        assert "Ala" in leaderboard_html(report)
        # The retained state and Home Assistant discovery are on the broker.
        assert {b["game"] for b in report["boxes"].values() if b} == {"superfarmer"}
        states = retained(broker.port, "farmbox/+/state", 3)
        assert set(states) == {f"farmbox/{n}/state" for n in boxes}
        assert all(st["over"] and st["online"] and st["game"] == "superfarmer" for st in states.values())
        discovery = retained(broker.port, "homeassistant/sensor/#", 12)
        assert len(discovery) == 12
        turn = discovery["homeassistant/sensor/farmbox_a_turn/config"]
        assert turn["state_topic"] == "farmbox/a/state" and "value_json.turn" in turn["value_template"]
    finally:
        for p in publishers.values():
            p.stop()
        service.stop()
        cable.close()
        league.close()


def test_league_report_json_from_the_command_line(tmp_path, capsys):
    from farmbox.firmware.cli import main

    league = League(tmp_path / "l.sqlite")
    for n, (order, t) in enumerate([(["Ala", "Ola"], 1.0), (["Ola", "Ala"], 2.0), (["Ala", "Ola"], 3.0)], 1):
        assert league.take("x", {"n": n, "type": "result", "game": f"g{n}", "game_type": "superfarmer",
                                 "players": order, "ranking": [0, 1], "t": t})
    assert not league.take("x", {"n": 1, "type": "result", "game": "g1", "game_type": "superfarmer",
                                 "players": ["Ala", "Ola"], "ranking": [0, 1], "t": 1.0})
    # A game that ended earlier arrives late: the league re-rates in end order.
    assert league.take("y", {"n": 1, "type": "result", "game": "g0", "game_type": "superfarmer",
                             "players": ["Ola", "Ala"], "ranking": [0, 1], "t": 0.5})
    expected, _ = elo([Played(0.5, "y", "g0", "superfarmer", ("Ola", "Ala")),
                       Played(1.0, "x", "g1", "superfarmer", ("Ala", "Ola")),
                       Played(2.0, "x", "g2", "superfarmer", ("Ola", "Ala")),
                       Played(3.0, "x", "g3", "superfarmer", ("Ala", "Ola"))])
    assert league.ratings() == pytest.approx(expected)
    league.close()
    assert main(["league", "report", "--db", str(tmp_path / "l.sqlite"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["games"]) == 4 and report["leaderboard"]["superfarmer"][0]["wins"] == 2
    assert len(report["history"]) == 8
    assert main(["league", "report", "--db", str(tmp_path / "none.sqlite")]) == 2
