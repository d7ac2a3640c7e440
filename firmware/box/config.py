"""The box's settings: pin map, devices, game and paths, read from a TOML file.

The packaged ``firmware/box/default.toml`` runs everything on simulated hardware;
on a Pi ``farmbox run`` reads ``/etc/farmbox/farmbox.toml``. Every key has a
default, so a file only needs the keys it changes. Bad input is one line:

>>> load_config_text("[buttons]\\nnxt = 6\\n", source="farmbox.toml")
Traceback (most recent call last):
...
farmbox.firmware.box.config.ConfigError: farmbox.toml: [buttons] unknown key 'nxt'
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The settings file a Pi installation uses (see systemd/install.sh).
PI_CONFIG_PATH = Path("/etc/farmbox/farmbox.toml")
#: The packaged default: simulated hardware, used by the demo and the tests.
DEFAULT_CONFIG_PATH = Path(__file__).with_name("default.toml")

DISPLAY_DRIVERS = ("ssd1306", "sh1106", "dummy", "capture", "gifanim")
CAMERA_KINDS = ("none", "picamera2", "feed", "usb", "video", "folder")
GAME_MODES = ("superfarmer", "funfarm", "cardgame")
VARIANTS = ("classic", "compact")
LANGUAGES = ("en", "pl")
#: Players allowed per game mode (Fun Farm seats up to 10 buzzers); Super Farmer's come from
#: its variant's rules (see :func:`players_range`): classic 1-6 (solitaire), compact 2-6.
PLAYERS = {"superfarmer": (1, 6), "cardgame": (2, 6), "funfarm": (2, 10)}
MAX_BUZZERS = 10
#: BCM numbers a 40-pin header exposes as GPIO.
BCM_PINS = range(0, 28)
#: Pins the I2C bus 1 takes when a real OLED is wired (SDA, SCL).
I2C1_PINS = {2: "display (I2C SDA)", 3: "display (I2C SCL)"}


class ConfigError(ValueError):
    """A settings file that cannot be used; the message is one line naming the key."""


@dataclass(frozen=True)
class HardwareConfig:
    #: True: gpiozero MockFactory pins and a luma stand-in display.
    simulated: bool = False


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
class GameConfig:
    mode: str = "superfarmer"
    variant: str = "classic"
    players: int = 2


@dataclass(frozen=True)
class UIConfig:
    language: str = "en"


@dataclass(frozen=True)
class JournalConfig:
    dir: str = "/var/lib/farmbox"


@dataclass(frozen=True)
class VisionConfig:
    dice_model: str = ""
    cards_model: str = ""
    colour_dice_model: str = ""


@dataclass(frozen=True)
class Config:
    """All settings; a frozen tree of one dataclass per TOML section."""

    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    game: GameConfig = field(default_factory=GameConfig)
    ui: UIConfig = field(default_factory=UIConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    #: Where the settings came from (for messages); not a TOML key.
    source: str = field(default="<defaults>", compare=False)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """The settings as TOML-shaped tables (tuples become lists)."""
        out: dict[str, dict[str, Any]] = {}
        for name in SECTIONS:
            table = dataclasses.asdict(getattr(self, name))
            out[name] = {k: list(v) if isinstance(v, tuple) else v for k, v in table.items()}
        return out

    def with_overrides(self, **sections: dict[str, Any]) -> Config:
        """A copy with some keys changed, checked like a file.

        >>> c = load_config().with_overrides(display={"driver": "capture", "output": "/tmp/x"})
        >>> c.display.driver
        'capture'
        """
        tables = self.to_dict()
        for name, changes in sections.items():
            if name not in SECTIONS:
                raise ConfigError(f"overrides: unknown section [{name}]")
            tables[name].update(changes)
        return config_from_tables(tables, source=f"{self.source} (with overrides)")

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


#: TOML section name -> its dataclass, in file order.
SECTIONS: dict[str, type] = {
    "hardware": HardwareConfig,
    "display": DisplayConfig,
    "buttons": ButtonsConfig,
    "lights": LightsConfig,
    "buzzer": BuzzerConfig,
    "camera": CameraConfig,
    "game": GameConfig,
    "ui": UIConfig,
    "journal": JournalConfig,
    "vision": VisionConfig,
}


def load_config(path: Path | str | None = None) -> Config:
    """Read settings from ``path`` (default: the packaged default.toml).

    A missing file is an OSError; anything wrong inside it is a ConfigError.
    """
    path = Path(path) if path is not None else DEFAULT_CONFIG_PATH
    return load_config_text(path.read_text(encoding="utf-8"), source=str(path))


def find_config_path(explicit: Path | str | None = None) -> Path:
    """The file ``farmbox run`` reads: ``explicit``, else the Pi's, else the packaged default."""
    if explicit is not None:
        return Path(explicit)
    return PI_CONFIG_PATH if PI_CONFIG_PATH.exists() else DEFAULT_CONFIG_PATH


def load_config_text(text: str, source: str = "<text>") -> Config:
    """Parse TOML text into a :class:`Config` (``source`` names it in messages)."""
    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    return config_from_tables(tables, source=source)


def config_from_tables(tables: dict[str, Any], source: str = "<tables>") -> Config:
    """Build and check a :class:`Config` from TOML-shaped tables."""
    try:
        sections = {}
        for name, table in tables.items():
            if name not in SECTIONS:
                raise ConfigError(f"unknown section [{name}] (known: {', '.join(SECTIONS)})")
            if not isinstance(table, dict):
                raise ConfigError(f"[{name}] must be a table, got {table!r}")
            sections[name] = _section(name, SECTIONS[name], table)
        config = Config(**sections, source=source)
        _check(config)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    return config


