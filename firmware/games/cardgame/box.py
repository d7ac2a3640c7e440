"""The card game's scorekeeper on the box (``farmbox run`` with ``[game] mode = "cardgame"``).

:class:`CardgameBox` is the scorekeeper session on the box's one runtime: button events in,
actions to the journal (fsync'ed) and frames to the OLED, alerts to the LEDs and buzzer,
systemd told (READY once the journal is replayed and the screen is up, STATUS, WATCHDOG,
STOPPING). A new game's setup screens start from ``[game] players``.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from farmbox.firmware.box import runtime
from farmbox.firmware.box.config import Config
from farmbox.firmware.box.drawing import notices
from farmbox.firmware.box.events import Event
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.observations import Remote
from farmbox.firmware.box.runtime import Box
from farmbox.firmware.box.systemd import Notifier
from farmbox.firmware.games.cardgame.screens import render
from farmbox.firmware.games.cardgame.session import (
    CardgameJournal,
    Phase,
    Scorekeeper,
    Setup,
    winners,
)

log = logging.getLogger("farmbox.cardgame")

BUTTONS = ("prev", "next", "ok", "back")


class CardgameBox(Box[Scorekeeper]):
    """One box keeping the card game's score: hardware + journal + scorekeeper."""

    USES_CAMERA = False  # the scores are entered on the buttons

    def __init__(self, hardware: Any, journal_dir: str | Path, language: str = "en",
                 setup: Setup | None = None, notifier: Notifier | None = None) -> None:
        super().__init__(hardware, notifier=notifier)
        self.journal = CardgameJournal(journal_dir)
        self.language = language
        self.setup = setup
        self.keeper: Scorekeeper | None = None
        self.dropped = 0

    def begin(self) -> None:
        """Replay the journal (resuming the entry where it stopped)."""
        replay = self.journal.open()
        self.dropped = replay.dropped
        self.keeper = Scorekeeper(self.setup, self._commit, replay.timeline)
        if replay.dropped:
            log.warning("journal: %s", replay.problem)
            self.keeper.alerts.append("error")
        log.info("card game: %s, record %d", "resumed" if self.keeper.state else "new game",
                 self.journal.seq)

    def game(self) -> Scorekeeper:
        assert self.keeper is not None
        return self.keeper

    def _commit(self, action: dict[str, Any], state: Any) -> None:
        seq = self.journal.append(action, state)
        self.events.publish(Event("action", seq, {
            "action": action, "state": None if state is None else state.to_dict()}))

    def handle(self, item: Any, now: float) -> None:
        """One button event, or a command from the table view (the inbox); a refused
        action is a "mistake" alert, never a crash."""
        keeper = self.keeper
        assert keeper is not None, "start() first"
        if isinstance(item, Remote):
            self.remote(item)
            return
        name, kind = getattr(item, "name", ""), getattr(item, "kind", "")
        if name not in BUTTONS or kind not in ("press", "hold"):
            return
        (keeper.press if kind == "press" else keeper.hold)(name)

    def remote(self, command: Remote) -> None:
        """``undo`` the last action, start a ``new_game`` with this game's setup, or
        ``correct`` a scored round's points (round, seat, points); journaled as the buttons'."""
        keeper = self.keeper
        assert keeper is not None
        if command.name == "undo":
            if not keeper.can_undo:
                raise ValueError("nothing to undo")
            keeper.hold("ok")
        elif command.name == "new_game":
            keeper.new_game()
        elif command.name == "correct":
            args = command.args
            keeper.correct(args.get("round"), args.get("seat"), args.get("points"))  # type: ignore[arg-type]
        else:
            raise ValueError(f"no command {command.name!r} in the card game")

    def refused(self, problem: str) -> None:
        assert self.keeper is not None
        self.keeper.alerts.append("mistake")

    def take_alerts(self) -> list[str]:
        assert self.keeper is not None
        return self.keeper.take_alerts()

    def frame(self) -> Any:
        assert self.keeper is not None
        if self.keeper.showing_url:
            return notices.table_view(translator(self.language), self.table_url)
        return render(self.keeper, self.language, self.names)

    def end(self) -> None:
        self.journal.close()

    def status(self) -> str:
        """The one-line STATUS for systemd: the round, what is being entered, the track."""
        keeper = self.keeper
        if keeper is None:
            return "starting"
        state = keeper.state
        if state is None:
            return "setting up a new game"
        track = "/".join(map(str, state.scores))
        if keeper.phase is Phase.WINNER and state.results:
            seats, _ = winners(state)
            who = " and ".join(f"farmer {s + 1}" for s in seats)
            return f"game over, {who} won; scores {track}"
        return f"round {state.round}, {keeper.phase.value}, record {self.journal.seq}, scores {track}"


def status(box: CardgameBox) -> str:
    """The box's STATUS line (see :meth:`CardgameBox.status`)."""
    return box.status()


def open_box(config: Config, hardware: Any = None, notifier: Notifier | None = None) -> CardgameBox:
    """The scorekeeper on ``config``'s hardware (opened by :meth:`Box.start` unless given)."""
    box = CardgameBox(hardware, config.journal.dir, config.ui.language,
                      setup=Setup(players=config.game.players), notifier=notifier)
    box._settings = config
    return box


def serve(config: Config, hardware: Any = None, stop: threading.Event | None = None,
          notifier: Notifier | None = None) -> int:
    """Keep the card game's score on ``config``'s hardware until SIGTERM/SIGINT (or ``stop``)."""
    return runtime.serve(open_box(config, hardware, notifier), stop)
