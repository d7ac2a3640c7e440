"""docs/wiring.md agrees with the shipped pin map and with gpiozero's header map."""

from __future__ import annotations

import re
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from farmbox.firmware.box.config import load_config

ROOT = Path(__file__).parents[2]
ROW = re.compile(r"^\| (?P<key>[a-z]+\.[a-z]+(?:\[\d+\])?) \|[^|]+\| GPIO(?P<bcm>\d+) \| (?P<physical>\d+) \|")


def wiring_rows() -> dict[str, tuple[int, int]]:
    rows = {}
    for line in (ROOT / "docs/wiring.md").read_text().splitlines():
        if match := ROW.match(line):
            rows[match["key"]] = (int(match["bcm"]), int(match["physical"]))
    return rows


def physical_pin(bcm: int) -> int:
    """The header pin of BCM ``bcm`` on a 40-pin Pi, from gpiozero's board data."""
    ((_, info),) = list(MockFactory(revision="a02082").board_info.find_pin(f"GPIO{bcm}"))
    return info.number


def test_wiring_table_covers_every_pin_of_both_configs():
    rows = wiring_rows()
    for config in (load_config(), load_config(ROOT / "systemd/farmbox.toml")):
        pins = config.pin_map()
        assert set(rows) == set(pins)
        for key, bcm in pins.items():
            assert rows[key][0] == bcm, key


def test_physical_pins_match_the_header():
    for key, (bcm, physical) in wiring_rows().items():
        assert physical_pin(bcm) == physical, key
    assert (physical_pin(2), physical_pin(3)) == (3, 5)  # the OLED's SDA and SCL rows


def test_oled_address_in_docs_is_the_default():
    text = (ROOT / "docs/wiring.md").read_text()
    assert f"{load_config().display.i2c_address:#04x}".upper().replace("X", "x") in text
