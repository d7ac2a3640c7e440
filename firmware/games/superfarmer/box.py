"""The box's main loop: buttons + camera + dice reader -> session -> journal -> OLED, LEDs, buzzer.

Speaks the systemd notify protocol (``READY=1`` once the journal is replayed, ``STATUS=``,
``WATCHDOG=1`` at half of ``WATCHDOG_USEC``) through sdnotify and logs to stderr (journald).

    python -m farmbox.firmware.games.superfarmer.box --config C [--autoplay SEED] [--ack]

runs the service on the configured (usually simulated) hardware; ``--autoplay`` lets the
scripted bot of :mod:`farmbox.firmware.games.superfarmer.bot` play instead of people (the power-cut tests
kill -9 it mid-game) and ``--ack`` prints ``ack SEQ`` once each record is on disk.
"""

from __future__ import annotations

import argparse
import collections
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from farmbox.firmware.box.config import Config, load_config, find_config_path
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.rules.superfarmer.game import GameState
from farmbox.firmware.rules.superfarmer import variant
from farmbox.firmware.games.superfarmer.render import render
import farmbox.firmware.games.superfarmer.screens as screens
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.games.superfarmer.actions import Action, new_game_action
from farmbox.firmware.games.superfarmer.advice import prepare
from farmbox.firmware.box.loop import BoxLoop
from farmbox.firmware.box.observations import RollSeen, as_roll_seen
from farmbox.firmware.games.superfarmer.session import Session
from farmbox.firmware.box.systemd import Notifier, SystemdLink, stop_on_sigterm

log = logging.getLogger("farmbox")


@dataclass(frozen=True)
class FrameSeen:
    """The camera delivered a frame (it is alive)."""

    t: float


@dataclass(frozen=True)
class CameraLost:
    """Reading the camera failed."""

    reason: str


@dataclass(frozen=True)
class Press:
    """A button event injected by code (the autoplay bot), same meaning as a ButtonEvent."""

    name: str
    kind: str = "press"
    t_ns: int = 0


class DiceWatcher:
    """Frames in, :class:`RollSeen` out: motion (None faces) and one reading per still roll."""

    def __init__(self, reader: Any, stillness: Any) -> None:
        self.reader = reader
        self.stillness = stillness
        self._moving = False

    def __call__(self, frame: Any) -> RollSeen | None:
        fresh = self.stillness.update(frame)
        if self.stillness.change > self.stillness.threshold:
            if not self._moving:
                self._moving = True
                return RollSeen(None, 0.0, "motion")
            return None
        self._moving = False
        if fresh:
            return as_roll_seen(self.reader.read(frame))
        return None


def dice_watcher(config: Config) -> DiceWatcher | None:
    """The dice reader for ``[vision] dice_model`` (None: dice are entered on the buttons)."""
    if not config.vision.dice_model:
        return None
    from farmbox.vision.dice import DiceModel, DiceReader, Stillness  # noqa: PLC0415 (cv2 is heavy)

    return DiceWatcher(DiceReader(DiceModel.load(config.vision.dice_model)), Stillness())


