"""Point 1 in-process: luma's real ssd1306 + i2c code over a bus that fails on chosen
transfers, and a journal on a real file system that fills up (a tiny tmpfs)."""

from __future__ import annotations

import errno
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.drawing import notices
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.box.observations import Press, RollSeen
from farmbox.firmware.games.funfarm.session import FunFarmJournal
from farmbox.firmware.games.superfarmer.box import Service
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.games.superfarmer.render import render
from farmbox.firmware.rules.superfarmer.dice import Face
from farmbox.hw import open_hardware
from farmbox.hw.config import DisplayConfig
from farmbox.hw.display import RETRY_FIRST, FakeSerial, open_display
from farmbox.hw.pins import simulated_pins
from tests.box_service import wait_for
from tests.faults.bus import FlakyBus


class Clock:
    """A clock the test moves (the backoff is waited for without sleeping)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fill_disk(disk):
    """Fill the small file system at ``disk`` to the last block; the file to remove for room."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 512)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def picture(n: int) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((n, 5, n + 20, 40), fill=1)
    return image


def luma_bytes(image: Image.Image) -> bytes:
    """What luma's ssd1306 sends for ``image`` (its real driver over a recording serial)."""
    serial = FakeSerial()
    display = open_display(DisplayConfig(driver="ssd1306"), serial=serial)
    display.show(image)
    return bytes(serial.data_sent[-1])


def test_an_i2c_error_is_retried_and_the_display_reopened_with_backoff():
    bus = FlakyBus()
    clock = Clock()
    display = open_display(DisplayConfig(driver="ssd1306"), bus=bus, clock=clock)
    display.show(picture(1))
    assert bus.frames()[-1] == luma_bytes(picture(1))
    bus.down = True                              # the cable comes loose
    display.show(picture(2))                     # no exception: the box goes on
    display.show(picture(3))
    assert not display.working and display.faults == 1
    bus.down = False
    assert not display.recover()                 # not before its backoff is over
    clock.now += RETRY_FIRST
    assert display.recover() and display.working and display.reopened == 1
    assert bus.frames()[-1] == luma_bytes(picture(3))  # the latest frame, once
    assert display.last_image is not None and display.last_image.tobytes() == picture(3).tobytes()


def test_backoff_doubles_while_the_oled_stays_away():
    bus = FlakyBus(code=errno.EIO)
    clock = Clock()
    display = open_display(DisplayConfig(driver="ssd1306"), bus=bus, clock=clock)
    bus.down = True
    display.show(picture(1))
    tries = []
    for _ in range(60):                          # 60 steps of 0.1 s
        clock.now += 0.1
        before = bus.transfers
        display.recover()
        if bus.transfers > before:
            tries.append(round(clock.now - 1000.0, 1))
    gaps = [b - a for a, b in zip(tries, tries[1:])]
    assert len(tries) >= 3 and all(b >= a for a, b in zip(gaps, gaps[1:])), tries


@pytest.fixture
def pins() -> Iterator[object]:
    with simulated_pins() as factory:
        yield factory


def test_the_game_goes_on_and_the_leds_signal_while_the_oled_is_away(tmp_path, pins):
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "ssd1306"}, camera={"source": "none"},
        journal={"dir": str(tmp_path)})
    bus = FlakyBus()
    clock = Clock()
    hw = open_hardware(config, serial=i2c(bus=bus, address=0x3C))
    service = Service(config, hardware=hw, clock=clock)
    session = service.start()
    try:
        bus.down = True
        for name in ("ok", "ok", "ok"):          # a roll entered on the buttons
            service.inbox.put(Press(name))
            service.drain()
        assert service.journal.seq == 2 and sum(session.state.turns) == 1
        assert not hw.display.working
        service.inbox.put(Press("back", "hold"))     # undo: allowed, so hold twice
        service.drain()
        service.inbox.put(Press("back", "hold"))     # nothing left to undo: a mistake
        service.drain()
        fox = pins.pin(config.lights.fox)  # type: ignore[attr-defined]
        assert wait_for(lambda: fox.state == 1, 5), "the mistake alert did not light the LEDs"
        bus.down = False                         # back: re-opened within its backoff
        assert wait_for(lambda: service.step(timeout=0) or hw.display.working, 15)
        assert bus.frames()[-1] == luma_bytes(render(session, "en"))
    finally:
        service.close()
        hw.close()


