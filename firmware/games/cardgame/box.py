"""The card game's scorekeeper as the box's service (``farmbox run`` with
``[game] mode = "cardgame"``).

Opens the hardware, replays the journal (:class:`~farmbox.firmware.games.cardgame.demo.CardgameBox`),
then handles button events until SIGTERM, speaking systemd's notify protocol like the Super
Farmer service: READY once the journal is replayed and the screen is up, STATUS, WATCHDOG
at half of ``WATCHDOG_USEC``, STOPPING. A new game's setup screens start from
``[game] players``.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from farmbox.firmware.box.config import Config
from farmbox.firmware.games.cardgame.demo import CardgameBox
from farmbox.firmware.games.cardgame.session import Phase, Setup, winners
from farmbox.firmware.box.systemd import Notifier, Running, serve_game

log = logging.getLogger("farmbox.cardgame")


def status(box: CardgameBox) -> str:
    """The one-line STATUS for systemd: the round, what is being entered, the track."""
    keeper = box.keeper
    assert keeper is not None
    state = keeper.state
    if state is None:
        return "setting up a new game"
    track = "/".join(map(str, state.scores))
    if keeper.phase is Phase.WINNER and state.results:
        seats, _ = winners(state)
        who = " and ".join(f"farmer {s + 1}" for s in seats)
        return f"game over, {who} won; scores {track}"
    return f"round {state.round}, {keeper.phase.value}, record {box.journal.seq}, scores {track}"


def serve(config: Config, hardware: Any = None, stop: threading.Event | None = None,
          notifier: Notifier | None = None) -> int:
    """Keep the card game's score on ``config``'s hardware until SIGTERM/SIGINT (or ``stop``)."""

    def start(hw: Any, stop: threading.Event) -> Running:
        box = CardgameBox(hw, config.journal.dir, config.ui.language,
                          setup=Setup(players=config.game.players))
        try:
            keeper = box.start()
        except BaseException:
            box.close()
            raise
        log.info("card game: %s, record %d", "resumed" if keeper.state else "new game",
                 box.journal.seq)
        return Running(box.step, lambda: status(box), box.close)

    return serve_game(config, start, hardware, stop, notifier)
