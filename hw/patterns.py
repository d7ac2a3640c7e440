"""Alert names and the timed patterns that lights and buzzer play for them.

A pattern is a list of steps ``(seconds, what)``: for the lights ``what`` is
the set of LEDs lit, for the buzzer a note name (``"E6"``) or None for silence.
Patterns are data, so tests can check they differ without listening.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

#: Everything the box can alert about.
ALERTS = ("fox", "wolf", "dog", "win", "error", "activate", "mistake")

#: LEDs lit per step. fox: quick triple flash; wolf: two long ones; dog (saved the
#: farm): dog and ok together; win: a chase; error: all flash; Fun Farm
#: activate / mistake: one ok flash / fox+wolf double flash.
LIGHT_PATTERNS: dict[str, list[tuple[float, frozenset[str]]]] = {
    "fox": [(0.15, frozenset({"fox"})), (0.15, frozenset())] * 3,
    "wolf": [(0.6, frozenset({"wolf"})), (0.3, frozenset())] * 2,
    "dog": [(1.0, frozenset({"dog", "ok"})), (0.2, frozenset())],
    "win": [(0.12, frozenset({n})) for n in ("fox", "wolf", "dog", "ok")] * 2
           + [(0.6, frozenset({"fox", "wolf", "dog", "ok"})), (0.1, frozenset())],
    "error": [(0.3, frozenset({"fox", "wolf", "dog", "ok"})), (0.2, frozenset())] * 3,
    "activate": [(0.25, frozenset({"ok"})), (0.05, frozenset())],
    "mistake": [(0.1, frozenset({"fox", "wolf"})), (0.1, frozenset())] * 2,
}

#: Notes per step (None = silent). fox: three high chirps; wolf: a falling howl;
#: dog: a happy bark; win: a rising fanfare; error: one low buzz; activate: a blip;
#: mistake: two low blips.
SOUND_PATTERNS: dict[str, list[tuple[float, str | None]]] = {
    "fox": [(0.08, "E6"), (0.06, None)] * 3,
    "wolf": [(0.25, "A5"), (0.25, "E5"), (0.5, "C5"), (0.05, None)],
    "dog": [(0.1, "C6"), (0.05, None), (0.1, "C6"), (0.05, None), (0.25, "G6"), (0.05, None)],
    "win": [(0.12, "C5"), (0.03, None), (0.12, "E5"), (0.03, None), (0.12, "G5"), (0.03, None),
            (0.4, "C6"), (0.05, None)],
    "error": [(0.5, "C4"), (0.05, None)],
    "activate": [(0.08, "A5"), (0.02, None)],
    "mistake": [(0.15, "C4"), (0.08, None), (0.15, "C4"), (0.05, None)],
}

S = TypeVar("S")


def check_alert(name: str) -> None:
    """Raise ValueError naming ``name`` unless it is one of :data:`ALERTS`."""
    if name not in ALERTS:
        raise ValueError(f"unknown alert {name!r} (known: {', '.join(ALERTS)})")


class PatternPlayer(Generic[S]):
    """Plays one pattern at a time on a background thread; a new one cuts the old short.

    ``apply(what)`` sets the outputs for a step, ``rest`` is what they show when
    idle. ``tempo`` scales every duration (tests play fast).
    """

    def __init__(self, apply: Callable[[S], None], rest: S, tempo: float = 1.0) -> None:
        self._apply = apply
        self._rest = rest
        self.tempo = tempo
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def play(self, steps: Sequence[tuple[float, S]], wait: bool = False) -> None:
        """Start ``steps`` (stopping any pattern still playing); ``wait``: block until done."""
        with self._lock:
            self._halt()
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._run, args=(list(steps), self._stop),
                                            name="farmbox-pattern", daemon=True)
            self._thread.start()
            thread = self._thread
        if wait:
            thread.join()

    @property
    def playing(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the pattern ends; False if still playing after ``timeout``."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not self.playing

    def stop(self) -> None:
        """Cut the pattern short and rest the outputs."""
        with self._lock:
            self._halt()

    def _halt(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._thread = None

    def _run(self, steps: list[tuple[float, S]], stop: threading.Event) -> None:
        try:
            for seconds, what in steps:
                if stop.is_set():
                    break
                self._apply(what)
                if stop.wait(seconds * self.tempo):
                    break
        finally:
            self._apply(self._rest)


class PatternOutput(Generic[S]):
    """Base of the lights and the buzzer: alert patterns played in the background.

    A subclass sets :attr:`patterns` (alert name -> steps) and ``self._player`` (its
    :class:`PatternPlayer`).
    """

    patterns: dict[str, list[tuple[float, S]]]
    _player: PatternPlayer[S]

    def alert(self, name: str, wait: bool = False) -> None:
        """Play the pattern for alert ``name`` (see :data:`ALERTS`); non-blocking."""
        check_alert(name)
        self._player.play(self.patterns[name], wait=wait)

    @property
    def tempo(self) -> float:
        """Speed factor for pattern durations (1.0: as designed; tests play faster)."""
        return self._player.tempo

    @tempo.setter
    def tempo(self, value: float) -> None:
        self._player.tempo = value

    @property
    def playing(self) -> bool:
        return self._player.playing

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current pattern ends."""
        return self._player.wait(timeout)
