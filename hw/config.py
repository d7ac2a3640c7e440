"""The hardware's own settings: which display, which pins, which camera.

Plain frozen dataclasses with their checks; the box maps its TOML file onto them
(:mod:`farmbox.firmware.box.config`), so this package depends on nothing of ours.
A bad value raises :class:`SettingsError` with one line naming the key:

>>> check_hardware(HardwareSettings(buttons=ButtonsConfig(ok=1)))
Traceback (most recent call last):
...
farmbox.hw.config.SettingsError: buttons.ok = 1 is GPIO1, the HAT ID EEPROM's I2C pin: choose another
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

DISPLAY_DRIVERS = ("ssd1306", "sh1106", "dummy", "capture", "gifanim")
CAMERA_KINDS = ("none", "picamera2", "feed", "usb", "video", "folder")
MAX_BUZZERS = 10
#: BCM numbers a 40-pin header exposes as GPIO.
BCM_PINS = range(0, 28)
#: Pins the I2C bus 1 takes when a real OLED is wired (SDA, SCL).
I2C1_PINS = {2: "display (I2C SDA)", 3: "display (I2C SCL)"}
#: Pins reserved for the HAT ID EEPROM (I2C bus 0): wiring a button there breaks HAT detection.
RESERVED_PINS = {0: "the HAT ID EEPROM's I2C pin", 1: "the HAT ID EEPROM's I2C pin"}
#: Pins that work as GPIO but are the serial console's UART by default.
UART_PINS = {14: "UART TX", 15: "UART RX"}


class SettingsError(ValueError):
    """A hardware setting that cannot be used; the message is one line naming the key."""


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    #: capture: folder for numbered PNGs; gifanim: the GIF file written on close.
    output: str = ""
    #: capture/gifanim only: pixels per OLED pixel in the written images.
    scale: int = 1


@dataclass(frozen=True)
class ButtonsConfig:
    prev: int = 5
    next: int = 6
    ok: int = 13
    back: int = 19
    #: Seconds a button is held down to count as a hold (hold = undo).
    hold_time: float = 1.0
    #: Edges closer than this to the last accepted one are contact bounce.
    debounce_ms: int = 30
    #: Fun Farm: one buzzer button per player, in seat order.
    buzzers: tuple[int, ...] = (4, 24, 25, 12, 16, 20, 21, 7, 8, 11)
    #: Fun Farm: the Farmer's button (turn the card, roll); None = not wired.
    farmer: int | None = 26


@dataclass(frozen=True)
class LightsConfig:
    fox: int = 17
    wolf: int = 27
    dog: int = 22
    ok: int = 23


@dataclass(frozen=True)
class BuzzerConfig:
    pin: int = 18
    #: True: a passive piezo played with tones (PWM); False: an active buzzer (on/off).
    tonal: bool = True


@dataclass(frozen=True)
class CameraConfig:
    #: none | picamera2 | feed | usb:N | video:PATH | folder:PATH
    source: str = "none"
    width: int = 960
    height: int = 720
    #: video/folder: start again at the end instead of reporting the camera gone.
    loop: bool = False

    @property
    def kind(self) -> str:
        """The part of ``source`` before the colon (``usb``, ``folder`` ...)."""
        return self.source.split(":", 1)[0]

    @property
    def argument(self) -> str:
        """The part of ``source`` after the colon ("" when there is none)."""
        return self.source.split(":", 1)[1] if ":" in self.source else ""


@dataclass(frozen=True)
class HardwareConfig:
    #: True: gpiozero MockFactory pins and a luma stand-in display.
    simulated: bool = False


@dataclass(frozen=True)
class HardwareSettings:
    """Everything :func:`farmbox.hw.open_hardware` needs, one dataclass per part."""

    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)

    def pin_map(self) -> dict[str, int]:
        """Every wired BCM pin by its owner, ``{"buttons.ok": 13, "buttons.buzzers[1]": 4, ...}``."""
        pins: dict[str, int] = {}
        for name in ("prev", "next", "ok", "back"):
            pins[f"buttons.{name}"] = getattr(self.buttons, name)
        for seat, pin in enumerate(self.buttons.buzzers, start=1):
            pins[f"buttons.buzzers[{seat}]"] = pin
        if self.buttons.farmer is not None:
            pins["buttons.farmer"] = self.buttons.farmer
        for name in ("fox", "wolf", "dog", "ok"):
            pins[f"lights.{name}"] = getattr(self.lights, name)
        pins["buzzer.pin"] = self.buzzer.pin
        return pins


def _one_of(where: str, value: str, choices: tuple[str, ...], what: str) -> None:
    if value not in choices:
        raise SettingsError(f"{where} unknown {what} {value!r} (choose {', '.join(choices)})")


def check_display(d: DisplayConfig) -> None:
    """Raise :class:`SettingsError` for a display setting that cannot work."""
    _one_of("[display] driver:", d.driver, DISPLAY_DRIVERS, "display driver")
    if not 0 <= d.i2c_port <= 99:
        raise SettingsError(f"[display] i2c_port must be 0-99, got {d.i2c_port}")
    if not 0x03 <= d.i2c_address <= 0x77:
        raise SettingsError(f"[display] i2c_address must be 0x03-0x77, got {d.i2c_address:#x}")
    if d.rotate not in (0, 2):
        raise SettingsError(f"[display] rotate must be 0 or 2 (2: mounted upside down), got {d.rotate}")
    if not 1 <= d.scale <= 8:
        raise SettingsError(f"[display] scale must be 1-8, got {d.scale}")
    if d.driver in ("capture", "gifanim") and not d.output:
        raise SettingsError(f"[display] driver {d.driver!r} needs output (a folder or a .gif file)")


def check_buttons(b: ButtonsConfig) -> None:
    """Raise :class:`SettingsError` for button timings or a buzzer list that cannot work."""
    if not 0 < b.hold_time <= 10:
        raise SettingsError(f"[buttons] hold_time must be more than 0 and at most 10 s, got {b.hold_time}")
    if not 0 <= b.debounce_ms <= 500:
        raise SettingsError(f"[buttons] debounce_ms must be 0-500, got {b.debounce_ms}")
    if b.hold_time * 1000 <= 2 * b.debounce_ms:
        raise SettingsError(f"[buttons] hold_time ({b.hold_time} s) must be longer than twice "
                            f"debounce_ms ({b.debounce_ms} ms)")
    if len(b.buzzers) > MAX_BUZZERS:
        raise SettingsError(f"[buttons] buzzers: at most {MAX_BUZZERS} player buttons, got {len(b.buzzers)}")


def check_pins(settings: HardwareSettings) -> list[str]:
    """Raise :class:`SettingsError` for a pin that is not GPIO, reserved or used twice;
    return one-line warnings for pins that work but take something else away (the UART)."""
    used: dict[int, str] = {}
    d = settings.display
    if d.driver in ("ssd1306", "sh1106") and d.i2c_port == 1 and not settings.hardware.simulated:
        used.update(I2C1_PINS)
    warnings = []
    for owner, pin in settings.pin_map().items():
        if pin not in BCM_PINS:
            raise SettingsError(f"{owner} = {pin} is not a BCM GPIO number (0-27)")
        if pin in RESERVED_PINS:
            raise SettingsError(f"{owner} = {pin} is GPIO{pin}, {RESERVED_PINS[pin]}: choose another")
        if pin in used:
            raise SettingsError(f"pin {pin} used by {used[pin]} and {owner}")
        if pin in UART_PINS:
            warnings.append(f"{owner} = {pin} is GPIO{pin}, the serial console's {UART_PINS[pin]}: "
                            "disable the serial console (raspi-config) or choose another pin")
        used[pin] = owner
    return warnings


def check_camera(cam: CameraConfig) -> None:
    """Raise :class:`SettingsError` for a camera source or size that cannot work."""
    _one_of("[camera] source:", cam.kind, CAMERA_KINDS, "camera")
    if cam.kind in ("usb", "video", "folder") and not cam.argument:
        raise SettingsError(f"[camera] source {cam.source!r} needs a value after the colon")
    if cam.kind in ("none", "picamera2", "feed") and cam.argument:
        raise SettingsError(f"[camera] source {cam.source!r}: {cam.kind} takes no value")
    if cam.kind == "usb" and not cam.argument.isdigit():
        raise SettingsError(f"[camera] source {cam.source!r}: usb needs a device number (usb:0)")
    if not (16 <= cam.width <= 4096 and 16 <= cam.height <= 4096):
        raise SettingsError(f"[camera] width/height must be 16-4096, got {cam.width}x{cam.height}")


def check_hardware(settings: HardwareSettings) -> list[str]:
    """Every check above; returns the warnings of :func:`check_pins`."""
    check_display(settings.display)
    check_buttons(settings.buttons)
    warnings = check_pins(settings)
    check_camera(settings.camera)
    return warnings
