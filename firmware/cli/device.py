"""The box commands: ``farmbox run`` (the service) and ``farmbox demo`` (the box, simulated).

Both serve every game mode: ``farmbox run`` starts the service ``[game] mode`` names
(superfarmer: :class:`firmware.service.Service`; funfarm: :func:`firmware.funfarm_service.serve`;
cardgame: :func:`firmware.cardgame_service.serve`), ``farmbox demo [GAME]`` plays that game.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware.cli import CommandError
from firmware.config import find_config_path, load_config

#: Game -> (fewest, most) players of its demo, and the default.
DEMO_PLAYERS = {"superfarmer": (1, 6, 2), "funfarm": (2, 10, 4), "cardgame": (2, 6, 3)}
GAMES = tuple(DEMO_PLAYERS)


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
    p.add_argument("--language", default="en", choices=("en", "pl"), help="superfarmer only")
    p.add_argument("--camera", action="store_true",
                   help="superfarmer: dice as rendered camera frames read by the real dice "
                        "reader (enrolls a model first; slower); funfarm: rendered cards and "
                        "dice read by the real readers (the default without --fast)")
    p.add_argument("--gif", type=Path, default=Path("farmbox-demo.gif"),
                   help="animated GIF of every frame (default ./farmbox-demo.gif)")
    p.set_defaults(func=cmd_demo)


def cmd_run(args: argparse.Namespace) -> int:
    from firmware.service import Service, dice_watcher, setup_logging

    setup_logging()
    config = load_config(find_config_path(args.config))  # ConfigError -> exit 2, one line
    if config.game.mode == "funfarm":
        from firmware.funfarm_service import serve  # noqa: PLC0415

        return serve(config)
    if config.game.mode == "cardgame":
        from firmware.cardgame_service import serve  # noqa: PLC0415

        return serve(config)
    service = Service(config, watcher=dice_watcher(config))
    try:
        service.start()
        return service.run()
    finally:
        service.close()


class _NoNotify:
    def notify(self, message: str) -> None:
        pass


def cmd_demo(args: argparse.Namespace) -> int:
    from firmware.demo_frames import check_gif_path  # noqa: PLC0415

    if args.game not in GAMES:
        raise CommandError(f"no demo for {args.game!r} (available: {', '.join(GAMES)})")
    low, high, default = DEMO_PLAYERS[args.game]
    players = default if args.players is None else args.players
    if not low <= players <= high:
        raise CommandError(f"--players must be {low}-{high} for {args.game}, got {players}")
    if args.game != "superfarmer":
        for flag, value, plain in (("--variant", args.variant, "classic"),
                                   ("--language", args.language, "en")):
            if value != plain:
                raise CommandError(f"{flag} is for the superfarmer demo only")
    if args.variant == "compact" and players < 2:
        raise CommandError("compact is for 2-6 players")
    check_gif_path(args.gif)
    if args.game == "funfarm":
        from firmware.demo_funfarm import run_demo as funfarm_demo  # noqa: PLC0415

        return funfarm_demo(players, args.seed, args.fast, args.quiet, args.gif,
                            vision=True if args.camera else None)
    if args.game == "cardgame":
        if args.camera:
            raise CommandError("--camera: the card game's demo enters numbers on the buttons")
        from firmware.demo_cardgame import run_demo as cardgame_demo  # noqa: PLC0415

        return cardgame_demo(players, args.seed, args.fast, args.quiet, args.gif)
    winner, frames, turns = run_demo(players, args.variant, args.seed, args.fast,
                                     args.quiet, args.language, args.gif, args.camera)
    print(f"farmer {winner + 1} won after {turns} turns; {frames} frames saved to {args.gif}")
    return 0


def run_demo(players: int, variant_name: str, seed: int, fast: bool, quiet: bool,
             language: str, gif: Path, camera: bool = False) -> tuple[int, int, int]:
    """Play one game on simulated hardware; returns (winner, frames, turns)."""
    from firmware.demo_frames import FrameStream
    from firmware.service import Service, dice_watcher
    from firmware.session.advice import prepare
    from firmware.session.bot import Bot
    from hw import open_hardware
    from hw.pins import simulated_pins

    stream = FrameStream(quiet, pause=0.0 if fast else 0.04)
    journal_dir = tempfile.mkdtemp(prefix="farmbox-demo-")
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": journal_dir}, ui={"language": language},
        game={"mode": "superfarmer", "variant": variant_name, "players": players},
        buttons={"debounce_ms": 2 if fast else 20, "hold_time": 0.3})
    feed = None
    if camera:
        config, feed = _camera_setup(config, journal_dir)
    try:
        with simulated_pins():
            hw = open_hardware(config, camera=feed)
            hw.display = stream.tap(hw.display)
            service = Service(config, hardware=hw, notifier=_NoNotify(),
                              watcher=dice_watcher(config))
            try:
                session = service.start()
                # The bot follows the advisor (the menu's first line) once its table is
                # loaded; a variant still being solved plays greedy meanwhile.
                ready = prepare(session.rules, wait=5.0)
                bot = Bot(seed, camera=True, strategy="advisor" if ready else "greedy")
                while True:
                    move = bot.next_input(session, service.journal.seq)
                    if move is None:
                        break
                    if isinstance(move, tuple):
                        kind, name = move
                        (hw.buttons.tap if kind == "press" else hw.buttons.hold)(name)
                        if not service.step(timeout=2.0):
                            raise CommandError(f"the press of {name!r} never arrived")
                    elif feed is not None:
                        _camera_roll(service, feed, move)
                    else:
                        service.inbox.put(move)
                    service.drain()
                state = session.state
            finally:
                service.close()
                hw.close()
    finally:
        shutil.rmtree(journal_dir, ignore_errors=True)
    stream.save_gif(gif)
    return state.winner or 0, len(stream.frames), max(state.turns)


def _camera_setup(config: Any, folder: str) -> tuple[Any, Any]:
    """Enroll a dice model from rendered samples; the camera is a frame feed."""
    from hw.camera import FeedCamera
    from vision.dice import enroll_folder
    from vision.render.dice import render_background, write_samples

    samples = Path(folder) / "samples"
    samples.mkdir()
    print("enrolling the dice reader on rendered samples ...", file=sys.stderr)
    write_samples(samples)
    model = samples / "dice.npz"
    enroll_folder(samples).save(model)
    feed = FeedCamera(timeout=0.5)
    feed.push(render_background())
    config = config.with_overrides(camera={"source": "feed"}, vision={"dice_model": str(model)})
    return config, feed


_scene_seed = [0]


def _camera_roll(service: Any, feed: Any, seen: Any) -> None:
    """Show the camera the bot's move: dice rolling (smeared) or a rendered roll."""
    from vision.render.dice import render_background, render_scene

    session = service.session
    _scene_seed[0] += 1
    if seen.faces is None:  # the dice are rolling
        feed.push(render_scene(_scene_seed[0], setup=0, motion=True)[0])
        target = lambda: session.armed  # noqa: E731
    else:
        image, _ = render_scene(_scene_seed[0], setup=0,
                                faces=(seen.faces[0].value, seen.faces[1].value))
        feed.push(image)
        before = (session.state, session.phase)
        target = lambda: (session.state, session.phase) != before  # noqa: E731
    end = time.monotonic() + 5.0
    while not target() and time.monotonic() < end:
        service.step(timeout=0.05)
    if seen.faces is not None and not target():  # unreadable: the bot rolls again
        feed.push(render_background())
