"""The scorekeeper on mock buttons: whole rounds equal the engine, undo by hold, replay."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from farmbox.firmware.box.observations import Press
from farmbox.firmware.games.cardgame.bot import next_move, setup_move
from farmbox.firmware.games.cardgame.demo import enter_round, play_round, tap
from farmbox.firmware.games.cardgame.screens import render
from farmbox.firmware.games.cardgame.session import CardgameJournal, Phase, Setup, walk
from farmbox.firmware.rules.cardgame import ScoringOptions, score_round

from .conftest import engine_game

ROOT = Path(__file__).resolve().parents[2]


def start(box, setup):
    keeper = box.keeper
    while keeper.phase is Phase.SETUP:
        tap(box, *setup_move(keeper, setup))
    assert keeper.state is not None and keeper.state.setup == setup
    return keeper


@pytest.mark.parametrize("setup,seed", [
    (Setup(3, advanced_water=True, predators="hard"), 4),
    (Setup(5, predators="token"), 11),
])
def test_whole_round_on_mock_buttons_equals_score_round(open_box, setup, seed):
    box = open_box(setup)
    keeper = start(box, setup)
    game, bots = engine_game(setup, seed)
    truth = play_round(game, bots)
    taps = enter_round(box, truth)
    assert taps > 40 and keeper.phase is Phase.SCOREBOARD
    # The same farms scored by the rules engine directly, with the same cards given up.
    seat = {n: i for i, n in enumerate(setup.names)}
    result = score_round(dict(zip(setup.names, truth.farms)),
                         ScoringOptions(setup.advanced_water, truth.predators),
                         lambda name, column: truth.lost[(seat[name], column.animal)])
    expected = tuple(truth.cabbage[i] + result.points[n] for i, n in enumerate(setup.names))
    assert keeper.state.scores == expected == tuple(game.scores)
    assert keeper.state.results[0].points == tuple(result.points[n] for n in setup.names)
    # The OLED shows what the session is now (the scoreboard).
    assert box.hw.display.last_image.tobytes() == render(keeper).tobytes()


def test_hold_undoes_the_last_number_and_the_last_farmer(open_box):
    setup = Setup(2)
    box = open_box(setup)
    keeper = start(box, setup)
    for name in ("next", "next", "ok", "next", "ok"):   # rabbit: 2 cards, 3 icons
        tap(box, "press", name)
    assert keeper.state.answers == (2, 3) and keeper.question.key == "F1.rabbit.dogs"
    tap(box, "hold", "ok")                              # undo: the icons are open again
    assert keeper.state.answers == (2,) and keeper.question.key == "F1.rabbit.icons"
    assert keeper.value == 3                            # ... showing the number undone
    tap(box, "press", "prev")
    tap(box, "press", "ok")                             # fixed: 2 icons
    assert keeper.state.answers == (2, 2)
    tap(box, "press", "back")                           # back also steps back one number
    assert keeper.state.answers == (2,)
    tap(box, "press", "ok")
    for _ in range(2 + 4 + 1):                          # dogs, water, 4 empty columns, cabbage
        tap(box, "press", "ok")
    assert keeper.question.kind == "confirm"
    tap(box, "press", "ok")                             # farmer 1 confirmed
    assert keeper.question.key == "F2.rabbit.cards"
    tap(box, "hold", "back")                            # undo the confirmation
    assert keeper.question.kind == "confirm" and keeper.question.seat == 0
    actions = [json.loads(line)["action"]["action"]
               for line in (box.journal.path).read_bytes().splitlines()]
    assert actions.count("undo") == 3 and actions.count("farmer") == 1
    assert actions[0] == "new_game"


def test_hold_with_nothing_to_undo_is_a_mistake(open_box):
    setup = Setup(2)
    box = open_box(setup)
    keeper = start(box, setup)
    assert keeper.state.answers == ()
    keeper.alerts.clear()
    box.take(Press("ok", "hold"))
    assert keeper.take_alerts() == ["mistake"] and keeper.state.answers == ()


def test_resumes_exactly_after_a_restart(open_box, journal_dir):
    setup = Setup(4, predators="token")
    box = open_box(setup)
    keeper = start(box, setup)
    game, bots = engine_game(setup, 2)
    truth = play_round(game, bots)
    for _ in range(30):
        tap(box, *next_move(keeper, truth))
    answers, question = keeper.state.answers, keeper.question
    open_box.stop(box)                                  # the box stops between two presses
    again = open_box(setup)
    assert again.keeper.state.answers == answers and again.keeper.question == question
    enter_round(again, truth)
    assert again.keeper.state.scores == tuple(game.scores)


KILLED_BOX = """
import sys
from farmbox.firmware.games.cardgame.demo import CardgameBox, enter_round, play_round, simulated_config, tap
from farmbox.firmware.games.cardgame.session import Phase, Setup
from farmbox.firmware.games.cardgame.bot import next_move, setup_move
from farmbox.hw import open_hardware
from farmbox.hw.pins import simulated_pins
from tests.cardgame_box.conftest import engine_game

