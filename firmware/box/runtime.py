"""The one runtime every game shares: events in, the game, frames and alerts out, systemd told.

A game's box is a :class:`Box` subclass that says what an event does (:meth:`Box.handle`),
what the screen shows (:meth:`Box.frame`), which alerts are due and its one-line status;
the loop, the camera watcher, the refusal of illegal actions, the OLED refresh, the LEDs and
buzzer, and the systemd lifecycle (READY once the journal is replayed, STATUS, WATCHDOG,
STOPPING) are here, once. :func:`serve` is the life of ``farmbox run`` for any game mode.

Transient faults never stop the box: a journal write that fails (disk full, I/O error)
leaves the game where it was (the session applies an action only after its record is on
disk), shows "not saved" on the OLED, sounds the error alert and retries the same event with
backoff. What the camera sees meanwhile happened at the table: it waits, in order, and is
taken once the write is done (up to :attr:`Box.WAITING_MAX` events; past that the newest are
dropped, counted and logged). A button pushed meanwhile answered a screen that said "not
saved" and is dropped (:meth:`Box.waits`; Fun Farm's buzzers wait too). A display
that fails is the display's own business (:class:`farmbox.hw.display.Display` retries it);
the LEDs and buzzer go on signalling.
"""

from __future__ import annotations

import collections
import errno
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from farmbox.firmware.box.camera import CameraWatcher, Reader
from farmbox.firmware.box.drawing import notices
from farmbox.firmware.box.events import Event, EventStream
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.journal import JournalWriteError
from farmbox.firmware.box.names import clean_names, load_names, save_names
from farmbox.firmware.box.observations import Remote
from farmbox.firmware.box.systemd import Notifier, SystemdLink, stop_on_sigterm
from farmbox.firmware.rules.errors import RulesError
from farmbox.hw import Hardware, open_hardware
from farmbox.hw.config import HardwareSettings

log = logging.getLogger("farmbox")

T = TypeVar("T")
#: The game's session a box runs (what :meth:`Box.start` returns).
G = TypeVar("G")


