"""Super Farmer's demo (``farmbox demo superfarmer``): the whole box on simulated hardware.

Mock buttons pressed by the scripted bot, the dummy OLED streamed to the terminal and saved
as a GIF, every roll a rendered camera frame read by the real dice reader (its model enrolled
once on rendered samples and cached).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.demo_stream import FrameStream
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.games.superfarmer.advice import prepare
from farmbox.firmware.games.superfarmer.bot import Bot
from farmbox.firmware.games.superfarmer.box import Service, dice_reader
from farmbox.firmware.games.superfarmer.screens import progress
from farmbox.hw import open_hardware
from farmbox.hw.camera import CameraGone
from farmbox.hw.pins import simulated_pins


class DemoError(ValueError):
    """The demo could not go on (a press that never arrived)."""


def main(args: argparse.Namespace, players: int) -> int:
    """``farmbox demo superfarmer``: play, print the winner and the GIF's path."""
    if args.variant == "compact" and players < 2:
        raise ValueError("compact is for 2-6 players")
    winner, frames, turns = run_demo(players, args.variant, args.seed, args.fast,
                                     args.quiet, args.language, args.gif,
                                     camera=args.camera is not False,
                                     follow=getattr(args, "follow", None))
    print(f"farmer {winner + 1} won after {turns} turns; {frames} frames saved to {args.gif}")
    return 0


class _NoNotify:
    def notify(self, message: str) -> None:
        pass


def run_demo(players: int, variant_name: str, seed: int, fast: bool, quiet: bool,
             language: str, gif: Path, camera: bool = True,
             cache_dir: Path | None = None,
             follow: Callable[[Any], Any] | None = None) -> tuple[int, int, int]:
    """Play one game on simulated hardware; returns (winner, frames, turns).

    ``camera``: every roll is a rendered camera frame read by the real dice reader (its model
    enrolled on rendered samples, cached in ``cache_dir``, default the user's cache).
    ``follow(box)`` starts what follows the box while it plays (the table view): its
    ``stop()`` is called when the game is over."""
    stream = FrameStream(quiet, pause=0.0 if fast else 0.04)
    journal_dir = tempfile.mkdtemp(prefix="farmbox-demo-")
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": journal_dir}, ui={"language": language},
        game={"mode": "superfarmer", "variant": variant_name, "players": players},
        buttons={"debounce_ms": 2 if fast else 20, "hold_time": 0.3})
    try:
        with simulated_pins():
            feed = DemoCamera(0.1 if fast else 0.05) if camera else None
            hw = open_hardware(config, camera=feed)
            hw.display = stream.tap(hw.display)
            table = None
            if camera:
                tr = translator(language)
                model, _ = demo_dice_model(Path(journal_dir), lambda f: hw.display.show(
                    progress(tr, tr("ENROLLING DICE"), f)), cache_dir, progress=True)
                config = config.with_overrides(vision={"dice_model": str(model)})
            service = Service(config, hardware=hw, notifier=_NoNotify(),
                              watcher=dice_reader(config))
            if feed is not None:
                table = CameraTable(service, feed, fast)
                feed.push(table.background)
            follower = None
            try:
                session = service.start()
                follower = follow(service) if follow is not None else None
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
                            raise DemoError(f"the press of {name!r} never arrived")
                    elif table is not None:
                        table.roll(move)
                    else:
                        service.inbox.put(move)
                    service.drain()
                state = session.state
            finally:
                if follower is not None:
                    follower.stop()
                service.close()
                hw.close()
    finally:
        shutil.rmtree(journal_dir, ignore_errors=True)
    if table is not None and table.timeouts:
        print(f"warning: {table.timeouts} camera rolls timed out", file=sys.stderr)
    stream.save_gif(gif)
    return state.winner or 0, len(stream.frames), max(state.turns)


