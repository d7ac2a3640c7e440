"""Figures for the box's service: start to READY, RSS after 10,000 turns, press-to-screen latency,
and kill -9 power cuts.

    .venv/bin/python bench/bench_service.py [--turns 10000] [--starts 5] [--presses 300] [--kills 50]
    .venv/bin/python bench/bench_service.py --ready-only [--starts 9]   # start-up figures only
    .venv/bin/python bench/bench_service.py --rss-only [--records 200000]  # the RSS curve only
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from farmbox.firmware.box.config import load_config  # noqa: E402
from farmbox.firmware.games.superfarmer.advice import prepare  # noqa: E402
from farmbox.firmware.games.superfarmer.bot import Bot  # noqa: E402
from farmbox.firmware.games.superfarmer.box import Press, Service  # noqa: E402
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal  # noqa: E402
from farmbox.firmware.games.superfarmer.session import Phase  # noqa: E402
from farmbox.firmware.rules.superfarmer import CLASSIC  # noqa: E402
from farmbox.hw import open_hardware  # noqa: E402
from farmbox.hw.pins import simulated_pins  # noqa: E402


class _Quiet:
    def notify(self, message: str) -> None:
        pass


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def write_config(folder: Path, journal: Path) -> Path:
    path = folder / "farmbox.toml"
    path.write_text(f'[hardware]\nsimulated = true\n[display]\ndriver = "dummy"\n'
                    f'[journal]\ndir = "{journal}"\n')
    return path


def ms_to_ready(command: list[str], sock_path: Path) -> float:
    """Start ``command`` with NOTIFY_SOCKET bound here; ms until READY=1 (then SIGTERM it)."""
    if sock_path.exists():
        sock_path.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(60)
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, NOTIFY_SOCKET=str(sock_path)))
        while "READY=1" not in sock.recv(4096).decode().split("\n"):
            pass
        ms = (time.perf_counter() - t0) * 1000
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        sock.close()
    return ms


def bench_ready(starts: int, records: int) -> None:
    """Wall time from process start to READY=1 on a NOTIFY_SOCKET."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        config = write_config(tmp, tmp / "journal")
        if records:
            subprocess.run([sys.executable, "-m", "farmbox.firmware.games.superfarmer.box", "--config", str(config),
                            "--autoplay", "1", "--turns", str(records)], cwd=ROOT, check=True,
                           capture_output=True)
        command = [sys.executable, "-m", "farmbox.firmware.games.superfarmer.box", "--config", str(config)]
        times = [ms_to_ready(command, tmp / "notify.sock") for _ in range(starts)]
        n = SuperFarmerJournal(tmp / "journal").open().seq
        print(f"start to READY ({n} journal records): median {statistics.median(times):.0f} ms, "
              f"min {min(times):.0f} ms over {starts} starts")


