"""Figures for the table view: 50 viewers on server-sent events -> update latency from the
settle (p50/p95), the button-to-OLED latency with and without them, and the extra RSS.

    .venv/bin/python bench/bench_web.py [--viewers 50] [--rolls 60] [--presses 300]

The viewers run in a child process (their memory is not the box's); CLOCK_MONOTONIC is
one clock for both processes, so the latency is arrival minus the box's publish.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from farmbox.firmware.box.config import load_config  # noqa: E402
from farmbox.firmware.box.observations import RollSeen  # noqa: E402
from farmbox.firmware.games.superfarmer.advice import prepare  # noqa: E402
from farmbox.firmware.games.superfarmer.box import Service  # noqa: E402
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS  # noqa: E402
from farmbox.hw import open_hardware  # noqa: E402
from farmbox.hw.pins import simulated_pins  # noqa: E402


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


VIEWERS = r'''
import asyncio, json, sys, time
import aiohttp
url, n, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
got = [dict() for _ in range(n)]
ready = 0
async def viewer(i, session):
    global ready
    async with session.get(url) as r:
        ready += 1
        buf = b""
        async for chunk in r.content.iter_any():
            buf += chunk
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                if block.startswith(b"data: "):
                    seq = json.loads(block[6:])["seq"]
                    got[i].setdefault(seq, time.monotonic_ns())
            if want in got[i]:
                return
async def main():
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as s:
        tasks = [asyncio.create_task(viewer(i, s)) for i in range(n)]
        while ready < n:
            await asyncio.sleep(0.01)
        print("ready", flush=True)
        await asyncio.gather(*tasks)
    print(json.dumps(got))
asyncio.run(main())
'''


def press_latencies(service: Service, pins, pin: int, presses: int) -> list[float]:
    """Real mock-pin presses of ``prev`` (farm -> main herd -> table view's address, its QR
    code drawn once and kept): edge -> frame shown (ms)."""
    out = []
    for _ in range(presses):
        before = len(service.latencies_ns)
        p = pins.pin(pin)
        p.drive_low()
        p.drive_high()
        while len(service.latencies_ns) == before:
            service.step(timeout=0.5)
        out.append(service.latencies_ns[-1] / 1e6)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--rolls", type=int, default=60)
    parser.add_argument("--presses", type=int, default=300)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    with simulated_pins() as pins:
        config = load_config().with_overrides(
            journal={"dir": str(folder)}, buttons={"debounce_ms": 0, "hold_time": 5.0})
        hw = open_hardware(config)
        service = Service(config, hardware=hw)
        service.start()
        assert service.session is not None
        prepare(service.session.rules, wait=True)  # the advisor's table is the box's, loaded first
        settled: dict[int, int] = {}
        service.events.subscribe(lambda e: settled.setdefault(e.seq, time.monotonic_ns()))
        press_latencies(service, pins, config.buttons.prev, 50)  # warm up
        alone = press_latencies(service, pins, config.buttons.prev, args.presses)
        rss_box = rss_kib()

        from farmbox.firmware.web.server import TableServer

        server = TableServer(service, "superfarmer", port=0, bind="127.0.0.1", pin="2468").start()
        want = service.journal.seq + args.rolls
        child = subprocess.Popen([sys.executable, "-c", VIEWERS, server.url + "events",
                                  str(args.viewers), str(want)], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        watched = press_latencies(service, pins, config.buttons.prev, args.presses)
        # Rolls settle one by one; each is sent to every viewer.
        for i in range(args.rolls):
            roll = ALL_ROLLS[(i * 7) % len(ALL_ROLLS)]
            service.inbox.put(RollSeen(None, 0.0, "motion"))
            service.inbox.put(RollSeen((roll.green, roll.red), 1.0, "bench"))
            service.drain()
            if service.session is not None and service.session.state.over:
                break
            time.sleep(0.05)  # a table settles a roll every few seconds, not every microsecond
        want = service.journal.seq
        got = json.loads(child.stdout.readline())
        child.wait(60)
        rss_web = rss_kib()
        latencies = [(t - settled[int(seq)]) / 1e6 for viewer in got for seq, t in viewer.items()
                     if int(seq) in settled and int(seq) > 1]
        server.stop()
        service.close()
        hw.close()
    print(f"viewers: {args.viewers}, updates measured: {len(latencies)}")
    print(f"settle -> viewer (ms): p50 {pct(latencies, 0.5):.1f}, p95 {pct(latencies, 0.95):.1f}, "
          f"max {max(latencies):.1f}")
    print(f"button -> OLED (ms), {args.presses} presses: alone median {statistics.median(alone):.3f} "
          f"mean {statistics.mean(alone):.3f}; with {args.viewers} viewers median "
          f"{statistics.median(watched):.3f} mean {statistics.mean(watched):.3f}; "
          f"difference of medians {statistics.median(watched) - statistics.median(alone):+.3f}")
    print(f"RSS: box alone {rss_box / 1024:.1f} MiB, with the table view and {args.viewers} viewers "
          f"{rss_web / 1024:.1f} MiB: extra {(rss_web - rss_box) / 1024:.1f} MiB")
    os.system(f"rm -rf {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