class Service(BoxLoop):
    """One box: open the hardware, replay the journal, then loop over events."""

    #: Camera frames are read at most this often (s).
    FRAME_INTERVAL = 0.1

    def __init__(self, config: Config, hardware: Any = None,
                 clock: Callable[[], float] = time.monotonic,
                 notifier: Notifier | None = None,
                 watcher: Callable[[Any], RollSeen | None] | None = None,
                 on_commit: Callable[[int], None] | None = None) -> None:
        self.config = config
        self.clock = clock
        self.hw = hardware
        self._own_hw = hardware is None
        self.systemd = SystemdLink(notifier)
        self.watcher = watcher
        self.on_commit = on_commit
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.journal = SuperFarmerJournal(config.journal.dir)
        self.session: Session | None = None
        self.language = config.ui.language
        self.latencies_ns: collections.deque[int] = collections.deque(maxlen=2000)
        self._stop = threading.Event()
        self._camera_thread: threading.Thread | None = None

    # -- start --------------------------------------------------------------
    def start(self) -> Session:
        """Open everything, replay the journal, show the game, tell systemd READY=1."""
        stop_on_sigterm(self._stop)  # systemctl stop during a replay ends cleanly too
        if self.hw is None:
            from farmbox.hw import open_hardware  # noqa: PLC0415

            self.hw = open_hardware(self.config)
        tr = translator(self.language)
        self._show(screens.progress(tr, tr("REPLAYING JOURNAL"), 0.0))
        replay = self.journal.open(progress=lambda done, total: self._show(
            screens.progress(tr, tr("REPLAYING JOURNAL"), done / max(total, 1))))
        now = self.clock()
        camera = self.hw.camera is not None
        if replay.timeline is not None:
            self.session = Session(replay.players, replay.rules, self._commit, camera=camera,
                                   timeline=replay.timeline, now=now)
            log.info("resumed game at record %d (farmer %d's turn)", replay.seq,
                     replay.timeline.state.current + 1)
        else:
            rules = variant(self.config.game.variant)
            self.session = Session(self.config.game.players, rules, self._commit, camera=camera,
                                   now=now)
            self._commit(new_game_action(self.config.game.players, rules), self.session.state)
            log.info("new %s game for %d players", rules.name, self.config.game.players)
        prepare(self.session.rules)  # the advisor's table loads in the background
        if replay.dropped:
            self.session.report("journal", f"{replay.dropped}/{replay.seq}", now)
        self._refresh()
        if camera:
            self._camera_thread = threading.Thread(target=self._read_camera, name="camera",
                                                   daemon=True)
            self._camera_thread.start()
        self.systemd.ready(now, self.status())
        return self.session

    def _commit(self, action: Action, state: GameState) -> None:
        seq = self.journal.append(action, state)
        if self.on_commit is not None:
            self.on_commit(seq)

    # -- the loop -------------------------------------------------------------
    def step(self, timeout: float = 0.05) -> bool:
        """Handle at most one event (waiting up to ``timeout`` s); True if one was handled."""
        assert self.session is not None, "start() first"
        try:
            item = self.inbox.get_nowait()
        except queue.Empty:
            item = self.hw.buttons.get(timeout=timeout) if timeout else \
                self.hw.buttons.get(timeout=0)
        now = self.clock()
        if item is not None:
            self.handle(item, now)
        self.session.tick(now)
        self._refresh(getattr(item, "t_ns", 0) if getattr(item, "kind", "") != "release" else 0)
        self.systemd.ping(now)
        return item is not None

    def handle(self, item: Any, now: float) -> None:
        """One event: a button, a camera observation, a camera frame or its loss."""
        s = self.session
        assert s is not None
        try:
            if isinstance(item, FrameSeen):
                s.frame_seen(now)
            elif isinstance(item, CameraLost):
                s.camera_gone(now, item.reason)
            elif hasattr(item, "kind") and hasattr(item, "name"):
                if item.kind == "press":
                    s.press(item.name, now)
                elif item.kind == "hold":
                    s.hold(item.name, now)
            elif hasattr(item, "faces"):
                s.roll_seen(item, now)
            else:
                log.warning("ignored %r", item)
        except ValueError as exc:  # an illegal action from the table: refuse it, keep going
            log.warning("refused: %s", exc)
            s.alerts.append("mistake")

    def run(self) -> int:
        """Loop until SIGTERM/SIGINT (or :meth:`stop`)."""
        while not self._stop.is_set():
            self.step(0.05)
        self.systemd.stopping()
        return 0

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self._stop.set()
        if self._camera_thread is not None:
            self._camera_thread.join(timeout=2)
        self.journal.close()
        if self._own_hw and self.hw is not None:
            self.hw.close()

    # -- output --------------------------------------------------------------
    def _show(self, image: Any) -> None:
        self.show(self.hw.display, image)

    def _refresh(self, t_ns: int = 0) -> None:
        s = self.session
        assert s is not None
        for alert in s.take_alerts():
            self.hw.lights.alert(alert)
            self.hw.buzzer.alert(alert)
        self._show(render(s, self.language))
        if t_ns:
            self.latencies_ns.append(time.monotonic_ns() - t_ns)
        self.systemd.status(self.status())

    def status(self) -> str:
        """The one-line STATUS for systemd: whose turn, the journal record, the phase."""
        s = self.session
        assert s is not None
        st = s.state
        return (f"game over, farmer {st.winner + 1} won" if st.over and st.winner is not None
                else f"farmer {st.current + 1}'s turn {st.turns[st.current] + 1}, "
                     f"record {self.journal.seq}, {s.phase.value}")

    # -- camera ---------------------------------------------------------------
    def _read_camera(self) -> None:
        from farmbox.hw.camera import CameraGone  # noqa: PLC0415

        camera = self.hw.camera
        last_alive = 0.0
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                frame = camera.read()
            except CameraGone as exc:
                self.inbox.put(CameraLost(str(exc)))
                self._stop.wait(0.25)
                continue
            except Exception as exc:  # a bad frame must not kill the reader
                self.inbox.put(CameraLost(f"camera: {exc}"))
                self._stop.wait(0.25)
                continue
            if started - last_alive > 0.3:
                self.inbox.put(FrameSeen(started))
                last_alive = started
            if self.watcher is not None:
                try:
                    seen = self.watcher(frame)
                except Exception as exc:  # a reader bug must not stop the camera
                    log.warning("dice reader: %s", exc)
                    seen = None
                if seen is not None:
                    self.inbox.put(seen)
            self._stop.wait(max(0.0, self.FRAME_INTERVAL - (time.monotonic() - started)))


