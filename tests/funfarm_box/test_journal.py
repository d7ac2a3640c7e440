"""A power cut never loses a caught card: the journal replays the game exactly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import farmbox.firmware.games.superfarmer.screens as sf
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.games.funfarm.screens import render
from farmbox.firmware.games.funfarm.session import FunFarmJournal, FunFarmSession
from farmbox.firmware.rules.funfarm import FunFarmRules

from .conftest import activating, open_table

ROOT = Path(__file__).resolve().parents[2]


def test_torn_tail_is_cut_and_the_caught_card_kept(tmp_path, pins):
    journal = tmp_path / "journal"
    t = open_table(journal, 3)
    rules = t.session.rules
    card = t.session.state.draw_pile[0]
    t.turn(rules.deck.cards[card].id)
    r = activating(rules, card)
    t.roll(r.black, r.white)
    t.push((1,))
    before = t.session.state
    assert before.piles[1] == (card,)
    # The power goes mid-write: half a record at the end, the process never closes anything.
    with open(journal / "funfarm.jsonl", "ab") as f:
        f.write(b'{"action":{"action":"end_round","seed":12},"seq":')
    t.hw.close()
    t2 = open_table(journal, 3)
    try:
        assert t2.session.state == before
        assert t2.session.state.piles[1] == (card,)
        assert render(t2.session).tobytes() == sf.journal_repaired(
            translator("en"), 1, t2.referee.journal.seq).tobytes()
        assert list(journal.glob("funfarm.jsonl.corrupt-*"))
        # The game goes on from there; the next record follows the last good one.
        seq = t2.referee.journal.seq
        t2.button("ok")  # dismiss the notice
        t2.turn(rules.deck.cards[t2.session.state.draw_pile[0]].id)
        assert t2.referee.journal.seq == seq + 2  # end_round + draw
    finally:
        t2.referee.close()
        t2.hw.close()


def test_every_record_is_written_before_the_state_changes():
    """A journal that cannot write stops the action: memory never runs ahead of the disk."""
    written = []

    def commit(action, state):
        if action["action"] == "buzz":
            raise OSError("disk full")
        written.append(action)

    s = FunFarmSession(2, FunFarmRules(), commit)
    card = s.state.draw_pile[0]
    s.card_turned(s.rules.deck.cards[card].id)
    r = activating(s.rules, card)
    s.dice_read(r, 0)
    state = s.state
    from farmbox.firmware.games.funfarm.session import Buzz

    try:
        s.buzzes([Buzz(5, 0)])
    except OSError:
        pass
    assert s.state == state and s.state.scores == (0, 0)
    assert [a["action"] for a in written] == ["new_game", "draw", "roll"]


def test_kill_9_mid_game_resumes_at_the_last_acknowledged_record(tmp_path):
    """A real process plays with bots on mock buzzers and is killed -9; every record it
    acknowledged (after fsync) is replayed to the same state."""
    journal = tmp_path / "journal"
    script = textwrap.dedent(f"""
        import random, sys
        from farmbox.hw.pins import simulated_pins
        from tests.funfarm_box.conftest import open_table
        from farmbox.firmware.games.funfarm.demo import _play
        with simulated_pins():
            t = open_table({str(journal)!r}, 4, seed=3)
            append = t.referee.journal.append
            def acked(action, state):
                seq = append(action, state)
                print("ack", seq, flush=True)
                return seq
            t.referee.journal.append = acked
            while True:
                _play(t.referee, t.hw, t.config, random.Random(9), None, True)
                t.referee.session.new_game()
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    last = 0
    try:
        for line in proc.stdout:
            if line.startswith("ack"):
                last = int(line.split()[1])
                if last >= 40:
                    break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert last >= 40
    j = FunFarmJournal(journal)
    replay = j.open()
    j.close()
    assert replay.seq >= last and replay.dropped <= 1
    lines = (journal / "funfarm.jsonl").read_text().splitlines()
    recorded = json.loads(lines[replay.seq - 1])["state"]
    assert recorded.pop("game") == replay.game  # every record repeats its game's rules
    assert replay.state.to_dict() == recorded
    replay.state.check(len(FunFarmRules().deck))


def test_a_journal_written_before_issue_10_replays_by_its_own_rules(tmp_path, pins):
    """A game begun before the options existed (no ``buzz_takes``/``escaped``/``deck_data``
    in its new_game record, states without ``escaped``) resumes exactly, with one buzz
    taking everything and escaped cards staying, as when it was written."""
    from farmbox.firmware.games.funfarm.session import apply, rules_from
    from farmbox.firmware.rules.funfarm import BuzzTakes, Escaped

    from .conftest import missing, two_animals

    old = {"action": "new_game", "players": 3, "tie": "reroll", "seed": 4, "deck": None,
           "farmer": 0}
    rules = rules_from(old)
    assert (rules.buzz_takes, rules.escaped) == (BuzzTakes.ALL, Escaped.STAY)
    journal = FunFarmJournal(tmp_path / "j")
    journal.open()
    state = apply(None, old, rules).state
    journal.append(old, state)
    a, b, r = two_animals(rules, state.draw_pile)
    miss = missing(rules, (a,))
    for action in ({"action": "draw", "card": rules.deck.cards[a].id, "source": "camera"},
                   {"action": "roll", "roll": str(miss), "source": "camera"},
                   {"action": "end_round", "seed": 1},
                   {"action": "draw", "card": rules.deck.cards[b].id, "source": "camera"},
                   {"action": "roll", "roll": str(r), "source": "camera"},
                   {"action": "buzz", "players": [2], "seed": 2}):
        state = apply(state, action, rules).state
        journal.append(action, state)
    journal.close()
    assert set(state.piles[2]) == {a, b} and "escaped" not in state.to_dict()
    t = open_table(tmp_path / "j", 3)
    try:
        assert t.session.state == state and t.referee.journal.seq == 7
        assert t.session.rules.buzz_takes is BuzzTakes.ALL and t.session.race_time == 0.0
    finally:
        t.referee.close()
        t.hw.close()