#: What the camera reads while the journal is full (no predator).
ROLL = (Face.RABBIT, Face.SHEEP)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs (root only): a journal folder that really fills up."""
    where = tmp_path / "disk"
    where.mkdir()
    if shutil.which("mount") is None or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
            capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def test_a_full_disk_is_shown_the_ack_withheld_and_the_write_retried(tiny_disk, pins):
    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tiny_disk)})
    acks: list[int] = []
    clock = Clock()
    hw = open_hardware(config)
    service = Service(config, hardware=hw, clock=clock, on_commit=acks.append)
    session = service.start()
    try:
        filler = fill_disk(tiny_disk)  # the disk fills up
        presses = 0
        for _ in range(200):                     # play on until a record finds no room
            before, seq, acked = session.state, service.journal.seq, list(acks)
            presses += 1
            service.inbox.put(Press("ok"))
            service.drain()
            if service.saving:
                break
        assert service.saving and acks == acked and service.journal.seq == seq
        assert session.state == before           # the game did not move past the disk
        shown = hw.display.last_image
        assert shown is not None and shown.tobytes() == notices.journal_not_saved(
            translator("en"), True, seq).tobytes()
        clock.now += 0.1
        # The table plays on past the notice: a push (it answers the "not saved" screen:
        # dropped) and a roll the camera saw (it happened: it waits its turn).
        meanwhile = [Press("ok"), RollSeen(None, 0, "motion"), RollSeen(ROLL, 0.99), Press("ok")]
        for event in meanwhile:
            service.inbox.put(event)
            service.step(timeout=0)              # too early: still waiting
        assert service.saving and acks == acked and service.inbox.empty()
        filler.unlink()                          # room again
        clock.now += 10
        service.step(timeout=0)
        assert not service.saving and acks == [*acked, seq + 1] and session.state != before
        service.drain()                          # what the camera saw meanwhile, once
        assert service.dropped_while_held == 2 and acks == [*acked, seq + 1, seq + 2]
        assert service.journal.seq == seq + 2 and sum(session.state.turns) > sum(before.turns)
        seq = service.journal.seq
    finally:
        service.close()
        hw.close()
    journal = SuperFarmerJournal(tiny_disk)
    replay = journal.open()
    journal.close()
    assert replay.dropped == 0 and replay.seq == seq and replay.timeline is not None
    assert replay.timeline.state == session.state  # on disk once, as the table saw it
    # the very game a box with room to spare makes of the same presses
    healthy = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tiny_disk.parent / "healthy")})
    hw = open_hardware(healthy)
    reference = Service(healthy, hardware=hw, clock=Clock())
    table = reference.start()
    try:
        for event in [Press("ok")] * presses + meanwhile[1:3]:
            reference.inbox.put(event)
            reference.drain()
        assert table.state == session.state and reference.journal.seq == seq
    finally:
        reference.close()
        hw.close()


def test_fun_farm_buzzes_while_the_disk_is_full_wait_their_turn(tiny_disk):
    """Fun Farm on a journal that fills up as a card is turned: the roll the camera sees and
    the buzz that races for it wait until the card's record is written, then settle the race
    as it was run (the buzz keeps its GPIO time); nothing is dropped."""
    from tests.funfarm_box.conftest import Clock, open_table

    clock = Clock()
    with simulated_pins():
        t = open_table(tiny_disk, 3, clock=clock)
        try:
            session = t.session
            filler = fill_disk(tiny_disk)  # the disk fills up
            for _ in range(20):  # turn cards, roll, until a record finds no room
                index = session.state.draw_pile[0]
                card = session.rules.deck.cards[index]
                t.turn(card.id)
                if t.referee.saving:               # the draw is held: the camera reads
                    t.roll(card.black, card.white)  # the colours meanwhile
                    break
                t.roll(card.black, card.white)
                if t.referee.saving:               # the roll is held
                    break
            assert t.referee.saving
            seq = t.referee.journal.seq
            t.inject_same_ms(1)                    # player 2 buzzes for the card
            for _ in range(4):
                t.referee.step(timeout=0)          # too early for the retry: they wait
            assert t.referee.saving and t.referee.journal.seq == seq
            assert index not in session.state.piles[1]
            filler.unlink()
            clock.now += 10
            t.settle()
            assert not t.referee.saving and t.referee.dropped_while_held == 0
            assert index in session.state.piles[1]  # player 2 caught it
        finally:
            t.referee.close()
            t.hw.close()
    journal = FunFarmJournal(tiny_disk)
    replay = journal.open()
    journal.close()
    assert [a["action"] for a in replay.actions[-2:]] == ["roll", "buzz"]
    assert replay.dropped == 0 and replay.state == session.state


def test_the_table_view_refuses_commands_while_not_saved(tiny_disk, pins):
    """A page command while the journal cannot be written is 409 "not saved yet" (not 202
    and then lost); once the write is done the same command is taken."""
    import json
    import urllib.error
    import urllib.request

    from farmbox.firmware.web.server import TableServer

    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tiny_disk)})
    clock = Clock()
    hw = open_hardware(config)
    service = Service(config, hardware=hw, clock=clock)
    session = service.start()
    server = TableServer(service, "superfarmer", port=0, bind="127.0.0.1", pin="2468").start()

    def send(command: str) -> tuple[int, str]:
        data = json.dumps({"command": command, "pin": "2468", "green": "rabbit",
                           "red": "sheep"}).encode()
        request = urllib.request.Request(server.url + "api/command", data=data,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.load(answer)["message"]
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)["message"]

    try:
        filler = fill_disk(tiny_disk)  # the disk fills up
        for _ in range(200):
            service.inbox.put(Press("ok"))
            service.drain()
            if service.saving:
                break
        assert service.saving
        seq = service.journal.seq
        status, message = send("roll")
        assert status == 409 and "not saved yet" in message
        assert service.inbox.empty() and service.journal.seq == seq
        filler.unlink()
        clock.now += 10
        service.step(timeout=0)
        assert not service.saving and service.journal.seq == seq + 1
        assert send("undo")[0] == 202
        service.drain()
        assert service.journal.seq == seq + 2 and session is service.session
    finally:
        server.stop()
        service.close()
        hw.close()
