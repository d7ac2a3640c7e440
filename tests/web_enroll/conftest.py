"""A card enrollment on simulated hardware (mock pins, dummy OLED, a FeedCamera showing
rendered photos) running its real loop on a thread, with its /enroll page beside it; Debian's
headless chromium (tests/web's fixture) for the browser tests."""

from __future__ import annotations

import threading
import time

import pytest

from farmbox.firmware.box.config import load_config
from farmbox.firmware.cli.enroll import deck_cards
from farmbox.firmware.games.enroll.box import EnrollmentCancelled
from farmbox.firmware.games.enroll.cards import Cards, card_subjects
from farmbox.firmware.games.enroll.shot_box import ShotBox
from farmbox.firmware.games.enroll.shots import Phase, ShotSession
from farmbox.firmware.web.enroll import EnrollServer
from farmbox.hw import FeedCamera, open_hardware
from farmbox.hw.pins import simulated_pins
from tests.enroll_box.conftest import CardTable
from tests.web.conftest import Clock, browser, clock, table  # noqa: F401  (tests/web's fixtures)

PIN = "2468"
CARDS = ["sheep-1", "pig-3"]


class Enrollment:
    """The enrollment box (its loop on a thread) and its page."""

    def __init__(self, tmp_path, guard_clock: Clock, pin: str = PIN, reader: Cards | None = None) -> None:
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
            buttons={"debounce_ms": 1, "hold_time": 0.3})
        self.hw = open_hardware(config, camera=FeedCamera(timeout=0.5))
        ids, picture, name = deck_cards(None)
        assert all(card in ids for card in CARDS)
        self.session = ShotSession(card_subjects(CARDS, picture, name), reader or Cards(jitter=2), tmp_path / "SAMPLES",
                                   tmp_path / "cards.npz", 2)
        self.box = ShotBox(self.hw, self.session)
        self.server = EnrollServer(self.box, port=0, bind="127.0.0.1", pin=pin, clock=guard_clock).start()
        self.error: list[BaseException] = []
        self._loop = threading.Thread(target=self._run, name="enroll-loop", daemon=True)
        self._loop.start()

    def _run(self) -> None:
        try:
            self.box.run()
        except EnrollmentCancelled:
            pass
        except BaseException as exc:  # reported by the test
            self.error.append(exc)

    @property
    def url(self) -> str:
        return self.server.url

    def wait(self, condition, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            with self.box.lock:
                if condition(self.session):
                    return
            if self.error:
                raise self.error[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out in phase {self.session.phase}")
            time.sleep(0.01)

    def take_the_table(self, frame) -> None:
        """The first step on the box's own buttons: photograph the empty table ``frame``, keep it."""
        self.wait(lambda s: s.phase is Phase.CLEAR)
        self.hw.camera.push(frame)
        self.hw.buttons.tap("ok")
        self.wait(lambda s: s.phase is Phase.REVIEW)
        self.hw.buttons.tap("ok")
        self.wait(lambda s: s.phase is Phase.PROMPT and s.background is not None)

    def close(self) -> None:
        self.server.stop()
        with self.box.lock:
            self.session.finished = self.box.finished = True   # the loop checks the box's flag
        self._loop.join(10)
        self.hw.close()
        assert not self._loop.is_alive(), "the enrollment loop did not stop"
        if self.error:
            raise self.error[0]


@pytest.fixture(scope="session")
def card_table() -> CardTable:
    return CardTable()


@pytest.fixture
def enrollment(tmp_path, card_table):
    """An enrollment past its first step (the empty table photographed): at the first card."""
    with simulated_pins():
        e = Enrollment(tmp_path, Clock())
        try:
            e.take_the_table(card_table.empty())
            yield e
        finally:
            e.close()
