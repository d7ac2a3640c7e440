"""The Fun Farm box on real (or simulated) hardware: camera -> readers -> referee -> OLED.

:class:`TableWatcher` turns camera frames into the referee's observations: while the table
moves it says so once (``DiceSeen(None, None)``: the dice are rolling); when it is still
again it reports the cards on the table (:class:`CardsSeen`) and then the dice
(:class:`DiceSeen`). So the Farmer turns a card, lets the table settle for a moment, then
rolls. :func:`serve` runs the whole box until SIGTERM (``farmbox run`` with
``[game] mode = "funfarm"``), speaking systemd's notify protocol like the Super Farmer
service (READY once the journal is replayed, STATUS, WATCHDOG, STOPPING).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from farmbox.firmware.box.config import Config
from farmbox.firmware.games.funfarm.session import CameraLost, CardsSeen, DiceSeen, FunFarmJournal, Referee
from farmbox.firmware.box.systemd import Notifier, Running, serve_game

log = logging.getLogger("farmbox.funfarm")


class TableWatcher:
    """Frames in, observations out (a list, maybe empty, per frame)."""

    def __init__(self, read_cards: Callable[[Any], list[str]] | None,
                 read_dice: Callable[[Any], DiceSeen] | None, stillness: Any) -> None:
        self.read_cards = read_cards
        self.read_dice = read_dice
        self.stillness = stillness
        self._moving = False

    def __call__(self, frame: Any) -> list[Any]:
        fresh = self.stillness.update(frame)
        if self.stillness.change > self.stillness.threshold:
            if not self._moving:
                self._moving = True
                return [DiceSeen(None, None)]
            return []
        self._moving = False
        if not fresh:
            return []
        out: list[Any] = []
        if self.read_cards is not None:
            out.append(CardsSeen(tuple(self.read_cards(frame))))
        if self.read_dice is not None:
            out.append(self.read_dice(frame))
        return out


def table_watcher(config: Config) -> TableWatcher | None:
    """The readers ``[vision] cards_model`` and ``colour_dice_model`` name (None: no models,
    the Farmer enters cards and dice on the buttons)."""
    v = config.vision
    if not v.cards_model and not v.colour_dice_model:
        return None
    from farmbox.vision.dice import Stillness  # noqa: PLC0415 (cv2 is heavy)

    read_cards = read_dice = None
    if v.cards_model:
        from farmbox.vision.cards import CardReader, load_model  # noqa: PLC0415

        reader = CardReader(load_model(v.cards_model))
        read_cards = lambda frame: [r.id for r in reader.read(frame) if r.id]  # noqa: E731
    if v.colour_dice_model:
        from farmbox.vision import colour_dice  # noqa: PLC0415

        model = colour_dice.load_model(v.colour_dice_model)

        def read_dice(frame: Any) -> DiceSeen:
            r = colour_dice.read_frame(model, frame)
            return DiceSeen(r.dice.get("black"), r.dice.get("white"), r.confidence)
    return TableWatcher(read_cards, read_dice, Stillness())


def watch_camera(referee: Referee, camera: Any, watcher: TableWatcher, stop: threading.Event,
                 interval: float = 0.1) -> None:
    """Read frames until ``stop``; every observation goes to the referee's inbox."""
    from farmbox.hw.camera import CameraGone  # noqa: PLC0415

    while not stop.is_set():
        started = time.monotonic()
        try:
            frame = camera.read()
            for obs in watcher(frame):
                referee.inbox.put((obs, time.monotonic_ns()))
        except CameraGone as exc:
            log.warning("camera: %s", exc)
            referee.inbox.put((CameraLost(str(exc)), time.monotonic_ns()))
            stop.wait(0.25)
            continue
        except Exception as exc:  # a reader bug must not stop the camera
            log.warning("table reader: %s", exc)
        stop.wait(max(0.0, interval - (time.monotonic() - started)))


def status(referee: Referee) -> str:
    """The one-line STATUS for systemd: round, phase, cards caught (or the winner)."""
    st = referee.session.state
    if st.over and st.winner is not None:
        return f"game over, player {st.winner + 1} won with {st.scores[st.winner]} cards"
    return (f"round {st.round}, {st.phase.value}, {len(st.draw_pile)} cards to turn, "
            f"caught {'/'.join(map(str, st.scores))}")


def serve(config: Config, hardware: Any = None, stop: threading.Event | None = None,
          notifier: Notifier | None = None) -> int:
    """Run the referee on ``config``'s hardware until SIGTERM/SIGINT (or ``stop``)."""
    from farmbox.firmware.rules.funfarm import FunFarmRules  # noqa: PLC0415
    from farmbox.firmware.games.funfarm.screens import render  # noqa: PLC0415

    def start(hw: Any, stop: threading.Event) -> Running:
        watcher = table_watcher(config) if hw.camera is not None else None
        language = config.ui.language
        referee = Referee(hw, lambda s: render(s, language), FunFarmJournal(config.journal.dir),
                          config.game.players, FunFarmRules(), camera=watcher is not None,
                          rng=random.Random())
        log.info("Fun Farm for %d players, record %d", referee.session.state.players,
                 referee.journal.seq)
        camera = None
        if watcher is not None:
            camera = threading.Thread(target=watch_camera, args=(referee, hw.camera, watcher,
                                                                 stop), name="camera", daemon=True)
            camera.start()

        def close() -> None:
            stop.set()
            if camera is not None:
                camera.join(timeout=2)
            referee.close()

        return Running(referee.step, lambda: status(referee), close)

    return serve_game(config, start, hardware, stop, notifier)
