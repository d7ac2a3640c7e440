"""Shared set-up for the service tests: a simulated box with a temp journal."""

from __future__ import annotations

import time

import pytest

from farmbox.firmware.box.config import load_config
from farmbox.hw.pins import simulated_pins


class NullNotifier:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, message: str) -> None:
        self.sent.append(message)


@pytest.fixture
def pins():
    with simulated_pins() as factory:
        yield factory


@pytest.fixture
def config(tmp_path):
    return load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tmp_path / "journal")},
        buttons={"debounce_ms": 1, "hold_time": 0.3})


def press(factory, pin: int, gap: float = 0.0015) -> None:
    """Push and let go of the button on BCM ``pin`` (pull-up: pressed = low)."""
    p = factory.pin(pin)
    p.drive_low()
    time.sleep(gap)
    p.drive_high()
    time.sleep(gap)
