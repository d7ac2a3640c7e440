"""Shared set-up: a simulated box (MockFactory pins, dummy OLED) with a FeedCamera, and
rendered enrollment frames of one mounted set-up (one die alone, face up; the empty table)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from farmbox.firmware.box.config import load_config
from farmbox.firmware.games.enroll.box import EnrollmentBox
from farmbox.firmware.games.enroll.session import Phase
from farmbox.hw import FeedCamera, open_hardware
from farmbox.hw.pins import simulated_pins
from farmbox.vision.render.dice import Setup, render_background, render_enrollment_sample

SETUP_SEED = 3
PER_FACE = 2


class Frames:
    """Rendered frames of one mounted box, made on demand and kept for the whole test run."""

    def __init__(self) -> None:
        self.setup = Setup.from_seed(SETUP_SEED)
        self._cache: dict[tuple, np.ndarray] = {}

    def background(self, seed: int = 0) -> np.ndarray:
        key = ("background", seed)
        if key not in self._cache:
            self._cache[key] = render_background(seed, setup=self.setup)
        return self._cache[key]

    def sample(self, die: str, face: str, n: int) -> np.ndarray:
        key = (die, face, n)
        if key not in self._cache:
            self._cache[key] = render_enrollment_sample(
                sum(map(ord, f"{die}{face}{n}")), die, face, setup=self.setup)
        return self._cache[key]


@pytest.fixture(scope="session")
def frames() -> Frames:
    return Frames()


@pytest.fixture
def hardware():
    """open_hardware on mock pins with a dummy OLED and a FeedCamera (closed after the test)."""
    with simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
            buttons={"debounce_ms": 1, "hold_time": 0.05})
        hw = open_hardware(config, camera=FeedCamera(timeout=0.5))
        try:
            yield hw
        finally:
            hw.close()


@pytest.fixture
def box(hardware, tmp_path):
    """An EnrollmentBox driven step by step from the test's own thread."""
    return EnrollmentBox(hardware, tmp_path / "SAMPLES", tmp_path / "dice.npz", per_face=PER_FACE)


def press(box: EnrollmentBox, name: str, hold: bool = False) -> None:
    """Push a mock button, handle it, and (when it starts a photo) every frame until it is taken."""
    buttons = box.hw.buttons
    (buttons.hold if hold else buttons.tap)(name)
    box.step(timeout=2.0)
    while buttons.events.qsize():  # a hold's release
        box.step(timeout=0)
    for _ in range(100):
        if not box.session.capturing:
            return
        box.step()
    raise AssertionError("the photo was never taken")


def wait_for(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.002)


def take(box: EnrollmentBox, frame: np.ndarray, keep: bool = True) -> None:
    """Put ``frame`` in front of the camera, take it, and keep it."""
    box.hw.camera.push(frame)
    press(box, "ok")
    assert box.session.phase is Phase.REVIEW, box.session.error
    if keep:
        press(box, "ok")
