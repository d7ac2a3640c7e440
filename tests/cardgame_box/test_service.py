"""``farmbox run`` in card-game mode, in-process: buttons handled by the loop, systemd told,
the game resumed from the journal after a restart."""

from __future__ import annotations

import threading
import time

from firmware.cardgame_service import serve
from firmware.demo_cardgame import simulated_config
from hw import open_hardware


class Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, message: str) -> None:
        self.sent.append(message)

    def statuses(self) -> list[str]:
        return [m.removeprefix("STATUS=") for m in self.sent if m.startswith("STATUS=")]


def wait_for(test, seconds: float = 10.0) -> bool:  # noqa: ANN001
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def serving(config, hw, notifier):  # noqa: ANN001
    stop = threading.Event()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(serve(config, hw, stop, notifier)))
    thread.start()
    assert wait_for(lambda: "READY=1" in notifier.sent)
    return stop, thread, result


def test_service_takes_the_setup_on_buttons_and_resumes_it(pins, journal_dir):
    config = simulated_config(str(journal_dir), 3)
    hw = open_hardware(config)
    try:
        first = Recorder()
        stop, thread, result = serving(config, hw, first)
        assert first.statuses()[0] == "setting up a new game"
        for _ in range(8):  # OK through the setup screens: 3 farmers, the defaults
            if any(s.startswith("round 1") for s in first.statuses()):
                break
            hw.buttons.tap("ok")
            wait_for(lambda n=len(first.sent): len(first.sent) > n, 1.0)
        stop.set()
        thread.join(timeout=10)
        assert result == [0] and first.sent[-1] == "STOPPING=1"
        started = [s for s in first.statuses() if s.startswith("round 1")]
        assert started and started[-1].endswith("scores 0/0/0")

        again = Recorder()  # the box restarts: the same game, where it was
        stop, thread, result = serving(config, hw, again)
        stop.set()
        thread.join(timeout=10)
        assert again.statuses()[0] == started[-1]
        assert result == [0]
    finally:
        hw.close()
