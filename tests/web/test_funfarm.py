"""Fun Farm's table view with the PIN (issue 14, left open 4): the page awards the open race
to a player (the buzzer missed it), undoes the last action, starts a new game -- through the
referee's inbox, session and journal; the journal replays the undo exactly."""

from __future__ import annotations

import json
import urllib.request

from farmbox.firmware.games.funfarm.session import FunFarmJournal
from farmbox.firmware.rules.funfarm import Phase
from farmbox.firmware.web.server import TableServer
from farmbox.hw.pins import simulated_pins
from tests.box_service import wait_for
from tests.funfarm_box.conftest import activating, open_table

from .test_server import post

PIN = "2468"


def view(url: str) -> dict:
    with urllib.request.urlopen(url + "api/view", timeout=10) as r:
        return json.loads(r.read())


def journal(folder) -> list[dict]:
    return [json.loads(line)["action"] for line in (folder / "funfarm.jsonl").read_text().splitlines()]


def test_award_undo_and_new_game_from_the_page(tmp_path):
    with simulated_pins():
        award_undo_and_new_game(tmp_path)


def award_undo_and_new_game(tmp_path) -> None:
    t = open_table(tmp_path / "journal", 3)
    server = TableServer(t.referee, "funfarm", port=0, bind="127.0.0.1", pin=PIN).start()
    try:
        rules = t.session.rules
        card = t.session.state.draw_pile[0]
        t.turn(rules.deck.cards[card].id)
        # Nothing to award before the roll.
        assert post(server.url, {"pin": PIN, "command": "award", "player": 1}) == (
            409, {"ok": False, "message": "no open race to award"})
        roll = activating(rules, card)
        t.roll(roll.black, roll.white)
        assert t.session.state.phase is Phase.CATCH and card in t.session.state.uncaught
        assert wait_for(lambda: view(server.url)["race_open"])
        v = view(server.url)
        assert v["circle"] == [rules.deck.cards[card].id] and v["activated"] == v["circle"]
        before = t.session.state

        # Player 2's buzzer missed the race: the table gives it to them from the page.
        status, answer = post(server.url, {"pin": PIN, "command": "award", "player": 1})
        assert status == 202, answer
        t.settle()
        assert journal(t.journal_dir)[-1]["action"] == "buzz"
        assert journal(t.journal_dir)[-1]["players"] == [1]
        assert journal(t.journal_dir)[-1]["source"] == "web"
        assert card in t.session.state.piles[1]
        assert wait_for(lambda: view(server.url)["scores"][1] == 1)
        awarded = [{"players": [1], "cards": [rules.deck.cards[card].id], "reaction_ms": None,
                    "lead_ms": None}]
        assert wait_for(lambda: view(server.url)["takes"] == awarded)

        # It was player 3's after all: undo, then award again.
        assert post(server.url, {"pin": PIN, "command": "undo"})[0] == 202
        t.settle()
        assert journal(t.journal_dir)[-1] == {"action": "undo"}
        assert t.session.state == before and t.session.takes == []
        assert wait_for(lambda: view(server.url)["scores"] == [0, 0, 0] and view(server.url)["race_open"])
        assert post(server.url, {"pin": PIN, "command": "award", "player": 2})[0] == 202
        t.settle()
        assert card in t.session.state.piles[2]
        after = t.session.state

        # The journal replays the undo and the award: the same game, the same undo history.
        replay = FunFarmJournal(t.journal_dir / "copy")
        (t.journal_dir / "copy").mkdir()
        (t.journal_dir / "copy" / "funfarm.jsonl").write_bytes((t.journal_dir / "funfarm.jsonl").read_bytes())
        found = replay.open()
        assert found.state == after and found.history[-1] == before
        replay.close()

        # Bad awards are 400; a wrong PIN changes nothing.
        assert post(server.url, {"pin": PIN, "command": "award", "player": 3})[0] == 400
        assert post(server.url, {"pin": PIN, "command": "award"})[0] == 400
        seq = t.referee.journal.seq
        assert post(server.url, {"pin": "0000", "command": "new_game"})[0] == 403
        t.settle()
        assert t.referee.journal.seq == seq

        # A new game from the page.
        assert post(server.url, {"pin": PIN, "command": "new_game"})[0] == 202
        t.settle()
        assert journal(t.journal_dir)[-1]["action"] == "new_game"
        assert t.session.state.round == 0 and t.session.state.scores == (0, 0, 0)
        assert not t.session.can_undo
        assert post(server.url, {"pin": PIN, "command": "undo"}) == (
            409, {"ok": False, "message": "nothing to undo"})
    finally:
        server.stop()
        t.referee.close()
        t.hw.close()


def test_a_resumed_game_is_shown_before_its_next_action(tmp_path):
    with simulated_pins():
        t = open_table(tmp_path / "journal", 3)
        rules = t.session.rules
        t.turn(rules.deck.cards[t.session.state.draw_pile[0]].id)
        t.referee.close()
        t.hw.close()
        t = open_table(tmp_path / "journal", 3)  # the journal replayed; nothing new yet
        server = TableServer(t.referee, "funfarm", port=0, bind="127.0.0.1").start()
        try:
            v = view(server.url)
            assert not v.get("starting") and v["seq"] == t.referee.journal.seq == 2
            assert v["circle"] == [rules.deck.cards[c].id for c in t.session.state.circle]
        finally:
            server.stop()
            t.referee.close()
            t.hw.close()
