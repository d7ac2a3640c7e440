"""``farmbox league``: one league for many boxes (docs/league.md).

    farmbox league [--broker HOST] [--port N] [--db PATH] [--web-port N]   follow the boxes
    farmbox league report [--db PATH] [--json]                             what it holds
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from farmbox.firmware.cli import CommandError

DEFAULT_DB = Path("league.sqlite")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("league", help="one league for many boxes over MQTT (SQLite, Elo, a leaderboard page)")
    p.add_argument("what", nargs="?", default="serve", choices=("serve", "report"),
                   help="serve (default): follow the boxes; report: print what the league holds")
    p.add_argument("--db", type=Path, default=DEFAULT_DB, help="the league's SQLite (default ./league.sqlite)")
    p.add_argument("--broker", default="localhost", help="MQTT broker (default localhost)")
    p.add_argument("--port", type=int, default=1883, help="broker port (default 1883)")
    p.add_argument("--username", default="", help="broker user")
    p.add_argument("--password", default="", help="broker password")
    p.add_argument("--web-port", type=int, default=8090, help="the leaderboard page (default 8090; 0: none)")
    p.add_argument("--bind", default="0.0.0.0", help="the leaderboard's address (default all)")
    p.add_argument("--json", action="store_true", help="report: JSON")
    p.set_defaults(func=cmd_league)


def cmd_league(args: argparse.Namespace) -> int:
    """``farmbox league``: serve (until SIGTERM/SIGINT) or report."""
    from farmbox.firmware.league.store import League

    if args.what == "report":
        if not args.db.is_file():
            raise CommandError(f"{args.db}: no league database here (run `farmbox league` first)")
        league = League(args.db)
        try:
            report = league.report()
        finally:
            league.close()
        if args.json:
            print(json.dumps(report, indent=1, sort_keys=True))
        else:
            print_report(report)
        return 0
    for flag, port in (("--port", args.port), ("--web-port", args.web_port)):
        if not 0 <= port <= 65535 or (flag == "--port" and port == 0):
            raise CommandError(f"{flag} must be a port number, got {port}")
    return serve(args, League(args.db))


def print_report(report: dict[str, Any]) -> None:
    print(f"{len(report['games'])} games, {len(report['players'])} players")
    for game_type, rows in sorted(report["leaderboard"].items()):
        print(f"{game_type}:")
        for place, r in enumerate(rows, start=1):
            print(f"  {place:2}. {r['name']:<20} {r['rating']:7.1f}  {r['wins']}/{r['games']} won")


def serve(args: argparse.Namespace, league: Any) -> int:
    import asyncio

    from aiohttp import web

    from farmbox.firmware.league.service import LeagueService, leaderboard_app

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    service = LeagueService(league, broker=args.broker, port=args.port, username=args.username,
                            password=args.password).start()
    loop = asyncio.new_event_loop()
    runner = None
    try:
        if args.web_port:
            runner = web.AppRunner(leaderboard_app(league), access_log=None, handle_signals=False)
            loop.run_until_complete(runner.setup())
            try:
                loop.run_until_complete(web.TCPSite(runner, args.bind, args.web_port).start())
            except OSError as exc:
                raise CommandError(f"--web-port {args.web_port}: {exc.strerror or exc}") from None
            print(f"leaderboard on http://{args.bind}:{args.web_port}/", flush=True)
        while not stop.is_set():
            loop.run_until_complete(asyncio.sleep(0.2))
    finally:
        service.stop()
        if runner is not None:
            loop.run_until_complete(runner.cleanup())
        loop.close()
        league.close()
    return 0
