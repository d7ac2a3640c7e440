"""Which gpiozero pin factory drives the box: mock pins when the config says simulated,
else exactly the real factory the environment names (lgpio by default), never a guess.

Buttons are wired to GND with pull-ups, so a pressed button reads low. On mock
pins a test or the demo bot presses one with
``Device.pin_factory.pin(13).drive_low()`` and lets go with ``drive_high()``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from gpiozero import Device
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from farmbox.hw.config import HardwareConfig, HardwareSettings


class SimulatedPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """gpiozero's PWM-capable mock pin with a bounded history: a simulated box that runs
    for days keeps flat memory (gpiozero's own keeps every change it ever saw in ``states``;
    here the first entry and the last :data:`HISTORY` to :data:`HISTORY` x 2 changes)."""

    HISTORY = 2000

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if len(self.states) > 2 * self.HISTORY:
            del self.states[1:len(self.states) - self.HISTORY]
        return changed

#: The real pin factories farmbox drives, by the name ``GPIOZERO_PIN_FACTORY`` gives them.
REAL_FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
}
#: The factory used on a Pi when the environment names none (the unit names it too).
DEFAULT_FACTORY = "lgpio"


def pin_factory(config: HardwareSettings | HardwareConfig) -> Factory:
    """The factory for ``config`` and make it gpiozero's default.

    Simulated (``[hardware] simulated = true``): the current ``Device.pin_factory``
    when it already is a MockFactory (a test's), else a new MockFactory whose pins
    all support PWM (for PWMLED and TonalBuzzer).

    Real: exactly the factory ``GPIOZERO_PIN_FACTORY`` names (``lgpio`` when unset;
    the unit sets it, install.sh's rpi-gpio drop-in sets ``rpigpio``). There is no
    fallback, to another backend or to mock pins: if that one cannot open the pins
    (off a Pi, no /dev/gpiochip*, the module missing) it is an OSError of one line
    naming the factory and what failed, which the CLI reports with exit status 2.
    """
    hardware = config.hardware if isinstance(config, HardwareSettings) else config
    current = Device.pin_factory
    if hardware.simulated:
        if isinstance(current, MockFactory):
            return current
        Device.pin_factory = MockFactory(pin_class=SimulatedPin)
        return Device.pin_factory
    name = os.environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower() or DEFAULT_FACTORY
    if name not in REAL_FACTORIES:
        raise OSError(f"GPIO: GPIOZERO_PIN_FACTORY={name!r} is not a pin factory farmbox drives "
                      f"(choose {' or '.join(REAL_FACTORIES)})")
    module_name, class_name = REAL_FACTORIES[name]
    if current is not None and type(current).__name__ == class_name:
        return current
    try:
        module = __import__(module_name, fromlist=(class_name,))
        factory = getattr(module, class_name)()
    except Exception as exc:  # ImportError off a Pi, OSError/RuntimeError without /dev/gpiochip*
        reason = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise OSError(f"GPIO: the {name} pin factory cannot open the pins here ({reason}); "
                      "on a Pi run systemd/install.sh, elsewhere set [hardware] simulated = true") from exc
    Device.pin_factory = factory
    return factory


@contextlib.contextmanager
def simulated_pins(pin_class: type[MockPin] | None = None) -> Iterator[MockFactory]:
    """Swap in a fresh PWM-capable MockFactory as gpiozero's default, then restore.

    The shape of gpiozero's own test fixture; pins are reset on the way out. ``pin_class``:
    another mock pin (a test's pins that carry their own edge times).
    """
    saved = Device.pin_factory
    factory = MockFactory(pin_class=pin_class or SimulatedPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
