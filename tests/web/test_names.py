"""Issue 14, left open 5: the players' names set on the page are kept in names.json beside
the journal (not in it), survive a restart, and the OLED and the league use them."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from PIL import ImageChops

import farmbox.firmware.games.superfarmer.screens as sf
from farmbox.firmware.box.config import load_config
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.games.superfarmer.box import Service
from farmbox.firmware.league.outbox import Outbox
from farmbox.firmware.league.publisher import Publisher
from farmbox.hw import open_hardware
from farmbox.hw.pins import simulated_pins
from tests.box_service import wait_for

from .conftest import PIN
from .test_server import post, view


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def same(a, b) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def test_names_from_the_page_survive_a_restart_and_reach_the_oled_and_the_league(table, tmp_path):
    tr = translator("en")
    assert post(table.url, {"pin": PIN, "command": "names", "names": ["Ala", "Bolek"]})[0] == 202
    assert wait_for(lambda: view(table.url)["names"] == ["Ala", "Bolek"])
    folder = table.journal_file.parent
    assert json.loads((folder / "names.json").read_text()) == {"names": ["Ala", "Bolek"]}
    assert b"Bolek" not in table.journal_file.read_bytes()  # beside the journal, not in it
    # The OLED: the farm screen says whose farm it is by name.
    state = table.box.session.state
    assert wait_for(lambda: table.hw.display.last_image is not None and same(
        table.hw.display.last_image, sf.farm(state, tr, True, ["Ala", "Bolek"])))
    assert not same(sf.farm(state, tr, True, ["Ala", "Bolek"]), sf.farm(state, tr, True))
    table.close()

    # A restart: the box reads names.json; the league's publisher (a fresh outbox: it never
    # saw the page's command) learns them from the box as it starts.
    with simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
            journal={"dir": str(folder)})
        hw = open_hardware(config)
        box = Service(config, hardware=hw)
        publisher = Publisher(box, "superfarmer", "table1", Outbox(tmp_path / "outbox.sqlite"),
                              port=closed_port()).start()  # no broker: the outbox keeps it all
        try:
            session = box.start()
            assert box.names == ("Ala", "Bolek")
            assert publisher.flush() and publisher.names == ["Ala", "Bolek"]
            assert publisher.outbox.get("names") == "Ala\tBolek"
            box.refresh()
            assert same(hw.display.last_image, sf.farm(session.state, tr, True, ["Ala", "Bolek"]))
        finally:
            publisher.stop()
            box.close()
            hw.close()


def test_bad_or_missing_names_file_is_seat_numbers(tmp_path):
    from farmbox.firmware.box.names import load_names, save_names

    assert load_names(tmp_path) == ()
    (tmp_path / "names.json").write_text("{not json")
    assert load_names(tmp_path) == ()
    save_names(tmp_path, ["Zoë", "Łucja"])
    assert load_names(Path(tmp_path)) == ("Zoë", "Łucja")
