"""The card game's table view follows its box's commits (the scoreboard and each round's
breakdown); the page may not change a card game (its box reads only its buttons)."""

from __future__ import annotations

import json
import urllib.request

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.observations import Press
from farmbox.firmware.games.cardgame.box import open_box
from farmbox.firmware.web.server import TableServer
from farmbox.hw.pins import simulated_pins
from tests.box_service import wait_for

from .test_server import post


def view(url: str) -> dict:
    with urllib.request.urlopen(url + "api/view", timeout=10) as r:
        return json.loads(r.read())


def test_cardgame_scoreboard_follows_every_commit(tmp_path):
    with simulated_pins():
        config = load_config().with_overrides(journal={"dir": str(tmp_path)},
                                              game={"mode": "cardgame", "players": 3})
        box = open_box(config)
        box.start()
        server = TableServer(box, "cardgame", port=0, bind="127.0.0.1", pin="2468").start()
        try:
            assert view(server.url).get("setting_up") or view(server.url).get("starting")
            for _ in range(400):
                box.take(Press("ok"))  # every question answered with its default
                if box.keeper.state is not None and box.keeper.state.over:
                    break
            state = box.keeper.state
            assert state is not None and state.over
            assert wait_for(lambda: view(server.url)["seq"] == box.journal.seq)
            v = view(server.url)
            assert v["game"] == "cardgame" and v["over"] and v["players"] == 3
            assert v["scores"] == list(state.scores) and len(v["rounds"]) == 2
            assert v["rounds"][-1]["totals"] == list(state.results[-1].totals)
            assert v["names"] == ["Farmer 1", "Farmer 2", "Farmer 3"]
            seq = box.journal.seq
            assert post(server.url, {"pin": "2468", "command": "undo"})[0] == 409
            assert box.inbox.empty() and box.journal.seq == seq
        finally:
            server.stop()
            box.close()