setup = Setup(3, predators="hard")
journal = sys.argv[1]
with simulated_pins():
    hw = open_hardware(simulated_config(journal, 3))
    box = CardgameBox(hw, journal, setup=setup)
    keeper = box.start()
    commit = box._commit
    def ack(action, state):
        commit(action, state)
        print("ack", box.journal.seq, flush=True)
        if box.journal.seq >= 25:
            sys.stdin.readline()  # hold here, mid-entry, until the power cut
    keeper._commit = ack
    while keeper.phase is Phase.SETUP:
        tap(box, *setup_move(keeper, setup))
    game, bots = engine_game(setup, 9)
    enter_round(box, play_round(game, bots))
    print("done", flush=True)
"""


def test_journal_replay_after_kill_9(tmp_path, open_box, journal_dir):
    proc = subprocess.Popen([sys.executable, "-c", KILLED_BOX, str(journal_dir)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        for line in proc.stdout:
            if line.startswith("ack") and int(line.split()[1]) >= 25:
                break
        os.kill(proc.pid, signal.SIGKILL)              # a power cut, mid-entry
    finally:
        proc.wait(timeout=10)
    acked = int(line.split()[1])
    with open(journal_dir / "cardgame.jsonl", "ab") as f:
        f.write(b'{"action":{"action":"enter","key":"F')  # a record torn by the cut
    setup = Setup(3, predators="hard")
    box = open_box(setup)
    keeper = box.keeper
    resumed = box.journal.seq
    assert box.dropped == 1 and resumed >= acked        # nothing acknowledged is lost
    assert keeper.phase is Phase.ENTRY and len(keeper.state.answers) == box.journal.seq - 1
    game, bots = engine_game(setup, 9)
    truth = play_round(game, bots)
    # The entry resumes at the next question of the same round and finishes it.
    done = walk(keeper.state).asked
    assert all(truth.answer(q) == v for q, v in done)
    enter_round(box, truth)
    assert keeper.state.scores == tuple(game.scores)
    kept = [p.name for p in journal_dir.iterdir() if ".corrupt-" in p.name]
    assert kept == [f"cardgame.jsonl.corrupt-{resumed}"]   # the torn tail, kept aside


def test_a_bad_journal_record_is_cut_off_and_reported(open_box, journal_dir):
    setup = Setup(2)
    box = open_box(setup)
    start(box, setup)
    tap(box, "press", "next")
    tap(box, "press", "ok")
    open_box.stop(box)
    path = journal_dir / "cardgame.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"value":1', b'"value":7')  # CRC no longer matches
    path.write_bytes(b"".join(lines))
    again = open_box(setup)
    assert again.dropped == 1 and again.keeper.state.answers == ()
    replay = CardgameJournal(journal_dir).open()
    assert replay.dropped == 0 and replay.seq == 1
