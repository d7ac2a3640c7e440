"""``farmbox run`` in Fun Farm mode, in-process: READY after the journal replay, buttons
handled by the loop, STATUS and STOPPING sent, the game resumed after a restart."""

from __future__ import annotations

import threading
import time

from firmware.config import load_config
from firmware.funfarm_service import serve
from hw import open_hardware


class Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, message: str) -> None:
        self.sent.append(message)


def wait_for(test, seconds: float = 10.0) -> bool:  # noqa: ANN001
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_service_refs_on_buttons_and_tells_systemd(pins, tmp_path):
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tmp_path / "journal")}, game={"mode": "funfarm", "players": 3},
        buttons={"debounce_ms": 1, "hold_time": 0.2})
    hw = open_hardware(config)
    try:
        for run in (1, 2):  # the second start replays the journal the first one wrote
            sent = Recorder()
            stop = threading.Event()
            result: list[int] = []
            thread = threading.Thread(target=lambda: result.append(serve(config, hw, stop, sent)))
            thread.start()
            assert wait_for(lambda: "READY=1" in sent.sent)
            assert "STATUS=round 0, draw, 24 cards to turn, caught 0/0/0" in sent.sent
            before = hw.display.last_image.tobytes()
            hw.buttons.tap("farmer")  # the Farmer opens card entry on the buttons
            assert wait_for(lambda: hw.display.last_image.tobytes() != before)
            stop.set()
            thread.join(timeout=10)
            assert result == [0] and sent.sent[-1] == "STOPPING=1"
            assert sent.sent.index("READY=1") < sent.sent.index("STOPPING=1")
        assert len(list((tmp_path / "journal").iterdir())) == 1
    finally:
        hw.close()