def _section(name: str, cls: type, table: dict[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in table.items():
        if key not in hints:
            raise ConfigError(f"[{name}] unknown key {key!r}")
        values[key] = _typed(f"[{name}] {key}", hints[key], value)
    return cls(**values)


def _typed(where: str, hint: Any, value: Any) -> Any:
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where} must be a string, got {value!r}")
        return value
    if hint == (int | None):
        # TOML has no null: "" or false means "not wired".
        if value == "" or value is False:
            return None
        return _typed(where, int, value)
    if hint == tuple[int, ...]:
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list of whole numbers, got {value!r}")
        return tuple(_typed(f"{where}[{i}]", int, v) for i, v in enumerate(value, start=1))
    raise TypeError(f"{where}: unsupported setting type {hint!r}")  # a bug in this module


def players_range(mode: str, variant_name: str = "classic") -> tuple[int, int]:
    """Fewest and most players of ``mode``; Super Farmer's from its variant's rules."""
    if mode == "superfarmer" and variant_name in VARIANTS:
        from farmbox.firmware.rules.superfarmer import variant  # noqa: PLC0415

        rules = variant(variant_name)
        return rules.min_players, rules.max_players
    return PLAYERS[mode]


def _one_of(where: str, value: str, choices: tuple[str, ...], what: str) -> None:
    if value not in choices:
        raise ConfigError(f"{where} unknown {what} {value!r} (choose {', '.join(choices)})")


def _check(c: Config) -> None:
    d = c.display
    _one_of("[display] driver:", d.driver, DISPLAY_DRIVERS, "display driver")
    if not 0 <= d.i2c_port <= 99:
        raise ConfigError(f"[display] i2c_port must be 0-99, got {d.i2c_port}")
    if not 0x03 <= d.i2c_address <= 0x77:
        raise ConfigError(f"[display] i2c_address must be 0x03-0x77, got {d.i2c_address:#x}")
    if d.rotate not in (0, 2):
        raise ConfigError(f"[display] rotate must be 0 or 2 (2: mounted upside down), got {d.rotate}")
    if not 1 <= d.scale <= 8:
        raise ConfigError(f"[display] scale must be 1-8, got {d.scale}")
    if d.driver in ("capture", "gifanim") and not d.output:
        raise ConfigError(f"[display] driver {d.driver!r} needs output (a folder or a .gif file)")

    b = c.buttons
    if not 0 < b.hold_time <= 10:
        raise ConfigError(f"[buttons] hold_time must be more than 0 and at most 10 s, got {b.hold_time}")
    if not 0 <= b.debounce_ms <= 500:
        raise ConfigError(f"[buttons] debounce_ms must be 0-500, got {b.debounce_ms}")
    if b.hold_time * 1000 <= 2 * b.debounce_ms:
        raise ConfigError(f"[buttons] hold_time ({b.hold_time} s) must be longer than twice "
                          f"debounce_ms ({b.debounce_ms} ms)")
    if len(b.buzzers) > MAX_BUZZERS:
        raise ConfigError(f"[buttons] buzzers: at most {MAX_BUZZERS} player buttons, got {len(b.buzzers)}")

    used: dict[int, str] = {}
    if d.driver in ("ssd1306", "sh1106") and d.i2c_port == 1 and not c.hardware.simulated:
        used.update(I2C1_PINS)
    for owner, pin in c.pin_map().items():
        if pin not in BCM_PINS:
            raise ConfigError(f"{owner} = {pin} is not a BCM GPIO number (0-27)")
        if pin in used:
            raise ConfigError(f"pin {pin} used by {used[pin]} and {owner}")
        used[pin] = owner

    cam = c.camera
    _one_of("[camera] source:", cam.kind, CAMERA_KINDS, "camera")
    if cam.kind in ("usb", "video", "folder") and not cam.argument:
        raise ConfigError(f"[camera] source {cam.source!r} needs a value after the colon")
    if cam.kind in ("none", "picamera2", "feed") and cam.argument:
        raise ConfigError(f"[camera] source {cam.source!r}: {cam.kind} takes no value")
    if cam.kind == "usb" and not cam.argument.isdigit():
        raise ConfigError(f"[camera] source {cam.source!r}: usb needs a device number (usb:0)")
    if not (16 <= cam.width <= 4096 and 16 <= cam.height <= 4096):
        raise ConfigError(f"[camera] width/height must be 16-4096, got {cam.width}x{cam.height}")

    g = c.game
    _one_of("[game] mode:", g.mode, GAME_MODES, "game")
    _one_of("[game] variant:", g.variant, VARIANTS, "variant")
    low, high = players_range(g.mode, g.variant)
    if not low <= g.players <= high:
        what = f"{g.mode} ({g.variant})" if g.mode == "superfarmer" else g.mode
        raise ConfigError(f"[game] players must be {low}-{high} for {what}, got {g.players}")
    if g.mode == "funfarm" and g.players > len(b.buzzers):
        raise ConfigError(f"[game] players = {g.players} but [buttons] buzzers wires only {len(b.buzzers)}")
    _one_of("[ui] language:", c.ui.language, LANGUAGES, "language")
    if not c.journal.dir:
        raise ConfigError("[journal] dir must not be empty")
