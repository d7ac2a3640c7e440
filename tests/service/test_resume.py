"""Start-up: resume from the journal, report a torn tail on screen and in the log; alerts."""

from __future__ import annotations

import logging

import farmbox.firmware.games.superfarmer.screens as screens
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.observations import RollSeen
from farmbox.firmware.games.superfarmer.box import Service
from farmbox.firmware.games.superfarmer.render import render
from farmbox.firmware.games.superfarmer.session import Phase
from farmbox.firmware.rules.superfarmer import CLASSIC
from farmbox.firmware.rules.superfarmer.dice import Face
from farmbox.firmware.rules.superfarmer.game import GameState
from farmbox.firmware.rules.superfarmer.herd import Herd
from farmbox.hw import open_hardware

from .conftest import NullNotifier, press


def run_service(config, pins=None, **kw):
    hw = open_hardware(config)
    return hw, Service(config, hardware=hw, notifier=NullNotifier(), **kw)


def test_restart_resumes_and_a_torn_tail_is_reported(config, pins, caplog):
    hw, service = run_service(config)
    session = service.start()
    for name in ("ok", "ok", "ok", "ok", "ok", "ok", "ok"):  # two rolls by hand
        press(pins, getattr(config.buttons, name))
        service.drain()
    assert sum(session.state.turns) == 2
    state, seq = session.state, service.journal.seq
    service.close()
    hw.close()
    path = service.journal.path
    path.write_bytes(path.read_bytes()[:-20])  # the power went mid-write of record 3
    caplog.set_level(logging.WARNING)
    hw, service = run_service(config)
    try:
        session = service.start()
        assert service.journal.seq == seq - 1 and sum(session.state.turns) == 1
        tr = translator("en")
        assert hw.display.last_image.tobytes() == \
            screens.journal_repaired(tr, 1, seq - 1).tobytes()
        assert any("dropped 1 record" in r.getMessage() for r in caplog.records)
        press(pins, config.buttons.ok)  # dismiss: the game goes on from the last good record
        service.drain()
        assert hw.display.last_image.tobytes() == render(session).tobytes()
        assert session.phase is Phase.FARM and session.state.current == 1
        assert session.state != state
    finally:
        service.close()
        hw.close()


def test_fox_wolf_and_dog_each_sound_their_own_alert(config, pins):
    farms = (Herd.parse("rabbit=6,small_dog=1,sheep=2"), Herd.parse("rabbit=5,sheep=1"))
    start = GameState(CLASSIC, farms, CLASSIC.stock_for(*farms), turns=(3, 3))
    hw, service = run_service(config)
    lights, sounds = [], []
    hw.lights.alert = lambda name, wait=False: lights.append(name)
    hw.buzzer.alert = lambda name, wait=False: sounds.append(name)
    try:
        session = service.start()
        session.timeline.state = start  # a table mid-game (the alerts do not read the journal)
        lights.clear(), sounds.clear()
        for faces in ((Face.RABBIT, Face.FOX), (Face.WOLF, Face.RABBIT)):
            service.inbox.put(RollSeen(None, 0, "motion"))
            service.inbox.put(RollSeen(faces, 0.99))
            service.drain()
        # farm 1: fox met the small dog; farm 2: the wolf took its sheep.
        assert lights == ["dog", "wolf"] and sounds == lights
        assert hw.display.last_image.tobytes() == render(session).tobytes()
        session.press("ok")
        session.timeline.state = GameState(CLASSIC, farms, CLASSIC.stock_for(*farms),
                                           turns=(3, 3), current=1)
        service.inbox.put(RollSeen(None, 0, "motion"))
        service.inbox.put(RollSeen((Face.RABBIT, Face.FOX), 0.99))
        service.drain()
        assert lights[-1] == "fox" and sounds[-1] == "fox"
    finally:
        service.close()
        hw.close()
