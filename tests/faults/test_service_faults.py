"""Point 1 with the real service process: a transient I/O error (I2C errno 121, a full disk,
EIO on fsync) never stops the box, and nothing of the game is lost or doubled."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from tests.faults.conftest import BOX, CLI, Run, run, serving, write_config

TURNS = "40"


def autoplay(config: Path, plan: dict[str, object] | None = None, seed: int = 3) -> Run:
    return run(BOX, ["--config", str(config), "--autoplay", str(seed), "--ack", "--turns", TURNS],
               plan)


def restarted(config: Path) -> tuple[int, str]:
    """Where a restarted service resumes: (journal record, digest of the game state)."""
    again = run(BOX, ["--config", str(config), "--ack", "--autoplay", "1", "--turns", "1"],
                {"i2c": {"fail": []}})  # an OLED that answers, for an ssd1306 config
    assert again.code == 0, again.err
    return again.ready()


def assert_every_ack_once(result: Run) -> None:
    acks = result.acks
    assert acks == list(range(1, len(acks) + 1)), acks  # each record acknowledged once, in order
    assert result.out[-1] == f"done {acks[-1]}"


@pytest.fixture
def clean(tmp_path: Path) -> tuple[int, str]:
    """The same game without faults: where it stands after the same records."""
    folder = tmp_path / "clean"
    folder.mkdir()
    config = write_config(folder)
    result = autoplay(config)
    assert result.code == 0, result.err
    return restarted(config)


@pytest.mark.parametrize("plan", [
    {"full_after": 9, "free_after": 5, "errno": errno.ENOSPC},   # the disk fills, then frees
    {"write": [4, 13, 14], "errno": errno.EIO},
    {"fsync": [6, 7, 20], "errno": errno.EIO},                   # the line was written, not synced
    {"write": [1, 2], "errno": errno.ENOSPC},                    # full at start: the new game waits
], ids=["enospc", "eio-write", "eio-fsync", "enospc-at-start"])
def test_journal_write_errors_are_retried_nothing_lost_or_doubled(tmp_path, clean, plan):
    config = write_config(tmp_path)
    result = autoplay(config, {"journal": plan})
    assert result.code == 0, result.err[-5:]
    assert any("not written" in line for line in result.err), "the fault was not hit"
    assert any("journal writes again" in line for line in result.err)
    assert_every_ack_once(result)
    replay = SuperFarmerJournal(tmp_path / "journal").open()
    assert replay.dropped == 0 and replay.seq == result.acks[-1]  # no torn or doubled line
    assert restarted(config) == clean  # the very game a fault-free box played


def test_i2c_errors_never_stop_the_box(tmp_path, clean):
    config = write_config(tmp_path, driver="ssd1306")
    # luma's real ssd1306 + i2c code over a bus whose transfers 30-32 fail with errno 121 (a brown-out)
    result = autoplay(config, {"i2c": {"fail": [30, 31, 32], "errno": errno.EREMOTEIO}})
    assert result.code == 0, result.err[-5:]
    assert any("stopped answering" in line for line in result.err)
    assert_every_ack_once(result)  # the game went on while the OLED was re-opened
    assert restarted(tmp_path / "farmbox.toml") == clean


def test_farmbox_run_reopens_the_oled_and_keeps_running(tmp_path):
    """``farmbox run``: the OLED fails at its 3rd-5th transfers, is re-opened with backoff
    while the service runs, and SIGTERM still ends it with status 0."""
    config = write_config(tmp_path, driver="ssd1306")
    plan = {"i2c": {"fail": [3, 4, 5], "errno": errno.EREMOTEIO}}
    with serving(CLI, ["run", "--config", str(config)], plan) as service:
        seen = service.wait_for_line("answers again")
        assert seen is not None, service.err
        assert any("stopped answering" in line or "does not answer" in line
                   for line in service.err)
    assert service.code == 0, service.err[-5:]


def test_an_oled_that_never_answers_still_lets_the_game_finish(tmp_path, clean):
    config = write_config(tmp_path, driver="ssd1306")
    result = autoplay(config, {"i2c": {"down": True, "errno": errno.EIO}})
    assert result.code == 0, result.err[-5:]
    assert any("does not answer" in line for line in result.err)
    assert_every_ack_once(result)
    assert restarted(config) == clean
