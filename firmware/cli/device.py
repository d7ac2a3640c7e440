"""The box commands: ``farmbox run`` (the service) and ``farmbox demo`` (the box, simulated).

Both serve every game mode through the registry (:mod:`farmbox.firmware.games`):
``farmbox run`` starts the box ``[game] mode`` names, ``farmbox demo [GAME]`` plays that game.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from farmbox.firmware.box import registry
from farmbox.firmware.box.config import find_config_path, load_config
from farmbox.firmware.box.demo_stream import check_gif_path
from farmbox.firmware.box.runtime import serve
from farmbox.firmware.cli import CommandError


def setup_logging() -> None:
    """Log lines to stderr (journald adds the time)."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="the service (what systemd starts)")
    p.add_argument("--config", metavar="PATH",
                   help="settings (default: /etc/farmbox/farmbox.toml if it exists, "
                        "else the packaged default)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("demo", help="the whole box on simulated hardware, played by a bot")
    p.add_argument("game", nargs="?", default="superfarmer", metavar="GAME",
                   help="superfarmer (default), funfarm or cardgame")
    p.add_argument("--players", type=int, default=None,
                   help="players at the table: superfarmer 1-6 (default 2), funfarm 2-10 "
                        "(default 4), cardgame 2-6 (default 3)")
    p.add_argument("--variant", default="classic", choices=("classic", "compact"),
                   help="superfarmer only")
    p.add_argument("--seed", type=int, default=7, help="dice and bot seed (default 7)")
    p.add_argument("--fast", action="store_true", help="no pauses between frames")
    p.add_argument("--quiet", action="store_true", help="do not stream frames to the terminal")
    p.add_argument("--language", default="en", choices=("en", "pl"), help="superfarmer, funfarm")
    p.add_argument("--camera", action=argparse.BooleanOptionalAction, default=None,
                   help="superfarmer: dice as rendered camera frames read by the real dice "
                        "reader (the default; the model is enrolled once and cached in "
                        "~/.cache/farmbox); --no-camera: the bot's rolls go straight to the "
                        "box. funfarm: rendered cards and dice read by the real readers "
                        "(default: without --fast)")
    p.add_argument("--gif", type=Path, default=Path("farmbox-demo.gif"),
                   help="animated GIF of every frame (default ./farmbox-demo.gif)")
    p.add_argument("--web-port", type=int, default=8080, metavar="PORT",
                   help="serve the table view (read-only) on this port while the demo plays; "
                        "a port in use: any free one (default 8080, 0: no table view)")
    p.set_defaults(func=cmd_demo)


def cmd_run(args: argparse.Namespace) -> int:
    """``farmbox run``: the game ``[game] mode`` names, looked up in the registry."""
    setup_logging()
    config = load_config(find_config_path(args.config))  # ConfigError -> exit 2, one line
    box = registry.mode(config.game.mode).open_box(config)
    followers: list[Any] = []
    try:  # the table view and the league follow the box once its journal is replayed
        return serve(box, started=lambda: followers.extend(follow_box(box, config)))
    finally:
        for follower in reversed(followers):
            follower.stop()


def follow_box(box: Any, config: Any) -> list[Any]:
    """Start what ``[web]`` and ``[league]`` ask for beside ``box``: each has ``stop()``.
    A port that cannot be bound is one line and exit 2 (it is a settings problem)."""
    from farmbox.firmware.league.publisher import publish_beside  # aiohttp, paho: on use
    from farmbox.firmware.web.server import serve_beside

    followers: list[Any] = []
    try:
        web = serve_beside(box, config)
    except OSError as exc:
        raise CommandError(f"[web] port {config.web.port}: {exc.strerror or exc}") from None
    if web is not None:
        followers.append(web)
    league = publish_beside(box, config)
    if league is not None:
        followers.append(league)
    return followers


def cmd_demo(args: argparse.Namespace) -> int:
    """``farmbox demo [GAME]``: the game's own demo, looked up in the registry."""
    if args.game not in registry.MODES:
        raise CommandError(f"no demo for {args.game!r} (available: {', '.join(registry.MODES)})")
    mode = registry.mode(args.game)
    low, high, default = mode.demo_players
    players = default if args.players is None else args.players
    if not low <= players <= high:
        raise CommandError(f"--players must be {low}-{high} for {args.game}, got {players}")
    if args.game != "superfarmer":
        language = "en" if args.game == "funfarm" else args.language  # funfarm speaks Polish too
        for flag, value, plain in (("--variant", args.variant, "classic"),
                                   ("--language", language, "en")):
            if value != plain:
                raise CommandError(f"{flag} is for the superfarmer demo only")
    check_gif_path(args.gif)
    if not 0 <= args.web_port <= 65535:
        raise CommandError(f"--web-port must be 0-65535, got {args.web_port}")
    if args.web_port:
        args.follow = lambda box: demo_table_view(box, args.game, args.web_port)
    return mode.run_demo(args, players)


def demo_table_view(box: Any, game: str, port: int) -> Any:
    """The demo's table view beside ``box`` (read-only), on ``port`` or, when that one is
    taken, on any free port; its URL is printed (a phone on the LAN opens it)."""
    from farmbox.firmware.web.server import TableServer  # aiohttp: on use

    try:
        server = TableServer(box, game, port=port).start()
    except OSError:
        server = TableServer(box, game, port=0).start()
    print(f"table view on {server.lan_url} (this machine: {server.url})", file=sys.stderr,
          flush=True)
    return server
