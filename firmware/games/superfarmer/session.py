"""The Super Farmer bookkeeper: whose turn, the exchange menu, roll entry, settle, places.

Four buttons drive it (``prev``/``next``/``ok``/``back``; holding any of them undoes the last
action) and the dice reader feeds it :class:`RollSeen` observations. Every settled action goes
through ``commit(action, state)`` (the journal: written and fsync'ed) *before* the session's
state changes, so the screen never shows what is not on disk.

Time is injected (``now`` arguments, seconds of a monotonic clock), so tests need no sleeping.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass

from farmbox.firmware.box.observations import RollSeen, as_roll_seen
from farmbox.firmware.games.superfarmer.actions import Action, Timeline, new_game_action
from farmbox.firmware.games.superfarmer.advice import Offer, offers
from farmbox.firmware.rules.superfarmer import EventKind, Rules
from farmbox.firmware.rules.superfarmer.dice import GREEN, RED, Face, Roll
from farmbox.firmware.rules.superfarmer.game import GameState, new_state

log = logging.getLogger(__name__)

#: A camera reading at least this sure is settled without asking.
CONFIDENT = 0.9
#: No frame for this long means the camera is gone (the alert must show within 2 s).
CAMERA_TIMEOUT = 1.5
#: A notice (camera gone, journal repaired) stays up this long unless a button dismisses it.
NOTICE_SECONDS = 4.0

GREEN_FACES: tuple[Face, ...] = GREEN.distinct()
RED_FACES: tuple[Face, ...] = RED.distinct()

Commit = Callable[[Action, GameState], None]


class Phase(enum.Enum):
    FARM = "farm"            # the current farm; ok: enter dice, next: exchange, prev: herd
    STOCK = "stock"          # the main herd; prev: the table view's address
    TABLE_VIEW = "table_view"  # the table view's URL and QR code (phones scan it)
    LAST_ROLL = "last_roll"  # the last roll and what it did
    TRADE = "trade"          # the exchange menu
    CONSENT = "consent"      # compact: the partner's OK for a trade
    GREEN = "green"          # manual roll entry: the green die
    RED = "red"              # manual roll entry: the red die
    CONFIRM = "confirm"      # the camera is unsure: is this the roll?
    RESULT = "result"        # what the roll did (predator alerts)
    WINNER = "winner"        # a farm is complete (play on in compact)
    NEW_GAME = "new_game"    # start a new game?


@dataclass(frozen=True)
class Notice:
    """A full-screen message: ``kind`` is "camera_gone", "camera_back" or "journal"."""

    kind: str
    detail: str
    since: float


class Session:
    """One table's Super Farmer game, button by button."""

    def __init__(self, players: int, rules: Rules, commit: Commit | None = None,
                 camera: bool = False, state: GameState | None = None,
                 timeline: Timeline | None = None, now: float = 0.0) -> None:
        self.players = players
        self.rules = rules
        self._commit = commit or (lambda action, state: None)
        self.timeline = timeline or Timeline(state or new_state(players, rules))
        self.phase = Phase.WINNER if self.state.places else Phase.FARM
        self.cursor = 0
        self.menu: list[Offer] = []
        self.green = 0
        self.red = 0
        self.seen: RollSeen | None = None
        self.notice: Notice | None = None
        self.alerts: list[str] = []
        self.camera_expected = camera
        self.camera_ok = camera
        self.last_frame = now
        #: A camera roll settles only after the dice were seen moving (never the same roll twice).
        self.armed = False
        self.progress: tuple[str, float] | None = None
        #: The farm that rolled last (None: not known since the start).
        self.rolled_by: int | None = None
        #: Who saw the last roll settled here: "camera", "buttons" or "web" (None: not known).
        self.rolled_from: str | None = None
        #: The camera's observation of the last roll settled (its crops), or None.
        self.last_seen: RollSeen | None = None

    # -- state ----------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.timeline.state

    @property
    def can_undo(self) -> bool:
        return bool(self.timeline.history)

    def _do(self, action: Action) -> GameState:
        new = self.timeline.preview(action)  # raises on an illegal action: nothing written
        self._commit(action, new)            # journal first (fsync) ...
        self.timeline.apply(action, new)     # ... then memory, then (caller) the screen
        return new

    # -- buttons ----------------------------------------------------------
    def press(self, button: str, now: float = 0.0) -> None:
        """A short press of ``button`` (prev, next, ok, back)."""
        if self.notice is not None:
            self.notice = None  # the press only dismisses the notice
            return
        handler = getattr(self, f"_on_{self.phase.value}")
        handler(button)

    def hold(self, button: str, now: float = 0.0) -> None:
        """Holding any button undoes the last exchange or roll."""
        self.notice = None
        if not self.can_undo:
            self.alerts.append("mistake")
            return
        self._do({"action": "undo"})
        self.phase = Phase.WINNER if self.state.over else Phase.FARM
        self.seen = None

    def _on_farm(self, b: str) -> None:
        if b == "ok":
            self.phase, self.green, self.red = Phase.GREEN, 0, 0
        elif b == "next":
            self.menu = offers(self.state)
            if self.menu:
                self.phase, self.cursor = Phase.TRADE, 0
            else:
                self.phase = Phase.STOCK
        elif b == "prev":
            self.phase = Phase.STOCK
        elif b == "back" and self.state.last_roll is not None:
            self.phase = Phase.LAST_ROLL

    def _on_stock(self, b: str) -> None:
        self.phase = Phase.TABLE_VIEW if b == "prev" else Phase.FARM

    def _on_last_roll(self, b: str) -> None:
        self.phase = Phase.FARM

    _on_table_view = _on_last_roll

    def _on_trade(self, b: str) -> None:
        n = len(self.menu)
        if b == "next":
            self.cursor = (self.cursor + 1) % n
        elif b == "prev":
            self.cursor = (self.cursor - 1) % n
        elif b == "back":
            self.phase = Phase.FARM
        elif b == "ok":
            offer = self.menu[self.cursor]
            if offer.partner is not None:
                self.phase = Phase.CONSENT
            else:
                self._exchange(offer)

    def _on_consent(self, b: str) -> None:
        if b == "ok":
            self._exchange(self.menu[self.cursor])
        elif b == "back":
            self.phase = Phase.TRADE

    def _exchange(self, offer: Offer) -> None:
        places = len(self.state.places)
        self._do({"action": "exchange", "exchange": str(offer.exchange),
                  "partner": offer.partner})
        self.menu = []
        if len(self.state.places) > places:
            self._after_win()
        else:
            self.phase = Phase.FARM

    def _on_green(self, b: str) -> None:
        if b in ("next", "prev"):
            self.green = (self.green + (1 if b == "next" else -1)) % len(GREEN_FACES)
        elif b == "ok":
            self.phase = Phase.RED
        elif b == "back":
            self.phase = Phase.FARM

    def _on_red(self, b: str) -> None:
        if b in ("next", "prev"):
            self.red = (self.red + (1 if b == "next" else -1)) % len(RED_FACES)
        elif b == "ok":
            self.armed = False  # the dice on the table are this roll
            self.settle(Roll(GREEN_FACES[self.green], RED_FACES[self.red]), "buttons")
        elif b == "back":
            self.phase = Phase.GREEN

    def _on_confirm(self, b: str) -> None:
        seen = self.seen
        if b == "ok" and seen is not None and seen.roll is not None:
            self.settle(seen.roll, "camera", seen)
        elif seen is not None and seen.faces is not None:
            # Not what the camera thinks: enter it by hand, starting from its guess.
            self.green = GREEN_FACES.index(seen.faces[0])
            self.red = RED_FACES.index(seen.faces[1])
            self.phase = Phase.GREEN
        else:
            self.phase = Phase.FARM

    def _on_result(self, b: str) -> None:
        self.phase = Phase.FARM

    def _on_winner(self, b: str) -> None:
        if self.state.over:
            if b == "ok":
                self.phase = Phase.NEW_GAME
        else:
            self.phase = Phase.FARM

    def _on_new_game(self, b: str) -> None:
        if b == "ok":
            self.new_game()
        elif b == "back":
            self.phase = Phase.WINNER

    # -- settling -----------------------------------------------------------
    def settle(self, roll: Roll, source: str, seen: RollSeen | None = None) -> None:
        """Settle ``roll`` for the current farm and show what it did; ``source`` (camera,
        buttons, web) is journaled with it, ``seen`` is the camera's observation of it."""
        places = len(self.state.places)
        roller = self.state.current
        self._do({"action": "roll", "roll": str(roll), "source": source})
        self.rolled_by, self.rolled_from, self.last_seen = roller, source, seen
        self.seen = None
        for event in self.state.last_events:
            if event.kind is EventKind.LOST_TO_FOX and "fox" not in self.alerts:
                self.alerts.append("fox")
            elif event.kind is EventKind.LOST_TO_WOLF and "wolf" not in self.alerts:
                self.alerts.append("wolf")
            elif event.kind is EventKind.DOG_USED:
                self.alerts.append("dog")
        if len(self.state.places) > places:
            self._after_win()
        else:
            self.phase = Phase.RESULT

    def _after_win(self) -> None:
        self.alerts.append("win")
        self.phase = Phase.WINNER

    def new_game(self) -> None:
        """Start a new game with the same players and rules (the journal rotates)."""
        self._do(new_game_action(self.players, self.rules))
        self.phase, self.seen, self.notice = Phase.FARM, None, None
        self.rolled_by = self.rolled_from = self.last_seen = None
        self.menu = []

    def entered(self, roll: Roll, source: str) -> None:
        """A roll entered whole from elsewhere than the buttons (the table view): settled at
        once, as the buttons' entry is; ValueError when no roll can be settled now."""
        if self.state.over or self.phase in (Phase.WINNER, Phase.NEW_GAME, Phase.CONSENT):
            raise ValueError(f"no roll now ({self.phase.value.replace('_', ' ')})")
        self.notice = None
        self.armed = False  # the dice on the table are this roll
        self.settle(roll, source)

    # -- camera -------------------------------------------------------------
    def roll_seen(self, obs: RollSeen, now: float) -> None:
        """An observation from the dice reader (also proof that the camera is alive)."""
        obs = as_roll_seen(obs)
        self.frame_seen(now)
        if obs.faces is None:
            self.armed = True  # dice moving or gone: the next still dice are a new roll
            return
        if self.state.over or self.phase in (Phase.WINNER, Phase.NEW_GAME, Phase.CONSENT):
            return
        if not self.armed and not (self.phase is Phase.CONFIRM and obs.confidence >= CONFIDENT
                                   and self.seen is not None and self.seen.faces == obs.faces):
            return
        self.armed = False
        if obs.confidence >= CONFIDENT:
            self.notice = None
            # A confirmation (from the page) has no pictures: the unsure read's are the roll's.
            unsure = self.seen if self.phase is Phase.CONFIRM else None
            self.settle(Roll(*obs.faces), obs.source,
                        unsure if unsure is not None and not obs.crops else obs)
        else:
            self.seen = obs
            self.phase = Phase.CONFIRM

    def frame_seen(self, now: float) -> None:
        """A frame arrived from the camera."""
        self.last_frame = now
        if self.camera_expected and not self.camera_ok:
            self.camera_ok = True
            self.armed = False  # whatever lies there now may already be settled by hand
            if self.notice is not None and self.notice.kind == "camera_gone":
                self.notice = None
            log.info("camera is back")

    def camera_gone(self, now: float, reason: str = "") -> None:
        """The camera stopped answering (unplugged, read error, timeout)."""
        if self.camera_ok:
            self.camera_ok = False
            self.notice = Notice("camera_gone", reason, now)
            self.alerts.append("error")
            log.warning("camera gone: %s", reason or "no frames")

    def tick(self, now: float) -> None:
        """Time passes: camera timeout, notices expire."""
        if self.camera_expected and self.camera_ok and now - self.last_frame > CAMERA_TIMEOUT:
            self.camera_gone(now, f"no frame for {now - self.last_frame:.1f} s")
        if self.notice is not None and now - self.notice.since > NOTICE_SECONDS:
            self.notice = None

    def report(self, kind: str, detail: str, now: float) -> None:
        """Show a notice (e.g. the journal lost its torn last record)."""
        self.notice = Notice(kind, detail, now)
        self.alerts.append("error")

    def take_alerts(self) -> list[str]:
        """Alerts (fox, wolf, dog, win, error, mistake) raised since the last call."""
        out, self.alerts = self.alerts, []
        return out

    # -- what the screen shows ------------------------------------------
    @property
    def selected_faces(self) -> tuple[Face, Face]:
        return GREEN_FACES[self.green], RED_FACES[self.red]


__all__ = ["CAMERA_TIMEOUT", "CONFIDENT", "Notice", "Phase", "RollSeen", "Session"]
