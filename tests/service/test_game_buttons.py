"""A whole game played through mock button presses equals the rules engine alone."""

from __future__ import annotations

import pytest

from farmbox.firmware.games.superfarmer.bot import Bot, play_alone
from farmbox.firmware.games.superfarmer.box import Service
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.games.superfarmer.render import render
from farmbox.firmware.rules.superfarmer import variant
from farmbox.hw import open_hardware

from .conftest import NullNotifier, press


def play_on_buttons(config, pins, bot):
    hw = open_hardware(config)
    service = Service(config, hardware=hw, notifier=NullNotifier())
    presses = 0
    try:
        session = service.start()
        while True:
            move = bot.next_input(session, service.journal.seq)
            if move is None:
                break
            kind, name = move
            pin = getattr(config.buttons, name)
            if kind == "press":
                press(pins, pin)
                assert service.step(timeout=2.0), f"press of {name} lost"
            else:
                pins.pin(pin).drive_low()
                assert service.step(timeout=2.0), f"hold of {name} lost"
                pins.pin(pin).drive_high()
            service.drain()
            presses += 1
            # The screen always shows the session as it is now.
            assert hw.display.last_image.tobytes() == render(session).tobytes()
        return session.state, presses, service.journal.seq
    finally:
        service.close()
        hw.close()


@pytest.mark.parametrize("variant_name,players,seed", [("classic", 2, 5), ("compact", 2, 2)])
def test_whole_game_on_mock_buttons_equals_rules_alone(config, pins, variant_name, players, seed):
    config = config.with_overrides(game={"variant": variant_name, "players": players})
    bot = Bot(seed, camera=False, undo_every=19)
    state, presses, seq = play_on_buttons(config, pins, bot)
    expected = play_alone(bot, players, variant(variant_name))
    assert state.over and presses > 100
    assert state == expected
    replay = SuperFarmerJournal(config.journal.dir).open()  # and the journal says the same
    assert replay.seq == seq and replay.timeline.state == expected
    assert any(a["action"] == "undo" for a in replay.actions)
    assert any(a["action"] == "exchange" for a in replay.actions)
