"""Camera gone mid-game: the alert shows within 2 s, buttons still work, reads resume."""

from __future__ import annotations

import time

import numpy as np

import farmbox.firmware.games.superfarmer.screens as screens
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.observations import RollSeen
from farmbox.firmware.games.superfarmer.box import Service
from farmbox.firmware.games.superfarmer.session import CAMERA_TIMEOUT, Phase
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.hw import open_hardware
from farmbox.hw.camera import FeedCamera

from .conftest import NullNotifier, press


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FrameCodeWatcher:
    """A dice reader for synthetic frames: pixel (0,0) = 255 is motion, k < 144 is roll k."""

    def __init__(self) -> None:
        self.last = None

    def __call__(self, frame):
        code = int(frame[0, 0, 0])
        if code == self.last:
            return []
        self.last = code
        if code == 255:
            return [RollSeen(None, 0.0, "motion")]
        if code >= len(ALL_ROLLS):
            return [RollSeen(None, 0.0, "no dice")]
        roll = ALL_ROLLS[code]
        return [RollSeen((roll.green, roll.red), 0.99, "ok")]


def frame(code: int) -> np.ndarray:
    f = np.zeros((48, 64, 3), np.uint8)
    f[0, 0] = code
    return f


def wait_for(service, predicate, what: str, limit: float = 5.0) -> None:
    """Step the service until ``predicate()`` (real time only bounds a hang)."""
    end = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < end, f"never happened: {what}"
        service.step(timeout=0.02)


def test_camera_unplugged_mid_game(config, pins):
    config = config.with_overrides(camera={"source": "feed"})
    feed = FeedCamera(timeout=0.2)
    feed.push(frame(200))
    clock = FakeClock()
    hw = open_hardware(config, camera=feed)
    service = Service(config, hardware=hw, clock=clock, notifier=NullNotifier(),
                      watcher=FrameCodeWatcher())
    try:
        session = service.start()
        wait_for(service, lambda: service.inbox.empty() and session.camera_ok, "first frame")
        # A roll seen by the camera settles.
        feed.push(frame(255))
        feed.push(frame(7))
        wait_for(service, lambda: sum(session.state.turns) == 1, "camera roll")
        # Unplug: the alert must be on screen less than 2 s (of the session's clock) later.
        feed.unplug()
        clock.now += 0.5
        wait_for(service, lambda: not session.camera_ok, "camera gone")
        assert clock.now - session.last_frame < 2.0
        tr = translator("en")
        assert hw.display.last_image.tobytes() == \
            screens.camera_gone(tr, session.notice.detail).tobytes()
        # Buttons still work: dismiss, then enter a roll by hand.
        for _ in range(5):  # dismiss, next farmer, dice, green face, red face
            press(pins, config.buttons.ok)
            wait_for(service, hw.buttons.events.empty, "press handled")
        assert sum(session.state.turns) == 2 and session.phase is Phase.RESULT
        assert hw.display.last_image.tobytes() == screens.roll_result(
            session.state, tr, camera_ok=False).tobytes()
        # Plug it back: reads resume, a new roll is settled from the camera.
        feed.replug()
        feed.push(frame(255))
        feed.push(frame(30))
        wait_for(service, lambda: sum(session.state.turns) == 3, "camera roll after replug")
        assert session.camera_ok
    finally:
        service.close()
        hw.close()


def test_camera_silent_for_too_long_is_gone(config, pins):
    """A camera that stops delivering (no error, no frames) is noticed by the clock alone."""
    config = config.with_overrides(camera={"source": "feed"})
    clock = FakeClock()

    class Hanging:
        def read(self):
            time.sleep(0.05)
            raise TimeoutError("stuck")  # not CameraGone: still reported, never fatal

        def close(self):
            pass

    hw = open_hardware(config, camera=FeedCamera())
    hw.camera = Hanging()
    service = Service(config, hardware=hw, clock=clock, notifier=NullNotifier())
    try:
        session = service.start()
        session.frame_seen(clock.now)
        clock.now += CAMERA_TIMEOUT + 0.1
        service.step(timeout=0)
        assert not session.camera_ok and session.notice.kind == "camera_gone"
    finally:
        service.close()
        hw.close()


def test_real_ssd1306_over_fake_serial_gets_every_frame(config, pins):
    from farmbox.firmware.games.superfarmer.render import render
    from farmbox.hw.display import fake_serial

    config = config.with_overrides(display={"driver": "ssd1306"})
    serial = fake_serial()
    hw = open_hardware(config, serial=serial)
    service = Service(config, hardware=hw, notifier=NullNotifier())
    try:
        session = service.start()
        sent = len(serial.data_sent)
        press(pins, config.buttons.prev)
        assert service.step(timeout=2.0)
        assert session.phase is Phase.STOCK
        assert len(serial.data_sent) == sent + 1 and len(serial.data_sent[-1]) == 1024
        image = render(session)
        px = image.load()
        data = serial.data_sent[-1]
        assert all(bool(data[(y // 8) * 128 + x] >> (y % 8) & 1) == bool(px[x, y])
                   for x in range(128) for y in range(64))
    finally:
        service.close()
        hw.close()
