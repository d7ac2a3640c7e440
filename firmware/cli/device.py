"""The box commands: ``farmbox run`` (the service) and ``farmbox demo`` (the box, simulated)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware.cli import CommandError
from firmware.config import find_config_path, load_config

GAMES = ("superfarmer",)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="the service (what systemd starts)")
    p.add_argument("--config", metavar="PATH",
                   help="settings (default: /etc/farmbox/farmbox.toml if it exists, "
                        "else the packaged default)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("demo", help="the whole box on simulated hardware, played by a bot")
    p.add_argument("game", nargs="?", default="superfarmer", metavar="GAME",
                   help="superfarmer (default)")
    p.add_argument("--players", type=int, default=2, help="farms at the table (1-6, default 2)")
    p.add_argument("--variant", default="classic", choices=("classic", "compact"))
    p.add_argument("--seed", type=int, default=7, help="dice and bot seed (default 7)")
    p.add_argument("--fast", action="store_true", help="no pauses between frames")
    p.add_argument("--quiet", action="store_true", help="do not stream frames to the terminal")
    p.add_argument("--language", default="en", choices=("en", "pl"))
    p.add_argument("--camera", action="store_true",
                   help="dice as rendered camera frames read by the real dice reader "
                        "(enrolls a model first; slower)")
    p.add_argument("--gif", type=Path, default=Path("farmbox-demo.gif"),
                   help="animated GIF of every frame (default ./farmbox-demo.gif)")
    p.set_defaults(func=cmd_demo)


def cmd_run(args: argparse.Namespace) -> int:
    from firmware.service import Service, dice_watcher, setup_logging

    setup_logging()
    config = load_config(find_config_path(args.config))  # ConfigError -> exit 2, one line
    if config.game.mode != "superfarmer":
        raise CommandError(f"[game] mode {config.game.mode!r}: the service keeps superfarmer only")
    service = Service(config, watcher=dice_watcher(config))
    try:
        service.start()
        return service.run()
    finally:
        service.close()


class _Tap:
    """A display wrapper that also hands every frame to the demo (terminal + GIF)."""

    def __init__(self, display: Any, on_frame: Any) -> None:
        self._display = display
        self._on_frame = on_frame
        self.size = display.size

    def show(self, image: Any) -> None:
        self._display.show(image)
        self._on_frame(image)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._display, name)


class _NoNotify:
    def notify(self, message: str) -> None:
        pass


def cmd_demo(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        raise CommandError(f"no demo for {args.game!r} yet (available: {', '.join(GAMES)})")
    if not 1 <= args.players <= 6:
        raise CommandError(f"--players must be 1-6, got {args.players}")
    if args.variant == "compact" and args.players < 2:
        raise CommandError("compact is for 2-6 players")
    if not args.gif.parent.resolve().is_dir():
        raise CommandError(f"--gif: folder {args.gif.parent} does not exist")
    winner, frames, turns = run_demo(args.players, args.variant, args.seed, args.fast,
                                     args.quiet, args.language, args.gif, args.camera)
    print(f"farmer {winner + 1} won after {turns} turns; {frames} frames saved to {args.gif}")
    return 0


def run_demo(players: int, variant_name: str, seed: int, fast: bool, quiet: bool,
             language: str, gif: Path, camera: bool = False) -> tuple[int, int, int]:
    """Play one game on simulated hardware; returns (winner, frames, turns)."""
    from PIL import Image

    from firmware.screens import frame_text
    from firmware.service import Service, dice_watcher
    from firmware.session.advice import prepare
    from firmware.session.bot import Bot
    from hw import open_hardware
    from hw.pins import simulated_pins

    frames: list[Image.Image] = []
    tty = sys.stdout.isatty()
    pause = 0.0 if fast else 0.04

    def on_frame(image: Image.Image) -> None:
        frames.append(image.copy())
        if not quiet:
            sys.stdout.write(("\x1b[H" if tty else "") + frame_text(image) + "\n")
            if not tty:
                sys.stdout.write("-" * 128 + "\n")
            sys.stdout.flush()
        if pause:
            time.sleep(pause)

    journal_dir = tempfile.mkdtemp(prefix="farmbox-demo-")
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": journal_dir}, ui={"language": language},
        game={"mode": "superfarmer", "variant": variant_name, "players": max(players, 2)},
        buttons={"debounce_ms": 2 if fast else 20, "hold_time": 0.3})
    feed = None
    if camera:
        config, feed = _camera_setup(config, journal_dir)
    if tty and not quiet:
        sys.stdout.write("\x1b[2J")
    try:
        with simulated_pins():
            hw = open_hardware(config, camera=feed)
            hw.display = _Tap(hw.display, on_frame)
            service = Service(config, hardware=hw, notifier=_NoNotify(),
                              watcher=dice_watcher(config))
            try:
                if players == 1:  # solitaire: the config allows 2-6, the rules allow 1
                    _solitaire(service, variant_name)
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
    _write_gif(frames, gif)
    return state.winner or 0, len(frames), max(state.turns)


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


def _solitaire(service: Any, variant_name: str) -> None:
    """Start the journal with a one-farm game (the config checks 2-6 players)."""
    from firmware.rules.game import new_state
    from firmware.rules.superfarmer import variant
    from firmware.session.actions import new_game_action

    rules = variant(variant_name)
    service.journal.open()
    service.journal.append(new_game_action(1, rules), new_state(1, rules))
    service.journal.close()


def _write_gif(frames: list[Any], path: Path) -> None:
    """Save the frames as an animated GIF (3x, white on black), atomically."""
    if not frames:
        raise CommandError("the demo showed no frames")
    big = [f.convert("L").resize((f.width * 3, f.height * 3), 0) for f in frames]
    fd, tmp = tempfile.mkstemp(dir=path.resolve().parent, suffix=".gif.tmp")
    os.close(fd)
    try:
        durations = [120] * (len(big) - 1) + [3000]
        big[0].save(tmp, format="GIF", save_all=True, append_images=big[1:], duration=durations,
                    loop=0)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