def _cache_dir() -> Path:
    """The user's cache folder for farmbox ($XDG_CACHE_HOME/farmbox, else ~/.cache/farmbox)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "farmbox"


def demo_model_key() -> str:
    """What the demo's dice model depends on: the model version, the renderer and the enroller.

    A hash of ``vision/render/dice.py`` and ``vision/dice/*.py`` (and the model VERSION): any
    change to how samples are drawn or learnt gives a new cache file."""
    import farmbox.vision.dice
    import farmbox.vision.render.dice
    from farmbox.vision.dice.model import VERSION

    digest = hashlib.sha256(f"dice-model-v{VERSION}".encode())
    files = [Path(farmbox.vision.render.dice.__file__)]
    files += sorted(Path(farmbox.vision.dice.__file__).parent.glob("*.py"))
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def demo_dice_model(fallback_dir: Path, show: Any = None, cache_dir: Path | None = None,
                    progress: bool = True) -> tuple[Path, bool]:
    """The enrolled dice model of the demo's rendered dice: (path, True if it was cached).

    Looked up in the user's cache (``demo-dice-KEY.npz``, see :func:`demo_model_key`); else
    enrolled from rendered samples (a tqdm bar on stderr; ``show(fraction)`` for the OLED) and
    written there atomically. An unwritable cache keeps the model in ``fallback_dir``."""
    from farmbox.vision.dice import DiceModel

    folder = _cache_dir() if cache_dir is None else cache_dir
    path = folder / f"demo-dice-{demo_model_key()}.npz"
    if path.is_file():
        try:
            DiceModel.load(path)
            return path, True
        except (ValueError, OSError):
            pass  # damaged: enroll again and replace it
    model = _enroll_rendered(show, progress)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        model.save(path)  # the model file's own writer is atomic
    except OSError:
        path = Path(fallback_dir) / "demo-dice.npz"  # a read-only home: enroll again next time
        model.save(path)
    return path, False


def _enroll_rendered(show: Any, progress: bool) -> Any:
    """Enroll the reader on rendered samples (what ``farmbox.vision.render.dice.write_samples`` draws:
    3 images of each face of each die, and the empty table), in memory."""
    from tqdm import tqdm

    from farmbox.vision.dice.enroll import build_model
    from farmbox.vision.render.dice import (
        DICE,
        DIE_FACES,
        FACES,
        Setup,
        render_background,
        render_enrollment_sample,
    )

    setup = Setup.from_seed(0)
    plan = [(face, die, k) for face in FACES for die in DICE if face in DIE_FACES[die]
            for k in range(3)]
    total = 2 * len(plan)
    shown = [-1]

    def tick(bar: Any, done: int) -> None:
        bar.update(1)
        if show is not None and done * 10 // total != shown[0]:
            shown[0] = done * 10 // total
            show(done / total)

    samples = []
    with tqdm(total=total, desc="enrolling the demo dice", unit="step", file=sys.stderr,
              disable=not progress, leave=False) as bar:
        background = render_background(0, setup=setup)
        for n, (face, die, k) in enumerate(plan, 1):
            image = render_enrollment_sample(n, die, face, setup=setup)
            samples.append((face, image, f"{face}/{die}-{k + 1}"))
            tick(bar, n)

        def learnt(items: Any) -> Any:
            for i, item in enumerate(items, 1):
                yield item
                tick(bar, len(plan) + i)

        return build_model(samples, background, learnt)


class DemoCamera:
    """The demo's camera: frames the demo pushes, read in order; with none queued, the last
    frame again every ``idle`` s (a still table), like a real camera's steady stream."""

    def __init__(self, idle: float = 0.1) -> None:
        self.idle = idle
        self.source = "demo"
        self._frames: deque[Any] = deque()
        self._last: Any = None
        self._closed = False
        self._changed = threading.Condition()

    def push(self, frame: Any, times: int = 1) -> None:
        with self._changed:
            self._frames.extend([frame] * times)
            self._changed.notify_all()

    def read(self) -> Any:
        with self._changed:
            self._changed.wait_for(lambda: self._frames or self._closed, self.idle)
            if self._closed:
                raise CameraGone("demo camera: closed")
            if self._frames:
                self._last = self._frames.popleft()
            if self._last is None:
                raise CameraGone("demo camera: no frame yet")
            return self._last

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()


class _Readings:
    """The service's dice watcher, counted: ``count`` fresh readings (not motion) so far.

    It queues what it sees itself, before counting, so a counted reading is already in the
    service's inbox."""

    def __init__(self, watcher: Any, inbox: Any) -> None:
        self.watcher = watcher
        self.inbox = inbox
        self.count = 0

    def __call__(self, frame: Any) -> list[Any]:
        for seen in self.watcher(frame):
            self.inbox.put(seen)
            if not self.watcher.stillness.moving:
                self.count += 1
        return []


class CameraTable:
    """The table under the demo's camera: shows the bot's rolls as rendered frames and waits
    (without idle sleeps) until the service has read and settled them.

    ``fast``: a still roll is pushed as many times as the motion detector needs still frames
    (read at once); otherwise the camera's own pace supplies them (``idle`` s a frame)."""

    #: A roll not settled within this many seconds is given up (counted in ``timeouts``).
    LIMIT = 5.0

    def __init__(self, service: Any, camera: DemoCamera, fast: bool) -> None:
        from farmbox.vision.render.dice import render_background

        self.service = service
        self.camera = camera
        self.fast = fast
        self.readings = _Readings(service.watcher, service.inbox)
        service.watcher = self.readings
        service.FRAME_INTERVAL = 0.0  # the camera paces itself
        self.background = render_background(0, setup=0)
        self._motion: list[Any] = []
        self.scenes = self.unreadable = self.timeouts = 0

    def roll(self, seen: Any) -> bool:
        """Show the bot's move (``seen``: RollSeen, faces None = dice rolling); True when
        the service took it (armed, or the roll settled / asks to confirm)."""
        from farmbox.vision.render.dice import render_scene

        session = self.service.session
        if seen.faces is None:  # the dice are rolling: a few smeared frames, reused
            if len(self._motion) < 3:
                self._motion.append(render_scene(1000 + len(self._motion), setup=0,
                                                 motion=True)[0])
            self.camera.push(self._motion[self.scenes % len(self._motion)])
            self.scenes += 1
            return self._wait(lambda: session.armed, None)
        self.scenes += 1
        image, _ = render_scene(self.scenes, setup=0,
                                faces=(seen.faces[0].value, seen.faces[1].value))
        before = (session.state, session.phase)
        count = self.readings.count
        stills = self.readings.watcher.stillness.frames + 1 if self.fast else 1
        self.camera.push(image, stills)
        if self._wait(lambda: (session.state, session.phase) != before, count):
            return True
        self.unreadable += 1  # the bot rolls again
        self.camera.push(self.background)
        return False

    def _wait(self, target: Any, count: int | None) -> bool:
        """Handle the service's events until ``target()``; False once a fresh reading (after
        ``count``) left it unmet, or after LIMIT s."""
        inbox = self.service.inbox
        end = time.monotonic() + self.LIMIT
        while True:
            if inbox.qsize():
                self.service.drain()
            if target():
                return True
            if count is not None and self.readings.count > count and not inbox.qsize():
                return False
            if time.monotonic() > end:
                self.timeouts += 1
                return False
            with inbox.not_empty:
                inbox.not_empty.wait_for(lambda: len(inbox.queue), 0.02)
