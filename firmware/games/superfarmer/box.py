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
import json
import logging
import sys
import time
import zlib
from collections.abc import Callable
from typing import Any

import farmbox.firmware.games.superfarmer.screens as screens
from farmbox.firmware.box.camera import Reader, StillTable
from farmbox.firmware.box.config import Config, find_config_path, load_config
from farmbox.firmware.box.events import Event
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.observations import (
    CameraLost,
    DieCrop,
    FrameSeen,
    Press,
    Remote,
    RollSeen,
    as_roll_seen,
)
from farmbox.firmware.box.runtime import Box
from farmbox.firmware.box.systemd import Notifier
from farmbox.firmware.games.superfarmer.actions import Action, new_game_action
from farmbox.firmware.games.superfarmer.advice import prepare
from farmbox.firmware.games.superfarmer.bot import Bot
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.games.superfarmer.render import render
from farmbox.firmware.games.superfarmer.session import Session
from farmbox.firmware.rules.superfarmer import variant
from farmbox.firmware.rules.superfarmer.dice import Roll
from farmbox.firmware.rules.superfarmer.game import GameState

log = logging.getLogger("farmbox")


def dice_reader(config: Config) -> StillTable | None:
    """The dice reader for ``[vision] dice_model`` (None: dice are entered on the buttons):
    motion once when the dice move (faces None), one reading per still roll."""
    if not config.vision.dice_model:
        return None
    from farmbox.vision.dice import DiceModel, DiceReader, Stillness  # cv2 is heavy: load on use

    reader = DiceReader(DiceModel.load(config.vision.dice_model))
    return StillTable(Stillness(), lambda: [RollSeen(None, 0.0, "motion")],
                      lambda frame: [read_roll(reader, frame)])


#: A die's picture for the table view: this many pixels square, this JPEG quality.
CROP_SIZE = 96
CROP_QUALITY = 80


