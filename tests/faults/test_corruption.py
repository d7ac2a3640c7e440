"""Point 2: one flipped byte costs at most that record, in any record of the file; the
restarted service process resumes from the next good record and says what it skipped in one
line; kept copies of bad bytes are never overwritten."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from farmbox.firmware.games.cardgame.session import CardgameJournal
from farmbox.firmware.games.superfarmer.actions import Timeline, new_game_action
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.rules.superfarmer import CLASSIC
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.firmware.rules.superfarmer.game import GameState, new_state
from tests.faults.conftest import BOX, run, write_config

NAME = "superfarmer.jsonl"


def write_game(directory: Path, records: int) -> list[GameState]:
    """A Super Farmer game of ``records`` records (new game, rolls, an undo now and then);
    the state after each record (index = seq, 0 unused)."""
    journal = SuperFarmerJournal(directory)
    journal.open()
    timeline = Timeline(new_state(2, CLASSIC))
    journal.append(new_game_action(2, CLASSIC), timeline.state)
    states = [timeline.state, timeline.state]
    i = 0
    while journal.seq < records:
        action = ({"action": "undo"} if i % 9 == 8 and timeline.history
                  else {"action": "roll", "roll": str(ALL_ROLLS[(i * 37) % len(ALL_ROLLS)])})
        i += 1
        new = timeline.preview(action)
        if new.over:
            continue
        journal.append(action, new)
        timeline.apply(action, new)
        states.append(new)
    journal.close()
    return states


def flip(path: Path, record: int, where: float = 0.5, byte: int | None = None) -> None:
    """Flip one byte of line ``record`` (1-based) at ``where`` of its length (its newline if
    ``where`` is 1.0); ``byte``: the new value, else the old one XOR 0x20."""
    lines = path.read_bytes().splitlines(keepends=True)
    line = bytearray(lines[record - 1])
    at = min(len(line) - 1, int(len(line) * where))
    line[at] = byte if byte is not None else line[at] ^ 0x20
    lines[record - 1] = bytes(line)
    path.write_bytes(b"".join(lines))


@pytest.mark.parametrize("where", [0.05, 0.5, 0.97])
def test_a_flip_in_any_record_costs_at_most_that_record(tmp_path, where):
    records = 24
    for record in range(1, records + 1):
        folder = tmp_path / f"{record}"
        states = write_game(folder, records)
        flip(folder / NAME, record, where)
        replay = SuperFarmerJournal(folder).open()
        assert replay.dropped <= 1 and replay.skipped in ([], [record]), (record, replay.problem)
        # resumed at the end (at the record before it when the last one was hit)
        assert replay.seq == (records - 1 if replay.skipped == [records] else records)
        assert replay.timeline is not None and replay.timeline.state == states[replay.seq]
        again = SuperFarmerJournal(folder).open()  # the repaired file replays quietly
        assert again.dropped == 0 and again.seq == replay.seq
        assert again.timeline is not None and again.timeline.state == states[replay.seq]


def test_a_flipped_newline_splits_back_into_its_two_records(tmp_path):
    states = write_game(tmp_path, 12)
    flip(tmp_path / NAME, 5, 1.0, ord("x"))  # lines 5 and 6 run together
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.dropped == 0 and replay.seq == 12
    assert replay.timeline is not None and replay.timeline.state == states[12]


def test_two_repairs_at_one_record_keep_both_copies(tmp_path):
    write_game(tmp_path, 8)
    path = tmp_path / NAME
    kept = []
    for attempt in range(3):
        data = path.read_bytes()
        path.write_bytes(data[:-7 - attempt])  # the power went mid-write of record 8 (again)
        replay = SuperFarmerJournal(tmp_path).open()
        assert replay.seq == 7 and replay.skipped == [8]
        kept = sorted(p.name for p in tmp_path.glob(f"{NAME}.corrupt-*"))
        assert len(kept) == attempt + 1
        journal = SuperFarmerJournal(tmp_path)
        again = journal.open()
        action = {"action": "roll", "roll": str(ALL_ROLLS[attempt])}
        journal.append(action, again.timeline.preview(action))
        journal.close()
    contents = {(tmp_path / name).read_bytes() for name in kept}
    assert len(contents) == 3 and kept[0] == f"{NAME}.corrupt-7"


def test_the_card_game_resumes_past_a_bad_record_too(tmp_path):
    from farmbox.firmware.games.cardgame.session import Setup, walk
    from farmbox.firmware.games.cardgame.session import Timeline as Table
    from farmbox.firmware.games.cardgame.session import new_game_action as card_game

    journal = CardgameJournal(tmp_path)
    journal.open()
    table = Table()
    states = []
    for n in range(6):
        if n == 0:
            action = card_game(Setup(players=2))
        else:
            q = walk(table.state).question
            assert q is not None and q.kind != "confirm"
            action = {"action": "enter", "key": q.key, "value": q.low}
        new = table.preview(action)
        journal.append(action, new)
        table.apply(action, new)
        states.append(new)
    journal.close()
    for record in (1, 4):
        path = tmp_path / "cardgame.jsonl"
        good = path.read_bytes()
        flip(path, record)
        replay = CardgameJournal(tmp_path).open()
        assert replay.skipped == [record] and replay.seq == 6 and replay.table.state == states[-1]
        path.write_bytes(good)


def test_the_restarted_service_skips_one_record_and_says_so_in_one_line(tmp_path):
    config = write_config(tmp_path)
    played = run(BOX, ["--config", str(config), "--autoplay", "5", "--ack", "--turns", "59"])
    assert played.code == 0 and played.acks[-1] >= 40, played.err[-3:]
    last = played.acks[-1]
    journal = tmp_path / "journal"
    pristine = tmp_path / "pristine"
    shutil.copytree(journal, pristine)
    clean = run(BOX, ["--config", str(config), "--ack", "--autoplay", "1", "--turns", "1"])
    where = clean.ready()
    assert where[0] == last
    for record in (30, 1):  # the middle; the new-game record itself
        shutil.rmtree(journal)
        shutil.copytree(pristine, journal)
        flip(journal / NAME, record)
        again = run(BOX, ["--config", str(config), "--ack", "--autoplay", "1", "--turns", "1"])
        assert again.code == 0, again.err[-3:]
        assert again.ready() == where  # resumed at the last record with the very same game
        said = [line for line in again.err if "skipped" in line]
        assert len(said) == 1 and f"skipped record {record} of {last}" in said[0], again.err
        assert len(list(journal.glob(f"{NAME}.corrupt-*"))) == 1


def test_fun_farm_resumes_past_a_bad_record_too(tmp_path):
    import random

    from farmbox.firmware.games.funfarm.session import FunFarmJournal, FunFarmSession
    from farmbox.firmware.rules.funfarm import ColourRoll, FunFarmRules

    journal = FunFarmJournal(tmp_path)
    journal.open()
    session = FunFarmSession(3, FunFarmRules(), journal.append, rng=random.Random(5))
    rules = session.rules
    while journal.seq < 12:
        top = session.state.draw_pile[0]
        session.card_turned(rules.deck.cards[top].id)
        card = rules.deck.cards[top]
        session.dice_read(ColourRoll(card.black, card.white), 0)
    journal.close()
    seq, final = journal.seq, session.state
    path = tmp_path / "funfarm.jsonl"
    good = path.read_bytes()
    for record in range(1, seq):  # the new-game record with the deck and options too
        flip(path, record)
        replay = FunFarmJournal(tmp_path).open()
        assert replay.skipped == [record] and replay.seq == seq, (record, replay.problem)
        assert replay.state is not None and replay.state.to_dict() == final.to_dict()
        assert replay.rules == rules and replay.players == 3, record
        again = FunFarmJournal(tmp_path).open()  # the repaired file replays quietly
        assert again.dropped == 0 and again.seq == seq and again.state == replay.state
        path.write_bytes(good)
        for kept in tmp_path.glob("funfarm.jsonl.corrupt-*"):
            kept.unlink()


def test_the_fun_farm_service_resumes_when_its_first_record_is_bad(tmp_path):
    """``farmbox run`` in Fun Farm mode, its journal's new-game record (the deck and the
    options) unreadable: the service takes the game up from the later records, under their
    rules, where the intact journal stood."""
    import random

    from farmbox.firmware.box.config import load_config
    from farmbox.firmware.games.funfarm.box import serve
    from farmbox.firmware.games.funfarm.session import FunFarmJournal, FunFarmSession
    from farmbox.firmware.rules.funfarm import ColourRoll, FunFarmRules, TieRule
    from farmbox.hw import open_hardware
    from farmbox.hw.pins import simulated_pins
    from tests.box_service import Serving

    journal = FunFarmJournal(tmp_path / "journal")
    journal.open()
    session = FunFarmSession(3, FunFarmRules(tie=TieRule.DEAL), journal.append,
                             rng=random.Random(8))
    while journal.seq < 10:
        card = session.rules.deck.cards[session.state.draw_pile[0]]
        session.card_turned(card.id)
        session.dice_read(ColourRoll(card.black, card.white), 0)
    journal.close()
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tmp_path / "journal")}, game={"mode": "funfarm", "players": 3},
        buttons={"debounce_ms": 1, "hold_time": 0.2})
    path = tmp_path / "journal" / "funfarm.jsonl"
    good = path.read_bytes()
    told = []
    with simulated_pins():
        hw = open_hardware(config)
        try:
            for bad in (None, 1):
                path.write_bytes(good)
                if bad is not None:
                    flip(path, bad)
                service = Serving(serve, config, hw)
                assert service.stop() == 0
                told.append([m for m in service.notifier.sent if m.startswith("STATUS=round")][0])
        finally:
            hw.close()
    intact, repaired = told
    assert not intact.startswith("STATUS=round 0,") and repaired == intact, told
    replay = FunFarmJournal(tmp_path / "journal").open()  # the service kept the game
    assert replay.rules is not None and replay.rules.tie is TieRule.DEAL
    assert replay.state == session.state and replay.dropped == 0
