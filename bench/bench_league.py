"""Figures for the league: N simulated boxes x M games through one real mosquitto ->
the league's throughput and the latency from a game's last settle to the leaderboard.

    .venv/bin/python bench/bench_league.py [--boxes 20] [--games 100] [--states 8] [--pace S]

Each box replays real games of the rules engine (the bot, compact variant) as its box
would publish them: a new game, ``--states`` of its actions spread over the game, and the
final action (the league gets ``--states`` + 2 events and one result per game).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from farmbox.firmware.box.events import Event, EventStream  # noqa: E402
from farmbox.firmware.games.superfarmer.actions import Timeline, new_game_action  # noqa: E402
from farmbox.firmware.games.superfarmer.bot import Bot  # noqa: E402
from farmbox.firmware.league.outbox import Outbox  # noqa: E402
from farmbox.firmware.league.publisher import Publisher  # noqa: E402
from farmbox.firmware.league.service import LeagueService  # noqa: E402
from farmbox.firmware.league.store import League  # noqa: E402
from farmbox.firmware.rules.superfarmer import variant  # noqa: E402
from farmbox.firmware.rules.superfarmer.game import new_state  # noqa: E402

PLAYERS = ["Ala", "Bolek", "Celina", "Dorota", "Emil", "Franek", "Gosia", "Henio"]


class Box:
    events: EventStream

    def __init__(self) -> None:
        self.events = EventStream()


def real_game(seed: int) -> list[tuple[dict, dict]]:
    rules = variant("compact")
    bot = Bot(seed, camera=False)
    timeline = Timeline(new_state(2, rules))
    out = [(new_game_action(2, rules), timeline.state.to_dict())]
    while (action := bot.plan(timeline.state, len(out), True)) is not None:
        timeline.apply(action, timeline.preview(action))
        out.append((action, timeline.state.to_dict()))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boxes", type=int, default=20)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--states", type=int, default=8)
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds each box waits between games (0: all at once, the throughput)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-league-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n"
                    "max_inflight_messages 0\nmax_queued_messages 0\n")
    broker = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)])
    try:
        end = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < end, "mosquitto did not start"
                time.sleep(0.02)
        games = [real_game(seed) for seed in range(25)]
        league = League(folder / "league.sqlite")
        service = LeagueService(league, port=port).start()
        assert service.connected.wait(10)
        boxes = [Box() for _ in range(args.boxes)]
        publishers = [Publisher(box, "superfarmer", f"box{i:02d}", Outbox(folder / f"box{i}.outbox"),
                                port=port).start() for i, box in enumerate(boxes)]
        for p in publishers:
            assert p._connected.wait(10)

        def play(i: int, box: Box) -> None:
            box.events.publish(Event("names", 0, {"names": [PLAYERS[(i + k) % len(PLAYERS)] for k in range(2)]}))
            for g in range(args.games):
                game = games[(i * 7 + g) % len(games)]
                step = max(1, (len(game) - 2) // max(1, args.states))
                picked = [0, *range(1, len(game) - 1, step)][: args.states + 1] + [len(game) - 1]
                for seq, k in enumerate(picked, start=1):
                    action, state = game[k]
                    box.events.publish(Event("action", seq, {"action": action, "state": state}))
                if args.pace:
                    time.sleep(args.pace)  # a table plays a game in minutes, not microseconds

        started = time.monotonic()
        threads = [threading.Thread(target=play, args=(i, b)) for i, b in enumerate(boxes)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        last = {p.name: p.outbox_last() for p in publishers}
        total = sum(last.values())
        ok = service.wait(lambda: all(league.acked(b) == n for b, n in last.items()), 600)
        took = time.monotonic() - started
        report = league.report()
        results = [r for r in league._db.execute("SELECT box, received, ended FROM games")]
        latency = [(received - ended) * 1000 for _, received, ended in results]
        for p in publishers:
            p.stop()
        service.stop()
        league.close()
    finally:
        broker.terminate()
        broker.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{args.boxes} boxes x {args.games} games, pace {args.pace} s: {total} messages, {len(report['games'])} games "
          f"in the league ({'all' if ok else 'NOT all'} acknowledged), {service.doubles} doubles dropped")
    print(f"throughput: {total / took:.0f} messages/s, {len(report['games']) / took:.1f} games/s "
          f"({took:.1f} s)")
    print(f"last settle -> leaderboard (ms): p50 {pct(latency, 0.5):.0f}, p95 {pct(latency, 0.95):.0f}, "
          f"mean {statistics.mean(latency):.0f}")
    return 0 if ok and len(report["games"]) == args.boxes * args.games else 1


if __name__ == "__main__":
    sys.exit(main())
