"""``farmbox run`` in Fun Farm mode, in-process: READY after the journal replay, buttons
handled by the loop, STATUS and STOPPING sent, the game resumed after a restart."""

from __future__ import annotations

from farmbox.firmware.box.config import load_config
from farmbox.firmware.games.funfarm.box import serve
from farmbox.hw import open_hardware
from tests.box_service import Serving, wait_for


def test_service_refs_on_buttons_and_tells_systemd(pins, tmp_path):
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tmp_path / "journal")}, game={"mode": "funfarm", "players": 3},
        buttons={"debounce_ms": 1, "hold_time": 0.2})
    hw = open_hardware(config)
    try:
        for _ in range(2):  # the second start replays the journal the first one wrote
            service = Serving(serve, config, hw)
            told = service.notifier.sent
            assert "STATUS=round 0, draw, 24 cards to turn, caught 0/0/0" in told
            before = hw.display.last_image.tobytes()
            hw.buttons.tap("farmer")  # the Farmer opens card entry on the buttons
            assert wait_for(lambda: hw.display.last_image.tobytes() != before)
            assert service.stop() == 0 and told[-1] == "STOPPING=1"
            assert told.index("READY=1") < told.index("STOPPING=1")
        assert len(list((tmp_path / "journal").iterdir())) == 1
    finally:
        hw.close()


def verdict_band(image) -> bytes:
    """The verdict line's pixels (the row above the scores) of a 1x screen."""
    from farmbox.firmware.games.funfarm.screens import VERDICT_Y

    return image.convert("1").crop((0, VERDICT_Y - 1, 128, VERDICT_Y + 6)).tobytes()


def drawn_line(text: str) -> bytes:
    from farmbox.firmware.box.drawing.canvas import blank
    from farmbox.firmware.box.drawing.font import draw_text
    from farmbox.firmware.games.funfarm.screens import VERDICT_Y

    image, draw = blank()
    draw_text(draw, (0, VERDICT_Y - 1), text)
    return verdict_band(image)


def test_service_speaks_the_configured_language(pins, tmp_path):
    """``[ui] language = "pl"``: the Farmer is asked in Polish to enter the card."""
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tmp_path / "journal")}, game={"mode": "funfarm", "players": 3},
        buttons={"debounce_ms": 1, "hold_time": 0.2}, ui={"language": "pl"})
    hw = open_hardware(config)
    try:
        service = Serving(serve, config, hw)
        shown = verdict_band(hw.display.last_image)
        assert shown == drawn_line("ROLNIK: WPISZ KARTĘ") != drawn_line("FARMER: ENTER CARD")
        assert service.stop() == 0
    finally:
        hw.close()
