"""The hardware boundary: buttons, LEDs, buzzer, OLED and camera, real or simulated.

Only this package imports gpiozero, luma and picamera2 (the last lazily).

>>> from farmbox.hw.config import DisplayConfig, HardwareConfig, HardwareSettings
>>> from farmbox.hw.pins import simulated_pins
>>> with simulated_pins():
...     box = open_hardware(HardwareSettings(HardwareConfig(simulated=True), DisplayConfig("dummy")))
...     sorted(box.buttons.pins)[:4], box.display.size
...     box.close()
(['back', 'farmer', 'next', 'ok'], (128, 64))
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from gpiozero.pins import Factory

from farmbox.hw.buttons import ButtonEvent, ButtonPanel
from farmbox.hw.buzzer import Buzzer
from farmbox.hw.camera import Camera, CameraGone, FeedCamera, ReopeningCamera, open_camera
from farmbox.hw.config import HardwareSettings
from farmbox.hw.display import Display, open_display
from farmbox.hw.lights import Lights
from farmbox.hw.patterns import ALERTS
from farmbox.hw.pins import pin_factory

log = logging.getLogger(__name__)

__all__ = ["ALERTS", "ButtonEvent", "ButtonPanel", "Buzzer", "Camera", "CameraGone", "Display",
           "FeedCamera", "Hardware", "Lights", "button_pins", "open_hardware"]


def button_pins(config: HardwareSettings) -> dict[str, int]:
    """Button name -> BCM pin: prev, next, ok, back, farmer (if wired), player1..playerN."""
    b = config.buttons
    pins = {"prev": b.prev, "next": b.next, "ok": b.ok, "back": b.back}
    if b.farmer is not None:
        pins["farmer"] = b.farmer
    for seat, pin in enumerate(b.buzzers, start=1):
        pins[f"player{seat}"] = pin
    return pins


@dataclass
class Hardware:
    """Everything the box drives, opened from one :class:`~farmbox.hw.config.HardwareSettings`."""

    config: HardwareSettings
    pin_factory: Factory
    buttons: ButtonPanel
    lights: Lights
    buzzer: Buzzer
    display: Display
    camera: Camera | None

    def alert(self, name: str) -> None:
        """Flash the LEDs and sound the buzzer for alert ``name`` (non-blocking)."""
        self.lights.alert(name)
        self.buzzer.alert(name)

    def close(self) -> None:
        """Close every part (each once; later parts still close if one fails)."""
        errors = []
        for part in (self.camera, self.display, self.buzzer, self.lights, self.buttons):
            if part is None:
                continue
            try:
                part.close()
            except Exception as exc:  # keep closing the rest
                errors.append(exc)
        if errors:
            raise errors[0]

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_hardware(config: HardwareSettings, *, serial: Any = None, camera: Camera | None = None,
                  strict_camera: bool = False) -> Hardware:
    """Open every part ``config`` describes.

    ``serial``: a luma serial interface for a real OLED driver (tests pass a
    :class:`farmbox.hw.display.FakeSerial`). ``camera``: use this instead of opening
    ``[camera] source`` (the demo passes a :class:`FeedCamera`). A part that
    cannot open closes the ones already open and raises (OSError/ValueError),
    except a missing camera: unless ``strict_camera``, that is logged and a
    :class:`farmbox.hw.camera.ReopeningCamera` keeps trying on every read.
    """
    factory = pin_factory(config)
    opened: list[Any] = []
    try:
        buttons = ButtonPanel(button_pins(config), hold_time=config.buttons.hold_time,
                              debounce_ms=config.buttons.debounce_ms, pin_factory=factory)
        opened.append(buttons)
        lights = Lights({n: getattr(config.lights, n) for n in ("fox", "wolf", "dog", "ok")},
                        pin_factory=factory)
        opened.append(lights)
        buzzer = Buzzer(config.buzzer.pin, tonal=config.buzzer.tonal, pin_factory=factory)
        opened.append(buzzer)
        display = open_display(config.display, serial=serial)
        opened.append(display)
        if camera is None:
            try:
                camera = open_camera(config.camera)
            except CameraGone as exc:
                if strict_camera:
                    raise
                log.warning("%s; the box runs on buttons until it appears", exc)
                camera = ReopeningCamera(config.camera, exc)
    except BaseException:
        for part in reversed(opened):
            part.close()
        raise
    return Hardware(config, factory, buttons, lights, buzzer, display, camera)
