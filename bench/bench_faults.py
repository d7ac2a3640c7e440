"""Figures for a kiosk that never gives up (issue 11): kills survived, records lost,
records skipped on corruption, transient faults survived, bad inputs mishandled, RSS curve.

    .venv/bin/python bench/bench_faults.py [--kills 60] [--flips 200] [--records 200000]
    .venv/bin/python bench/bench_faults.py --quick      # small numbers, about a minute

Every figure comes from the real service process (``python -m
farmbox.firmware.games.superfarmer.box``) or the real ``farmbox`` command; transient faults
are injected below it by ``tests/faults/launch.py`` (the I2C bus, the OS calls on the
journal file). Exit status 1 if a goal is missed: records lost 0, at most 1 record skipped
per corrupt record, 0 bad inputs mishandled, RSS flat within 2 MB.
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_service import rss_curve  # noqa: E402

from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal  # noqa: E402

BOX = "farmbox.firmware.games.superfarmer.box"
NAME = "superfarmer.jsonl"


def write_config(folder: Path, driver: str = "dummy", extra: str = "") -> Path:
    path = folder / "farmbox.toml"
    path.write_text(f'[hardware]\nsimulated = true\n[display]\ndriver = "{driver}"\n'
                    f'[camera]\nsource = "none"\n[journal]\ndir = "{folder / "journal"}"\n{extra}')
    return path


def launch(plan: dict[str, object], module: str, args: list[str]) -> list[str]:
    """The command that runs ``module`` with ``args`` and the faults of ``plan``."""
    return [sys.executable, "-m", "tests.faults.launch", json.dumps(plan), "--", module, *args]


def env() -> dict[str, str]:
    e = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    e.pop("NOTIFY_SOCKET", None)
    return e


def replay(folder: Path) -> tuple[int, int]:
    """(last record, records dropped) of the journal in ``folder``."""
    journal = SuperFarmerJournal(folder)
    found = journal.open()
    journal.close()
    return found.seq, found.dropped


# -- kills ---------------------------------------------------------------------------
def bench_kills(kills: int) -> int:
    """SIGKILL the autoplayed service at random moments; returns records lost."""
    rng = random.Random(11)
    lost = torn = 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = write_config(tmp)
        acked = 0
        for _ in range(kills):
            proc = subprocess.Popen(
                [sys.executable, "-m", BOX, "--config", str(config), "--autoplay", "5",
                 "--undo-every", "13", "--ack"], cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True)
            assert proc.stdout is not None
            for _ in range(rng.randint(1, 8)):
                line = proc.stdout.readline()
                if line.startswith("ack "):
                    acked = int(line.split()[1])
                elif not line or line.startswith("done"):
                    break
            time.sleep(rng.random() * 0.004)  # a random moment of the next write
            proc.kill()
            proc.wait()
            proc.stdout.close()
            seq, dropped = replay(tmp / "journal")
            torn += dropped
            lost += max(0, acked - seq)
            acked = min(acked, seq)
            game = tmp / "journal" / NAME
            if SuperFarmerJournal(tmp / "journal").open().timeline.state.over:  # type: ignore[union-attr]
                game.unlink()
                acked = 0
    print(f"kills survived: {kills}/{kills} SIGKILLs at random moments; records lost: {lost} "
          f"(goal 0); torn tails repaired: {torn}")
    return lost


# -- transient faults -----------------------------------------------------------------
FAULTS: list[tuple[str, str, dict[str, object]]] = [
    ("journal ENOSPC (disk fills, then frees)", "dummy",
     {"journal": {"full_after": 9, "free_after": 6, "errno": errno.ENOSPC}}),
    ("journal EIO on write", "dummy", {"journal": {"write": [3, 11, 12], "errno": errno.EIO}}),
    ("journal EIO on fsync", "dummy", {"journal": {"fsync": [5, 6, 17], "errno": errno.EIO}}),
    ("I2C errno 121 (loose cable)", "ssd1306", {"i2c": {"fail": [20, 21, 22], "errno": 121}}),
    ("I2C EIO, OLED gone for good", "ssd1306", {"i2c": {"down": True, "errno": errno.EIO}}),
]


def bench_transient() -> int:
    """Each fault of :data:`FAULTS` in one autoplayed game; returns the games that failed."""
    failed = 0
    for label, driver, plan in FAULTS:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            config = write_config(tmp, driver)
            done = subprocess.run(launch(plan, BOX, ["--config", str(config), "--autoplay", "3",
                                                      "--ack", "--turns", "40"]),
                                  cwd=ROOT, env=env(), capture_output=True, text=True)
            acks = [int(x.split()[1]) for x in done.stdout.splitlines() if x.startswith("ack ")]
            seq, dropped = replay(tmp / "journal")
            ok = (done.returncode == 0 and acks == list(range(1, len(acks) + 1))
                  and seq == acks[-1] and dropped == 0)
            failed += not ok
            print(f"  {label}: exit {done.returncode}, {len(acks)} records acknowledged once each, "
                  f"journal ends at {seq}, {'ok' if ok else 'FAILED'}")
    print(f"transient faults survived: {len(FAULTS) - failed}/{len(FAULTS)}")
    return failed


# -- corruption -----------------------------------------------------------------------
def bench_flips(flips: int) -> tuple[int, int]:
    """Flip one random byte of a 60-record journal ``flips`` times; returns (records skipped
    in all, the most skipped for one flip)."""
    rng = random.Random(5)
    total = worst = 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = write_config(tmp)
        subprocess.run([sys.executable, "-m", BOX, "--config", str(config), "--autoplay", "4",
                        "--ack", "--turns", "60"], cwd=ROOT, env=env(), check=True,
                       capture_output=True)
        pristine = (tmp / "journal" / NAME).read_bytes()
        records = pristine.count(b"\n")
        for _ in range(flips):
            folder = tmp / "flip"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            data = bytearray(pristine)
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
            (folder / NAME).write_bytes(bytes(data))
            journal = SuperFarmerJournal(folder)
            found = journal.open()
            journal.close()
            skipped = len(found.skipped) + max(0, records - 1 - found.seq - len(found.skipped))
            total += skipped
            worst = max(worst, skipped)
    print(f"records skipped on corruption: {total} over {flips} single-byte flips of a "
          f"{records}-record journal, at most {worst} per corrupt record (goal <= 1)")
    return total, worst


def bench_funfarm_flips(flips: int) -> int:
    """The same for a Fun Farm journal (each record repeats its game's rules, so a flip in
    the new-game record costs that record only); returns the most skipped for one flip."""
    from farmbox.firmware.games.funfarm.session import FunFarmJournal, FunFarmSession
    from farmbox.firmware.rules.funfarm import ColourRoll, FunFarmRules

    rng = random.Random(6)
    worst = total = 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        journal = FunFarmJournal(tmp / "game")
        journal.open()
        session = FunFarmSession(4, FunFarmRules(), journal.append, rng=random.Random(6))
        while journal.seq < 60 and session.state.draw_pile:
            card = session.rules.deck.cards[session.state.draw_pile[0]]
            session.card_turned(card.id)
            session.dice_read(ColourRoll(card.black, card.white), 0)
        journal.close()
        pristine = (tmp / "game" / "funfarm.jsonl").read_bytes()
        records = pristine.count(b"\n")
        for _ in range(flips):
            folder = tmp / "flip"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            data = bytearray(pristine)
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            (folder / "funfarm.jsonl").write_bytes(bytes(data))
            flipped = FunFarmJournal(folder)
            found = flipped.open()
            flipped.close()
            skipped = len(found.skipped) + max(0, records - 1 - found.seq - len(found.skipped))
            total += skipped
            worst = max(worst, skipped)
    print(f"Fun Farm: {total} records skipped over {flips} single-byte flips of a {records}-record "
          f"journal, at most {worst} per corrupt record (goal <= 1)")
    return worst


def bench_service_flip() -> bool:
    """The restarted service after a flip in record 30 and in record 1: resumes at the end."""
    ok = True
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = write_config(tmp)
        subprocess.run([sys.executable, "-m", BOX, "--config", str(config), "--autoplay", "4",
                        "--ack", "--turns", "59"], cwd=ROOT, env=env(), check=True,
                       capture_output=True)
        path = tmp / "journal" / NAME
        pristine = path.read_bytes()
        last = pristine.count(b"\n")
        for record in (30, 1):
            lines = pristine.splitlines(keepends=True)
            line = bytearray(lines[record - 1])
            line[len(line) // 2] ^= 0x20
            lines[record - 1] = bytes(line)
            path.write_bytes(b"".join(lines))
            done = subprocess.run([sys.executable, "-m", BOX, "--config", str(config), "--ack",
                                   "--autoplay", "1", "--turns", "1"], cwd=ROOT, env=env(),
                                  capture_output=True, text=True)
            ready = next((x for x in done.stdout.splitlines() if x.startswith("ready ")), "")
            said = [x for x in done.stderr.splitlines() if "skipped" in x]
            good = ready.split()[1:2] == [str(last)] and len(said) == 1
            ok &= good
            print(f"  flip in record {record} of {last}: service resumed at record "
                  f"{ready.split()[1] if ready else '?'}; said: {said[0] if said else '-'}")
            for p in path.parent.glob(f"{NAME}.corrupt-*"):
                p.unlink()
    return ok


# -- bad input ------------------------------------------------------------------------
BAD_CONFIGS = [
    "[game]\nplayers = 9\n", "[game]\nplayers = \"two\"\n", "[game]\nvariant = \"huge\"\n",
    "[game]\nmode = \"chess\"\n", "[buzzer]\npin = 99\n", "[lights]\nfox = 18\n",
    "[display]\ndriver = \"crt\"\n", "[display]\nrotate = 7\n", "[ui]\nlanguage = \"xx\"\n",
    "[nonsense]\na = 1\n", "[game]\nplayers = 2\nplayers = 3\n", "not toml at all [[[",
    "[buttons]\ndebounce_ms = -5\n", "[buttons]\nhold_time = \"long\"\n", "[camera]\nsource = \"tv\"\n",
"[game]\nextra_key = 1\n", "[buttons]\nok = 5\n",
]
BAD_ARGS = [
    ["run", "--bogus"], ["odds"], ["odds", "rabbit=x"], ["odds", "unicorn=1"], ["odds", "rabbit=-1"],
    ["run", "--config", "/nonexistent/farmbox.toml"], ["demo", "chess"], ["demo", "--players", "99"],
    ["nosuchcommand"],
]


def bench_bad_input() -> tuple[int, int]:
    """Bad configs, arguments, herds, files and journal targets given to ``farmbox``;
    returns (tried, mishandled: not exactly one stderr line with exit 2, or a change)."""
    tried = mishandled = 0
    farmbox = [str(Path(sys.executable).with_name("farmbox"))]  # the console script
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cases: list[list[str]] = []
        for i, text in enumerate(BAD_CONFIGS):
            folder = tmp / f"c{i}"
            folder.mkdir()
            config = folder / "farmbox.toml"
            config.write_text(f'[hardware]\nsimulated = true\n[camera]\nsource = "none"\n'
                              f'[journal]\ndir = "{folder / "journal"}"\n{text}')
            cases.append(["run", "--config", str(config)])
        for make in ("symlink", "directory", "fifo"):
            folder = tmp / make
            (folder / "journal").mkdir(parents=True)
            target = folder / "journal" / NAME
            victim = folder / "victim"
            victim.write_text("keep")
            if make == "symlink":
                target.symlink_to(victim)
            elif make == "directory":
                target.mkdir()
            else:
                os.mkfifo(target)
            cases.append(["run", "--config", str(write_config(folder))])
        cases += BAD_ARGS
        for args in cases:
            tried += 1
            done = subprocess.run([*farmbox, *args], cwd=ROOT, env=env(), capture_output=True,
                                  text=True, timeout=60)
            lines = done.stderr.splitlines()
            if done.returncode != 2 or len(lines) != 1:
                mishandled += 1
                print(f"  MISHANDLED farmbox {' '.join(args)}: exit {done.returncode}, {lines[-3:]}")
        for make in ("symlink",):
            victim = tmp / make / "victim"
            if victim.read_text() != "keep":
                mishandled += 1
    print(f"bad inputs tried: {tried}; mishandled: {mishandled} (goal 0: one line, exit 2, "
          "nothing changed)")
    return tried, mishandled


# -- RSS --------------------------------------------------------------------------------
def bench_rss(records: int) -> float:
    """The RSS curve of the service; returns the largest distance from its median (MB)."""
    curve = rss_curve(records)
    print("RSS curve: " + ", ".join(f"{n:,} records {mb:.1f} MB" for n, mb in curve))
    middle = statistics.median(mb for _, mb in curve)
    off = max(abs(mb - middle) for _, mb in curve)
    print(f"RSS: at most {off:.1f} MB from the median {middle:.1f} MB (goal: flat, +-2 MB)")
    return off


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--flips", type=int, default=200)
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--quick", action="store_true", help="10 kills, 40 flips, 50k records")
    parser.add_argument("--no-rss", action="store_true", help="skip the RSS curve (minutes)")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the journals replayed here say what they repair: counted
    if args.quick:
        args.kills, args.flips, args.records = 10, 40, 50_000
    lost = bench_kills(args.kills)
    failed = bench_transient()
    _, worst = bench_flips(args.flips)
    worst = max(worst, bench_funfarm_flips(args.flips))
    service_ok = bench_service_flip()
    _, mishandled = bench_bad_input()
    off = 0.0 if args.no_rss else bench_rss(args.records)
    missed = lost or failed or worst > 1 or not service_ok or mishandled or off > 2.0
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
