"""The dice enrollment from a phone: the same /enroll page over the dice's own session (its
actions are the box's buttons), the die outlined in the camera's picture."""

from __future__ import annotations

import json
import threading
import time

import cv2
import numpy as np
import pytest

import farmbox.firmware.games.enroll.screens as screens
from farmbox.firmware.box.config import load_config
from farmbox.firmware.games.enroll.box import EnrollmentBox, EnrollmentCancelled
from farmbox.firmware.games.enroll.session import Phase
from farmbox.firmware.web.enroll import EnrollServer
from farmbox.hw import FeedCamera, open_hardware
from farmbox.hw.pins import simulated_pins
from tests.enroll_box.conftest import Frames

from .conftest import PIN, Clock
from .test_server import call


@pytest.fixture(scope="module")
def frames() -> Frames:
    return Frames()


@pytest.fixture
def dice(tmp_path):
    with simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
            buttons={"debounce_ms": 1, "hold_time": 0.3})
        hw = open_hardware(config, camera=FeedCamera(timeout=0.5))
        box = EnrollmentBox(hw, tmp_path / "SAMPLES", tmp_path / "dice.npz", per_face=2)
        server = EnrollServer(box, port=0, bind="127.0.0.1", pin=PIN, clock=Clock()).start()

        def run() -> None:
            try:
                box.run()
            except EnrollmentCancelled:
                pass
        loop = threading.Thread(target=run, daemon=True)
        loop.start()
        try:
            yield box, server
        finally:
            server.stop()
            box.finished = True
            loop.join(10)
            hw.close()


def wait(box, condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with box.lock:
            if condition(box.session):
                return
        assert time.monotonic() < deadline, f"timed out in {box.session.phase}"
        time.sleep(0.01)


def act(server, action: str, pin: str = PIN) -> int:
    return call(server.url + "/api/action", {"pin": pin, "action": action})[0]


def test_dice_from_the_phone_table_first_then_each_face_outlined(dice, frames):
    box, server = dice
    s = json.loads(call(server.url + "/api/state")[1])
    assert s["kind"] == "dice" and s["phase"] == "clear" and s["clear"] and s["actions"] == ["take", "quit"]
    assert act(server, "take", pin="0000") == 403
    box.hw.camera.push(frames.background())
    assert act(server, "take") == 202
    wait(box, lambda s: s.phase is Phase.REVIEW)
    assert act(server, "keep") == 202
    wait(box, lambda s: s.phase is Phase.PROMPT)
    s = json.loads(call(server.url + "/api/state")[1])
    assert s["step"] == {"label": "green/rabbit", "name": "RABBIT UP, GREEN DIE", "number": 1, "of": 2}
    assert s["picture"] and "undo" in s["actions"]
    status, png, _ = call(server.url + "/picture.png")
    assert status == 200 and cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE).shape == (168, 168)
    # the die put down is outlined in the camera's picture
    box.hw.camera.push(frames.sample("green", "rabbit", 1))
    deadline = time.monotonic() + 10
    while True:
        status, body, headers = call(server.url + "/preview.jpg", headers={"X-Farmbox-Pin": PIN})
        if status == 200 and headers.get("X-Found") == "1" or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert status == 200 and headers["X-Found"] == "1"
    assert act(server, "take") == 202
    wait(box, lambda s: s.phase is Phase.REVIEW)
    assert act(server, "keep") == 202
    wait(box, lambda s: s.progress()[0] == 1 and s.phase is Phase.PROMPT)
    with box.lock:
        assert box.hw.display.last_image is not None
        expected = screens.render(box.session, box.tr)
    wait(box, lambda s: box.hw.display.last_image.tobytes() == expected.tobytes())
    # undo from the phone is the box's hold
    assert act(server, "undo") == 202
    wait(box, lambda s: s.progress()[0] == 0)
    assert act(server, "finish") == 409