def bench_ready_modes(starts: int) -> None:
    """Start to READY of ``farmbox run`` in each game mode, and with OpenCV imported first
    (as hw/ did before its cv2 imports were made lazy), interleaved so load hits all alike."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        commands = {}
        for mode in ("superfarmer", "funfarm", "cardgame"):
            config = tmp / f"{mode}.toml"
            config.write_text(f'[hardware]\nsimulated = true\n[display]\ndriver = "dummy"\n'
                              f'[journal]\ndir = "{tmp / mode}"\n[game]\nmode = "{mode}"\n')
            commands[f"farmbox run ({mode})"] = [sys.executable, "-m", "firmware", "run",
                                                 "--config", str(config)]
        commands["farmbox run (superfarmer), cv2 imported first"] = [
            sys.executable, "-c", "import sys, cv2; from farmbox.firmware.cli import main; "
            f"sys.exit(main(['run', '--config', {str(tmp / 'superfarmer.toml')!r}]))"]
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(starts):
            for name, command in commands.items():
                times[name].append(ms_to_ready(command, tmp / "notify.sock"))
        for name, t in times.items():
            print(f"start to READY, {name}: median {statistics.median(t):.0f} ms, "
                  f"min {min(t):.0f} ms over {starts} starts")


def bench_turns(turns: int) -> None:
    """Play games back to back (bot events into the service inbox) and report RSS."""
    with tempfile.TemporaryDirectory() as tmp, simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"},
            journal={"dir": tmp}, camera={"source": "none"})
        hw = open_hardware(config)
        service = Service(config, hardware=hw, notifier=_Quiet())
        session = service.start()
        prepare(CLASSIC, wait=True)
        bot = Bot(1, camera=True, strategy="advisor")
        before = rss_mb()
        t0 = time.perf_counter()
        played = games = 0
        done_before = 0
        while played < turns:
            move = bot.next_input(session, service.journal.seq)
            if move is None:  # game over: new game on the buttons
                games += 1
                done_before += sum(session.state.turns)
                bot = Bot(games + 1, camera=True, strategy="advisor")
                for _ in range(3 if session.phase is Phase.WINNER else 1):
                    service.inbox.put(Press("ok"))
                    service.drain()
                continue
            service.inbox.put(Press(move[1], move[0]) if isinstance(move, tuple) else move)
            service.drain()
            played = done_before + sum(session.state.turns)
        elapsed = time.perf_counter() - t0
        print(f"{played} turns ({games} games) in {elapsed:.1f} s "
              f"({elapsed / played * 1000:.2f} ms/turn incl. fsync); RSS {before:.1f} MB at start, "
              f"{rss_mb():.1f} MB after (goal < 120 MB, no camera)")
        service.close()
        hw.close()


def rss_curve(records: int, marks: tuple[int, ...] = (10_000, 50_000, 100_000, 200_000),
              journal_dir: str | None = None) -> list[tuple[int, float]]:
    """Play bot games back to back in one service (journal on ``journal_dir``, a tmpfs by
    default so fsync is cheap) and return (records written, RSS MB) at each mark."""
    marks = tuple(m for m in marks if m <= records) or (records,)
    base = journal_dir or ("/dev/shm" if Path("/dev/shm").is_dir() else None)
    written = [0]

    def count(seq: int) -> None:
        written[0] += 1

    curve: list[tuple[int, float]] = []
    with tempfile.TemporaryDirectory(dir=base) as tmp, simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"},
            journal={"dir": tmp}, camera={"source": "none"})
        hw = open_hardware(config)
        service = Service(config, hardware=hw, notifier=_Quiet(), on_commit=count)
        session = service.start()
        prepare(CLASSIC, wait=True)
        games = 0
        bot = Bot(1, camera=True, strategy="advisor", undo_every=7)
        pending = list(marks)
        while pending:
            move = bot.next_input(session, service.journal.seq)
            if move is None:  # game over: a new game on the buttons
                games += 1
                bot = Bot(games + 1, camera=True, strategy="advisor", undo_every=7)
                for _ in range(3 if session.phase is Phase.WINNER else 1):
                    service.inbox.put(Press("ok"))
                    service.drain()
                continue
            service.inbox.put(Press(move[1], move[0]) if isinstance(move, tuple) else move)
            service.drain()
            if written[0] >= pending[0]:
                curve.append((written[0], rss_mb()))
                pending.pop(0)
        service.close()
        hw.close()
    return curve


def bench_rss(records: int) -> None:
    """Print the RSS curve of :func:`rss_curve` and its spread (goal: flat within 2 MB)."""
    curve = rss_curve(records)
    for n, mb in curve:
        print(f"RSS at {n:>7,} records: {mb:.1f} MB")
    spread = max(mb for _, mb in curve) - min(mb for _, mb in curve)
    middle = statistics.median(mb for _, mb in curve)
    off = max(abs(mb - middle) for _, mb in curve)
    print(f"RSS spread {curve[0][0]:,}..{curve[-1][0]:,} records: {spread:.1f} MB, at most "
          f"{off:.1f} MB from the median {middle:.1f} MB (goal: flat, +-2 MB)")


def bench_latency(presses: int, driver: str) -> None:
    """GPIO edge (mock pin) to the frame handed to the display driver."""
    from farmbox.hw.display import fake_serial

    with tempfile.TemporaryDirectory() as tmp, simulated_pins() as pins:
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": driver},
            journal={"dir": tmp}, camera={"source": "none"}, buttons={"debounce_ms": 1})
        hw = open_hardware(config, serial=fake_serial() if driver == "ssd1306" else None)
        service = Service(config, hardware=hw, notifier=_Quiet())
        service.start()
        for _ in range(presses):
            pin = pins.pin(config.buttons.prev)  # farm <-> main herd, a new frame each time
            pin.drive_low()
            time.sleep(0.0015)
            pin.drive_high()
            service.step(timeout=1.0)
            service.drain()
        lat = sorted(service.latencies_ns)
        ms = [x / 1e6 for x in lat]
        print(f"button press to screen update ({driver}): median {statistics.median(ms):.2f} ms, "
              f"p95 {ms[int(len(ms) * 0.95) - 1]:.2f} ms, max {ms[-1]:.2f} ms over {len(ms)} presses")
        service.close()
        hw.close()


def bench_kills(kills: int) -> None:
    """kill -9 at random moments of an autoplayed game; the journal must never lose an ack."""
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        config = write_config(tmp, tmp / "journal")
        acked = torn = 0
        for _ in range(kills):
            proc = subprocess.Popen([sys.executable, "-m", "farmbox.firmware.games.superfarmer.box", "--config",
                                     str(config), "--autoplay", "5", "--undo-every", "17",
                                     "--ack"], cwd=ROOT, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)
            for _ in range(rng.randint(1, 6)):
                line = proc.stdout.readline()
                if line.startswith("ack "):
                    acked = int(line.split()[1])
                elif not line or line.startswith("done"):
                    break
            time.sleep(rng.random() * 0.005)
            proc.kill()
            proc.wait()
            proc.stdout.close()
            replay = SuperFarmerJournal(tmp / "journal").open()
            torn += replay.dropped
            if replay.seq < acked:
                raise SystemExit(f"LOST: acknowledged record {acked}, journal ends at {replay.seq}")
            if replay.timeline is not None and replay.timeline.state.over:
                (tmp / "journal" / "superfarmer.jsonl").unlink()  # next game
                acked = 0
        print(f"kill -9 x{kills}: no acknowledged record lost, {torn} torn tail(s) repaired")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--ready-only", action="store_true",
                        help="only the start-to-READY figures")
    parser.add_argument("--records", type=int, default=200_000,
                        help="records for the RSS curve (marks at 10k, 50k, 100k, 200k)")
    parser.add_argument("--rss-only", action="store_true", help="only the RSS curve")
    args = parser.parse_args()
    if args.rss_only:
        bench_rss(args.records)
        return
    bench_ready(args.starts, 0)
    bench_ready(args.starts, 400)
    bench_ready_modes(args.starts)
    if args.ready_only:
        return
    bench_latency(args.presses, "dummy")
    bench_latency(args.presses, "ssd1306")
    bench_turns(args.turns)
    bench_rss(args.records)
    bench_kills(args.kills)


if __name__ == "__main__":
    main()
