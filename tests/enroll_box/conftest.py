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
            buttons={"debounce_ms": 1, "hold_time": 0.3})
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


class ColourTable:
    """One mounted box's table (fixed texture and light) with one colour die put down on it,
    drawn by the renderer's own die painter; the empty table from the same camera."""

    def __init__(self, kind: str = "wood", seed: int = 11) -> None:
        from farmbox.vision.render._common import FRAME_SIZE, Lighting, table

        rng = np.random.default_rng(seed)
        self.table = table(rng, FRAME_SIZE, kind).astype(np.float32)
        self.light = Lighting.random(rng, strength=0.6)
        self._cache: dict[tuple, np.ndarray] = {}

    def _shoot(self, canvas: np.ndarray, seed: int) -> np.ndarray:
        from farmbox.vision.render._common import camera_faults

        return camera_faults(np.random.default_rng(seed), self.light.apply(canvas), jpeg=92)

    def empty(self, seed: int = 0) -> np.ndarray:
        return self._shoot(self.table.copy(), 7000 + seed)

    def die(self, body: str, colour: str, n: int) -> np.ndarray:
        """Die ``body`` alone with ``colour`` up, somewhere on the table (photo ``n``)."""
        from farmbox.vision.render.colour_dice import draw_die

        key = (body, colour, n)
        if key not in self._cache:
            seed = sum(map(ord, f"{body}{colour}{n}"))
            rng = np.random.default_rng(seed)
            h, w = self.table.shape[:2]
            canvas = self.table.copy()
            size = 0.085 * w
            centre = (float(rng.uniform(0.25, 0.75) * w), float(rng.uniform(0.25, 0.75) * h))
            lean = ((centre[0] - w / 2) * 0.08, (centre[1] - h / 2) * 0.08)
            draw_die(canvas, rng, body, colour, centre, size, float(rng.uniform(0, np.pi / 2)), lean)
            self._cache[key] = self._shoot(canvas, seed)
        return self._cache[key]


@pytest.fixture(scope="session")
def colour_table() -> ColourTable:
    return ColourTable()


class CardTable:
    """Rendered photos through one mounted box's camera (its table, lamp and tilt fixed; the
    renderer's Fun Farm deck): one card alone on the table, or the empty table."""

    def __init__(self, seed: int = 3, kind: str = "wood") -> None:
        from farmbox.vision.render.cards import Mount

        self.mount = Mount(seed, kind)
        self._cache: dict[tuple, np.ndarray] = {}

    def card(self, card_id: str, n: int) -> np.ndarray:
        from farmbox.vision.render.cards import scene

        key = (card_id, n)
        if key not in self._cache:
            self._cache[key] = scene(sum(map(ord, card_id)) * 10 + n, ids=[card_id], mount=self.mount).image
        return self._cache[key]

    def empty(self, n: int = 0) -> np.ndarray:
        from farmbox.vision.render.cards import scene

        return scene(90_000 + n, ids=[], mount=self.mount).image


@pytest.fixture(scope="session")
def card_table() -> CardTable:
    return CardTable()


def step_until(box, condition, steps: int = 400) -> None:
    """Step ``box`` (a ShotBox) until ``condition()``."""
    for _ in range(steps):
        if condition():
            return
        box.step(timeout=0.01)
    raise AssertionError("the box never got there")


def tap(box, name: str, hold: bool = False) -> None:
    """Push a mock button and step the box until it is handled (and any photo is taken)."""
    buttons = box.hw.buttons
    (buttons.hold if hold else buttons.tap)(name)
    box.step(timeout=2.0)
    while buttons.events.qsize():
        box.step(timeout=0)
    for _ in range(100):
        if not box.session.capturing:
            return
        box.step()
    raise AssertionError("the photo was never taken")


def shoot(box, frame: np.ndarray, keep: bool = True) -> None:
    """Put ``frame`` before the camera, take it with OK (and keep it with OK)."""
    from farmbox.firmware.games.enroll.shots import Phase as ShotPhase

    box.hw.camera.push(frame)
    tap(box, "ok")
    assert box.session.phase is ShotPhase.REVIEW, box.session.error
    if keep:
        tap(box, "ok")
