"""Which gpiozero pin factory drives the box: mock pins when simulated, lgpio on a Pi.

Buttons are wired to GND with pull-ups, so a pressed button reads low. On mock
pins a test or the demo bot presses one with
``Device.pin_factory.pin(13).drive_low()`` and lets go with ``drive_high()``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from gpiozero import Device
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from farmbox.hw.config import HardwareConfig, HardwareSettings

#: Real backends in the order tried (install only one of RPi.GPIO / rpi-lgpio on the Pi).
REAL_FACTORIES = (
    ("lgpio", "gpiozero.pins.lgpio", "LGPIOFactory"),
    ("rpigpio", "gpiozero.pins.rpigpio", "RPiGPIOFactory"),
)


def pin_factory(config: HardwareSettings | HardwareConfig) -> Factory:
    """The factory for ``config`` and make it gpiozero's default.

    Simulated: the current ``Device.pin_factory`` when it already is a
    MockFactory (a test's), else a new MockFactory whose pins all support PWM
    (for PWMLED and TonalBuzzer). Real: the one ``GPIOZERO_PIN_FACTORY`` names,
    else lgpio, else RPi.GPIO; none working is an OSError naming what failed.
    """
    hardware = config.hardware if isinstance(config, HardwareSettings) else config
    current = Device.pin_factory
    if hardware.simulated:
        if isinstance(current, MockFactory):
            return current
        Device.pin_factory = MockFactory(pin_class=MockPWMPin)
        return Device.pin_factory
    if current is not None and not isinstance(current, MockFactory):
        return current
    failures = []
    wanted = os.environ.get("GPIOZERO_PIN_FACTORY", "")  # the unit file names one; try it first
    for name, module_name, class_name in sorted(REAL_FACTORIES, key=lambda f: f[0] != wanted):
        try:
            module = __import__(module_name, fromlist=(class_name,))
            factory = getattr(module, class_name)()
        except Exception as exc:  # ImportError off a Pi, RuntimeError without /dev/gpiochip*
            failures.append(f"{name}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            continue
        Device.pin_factory = factory
        return factory
    raise OSError("GPIO: no pin factory works here (" + "; ".join(failures)
                  + "); install python3-lgpio, or set [hardware] simulated = true")


@contextlib.contextmanager
def simulated_pins() -> Iterator[MockFactory]:
    """Swap in a fresh PWM-capable MockFactory as gpiozero's default, then restore.

    The shape of gpiozero's own test fixture; pins are reset on the way out.
    """
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
