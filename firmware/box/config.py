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
import logging
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from farmbox.firmware.box import registry
from farmbox.hw.config import (
    ButtonsConfig,
    BuzzerConfig,
    CameraConfig,
    DisplayConfig,
    HardwareConfig,
    HardwareSettings,
    LightsConfig,
    SettingsError,
    check_hardware,
)

log = logging.getLogger(__name__)

#: The settings file a Pi installation uses (see systemd/install.sh).
PI_CONFIG_PATH = Path("/etc/farmbox/farmbox.toml")
#: The packaged default: simulated hardware, used by the demo and the tests.
DEFAULT_CONFIG_PATH = Path(__file__).with_name("default.toml")

#: The game modes, from the registry (each says how many players it seats).
GAME_MODES = tuple(registry.MODES)
VARIANTS = ("classic", "compact")
LANGUAGES = ("en", "pl")


class ConfigError(ValueError):
    """A settings file that cannot be used; the message is one line naming the key."""


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


# -- [funfarm]: the Fun Farm referee's options (owned by the Fun Farm game) -----------------
#: The values each [funfarm] option takes (the rules' TieRule, BuzzTakes, Escaped).
FUNFARM_CHOICES: dict[str, tuple[str, ...]] = {
    "tie": ("reroll", "deal"),
    "buzz_takes": ("one_animal", "all"),
    "escaped": ("leave", "stay"),
}


@dataclass(frozen=True)
class FunFarmConfig:
    """``[funfarm]``: the tie rule, what one buzz takes, what happens to escaped cards, the
    seconds a race stays open after the roll (0: until the next card) and the deck file
    ("" = the packaged provisional deck). A bad value is one ConfigError line."""

    tie: str = "reroll"
    buzz_takes: str = "one_animal"
    escaped: str = "leave"
    race_time: float = 8.0
    deck: str = ""

    def __post_init__(self) -> None:
        for key, choices in FUNFARM_CHOICES.items():
            _one_of(f"[funfarm] {key}:", getattr(self, key), choices, "value")
        if not 0 <= self.race_time <= 600:
            raise ConfigError(f"[funfarm] race_time must be 0-600 seconds (0: until the next "
                              f"card), got {self.race_time:g}")
# -- end of [funfarm] -------------------------------------------------------------------------


@dataclass(frozen=True)
class WebConfig:
    """The table view (``farmbox run`` serves it): off when ``port`` is 0; without a ``pin``
    the page is read-only for everyone."""

    port: int = 8080
    bind: str = "0.0.0.0"
    pin: str = ""


@dataclass(frozen=True)
class LeagueConfig:
    """Publishing this box's games to an MQTT broker for a league (off by default)."""

    enabled: bool = False
    broker: str = "localhost"
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    box: str = "farmbox"
    #: The outbox (SQLite) that keeps events until the broker acknowledged them; "" = in the journal dir.
    outbox: str = ""


@dataclass(frozen=True)
class Config(HardwareSettings):
    """All settings; a frozen tree of one dataclass per TOML section. The hardware's
    sections are :mod:`farmbox.hw.config`'s own types, so a Config is the
    :class:`~farmbox.hw.config.HardwareSettings` that ``open_hardware`` takes."""

    game: GameConfig = field(default_factory=GameConfig)
    ui: UIConfig = field(default_factory=UIConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    funfarm: FunFarmConfig = field(default_factory=FunFarmConfig)
    web: WebConfig = field(default_factory=WebConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
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
    "funfarm": FunFarmConfig,
    "web": WebConfig,
    "league": LeagueConfig,
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
    """Fewest and most players of ``mode`` (Super Farmer's from its variant's rules)."""
    return registry.mode(mode).players(variant_name)


def _one_of(where: str, value: str, choices: tuple[str, ...], what: str) -> None:
    if value not in choices:
        raise ConfigError(f"{where} unknown {what} {value!r} (choose {', '.join(choices)})")


def _check(c: Config) -> None:
    try:
        for warning in check_hardware(c):
            log.warning("%s: %s", c.source, warning)
    except SettingsError as exc:
        raise ConfigError(str(exc)) from None
    b = c.buttons
    g = c.game
    _one_of("[game] mode:", g.mode, GAME_MODES, "game")
    _one_of("[game] variant:", g.variant, VARIANTS, "variant")
    low, high = players_range(g.mode, g.variant)
    if not low <= g.players <= high:
        what = f"{g.mode} ({g.variant})" if g.mode == "superfarmer" else g.mode
        raise ConfigError(f"[game] players must be {low}-{high} for {what}, got {g.players}")
    if registry.mode(g.mode).seats_on_buzzers and g.players > len(b.buzzers):
        raise ConfigError(f"[game] players = {g.players} but [buttons] buzzers wires only {len(b.buzzers)}")
    _one_of("[ui] language:", c.ui.language, LANGUAGES, "language")
    if not c.journal.dir:
        raise ConfigError("[journal] dir must not be empty")
    if not 0 <= c.web.port <= 65535:
        raise ConfigError(f"[web] port must be 0-65535 (0: no table view), got {c.web.port}")
    if c.web.pin and not (c.web.pin.isdigit() and 4 <= len(c.web.pin) <= 12):
        raise ConfigError("[web] pin must be 4-12 digits (or \"\": read-only)")
    if not 1 <= c.league.port <= 65535:
        raise ConfigError(f"[league] port must be 1-65535, got {c.league.port}")
    if c.league.enabled and not c.league.broker:
        raise ConfigError("[league] broker must not be empty when the league is enabled")
    if not c.league.box or any(ch in c.league.box for ch in "/+#") or not c.league.box.isprintable():
        raise ConfigError(f"[league] box must be a name without / + # (an MQTT topic level), got {c.league.box!r}")
