"""The Fun Farm box on real (or simulated) hardware: buzzers + camera -> referee -> OLED.

:func:`table_reader` turns camera frames into the referee's observations: while the table
moves it says so once (``DiceSeen(None, None)``: the dice are rolling); when it is still
again it reports the cards on the table (:class:`CardsSeen`) and then the dice
(:class:`DiceSeen`). So the Farmer turns a card, lets the table settle for a moment, then
rolls. :class:`Referee` is the game on the box's one runtime (:mod:`farmbox.firmware.box.runtime`):
``farmbox run`` with ``[game] mode = "funfarm"``.
"""

from __future__ import annotations

import collections
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from farmbox.firmware.box import runtime
from farmbox.firmware.box.camera import Reader, StillTable
from farmbox.firmware.box.config import Config, ConfigError
from farmbox.firmware.box.drawing import notices
from farmbox.firmware.box.events import Event
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.observations import CameraLost, CardsSeen, DiceSeen, Remote
from farmbox.firmware.box.runtime import Box
from farmbox.firmware.box.systemd import Notifier
from farmbox.firmware.games.funfarm.deck_file import read_deck
from farmbox.firmware.games.funfarm.screens import render as render_screen
from farmbox.firmware.games.funfarm.session import (
    RACE_TIME,
    RACE_WAIT_NS,
    TIE_NS,
    Action,
    Buzz,
    FunFarmJournal,
    FunFarmSession,
    Recorded,
    player_of,
)
from farmbox.firmware.rules.funfarm import (
    BuzzTakes,
    Escaped,
    FunFarmRules,
    InvalidDeck,
    TieRule,
)

log = logging.getLogger("farmbox.funfarm")


def table_reader(config: Config) -> StillTable | None:
    """The readers ``[vision] cards_model`` and ``colour_dice_model`` name (None: no models,
    the Farmer enters cards and dice on the buttons)."""
    v = config.vision
    if not v.cards_model and not v.colour_dice_model:
        return None
    from farmbox.vision.dice import Stillness  # cv2 is heavy: load on use

    read_cards = read_dice = None
    if v.cards_model:
        from farmbox.vision.cards import CardReader, load_model

        reader = CardReader(load_model(v.cards_model))

        def read_cards(frame: Any) -> list[CardOnTable]:
            return [(r.id, r.corners) for r in reader.read(frame)]
    if v.colour_dice_model:
        from farmbox.vision import colour_dice

        model = colour_dice.load_model(v.colour_dice_model)

        def read_dice(frame: Any, cards: Sequence[CardOnTable]) -> DiceSeen:
            r = colour_dice.read_frame(model, frame, [c for cid, c in cards if cid],
                                       [c for cid, c in cards if not cid])
            return DiceSeen(r.dice.get("black"), r.dice.get("white"), r.confidence,
                            time.monotonic_ns())
    return TableWatcher(read_cards, read_dice, Stillness())


#: A card on the table: its id (None: found and not read, partly under another card or unsure)
#: and its corners in the frame.
CardOnTable = tuple[str | None, Any]


def TableWatcher(read_cards: Callable[[Any], list[CardOnTable]] | None,
                 read_dice: Callable[[Any, Sequence[CardOnTable]], DiceSeen] | None, stillness: Any) -> StillTable:
    """Cards then dice, read once per still table; ``DiceSeen(None, None)`` once it moves.  The
    cards (those read, and where most of them differs from the table those found and not read)
    are left out of the dice search: each shows a small white and a small black die."""

    def still(frame: Any) -> list[Any]:
        out: list[Any] = []
        cards = read_cards(frame) if read_cards is not None else []
        if read_cards is not None:
            out.append(CardsSeen(tuple(cid for cid, _ in cards if cid)))
        if read_dice is not None:
            out.append(read_dice(frame, cards))
        return out

    return StillTable(stillness, lambda: [DiceSeen(None, None, 1.0, time.monotonic_ns())], still)