def state_digest(state: GameState) -> str:
    """CRC32 of a game state's canonical JSON (the power-cut tests compare resumed states)."""
    import json  # noqa: PLC0415
    import zlib  # noqa: PLC0415

    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(text.encode()):08x}"


def setup_logging() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")


def main(argv: list[str] | None = None) -> int:
    """``python -m farmbox.firmware.games.superfarmer.box``: the service, optionally played by the autoplay bot."""
    parser = argparse.ArgumentParser(prog="python -m farmbox.firmware.games.superfarmer.box")
    parser.add_argument("--config", help="settings file (default: /etc or packaged)")
    parser.add_argument("--autoplay", type=int, metavar="SEED", help="let the bot play")
    parser.add_argument("--undo-every", type=int, default=0, metavar="N",
                        help="autoplay: undo after every N-th record")
    parser.add_argument("--ack", action="store_true", help="print 'ack SEQ' after each fsync")
    parser.add_argument("--turns", type=int, default=0,
                        help="autoplay: stop after this many records (0: when the game ends)")
    args = parser.parse_args(argv)
    setup_logging()
    try:
        config = load_config(find_config_path(args.config))
    except (ValueError, OSError) as exc:
        print(f"farmbox: error: {exc}", file=sys.stderr)
        return 2

    def ack(seq: int) -> None:
        if args.ack:
            sys.stdout.write(f"ack {seq}\n")
            sys.stdout.flush()

    service = Service(config, on_commit=ack, watcher=dice_watcher(config))
    try:
        session = service.start()
        if args.ack:
            print(f"ready {service.journal.seq} {state_digest(session.state)}", flush=True)
        if args.autoplay is None:
            return service.run()
        from farmbox.firmware.games.superfarmer.bot import Bot  # noqa: PLC0415

        bot = Bot(args.autoplay, undo_every=args.undo_every)
        while True:
            move = bot.next_input(session, service.journal.seq)
            if move is None or (args.turns and service.journal.seq >= args.turns):
                break
            service.inbox.put(move if not isinstance(move, tuple) else Press(move[1], move[0]))
            service.drain()
        print(f"done {service.journal.seq}", flush=True)
        return 0
    finally:
        service.close()


if __name__ == "__main__":
    sys.exit(main())