class Box(Generic[G]):
    """One game on the box's hardware. Subclasses fill in the game's part:

    - :meth:`begin`: replay the journal and set the game up (called by :meth:`start`);
    - :meth:`handle`: one event (a button, a camera observation); a ValueError it raises
      is an illegal action from the table: refused with a "mistake" alert, never a crash;
    - :meth:`tick`, :meth:`frame`, :meth:`take_alerts`, :meth:`status`.
    """

    #: Camera frames are read at most this often (s).
    FRAME_INTERVAL = 0.1
    #: False: the game does not look at the table (the camera is left closed to others).
    USES_CAMERA = True
    #: A failed journal write is retried after this long (s), doubling up to RETRY_MAX.
    RETRY_FIRST = 0.25
    RETRY_MAX = 5.0
    #: At most this many events wait while a journal write is retried (a few rounds of play).
    WAITING_MAX = 64
    #: The language of the box's own screens (a game sets its own).
    language = "en"

    def __init__(self, hardware: Hardware | None = None, *,
                 settings: HardwareSettings | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 notifier: Notifier | None = None,
                 reader: Reader | None = None) -> None:
        self.hw: Any = hardware
        self._settings = settings
        self._own_hw = hardware is None
        self.clock = clock
        self.systemd = SystemdLink(notifier)
        #: The camera's reader (frames -> observations); None: the camera is only watched.
        self.watcher = reader
        #: Observations and injected events, handled before the buttons.
        self.inbox: queue.Queue[Any] = queue.Queue()
        #: What happened, for everyone who follows the game (web view, MQTT).
        self.events = EventStream()
        #: Button edge to frame shown (ns), the last 2,000.
        self.latencies_ns: collections.deque[int] = collections.deque(maxlen=2000)
        self._stop = threading.Event()
        self._camera: CameraWatcher | None = None
        self._last: bytes | None = None
        #: The event whose journal write failed (retried at ``_retry_at``), and why.
        self._held: Any = None
        self._held_error: JournalWriteError | None = None
        self._retry_at = 0.0
        self._retry_wait = self.RETRY_FIRST
        #: Events that came while a journal write was retried, taken in order after it.
        self._waiting: collections.deque[Any] = collections.deque()
        #: Journal writes that failed, and events dropped while one was retried (the
        #: waiting line was full).
        self.write_failures = 0
        self.dropped_while_held = 0
        #: The players' names (names.json beside the journal; the OLED and the league use them).
        self.names: tuple[str, ...] = ()
        #: The table view's address once it is served (the OLED's table-view screen shows it).
        self.table_url: str | None = None

    # -- the game's part --------------------------------------------------------
    def begin(self) -> None:
        """Replay the journal and set the game up (the hardware is open)."""

    def handle(self, item: Any, now: float) -> None:
        """One event: a button event or an observation."""
        raise NotImplementedError

    def tick(self, now: float) -> None:
        """Time passed (notices expire, races close)."""

    def frame(self) -> Any:
        """The screen as it is now (a 128x64 mode "1" image)."""
        raise NotImplementedError

    def take_alerts(self) -> list[str]:
        """Alerts due (fox, wolf, dog, mistake, ...), each once."""
        return []

    def refused(self, problem: str) -> None:
        """An illegal action from the table was refused."""

    def status(self) -> str:
        """The one-line STATUS for systemd."""
        return ""

    # -- start and stop ---------------------------------------------------------
    def open(self) -> None:
        """Open the hardware unless it was given."""
        if self.hw is None:
            if self._settings is None:
                raise ValueError("a box needs hardware or the settings to open it")
            self.hw = open_hardware(self._settings)

    def start(self) -> G:
        """Open the hardware, :meth:`begin` the game, show it, start the camera, READY=1;
        returns what the game says it is (its session)."""
        stop_on_sigterm(self._stop)  # systemctl stop during a replay ends cleanly too
        self.open()
        folder = self.names_dir
        self.names = () if folder is None else load_names(folder)
        self.begin()
        if self.names:
            self.events.publish(Event("names", 0, {"names": list(self.names)}))
        self.refresh()
        if self.USES_CAMERA and self.hw.camera is not None:
            self._camera = CameraWatcher(self.hw.camera, self.watcher, self.inbox.put,
                                         self.FRAME_INTERVAL)
            self._camera.start()
        self.systemd.ready(self.clock(), self.status())
        return self.game()

    def game(self) -> G:
        """The game's session (what :meth:`start` returns)."""
        raise NotImplementedError

    @property
    def names_dir(self) -> Any:
        """Where names.json is kept: beside the game's journal (None: names are not kept)."""
        journal = getattr(self, "journal", None)
        return getattr(journal, "dir", None)

    def set_names(self, names: Any) -> None:
        """The players' names from the table view: kept in names.json, shown on the OLED,
        told to every follower (the league); ValueError (refused) for bad names."""
        tidy = clean_names(names)
        folder = self.names_dir
        if folder is not None:
            try:
                save_names(folder, tidy)
            except OSError as exc:
                raise ValueError(f"names not saved: {exc.strerror or exc}") from None
        self.names = tidy
        self.events.publish(Event("names", 0, {"names": list(tidy)}))

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def close(self) -> None:
        """Stop the camera, let the game close its journal, close hardware this box opened."""
        self._stop.set()
        if self._camera is not None:
            self._camera.stop()
        self.end()
        if self._own_hw and self.hw is not None:
            self.hw.close()

    def end(self) -> None:
        """Close the game's own resources (its journal)."""

    # -- the loop -----------------------------------------------------------------
    def next_event(self, timeout: float) -> Any:
        """The next observation or injected event, else the next button event (waiting up
        to ``timeout`` s); None if nothing came."""
        try:
            return self.inbox.get_nowait()
        except queue.Empty:
            return self.hw.buttons.get(timeout=timeout)

    def step(self, timeout: float = 0.05) -> bool:
        """Handle at most one event (waiting up to ``timeout`` s); True if one was handled.
        While a journal write is being retried, the held event is retried when due and
        what comes meanwhile waits its turn."""
        if self._held is not None:
            return self._retry_held(timeout)
        item = self._waiting.popleft() if self._waiting else self.next_event(timeout)
        now = self.clock()
        if item is not None:
            self.take(item, now)
        self.tick(now)
        pressed = getattr(item, "t_ns", 0) if getattr(item, "kind", "") in ("press", "hold") else 0
        self.refresh(pressed)
        self.systemd.ping(now)
        return item is not None

    def waits(self, item: Any) -> bool:
        """Whether ``item``, come while a journal write is being retried, waits its turn
        (True) or is dropped. An observation (a roll, cards, a web command) happened at the
        table whatever the screen said and waits; a button event (it has a ``name`` and a
        ``kind``) answered the "not saved" screen and is dropped: it is pushed again."""
        return not (hasattr(item, "name") and hasattr(item, "kind"))

    def take(self, item: Any, now: float | None = None) -> bool:
        """:meth:`handle` one event; an illegal action (ValueError) is refused with the
        game's :meth:`refused`, never a crash. False when it was refused."""
        when = self.clock() if now is None else now
        published = self.events.published
        try:
            if isinstance(item, Remote) and item.name == "names":
                self.set_names(item.args.get("names"))
            else:
                self.handle(item, when)
        except (RulesError, ValueError) as exc:  # illegal at the table: refuse, go on
            log.warning("refused: %s", exc)
            self.refused(str(exc))
            return False
        except JournalWriteError as exc:  # nothing was applied: hold the event, retry it
            self.write_failures += 1
            if self._held_error is None:
                log.error("%s; the game waits and retries", exc)
                self.hw.alert("error")
            self._held, self._held_error = item, exc
            self._retry_at = when + self._retry_wait
            self._retry_wait = min(self._retry_wait * 2, self.RETRY_MAX)
            return False
        if self._held_error is not None:
            log.warning("journal writes again after %d failed attempt(s)", self.write_failures)
            self._held_error, self._retry_wait = None, self.RETRY_FIRST
        if self.events.published != published:
            # The game published inside its journal commit, before its session took the
            # new state in whole: followers that read the session (who rolled, what the
            # camera saw) look again now.
            self.events.publish(Event("settled", getattr(getattr(self, "journal", None), "seq", 0)))
        return True

    def retry_write(self, write: Callable[[], T]) -> T:
        """A journal write the box cannot go on without (a new game's first record at
        start-up): while it fails, the OLED says "not saved", the error alert sounds, and it
        is retried with the same backoff as a held event, until it works or the box stops."""
        while True:
            try:
                result = write()
            except JournalWriteError as exc:
                self.write_failures += 1
                if self._held_error is None:
                    log.error("%s; the game waits and retries", exc)
                    self.hw.alert("error")
                self._held_error = exc
                self.show(self.not_saved())
                self.systemd.status(f"journal write failing ({exc.strerror}), retrying")
                self.systemd.ping(self.clock())
                if self._stop.wait(self._retry_wait):
                    raise
                self._retry_wait = min(self._retry_wait * 2, self.RETRY_MAX)
                continue
            if self._held_error is not None:
                log.warning("journal writes again after %d failed attempt(s)", self.write_failures)
                self._held_error, self._retry_wait = None, self.RETRY_FIRST
            return result

    def _retry_held(self, timeout: float) -> bool:
        """One step while a journal write is failing: the notice, the retry when due."""
        now = self.clock()
        if now < self._retry_at:
            came = self.next_event(min(timeout, self._retry_at - now))
            if came is not None and self.waits(came) and len(self._waiting) < self.WAITING_MAX:
                self._waiting.append(came)
            elif came is not None:
                self.dropped_while_held += 1
                log.warning("not saved yet: dropped %r", came)
            now = self.clock()
        handled = False
        if now >= self._retry_at:
            item, self._held = self._held, None
            handled = self.take(item, now)
            if handled:
                self.tick(now)
        self.refresh()
        self.systemd.ping(now)
        return handled

    @property
    def saving(self) -> bool:
        """True while an action waits for its journal write to succeed."""
        return self._held is not None

    def drain(self) -> int:
        """Handle every event already queued; returns how many there were."""
        n = 0
        while self.step(timeout=0):
            n += 1
        return n

    def run(self) -> int:
        """Loop until SIGTERM/SIGINT (or :meth:`stop`); the exit status 0."""
        try:
            while not self._stop.is_set():
                self.step(0.05)
        except KeyboardInterrupt:
            pass
        self.systemd.stopping()
        return 0

    # -- output -------------------------------------------------------------------
    def show(self, image: Any) -> None:
        """Send ``image`` to the display unless it is the frame shown last."""
        data = image.tobytes()
        if data != self._last:
            self.hw.display.show(image)
            self._last = data

    def refresh(self, t_ns: int = 0) -> None:
        """Alerts to the LEDs and buzzer, the frame to the OLED (the "not saved" notice while
        a journal write is retried), the status to systemd; a display that failed is retried."""
        for alert in self.take_alerts():
            self.hw.alert(alert)
        self.hw.display.recover()
        self.show(self.frame() if self._held_error is None else self.not_saved())
        if t_ns:
            self.latencies_ns.append(time.monotonic_ns() - t_ns)
        status = self.status()
        if self._held_error is not None:
            status = f"journal write failing ({self._held_error.strerror}), retrying; {status}"
        self.systemd.status(status)

    def not_saved(self) -> Any:
        """The notice shown while the last action's journal write is retried."""
        error = self._held_error
        full = error is not None and error.errno in (errno.ENOSPC, errno.EDQUOT)
        return notices.journal_not_saved(translator(self.language), full,
                                         getattr(getattr(self, "journal", None), "seq", 0))


def serve(box: Box, stop: threading.Event | None = None,
          started: Callable[[], object] | None = None) -> int:
    """The life of ``farmbox run``: start ``box`` (journal replayed, READY), call
    ``started`` (what follows the box: the table view, the league), loop until
    SIGTERM/SIGINT (or ``stop``), close it; the exit status."""
    if stop is not None:
        box._stop = stop
    try:
        box.start()
        if started is not None:
            started()
        return box.run()
    finally:
        box.close()
