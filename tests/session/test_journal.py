"""The journal: CRC'd JSON lines, replay through the rules engine, torn tails, rotation."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.box.journal import decode, encode
from farmbox.firmware.games.superfarmer.actions import Timeline, new_game_action
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.firmware.rules.superfarmer.game import new_state


def write_game(directory, rolls, rules=CLASSIC, players=2, undo_at=()):
    j = SuperFarmerJournal(directory)
    j.open()
    tl = Timeline(new_state(players, rules))
    action = new_game_action(players, rules)
    j.append(action, tl.state)
    for i, roll in enumerate(rolls):
        action = {"action": "undo"} if i in undo_at else {"action": "roll", "roll": str(roll)}
        new = tl.preview(action)
        j.append(action, new)
        tl.apply(action, new)
        if tl.state.over:
            break
    j.close()
    return tl


def test_records_round_trip_and_carry_a_crc():
    st_ = new_state(2, CLASSIC)
    line = encode(1, {"action": "undo"}, st_)
    rec = decode(line)
    assert rec["seq"] == 1 and rec["state"] == st_.to_dict()
    bad = line.replace(b'"undo"', b'"undp"')
    with pytest.raises(ValueError, match="CRC"):
        decode(bad)
    with pytest.raises(ValueError, match="torn"):
        decode(line[:-1])


def test_replay_resumes_exactly(tmp_path):
    tl = write_game(tmp_path, ALL_ROLLS[::7][:15], undo_at={5, 9})
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.dropped == 0 and replay.seq == 16
    assert replay.timeline.state == tl.state
    assert replay.timeline.history == tl.history  # undo works after a restart too


def test_a_last_record_torn_only_at_its_newline_is_kept(tmp_path):
    tl = write_game(tmp_path, ALL_ROLLS[::11][:8])
    path = tmp_path / "superfarmer.jsonl"
    data = path.read_bytes()
    path.write_bytes(data[:-1])  # all of it reached the disk but the end of line
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.dropped == 0 and replay.timeline.state == tl.state
    assert path.read_bytes() == data  # and the file is whole again for the next record


@pytest.mark.parametrize("cut", [2, 10, 57])
def test_torn_last_record_is_cut_and_reported(tmp_path, cut):
    tl = write_game(tmp_path, ALL_ROLLS[::11][:8])
    path = tmp_path / "superfarmer.jsonl"
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    path.write_bytes(data[:-cut])  # power cut in the middle of the last write
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.dropped == 1 and "last record" in replay.problem
    assert replay.seq == len(lines) - 1
    good = SuperFarmerJournal(tmp_path).open()  # the repaired file replays cleanly
    assert good.dropped == 0 and good.seq == replay.seq
    assert path.read_bytes() == b"".join(lines[:-1])
    assert (tmp_path / f"superfarmer.jsonl.corrupt-{replay.seq}").exists()
    assert tl.history[-1] == replay.timeline.state


def test_corrupt_middle_record_costs_only_that_record(tmp_path):
    tl = write_game(tmp_path, ALL_ROLLS[::13][:8])
    path = tmp_path / "superfarmer.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    lines[4] = lines[4].replace(b'"exchanged":false', b'"exchanged":true')  # a flipped bit
    assert b'"exchanged":true' in lines[4]
    path.write_bytes(b"".join(lines))
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.seq == len(lines) and replay.dropped == 1 and replay.skipped == [5]
    assert "CRC" in replay.problem and "skipped record 5 of" in replay.problem
    assert replay.timeline.state == tl.state  # resumed from the next good record's state


def test_record_that_disagrees_with_the_rules_is_refused(tmp_path):
    write_game(tmp_path, ALL_ROLLS[:3])
    path = tmp_path / "superfarmer.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    rec = decode(lines[2])
    rec["state"]["turns"] = [5, 5]
    body = json.dumps({k: rec[k] for k in ("seq", "action", "state")}, sort_keys=True,
                      separators=(",", ":"))
    import zlib
    lines[2] = (body[:-1] + f',"crc":"{zlib.crc32(body.encode()):08x}"}}\n').encode()
    path.write_bytes(b"".join(lines))
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.skipped == [3] and "differs" in replay.problem  # refused, not believed
    assert replay.seq == len(lines)  # the next good record's own state is taken up


def test_new_game_rotates(tmp_path):
    write_game(tmp_path, ALL_ROLLS[:4])
    j = SuperFarmerJournal(tmp_path)
    j.open()
    assert j.seq == 5
    j.append(new_game_action(3, COMPACT), new_state(3, COMPACT))
    j.close()
    archived = list(tmp_path.glob("superfarmer-*.jsonl"))
    assert len(archived) == 1 and len(archived[0].read_bytes().splitlines()) == 5
    replay = SuperFarmerJournal(tmp_path).open()
    assert replay.seq == 1 and replay.players == 3 and replay.rules.name == "compact"


def test_append_fsyncs_file_and_directory(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")),
                                                 real(fd)))
    j = SuperFarmerJournal(tmp_path / "new")
    j.open()
    assert str(tmp_path / "new") in synced  # the new file's directory entry
    synced.clear()
    j.append(new_game_action(2, CLASSIC), new_state(2, CLASSIC))
    assert synced == [str(tmp_path / "new" / "superfarmer.jsonl")]
    j.close()


def test_unusable_journal_dir_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="journal dir"):
        SuperFarmerJournal(blocker / "sub").open()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 143), min_size=1, max_size=25), st.data())
def test_any_truncation_resumes_at_a_record_boundary(tmp_path_factory, rolls, data):
    d = tmp_path_factory.mktemp("j")
    write_game(d, [ALL_ROLLS[i] for i in rolls])
    path = d / "superfarmer.jsonl"
    full = path.read_bytes()
    cut = data.draw(st.integers(0, len(full)))
    path.write_bytes(full[:cut])
    replay = SuperFarmerJournal(d).open()
    boundaries = [0] + [i + 1 for i, b in enumerate(full) if b == ord("\n")]
    kept = max(b for b in boundaries if b <= cut + 1)  # a record short of its newline is whole
    assert path.read_bytes() == full[:kept]
    assert replay.seq == full[:kept].count(b"\n")
