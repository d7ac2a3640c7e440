"""Power cut: kill -9 the service at random moments of a scripted game, restart, resume.

The service runs as a subprocess played by the autoplay bot (``--ack`` prints ``ack SEQ``
once a record is fsync'ed). After every kill the journal must replay cleanly (at most a
torn last record cut away), hold every acknowledged record, and the restarted service must
resume at exactly the journal's state. The game finished across all the kills must equal
the same game played by the rules engine alone: no lost and no doubled turn.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from farmbox.firmware.games.superfarmer.bot import Bot, play_alone
from farmbox.firmware.games.superfarmer.box import state_digest
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.rules.superfarmer import CLASSIC

from .test_notify import ROOT, write_config

SEED, UNDO_EVERY, KILLS = 11, 13, 20


def start(config: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "farmbox.firmware.games.superfarmer.box", "--config", str(config), "--autoplay",
         str(SEED), "--undo-every", str(UNDO_EVERY), "--ack"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)


def test_kill_9_at_random_moments_loses_and_doubles_nothing(tmp_path):
    config = write_config(tmp_path, "[game]\nplayers = 4\n")
    journal_dir = tmp_path / "journal"
    rng = random.Random(2024)
    acked = 0
    resumed_at = []
    replay = None  # the journal as the previous kill left it
    for kill in range(KILLS):
        proc = start(config)
        try:
            ready = proc.stdout.readline().split()
            if ready[:2] == ["ack", "1"] and kill == 0:  # a fresh journal: the new-game record
                acked = 1
                ready = proc.stdout.readline().split()
            assert ready and ready[0] == "ready", ready
            resumed_at.append(int(ready[1]))
            before = SuperFarmerJournal(journal_dir)
            # The restarted service resumed exactly where the journal ends.
            assert int(ready[1]) >= acked
            if kill:
                assert replay is not None
                assert (int(ready[1]), ready[2]) == (replay.seq, state_digest(replay.timeline.state))
            wanted = rng.randint(1, 4)
            got = 0
            while got < wanted:
                line = proc.stdout.readline()
                if not line or line.startswith("done"):
                    break
                assert line.startswith("ack ")
                acked = int(line.split()[1])
                got += 1
            time.sleep(rng.random() * 0.004)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stdout.close()
        replay = before.open()
        before.close()
        assert replay.dropped <= 1, replay.problem
        assert replay.seq >= acked, f"kill {kill}: acknowledged record {acked} lost"
        acked = replay.seq
    assert len(set(resumed_at)) > KILLS // 3  # the kills landed at many different records
    proc = start(config)  # finish the game without interruption
    out, _ = proc.communicate(timeout=120)
    assert out.strip().splitlines()[-1].startswith("done")
    final = SuperFarmerJournal(journal_dir).open()
    expected = play_alone(Bot(SEED, undo_every=UNDO_EVERY), 4, CLASSIC)
    assert final.timeline.state.over and final.timeline.state == expected
