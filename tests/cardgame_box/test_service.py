"""``farmbox run`` in card-game mode, in-process: buttons handled by the loop, systemd told,
the game resumed from the journal after a restart."""

from __future__ import annotations

from farmbox.firmware.games.cardgame.box import serve
from farmbox.firmware.games.cardgame.demo import simulated_config
from farmbox.hw import open_hardware
from tests.box_service import Serving, wait_for


def test_service_takes_the_setup_on_buttons_and_resumes_it(pins, journal_dir):
    config = simulated_config(str(journal_dir), 3)
    hw = open_hardware(config)
    try:
        first = Serving(serve, config, hw)
        told = first.notifier
        assert told.statuses()[0] == "setting up a new game"
        for _ in range(8):  # OK through the setup screens: 3 farmers, the defaults
            if any(s.startswith("round 1") for s in told.statuses()):
                break
            hw.buttons.tap("ok")
            wait_for(lambda n=len(told.sent): len(told.sent) > n, 1.0)
        assert first.stop() == 0 and told.sent[-1] == "STOPPING=1"
        started = [s for s in told.statuses() if s.startswith("round 1")]
        assert started and started[-1].endswith("scores 0/0/0")

        again = Serving(serve, config, hw)  # the box restarts: the same game, where it was
        assert again.stop() == 0
        assert again.notifier.statuses()[0] == started[-1]
    finally:
        hw.close()
