"""The Fun Farm deck and the two colour dice, loaded from a TOML data file.

The shipped ``deck.toml`` is a provisional default; an owner's own deck file is read by the
box (:mod:`farmbox.firmware.games.funfarm.deck_file`) and parsed here (:func:`parse_deck_text`).
No I/O here beyond reading the package's own data file.

>>> deck = load_deck()
>>> len(deck.cards), deck.provisional
(24, True)
>>> deck.cards[0]
Card(id='sheep-1', animal=<Animal.SHEEP: 'sheep'>, black='red', white='green')
"""

from __future__ import annotations

import enum
import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import RulesError

#: The data file shipped with the package (read-only package data).
DEFAULT_DECK_FILE = "deck.toml"


class InvalidDeck(RulesError):
    """A deck data file that cannot be used (names the bad entry)."""


class Animal(enum.Enum):
    """The six foam animals on the table."""

    SHEEP = "sheep"
    GOAT = "goat"
    PIG = "pig"
    HORSE = "horse"
    COW = "cow"
    CHICK = "chick"


@dataclass(frozen=True, slots=True)
class Card:
    """One card: an animal, the colour on its small black die and on its small white die."""

    id: str
    animal: Animal
    black: str
    white: str


@dataclass(frozen=True)
class Deck:
    """The cards (index = card number used by the engine) and the faces of both dice."""

    cards: tuple[Card, ...]
    black_faces: tuple[str, ...]
    white_faces: tuple[str, ...]
    provisional: bool = False

    def __len__(self) -> int:
        return len(self.cards)

    def index(self, card_id: str) -> int:
        """The card number of ``card_id`` (a :class:`InvalidDeck` if unknown)."""
        for i, c in enumerate(self.cards):
            if c.id == card_id:
                return i
        raise InvalidDeck(f"no card {card_id!r} in the deck")


def _colour(value: Any) -> str:
    """A colour name as the dice and the rolls write it (lower case, no spaces)."""
    if not isinstance(value, str) or not value.strip() or "," in value:
        raise ValueError(f"{value!r} is not a colour name")
    return value.strip().lower()


def _faces(dice: Any, name: str, source: str) -> tuple[str, ...]:
    faces = dice.get(name) if isinstance(dice, dict) else None
    if faces is None:
        raise InvalidDeck(f"{source}: missing 'dice.{name}' (the faces of the {name} die)")
    if not isinstance(faces, list):
        raise InvalidDeck(f"{source}: [dice] {name} must be a list of colours, got {faces!r}")
    try:
        out = tuple(_colour(c) for c in faces)
    except ValueError as exc:
        raise InvalidDeck(f"{source}: [dice] {name}: {exc}") from None
    if len(out) < 2:
        raise InvalidDeck(f"{source}: the {name} die needs at least 2 faces")
    if len(set(out)) != len(out):
        raise InvalidDeck(f"{source}: the {name} die names a colour twice")
    return out


def _card(raw: Any, n: int, black: tuple[str, ...], white: tuple[str, ...],
          source: str) -> Card:
    """Card number ``n`` (1-based) of the file, checked; :class:`InvalidDeck` naming it."""
    if not isinstance(raw, dict):
        raise InvalidDeck(f"{source}: card {n} must be a table like {{ id = \"pig-1\", "
                          f"animal = \"pig\", black = \"red\", white = \"blue\" }}, "
                          f"got {raw!r}")
    for key in ("id", "animal", "black", "white"):
        if key not in raw:
            raise InvalidDeck(f"{source}: card {n} has no {key!r}")
    unknown = sorted(set(raw) - {"id", "animal", "black", "white"})
    name = f"card {n}" if not isinstance(raw["id"], str) else f"card {n} ({raw['id']!r})"
    if unknown:
        raise InvalidDeck(f"{source}: {name} has an unknown key {unknown[0]!r}")
    if not isinstance(raw["id"], str) or not raw["id"].strip():
        raise InvalidDeck(f"{source}: card {n} has a bad id {raw['id']!r} (a name like 'pig-1')")
    try:
        animal = Animal(str(raw["animal"]).strip().lower())
    except ValueError:
        raise InvalidDeck(f"{source}: {name} has an unknown animal {raw['animal']!r} "
                          f"(expected one of {', '.join(a.value for a in Animal)})") from None
    colours = []
    for die, faces in (("black", black), ("white", white)):
        try:
            colour = _colour(raw[die])
        except ValueError as exc:
            raise InvalidDeck(f"{source}: {name}: {die}: {exc}") from None
        if colour not in faces:
            raise InvalidDeck(f"{source}: {name}: {colour!r} is not on the {die} die "
                              f"({', '.join(faces)})")
        colours.append(colour)
    return Card(raw["id"].strip(), animal, colours[0], colours[1])