class Referee(Box[FunFarmSession]):
    """Buzzers + observations -> session -> display, LEDs and buzzer.

    ``hardware`` needs ``.buttons`` (a :class:`farmbox.hw.buttons.ButtonPanel`: its ``down``
    events are switched on here), ``.alert(name)`` and ``.display.show(image)``; ``render``
    turns the session into a frame. The journal is replayed here, so the referee is ready to
    step at once; camera readings arrive on :attr:`inbox`.
    """

    def __init__(self, hardware: Any, render: Callable[[FunFarmSession, Sequence[str]], Any],
                 journal: FunFarmJournal, players: int, rules: FunFarmRules | None = None,
                 camera: bool = False, rng: random.Random | None = None,
                 notifier: Notifier | None = None, reader: Reader | None = None,
                 race_time: float = RACE_TIME, deck: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(hardware, notifier=notifier, reader=reader, clock=clock)
        self.render = render
        self.journal = journal
        hardware.buttons.down_events = True
        replay = journal.open()
        if replay.state is not None and replay.rules is not None:
            # The game goes on with the rules its journal began with (an exact replay).
            self.session = FunFarmSession(replay.players, replay.rules, self._commit,
                                          camera=camera, state=replay.state, rng=rng,
                                          race_time=replay.race_time, history=replay.history,
                                          deck=(replay.game or {}).get("deck"))
            log.info("resumed Fun Farm game at record %d", replay.seq)
            if rules is not None:  # the settings' rules start with the next game
                self.session.next_game = (rules, race_time, deck)
        else:
            # The new game's first record: a full disk at start-up is waited out on the OLED.
            self.session = FunFarmSession(players, rules or FunFarmRules(), self._first_commit,
                                          camera=camera, rng=rng, deck=deck,
                                          race_time=race_time)
            self.session._commit = self._commit
        if replay.dropped:
            self.session.report("journal", f"{replay.dropped}/{replay.seq}", time.monotonic())
        #: Button events read while gathering a race but belonging after it.
        self._pending: collections.deque[Any] = collections.deque()
        self.refresh()

    def game(self) -> FunFarmSession:
        return self.session

    def _first_commit(self, action: Action, recorded: Recorded) -> None:
        self.retry_write(lambda: self._commit(action, recorded))

    def _commit(self, action: Action, recorded: Recorded) -> None:
        """Journal the action (fsync'ed), then tell every follower (web view, MQTT)."""
        seq = self.journal.append(action, recorded)
        self.events.publish(Event("action", seq, {"action": action, "state": recorded.to_dict()}))

    def next_event(self, timeout: float) -> Any:
        if self._pending and self.inbox.empty():
            return self._pending.popleft()
        return super().next_event(timeout)

    def waits(self, item: Any) -> bool:
        """While a journal write is retried, a buzz waits too: it is a race at the table
        (its push time was taken in the GPIO callback), not an answer to the screen."""
        if getattr(item, "kind", None) == "down" and player_of(getattr(item, "name", "")) is not None:
            return True
        return super().waits(item)

    def handle(self, item: Any, now: float) -> None:
        """One observation, or one button event (a buzz race as a whole)."""
        if isinstance(item, CardsSeen):
            self.session.cards_seen(item)
        elif isinstance(item, DiceSeen):
            self.session.dice_seen(item, item.t_ns)
        elif isinstance(item, CameraLost):
            self.session.camera_lost(item.reason, now)
        elif isinstance(item, Remote):
            self.remote(item)
        elif hasattr(item, "kind") and hasattr(item, "name"):
            self._button(item)

    def remote(self, command: Remote) -> None:
        """A command from the table view: ``undo`` the last action, ``award`` the open race
        to a player, start a ``new_game``; each journaled like the buttons' actions."""
        if command.name == "undo":
            self.session.undo()
        elif command.name == "award":
            self.session.award(int(command.args.get("player", -1)))
        elif command.name == "new_game":
            self.session.new_game()
        else:
            raise ValueError(f"no command {command.name!r} in Fun Farm")

    def _button(self, ev: Any) -> None:
        player = player_of(ev.name)
        if player is None:
            if ev.kind == "press":
                self.session.press(ev.name, ev.t_ns)
            elif ev.kind == "hold":
                self.session.hold(ev.name, ev.t_ns)
            return
        if ev.kind != "down":
            return
        # Gather every push of the same millisecond: wait out the window if it is still
        # open (callbacks may queue slightly late), and take what is queued from inside it.
        pushes = [Buzz(ev.t_ns, player)]
        later: list[Any] = []
        deadline = ev.t_ns + TIE_NS + RACE_WAIT_NS
        while True:
            left = deadline - time.monotonic_ns()
            more = (self._pending.popleft() if self._pending
                    else self.hw.buttons.get(timeout=max(left, 0) / 1e9))
            if more is None:
                break
            if more.t_ns >= deadline:
                self._pending.appendleft(more)
                break
            p = player_of(more.name)
            if p is not None and more.kind == "down":
                pushes.append(Buzz(more.t_ns, p))
            elif p is None:
                later.append(more)
        self.session.buzzes(pushes)
        for other in later:
            try:
                self._button(other)
            except ValueError as exc:  # one refused press must not lose the others
                log.warning("refused: %s", exc)
                self.refused(str(exc))

    def refused(self, problem: str) -> None:
        self.session.alerts.append("mistake")

    def tick(self, now: float) -> None:
        self.session.tick(now)

    def take_alerts(self) -> list[str]:
        return self.session.take_alerts()

    def frame(self) -> Any:
        if self.session.showing_url:
            return notices.table_view(translator(self.language), self.table_url)
        return self.render(self.session, self.names)

    def end(self) -> None:
        self.journal.close()

    def status(self) -> str:
        """The one-line STATUS for systemd: round, phase, cards caught (or the winner)."""
        st = self.session.state
        if st.over and st.winner is not None:
            return f"game over, player {st.winner + 1} won with {st.totals[st.winner]} cards"
        if st.over:
            return (f"game over, players {' and '.join(str(p + 1) for p in st.contenders)} "
                    f"share the win")
        return (f"round {st.round}, {st.phase.value}, {len(st.draw_pile)} cards to turn, "
                f"caught {'/'.join(map(str, st.scores))}")


def status(referee: Referee) -> str:
    """The referee's STATUS line (see :meth:`Referee.status`)."""
    return referee.status()


def rules_of(config: Config) -> FunFarmRules:
    """The rules ``[funfarm]`` asks for, with its deck file read and checked; a bad deck is
    one :class:`ConfigError` line naming the file, the card and the problem."""
    ff = config.funfarm
    try:
        deck = read_deck(ff.deck or None)
    except InvalidDeck as exc:
        raise ConfigError(f"{config.source}: [funfarm] deck: {exc}") from None
    return FunFarmRules(deck=deck, tie=TieRule(ff.tie), buzz_takes=BuzzTakes(ff.buzz_takes),
                        escaped=Escaped(ff.escaped))


def open_box(config: Config, hardware: Any = None, notifier: Notifier | None = None) -> Referee:
    """The Fun Farm referee on ``config``'s hardware (opened here unless given); a bad
    ``[funfarm] deck`` refuses to start before any hardware is opened."""
    from farmbox.hw import open_hardware

    rules = rules_of(config)
    hw = hardware if hardware is not None else open_hardware(config)
    reader = table_reader(config) if hw.camera is not None else None
    language = config.ui.language
    referee = Referee(hw, lambda s, names: render_screen(s, language, names), FunFarmJournal(config.journal.dir),
                      config.game.players, rules, camera=reader is not None,
                      rng=random.Random(), notifier=notifier, reader=reader,
                      race_time=config.funfarm.race_time, deck=config.funfarm.deck or None)
    referee._own_hw = hardware is None
    referee.language = language
    log.info("Fun Farm for %d players, record %d", referee.session.state.players,
             referee.journal.seq)
    return referee


def serve(config: Config, hardware: Any = None, stop: threading.Event | None = None,
          notifier: Notifier | None = None) -> int:
    """Run the referee on ``config``'s hardware until SIGTERM/SIGINT (or ``stop``)."""
    return runtime.serve(open_box(config, hardware, notifier), stop)
