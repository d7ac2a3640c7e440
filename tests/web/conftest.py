"""A Super Farmer box on simulated hardware running its real loop in a thread, with the table
view beside it, and (for the browser tests) Debian's headless chromium driven by Selenium."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.observations import RollSeen
from farmbox.firmware.games.superfarmer.box import Service
from farmbox.firmware.rules.superfarmer.dice import Face
from farmbox.firmware.web.server import TableServer
from farmbox.hw import open_hardware
from farmbox.hw.pins import simulated_pins

PIN = "2468"


class Clock:
    """A clock the tests move by hand (the PIN guard's lock-outs)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Table:
    """The box (its loop on a thread) and its table view."""

    def __init__(self, config: Any, clock: Clock) -> None:
        self.hw = open_hardware(config)
        self.box = Service(config, hardware=self.hw)
        self.box.start()
        self.journal_file = Path(config.journal.dir) / "superfarmer.jsonl"
        self.server = TableServer(self.box, "superfarmer", port=0, bind="127.0.0.1", pin=PIN,
                                  clock=clock).start()
        self._closed = False
        self._loop = threading.Thread(target=self.box.run, name="box-loop")
        self._loop.start()

    @property
    def url(self) -> str:
        return self.server.url

    def roll(self, green: str, red: str, confidence: float = 1.0) -> None:
        """The dice move, then lie still showing ``green``/``red`` (read that sure)."""
        self.box.inbox.put(RollSeen(None, 0.0, "motion"))
        self.box.inbox.put(RollSeen((Face(green), Face(red)), confidence, "still"))

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.journal_file.read_text().splitlines()]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.server.stop()
        self.box.stop()
        self._loop.join(10)
        self.box.close()
        self.hw.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(tmp_path, clock):
    with simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
            journal={"dir": str(tmp_path / "journal")}, web={"pin": PIN})
        t = Table(config, clock)
        try:
            yield t
        finally:
            t.close()


def _chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def browser():
    """One headless chromium for the whole session (``make test`` installs it with apt)."""
    found = _chromium()
    if found is None:
        pytest.fail("chromium and chromedriver are needed: `make test` installs them with apt")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=390,844"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=DriverService(executable_path=found[1]), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
