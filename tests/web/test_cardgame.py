"""The card game's table view follows its box's commits (the scoreboard and each round's
breakdown); with the PIN the page corrects a round's score, undoes, starts a new game --
through the box's inbox, session and journal, as its buttons do (issue 14, left open 4)."""

from __future__ import annotations

import json
import urllib.request

from PIL import ImageChops

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.observations import Press
from farmbox.firmware.games.cardgame.box import open_box
from farmbox.firmware.games.cardgame.screens import render
from farmbox.firmware.games.cardgame.session import CardgameJournal
from farmbox.firmware.web.server import TableServer
from farmbox.hw.pins import simulated_pins
from tests.box_service import wait_for

from .test_server import post

PIN = "2468"


def view(url: str) -> dict:
    with urllib.request.urlopen(url + "api/view", timeout=10) as r:
        return json.loads(r.read())


def records(folder) -> list[dict]:
    return [json.loads(line)["action"] for line in (folder / "cardgame.jsonl").read_text().splitlines()]


def test_cardgame_scoreboard_follows_and_the_page_corrects_it(tmp_path):
    with simulated_pins():
        config = load_config().with_overrides(journal={"dir": str(tmp_path)},
                                              game={"mode": "cardgame", "players": 3})
        box = open_box(config)
        box.start()
        server = TableServer(box, "cardgame", port=0, bind="127.0.0.1", pin=PIN).start()
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

            # Farmer 2's first round was really 7 points more: corrected from the page.
            seq = box.journal.seq
            first, last = state.results[0], state.results[1]
            points = first.points[1] + 7
            status, answer = post(server.url, {"pin": PIN, "command": "correct", "round": 1,
                                               "seat": 1, "points": points})
            assert status == 202, answer
            box.drain()
            assert box.journal.seq == seq + 1
            assert records(tmp_path)[-1] == {"action": "correct", "round": 1, "seat": 1,
                                             "points": points}
            fixed = box.keeper.state
            assert fixed.results[0].points[1] == points
            assert fixed.results[0].totals[1] == first.totals[1] + 7
            assert fixed.results[1].totals[1] == last.totals[1] + 7 and fixed.scores[0] == state.scores[0]
            assert wait_for(lambda: view(server.url)["rounds"][0]["points"][1] == points)
            assert view(server.url)["scores"][1] == last.totals[1] + 7
            # The journal replays the correction.
            replayed = CardgameJournal(tmp_path / "replay")
            (tmp_path / "replay").mkdir()
            (tmp_path / "replay" / "cardgame.jsonl").write_bytes((tmp_path / "cardgame.jsonl").read_bytes())
            assert replayed.open().timeline.state == fixed
            replayed.close()

            # Bad corrections are 400 and change nothing; a wrong PIN is 403.
            for body in ({"round": 3, "seat": 0, "points": 1}, {"round": 1, "seat": 3, "points": 1},
                         {"round": 1, "seat": 0, "points": -1}, {"round": 1, "seat": 0, "points": "9"}):
                assert post(server.url, {"pin": PIN, "command": "correct", **body})[0] == 400
            assert post(server.url, {"pin": "1111", "command": "undo"})[0] == 403
            assert box.inbox.empty() and box.journal.seq == seq + 1

            # Undo from the page takes the correction back.
            assert post(server.url, {"pin": PIN, "command": "undo"})[0] == 202
            box.drain()
            assert records(tmp_path)[-1] == {"action": "undo"} and box.keeper.state == state
            assert wait_for(lambda: view(server.url)["rounds"][0]["points"][1] == first.points[1])

            # A new game from the page: the same setup, round 1, nothing scored.
            assert post(server.url, {"pin": PIN, "command": "new_game"})[0] == 202
            box.drain()
            assert records(tmp_path)[-1]["action"] == "new_game"
            assert box.keeper.state.round == 1 and not box.keeper.state.results
            assert box.keeper.state.setup == state.setup
            assert wait_for(lambda: view(server.url)["rounds"] == [] and view(server.url)["round"] == 1)
            assert post(server.url, {"pin": PIN, "command": "correct", "round": 1, "seat": 0,
                                     "points": 3}) == (409, {"ok": False, "message": "no round is scored yet"})
        finally:
            server.stop()
            box.close()


def test_the_card_game_box_takes_names_from_the_page(tmp_path):
    with simulated_pins():
        config = load_config().with_overrides(journal={"dir": str(tmp_path)},
                                              game={"mode": "cardgame", "players": 3})
        box = open_box(config)
        box.start()
        server = TableServer(box, "cardgame", port=0, bind="127.0.0.1", pin=PIN).start()
        try:
            for _ in range(6):
                box.take(Press("ok"))  # through the setup screens
            assert box.keeper.state is not None
            assert post(server.url, {"pin": PIN, "command": "names",
                                     "names": ["Ala", "Bolek", "Cyryl"]})[0] == 202
            box.drain()
            assert box.names == ("Ala", "Bolek", "Cyryl")
            assert json.loads((tmp_path / "names.json").read_text())["names"][2] == "Cyryl"
            assert wait_for(lambda: view(server.url)["names"] == ["Ala", "Bolek", "Cyryl"])
            # The OLED asks for farmer 1's numbers by name.
            box.refresh()
            named = render(box.keeper, "en", ("Ala", "Bolek", "Cyryl"))
            assert ImageChops.difference(box.hw.display.last_image.convert("L"),
                                         named.convert("L")).getbbox() is None
            assert ImageChops.difference(render(box.keeper).convert("L"),
                                         named.convert("L")).getbbox() is not None
        finally:
            server.stop()
            box.close()