def read_roll(reader: Any, frame: Any) -> RollSeen:
    """The reader's verdict on one still frame, with the camera's picture of each die it
    finds (a small JPEG square around the die, for the table view)."""
    import cv2  # with the reader: only on a box that reads dice

    seen = as_roll_seen(reader.read(frame))
    crops = []
    h, w = frame.shape[:2]
    find = getattr(reader, "find", None)  # a reader that cannot say where the dice are: none
    for die, blob in zip(("green", "red"), find(frame) if find is not None else ()):
        if blob is None:
            continue
        half = int(round(1.4 * blob.radius))
        x, y = int(round(blob.centre[0])), int(round(blob.centre[1]))
        box = frame[max(0, y - half):min(h, y + half), max(0, x - half):min(w, x + half)]
        if box.size == 0:
            continue
        square = cv2.resize(box, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", square, [cv2.IMWRITE_JPEG_QUALITY, CROP_QUALITY])
        if ok:
            crops.append(DieCrop(die, jpeg.tobytes()))
    return RollSeen(seen.faces, seen.confidence, seen.reason, seen.source, tuple(crops))


class Service(Box[Session]):
    """One Super Farmer table: the journal replayed, then events -> session -> screen."""

    def __init__(self, config: Config, hardware: Any = None,
                 clock: Callable[[], float] = time.monotonic,
                 notifier: Notifier | None = None,
                 watcher: Reader | None = None,
                 on_commit: Callable[[int], None] | None = None) -> None:
        super().__init__(hardware, settings=config, clock=clock, notifier=notifier,
                         reader=watcher)
        self.config = config
        self.on_commit = on_commit
        self.journal = SuperFarmerJournal(config.journal.dir)
        self.session: Session | None = None
        self.language = config.ui.language

    # -- start --------------------------------------------------------------
    def begin(self) -> None:
        """Replay the journal (a progress screen while it runs) and resume or start a game."""
        tr = translator(self.language)
        self.show(screens.progress(tr, tr("REPLAYING JOURNAL"), 0.0))
        replay = self.journal.open(progress=lambda done, total: self.show(
            screens.progress(tr, tr("REPLAYING JOURNAL"), done / max(total, 1))))
        now = self.clock()
        camera = self.hw.camera is not None
        if replay.timeline is not None and replay.rules is not None:
            self.session = Session(replay.players, replay.rules, self._commit, camera=camera,
                                   timeline=replay.timeline, now=now)
            log.info("resumed game at record %d (farmer %d's turn)", replay.seq,
                     replay.timeline.state.current + 1)
        else:
            rules = variant(self.config.game.variant)
            self.session = Session(self.config.game.players, rules, self._commit, camera=camera,
                                   now=now)
            first = new_game_action(self.config.game.players, rules)
            state = self.session.state
            self.retry_write(lambda: self._commit(first, state))  # a full disk is waited out
            log.info("new %s game for %d players", rules.name, self.config.game.players)
        prepare(self.session.rules)  # the advisor's table loads in the background
        if replay.dropped:
            self.session.report("journal", f"{replay.dropped}/{replay.seq}", now)

    def game(self) -> Session:
        assert self.session is not None, "start() first"
        return self.session

    def _commit(self, action: Action, state: GameState) -> None:
        seq = self.journal.append(action, state)
        self.events.publish(Event("action", seq, {"action": action, "state": state.to_dict()}))
        if self.on_commit is not None:
            self.on_commit(seq)

    # -- events ---------------------------------------------------------------
    def handle(self, item: Any, now: float) -> None:
        """One event: a button, a camera observation, a camera frame or its loss."""
        s = self.session
        assert s is not None, "start() first"
        if isinstance(item, FrameSeen):
            s.frame_seen(now)
        elif isinstance(item, CameraLost):
            s.camera_gone(now, item.reason)
        elif isinstance(item, RollSeen):
            s.roll_seen(item, now)
        elif isinstance(item, Remote):
            self.remote(item)
        elif hasattr(item, "kind") and hasattr(item, "name"):
            if item.kind == "press":
                s.press(item.name, now)
            elif item.kind == "hold":
                s.hold(item.name, now)
        else:
            log.warning("ignored %r", item)

    def remote(self, command: Remote) -> None:
        """A command from the table view: ``roll`` (green, red: entered there, journaled as
        from the web) or ``new_game`` (at any point, like the box's own new game)."""
        s = self.session
        assert s is not None
        if command.name == "roll":
            s.entered(Roll.parse(f"{command.args.get('green')},{command.args.get('red')}"), "web")
        elif command.name == "new_game":
            s.new_game()
        else:
            raise ValueError(f"no command {command.name!r} in Super Farmer")

    def refused(self, problem: str) -> None:
        assert self.session is not None
        self.session.alerts.append("mistake")

    def tick(self, now: float) -> None:
        assert self.session is not None
        self.session.tick(now)

    def take_alerts(self) -> list[str]:
        assert self.session is not None
        return self.session.take_alerts()

    def frame(self) -> Any:
        assert self.session is not None
        return render(self.session, self.language, self.names, self.table_url)

    def end(self) -> None:
        self.journal.close()

    def status(self) -> str:
        """The one-line STATUS for systemd: whose turn, the journal record, the phase."""
        s = self.session
        if s is None:
            return "starting"
        st = s.state
        return (f"game over, farmer {st.winner + 1} won" if st.over and st.winner is not None
                else f"farmer {st.current + 1}'s turn {st.turns[st.current] + 1}, "
                     f"record {self.journal.seq}, {s.phase.value}")


def open_box(config: Config, hardware: Any = None, notifier: Notifier | None = None) -> Service:
    """Super Farmer on ``config``'s hardware, dice read by the camera when a model is set."""
    return Service(config, hardware, notifier=notifier, watcher=dice_reader(config))


def state_digest(state: GameState) -> str:
    """CRC32 of a game state's canonical JSON (the power-cut tests compare resumed states)."""

    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(text.encode()):08x}"


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
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(find_config_path(args.config))
    except (ValueError, OSError) as exc:
        print(f"farmbox: error: {exc}", file=sys.stderr)
        return 2

    def ack(seq: int) -> None:
        if args.ack:
            sys.stdout.write(f"ack {seq}\n")
            sys.stdout.flush()

    service = Service(config, on_commit=ack, watcher=dice_reader(config))
    try:
        session = service.start()
        if args.ack:
            print(f"ready {service.journal.seq} {state_digest(session.state)}", flush=True)
        if args.autoplay is None:
            return service.run()

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
