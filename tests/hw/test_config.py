"""Settings files: defaults, overrides, and one-line errors naming the bad key."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farmbox.firmware.box.config import (
    DEFAULT_CONFIG_PATH,
    Config,
    ConfigError,
    config_from_tables,
    find_config_path,
    load_config,
    load_config_text,
)

PI_TEMPLATE = Path(__file__).parents[2] / "systemd" / "farmbox.toml"


def test_packaged_default_is_simulated_and_complete():
    config = load_config()
    assert config.hardware.simulated
    assert config.display.driver == "dummy" and config.display.i2c_address == 0x3C
    assert (config.buttons.prev, config.buttons.next, config.buttons.ok, config.buttons.back) == (5, 6, 13, 19)
    assert config.buttons.hold_time == 1.0 and config.buttons.debounce_ms == 30
    assert len(config.buttons.buzzers) == 10
    # the file spells out every key, so it documents them all
    assert config_from_tables(config.to_dict()) == config
    assert load_config_text(DEFAULT_CONFIG_PATH.read_text()).to_dict() == config.to_dict()


def test_pi_template_drives_real_hardware():
    config = load_config(PI_TEMPLATE)
    assert not config.hardware.simulated
    assert config.display.driver in ("ssd1306", "sh1106")
    assert config.camera.source == "picamera2"
    assert config.journal.dir == "/var/lib/farmbox"


def test_empty_file_gives_the_dataclass_defaults():
    assert load_config_text("") == Config()


def test_overrides_change_only_what_they_name():
    base = load_config()
    changed = base.with_overrides(display={"driver": "capture", "output": "/tmp/frames"},
                                  game={"players": 4})
    assert changed.display.driver == "capture" and changed.game.players == 4
    assert changed.buttons == base.buttons and base.display.driver == "dummy"


def test_file_keys_override_defaults(tmp_path):
    path = tmp_path / "farmbox.toml"
    path.write_text('[game]\nmode = "funfarm"\nplayers = 7\n[ui]\nlanguage = "pl"\n')
    config = load_config(path)
    assert (config.game.mode, config.game.players, config.ui.language) == ("funfarm", 7, "pl")
    assert config.source == str(path)


@pytest.mark.parametrize("text, message", [
    ("[buttons]\nnxt = 6\n", "farmbox.toml: [buttons] unknown key 'nxt'"),
    ("[buttons]\nok = 17\n", "farmbox.toml: pin 17 used by buttons.ok and lights.fox"),
    ("[buzzer]\npin = 4\n", "farmbox.toml: pin 4 used by buttons.buzzers[1] and buzzer.pin"),
    ("[lights]\ndog = 40\n", "farmbox.toml: lights.dog = 40 is not a BCM GPIO number (0-27)"),
    ("[hardware]\nsimulated = false\n[lights]\nfox = 2\n",
     "farmbox.toml: pin 2 used by display (I2C SDA) and lights.fox"),
    ("[display]\ndriver = \"ssd1309\"\n", "farmbox.toml: [display] driver: unknown display driver 'ssd1309'"),
    ("[display]\ndriver = \"capture\"\n", "farmbox.toml: [display] driver 'capture' needs output"),
    ("[camera]\nsource = \"webcam\"\n", "farmbox.toml: [camera] source: unknown camera 'webcam'"),
    ("[camera]\nsource = \"usb:front\"\n", "usb needs a device number"),
    ("[camera]\nsource = \"folder:\"\n", "needs a value after the colon"),
    ("[game]\nmode = \"chess\"\n", "[game] mode: unknown game 'chess'"),
    ("[game]\nplayers = 7\n", "[game] players must be 1-6 for superfarmer (classic), got 7"),
    ("[game]\nplayers = 0\n", "[game] players must be 1-6 for superfarmer (classic), got 0"),
    ("[game]\nvariant = \"compact\"\nplayers = 1\n",
     "[game] players must be 2-6 for superfarmer (compact), got 1"),
    ("[game]\nmode = \"cardgame\"\nplayers = 1\n", "[game] players must be 2-6 for cardgame, got 1"),
    ("[game]\nmode = \"funfarm\"\nplayers = 1\n", "[game] players must be 2-10 for funfarm, got 1"),
    ("[ui]\nlanguage = \"de\"\n", "[ui] language: unknown language 'de'"),
    ("[buttons]\nok = true\n", "[buttons] ok must be a whole number, got True"),
    ("[buttons]\nhold_time = \"long\"\n", "[buttons] hold_time must be a number"),
    ("[buttons]\nhold_time = 0.05\ndebounce_ms = 30\n", "[buttons] hold_time (0.05 s) must be longer than"),
    ("[buttons]\nbuzzers = [4, \"x\"]\n", "[buttons] buzzers[2] must be a whole number"),
    ("[buttons]\nbuzzers = [1,2,3,4,5,6,7,8,9,10,14]\n", "at most 10 player buttons"),
    ("[hardware]\nsimulated = \"yes\"\n", "[hardware] simulated must be true or false"),
    ("[wifi]\nssid = \"farm\"\n", "farmbox.toml: unknown section [wifi]"),
    ("buttons = 3\n", "[buttons] must be a table"),
    ("[display]\nrotate = 1\n", "[display] rotate must be 0 or 2"),
    ("[buttons\n", "farmbox.toml: not valid TOML"),
])
def test_bad_settings_are_one_line_naming_the_problem(text, message):
    with pytest.raises(ConfigError) as info:
        load_config_text(text, source="farmbox.toml")
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        load_config(tmp_path / "absent.toml")


def test_farmer_button_can_be_left_unwired():
    config = load_config_text('[buttons]\nfarmer = ""\n')
    assert config.buttons.farmer is None and "buttons.farmer" not in config.pin_map()


def test_find_config_path_prefers_the_explicit_one(tmp_path):
    assert find_config_path(tmp_path / "x.toml") == tmp_path / "x.toml"
    assert find_config_path(None).name in ("default.toml", "farmbox.toml")


def test_bad_override_is_checked_like_a_file():
    with pytest.raises(ConfigError, match=r"\[display\] unknown key 'colour'"):
        load_config().with_overrides(display={"colour": "green"})
    with pytest.raises(ConfigError, match=r"unknown section \[sound\]"):
        load_config().with_overrides(sound={})


@given(st.lists(st.sampled_from(range(28)), min_size=11, max_size=11))
def test_pin_clashes_are_always_caught(pins):
    """Any assignment of the 11 pins loads iff no pin repeats, none is the OLED's I2C pair and
    none is GPIO0/1 (the HAT ID EEPROM's bus).

    (No [hardware] table: real hardware with an ssd1306 on I2C bus 1, so GPIO2/3 are taken.)
    """
    names = [("buttons", "prev"), ("buttons", "next"), ("buttons", "ok"), ("buttons", "back"),
             ("buttons", "farmer"), ("lights", "fox"), ("lights", "wolf"), ("lights", "dog"),
             ("lights", "ok"), ("buzzer", "pin"), ("buttons", "buzzers")]
    tables: dict = {}
    for (section, key), pin in zip(names, pins, strict=True):
        tables.setdefault(section, {})[key] = [pin] if key == "buzzers" else pin
    try:
        config = config_from_tables(tables)
    except ConfigError as exc:
        clash = len(set(pins)) < len(pins) or {2, 3} & set(pins)
        reserved = {0, 1} & set(pins)
        assert clash or reserved
        assert ("used by" in str(exc) and clash) or ("HAT ID EEPROM" in str(exc) and reserved)
    else:
        assert len(set(pins)) == len(pins) and not {0, 1, 2, 3} & set(pins)
        assert sorted(config.pin_map().values()) == sorted(pins)


def test_classic_super_farmer_allows_solitaire():
    """The classic rules allow one farm (min_players 1); the config follows the rules."""
    from farmbox.firmware.rules.superfarmer import variant

    config = load_config_text('[game]\nplayers = 1\n')
    assert (config.game.mode, config.game.variant, config.game.players) == \
        ("superfarmer", "classic", 1)
    assert variant("classic").min_players == 1 and variant("compact").min_players == 2


@pytest.mark.parametrize("pin", [0, 1])
def test_the_hat_eeprom_pins_are_refused(pin):
    with pytest.raises(ConfigError, match=rf"buttons.ok = {pin} is GPIO{pin}, the HAT ID EEPROM"):
        load_config_text(f"[hardware]\nsimulated = true\n[buttons]\nok = {pin}\n")


@pytest.mark.parametrize("pin", [14, 15])
def test_the_uart_pins_load_with_one_warning(pin, caplog):
    with caplog.at_level("WARNING"):
        config = load_config_text(f"[buttons]\nok = {pin}\n", source="t.toml")
    assert config.buttons.ok == pin
    lines = [r.getMessage() for r in caplog.records if "serial console" in r.getMessage()]
    assert lines == [f"t.toml: buttons.ok = {pin} is GPIO{pin}, the serial console's "
                     f"{'UART TX' if pin == 14 else 'UART RX'}: disable the serial console "
                     "(raspi-config) or choose another pin"]
