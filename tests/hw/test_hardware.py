"""The whole hardware bundle from a Config, on mock pins."""

from __future__ import annotations

import sys

import cv2
import numpy as np
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from farmbox.firmware.box.config import load_config
from farmbox.hw import Hardware, button_pins, open_hardware
from farmbox.hw.buttons import ButtonPanel
from farmbox.hw.camera import CameraGone, FeedCamera, ReopeningCamera
from farmbox.hw.display import FakeSerial
from farmbox.hw.pins import pin_factory, simulated_pins

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


@pytest.fixture
def box(mock_factory):
    config = load_config().with_overrides(buttons={"debounce_ms": 0, "hold_time": 0.2})
    with open_hardware(config) as hardware:
        yield hardware


def test_button_names_cover_the_pin_map():
    config = load_config()
    pins = button_pins(config)
    assert list(pins)[:5] == ["prev", "next", "ok", "back", "farmer"]
    assert [pins[f"player{i}"] for i in range(1, 11)] == list(config.buttons.buzzers)


def test_buttons_of_the_bundle_answer_mock_pins(box, mock_factory):
    assert isinstance(box, Hardware) and box.pin_factory is mock_factory
    for name in ("next", "ok", "player3"):
        pin = mock_factory.pin(button_pins(box.config)[name])
        pin.drive_low()
        pin.drive_high()
        event = box.buttons.get(timeout=1)
        assert (event.name, event.kind) == (name, "press")


def test_alert_drives_leds_and_buzzer(box, mock_factory):
    box.lights.tempo = box.buzzer.tempo = 0.005
    fox_led = mock_factory.pin(box.config.lights.fox)
    piezo = mock_factory.pin(box.config.buzzer.pin)
    box.alert("fox")
    assert box.lights.wait(5) and box.buzzer.wait(5)
    assert [bool(s.state) for s in fox_led.states[1:]] == [True, False] * 3
    assert [s.state for s in piezo.states[1:]].count(0.5) == 3  # three chirps at 50% duty


def test_display_and_camera_from_the_default(box):
    assert box.display.size == (128, 64) and box.display.driver == "dummy"
    assert box.camera is None


def test_real_oled_driver_through_a_fake_serial(mock_factory):
    config = load_config().with_overrides(display={"driver": "ssd1306"})
    serial = FakeSerial()
    with open_hardware(config, serial=serial) as hardware:
        from PIL import Image

        hardware.display.show(Image.new("1", (128, 64), 1))
        assert serial.data_sent[-1] == [0xFF] * 1024


def test_close_frees_every_pin(mock_factory):
    config = load_config()
    open_hardware(config).close()
    again = open_hardware(config)  # would raise GPIOPinInUse if anything was left reserved
    again.close()


def test_failure_part_way_closes_what_was_opened(mock_factory, tmp_path):
    config = load_config().with_overrides(display={"driver": "capture", "output": str(tmp_path / "no")})
    with pytest.raises(OSError, match="capture folder"):
        open_hardware(config)
    ButtonPanel(button_pins(config), debounce_ms=0).close()  # the buttons' pins are free


def test_missing_camera_keeps_trying_until_it_appears(mock_factory, tmp_path):
    shots = tmp_path / "shots"
    config = load_config().with_overrides(camera={"source": f"folder:{shots}"})
    with pytest.raises(CameraGone):
        open_hardware(config, strict_camera=True)
    with open_hardware(config) as hardware:
        assert isinstance(hardware.camera, ReopeningCamera)
        with pytest.raises(CameraGone, match="no such folder"):
            hardware.camera.read()
        shots.mkdir()
        cv2.imwrite(str(shots / "a.png"), np.full((8, 8, 3), 200, np.uint8))
        assert hardware.camera.read().shape == (8, 8, 3)


def test_a_given_camera_is_used(mock_factory):
    feed = FeedCamera()
    with open_hardware(load_config(), camera=feed) as hardware:
        assert hardware.camera is feed


def test_simulated_factory_is_made_and_installed_when_none_is_set():
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        factory = pin_factory(load_config())
        assert isinstance(factory, MockFactory) and Device.pin_factory is factory
        assert pin_factory(load_config()) is factory  # reused, so tests and the bot share pins
    finally:
        Device.pin_factory = saved


def test_real_gpio_off_a_pi_is_a_clear_error(monkeypatch):
    for module in ("gpiozero.pins.lgpio", "gpiozero.pins.rpigpio"):
        monkeypatch.setitem(sys.modules, module, None)  # as where neither backend can load
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    real = load_config().with_overrides(hardware={"simulated": False})
    with pytest.raises(OSError, match=r"^GPIO: the lgpio pin factory cannot open the pins here \(.*\); "
                                      r"on a Pi run systemd/install.sh, elsewhere set \[hardware\] simulated = true$"):
        pin_factory(real)
    assert Device.pin_factory is None  # no silent fallback to mock pins
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")  # as install.sh's rpi-gpio drop-in sets
    with pytest.raises(OSError, match=r"^GPIO: the rpigpio pin factory cannot open") as caught:
        pin_factory(real)
    assert "lgpio" not in str(caught.value)  # only the named one is tried
    assert Device.pin_factory is None


def test_only_the_named_factory_is_used_never_another(monkeypatch):
    """A working rpigpio does not stand in for a failing lgpio: the choice is explicit."""
    import types

    class StandIn(MockFactory):
        pass

    fake = types.ModuleType("gpiozero.pins.rpigpio")
    fake.RPiGPIOFactory = StandIn  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.rpigpio", fake)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)
    monkeypatch.setattr(Device, "pin_factory", None)
    real = load_config().with_overrides(hardware={"simulated": False})
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    with pytest.raises(OSError, match="the lgpio pin factory"):
        pin_factory(real)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    try:
        assert isinstance(pin_factory(real), StandIn) and isinstance(Device.pin_factory, StandIn)
    finally:
        Device.pin_factory.close()


def test_an_unknown_factory_name_is_one_line(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpio")
    with pytest.raises(OSError, match=r"^GPIO: GPIOZERO_PIN_FACTORY='pigpio' is not a pin factory farmbox "
                                      r"drives \(choose lgpio or rpigpio\)$"):
        pin_factory(load_config().with_overrides(hardware={"simulated": False}))


def test_simulated_pins_restores_the_previous_factory():
    saved = Device.pin_factory
    with simulated_pins() as factory:
        assert Device.pin_factory is factory
    assert Device.pin_factory is saved