def parse_deck(data: dict[str, Any], source: str = "deck") -> Deck:
    """Build a :class:`Deck` from the parsed TOML table ``data``; anything wrong is one
    :class:`InvalidDeck` line naming ``source``, the card and the problem.

    >>> parse_deck({"dice": {"black": ["red", "blue"], "white": ["red", "blue"]},
    ...             "cards": ["x"]}, "my.toml")
    Traceback (most recent call last):
    ...
    farmbox.firmware.rules.funfarm.deck.InvalidDeck: my.toml: card 1 must be a table like { id = "pig-1", animal = "pig", black = "red", white = "blue" }, got 'x'
    """
    if not isinstance(data, dict):
        raise InvalidDeck(f"{source}: a deck file is a TOML table")
    if "dice" not in data:
        raise InvalidDeck(f"{source}: missing 'dice' (the [dice] table: black and white faces)")
    black = _faces(data["dice"], "black", source)
    white = _faces(data["dice"], "white", source)
    raw_cards = data.get("cards")
    if raw_cards is None:
        raise InvalidDeck(f"{source}: missing 'cards'")
    if not isinstance(raw_cards, list):
        raise InvalidDeck(f"{source}: 'cards' must be a list of card tables, got {raw_cards!r}")
    cards = []
    seen: set[str] = set()
    for n, raw in enumerate(raw_cards, 1):
        card = _card(raw, n, black, white, source)
        if card.id in seen:
            raise InvalidDeck(f"{source}: card {n}: card id {card.id!r} appears twice")
        seen.add(card.id)
        cards.append(card)
    if not cards:
        raise InvalidDeck(f"{source}: no cards")
    provisional = data.get("provisional", False)
    if not isinstance(provisional, bool):
        raise InvalidDeck(f"{source}: provisional must be true or false, got {provisional!r}")
    return Deck(tuple(cards), black, white, provisional)


def parse_deck_text(text: str, source: str = "deck") -> Deck:
    """Parse the TOML ``text`` of a deck file (``source`` names it in messages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidDeck(f"{source}: not valid TOML: {str(exc).splitlines()[0]}") from None
    return parse_deck(data, source)


def deck_as_data(deck: Deck) -> dict[str, Any]:
    """The TOML/JSON-shaped table :func:`parse_deck` reads back into ``deck`` (a journal's
    ``new_game`` record carries it, so a replay never depends on the file).

    >>> parse_deck(deck_as_data(load_deck())) == load_deck()
    True
    """
    return {"provisional": deck.provisional,
            "dice": {"black": list(deck.black_faces), "white": list(deck.white_faces)},
            "cards": [{"id": c.id, "animal": c.animal.value, "black": c.black, "white": c.white}
                      for c in deck.cards]}


@functools.cache
def load_deck() -> Deck:
    """The deck shipped with the package (its read-only ``deck.toml``, a provisional
    default). An owner's own deck file is read by the box (``[funfarm] deck``)."""
    text = resources.files(__package__).joinpath(DEFAULT_DECK_FILE).read_text(encoding="utf-8")
    return parse_deck_text(text, DEFAULT_DECK_FILE)
