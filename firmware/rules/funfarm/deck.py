"""The Fun Farm deck and the two colour dice, loaded from a TOML data file.

The shipped ``deck.toml`` is a provisional default the owner may edit.

>>> deck = load_deck()
>>> len(deck.cards), deck.provisional
(24, True)
>>> deck.cards[0]
Card(id='sheep-1', animal=<Animal.SHEEP: 'sheep'>, black='red', white='green')
"""

from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RulesError

#: The data file shipped with the package.
DEFAULT_DECK = Path(__file__).with_name("deck.toml")


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


def parse_deck(data: dict[str, Any], source: str = "deck") -> Deck:
    """Build a :class:`Deck` from the parsed TOML table ``data``."""
    try:
        dice = data["dice"]
        black = tuple(str(c) for c in dice["black"])
        white = tuple(str(c) for c in dice["white"])
        raw_cards = data["cards"]
    except (KeyError, TypeError) as exc:
        raise InvalidDeck(f"{source}: missing {exc}") from None
    for name, faces in (("black", black), ("white", white)):
        if len(faces) < 2:
            raise InvalidDeck(f"{source}: the {name} die needs at least 2 faces")
    cards = []
    seen: set[str] = set()
    for n, raw in enumerate(raw_cards, 1):
        try:
            card = Card(str(raw["id"]), Animal(str(raw["animal"]).lower()),
                        str(raw["black"]), str(raw["white"]))
        except KeyError as exc:
            raise InvalidDeck(f"{source}: card {n} has no {exc}") from None
        except (ValueError, TypeError):
            raise InvalidDeck(f"{source}: card {n} has an unknown animal {raw.get('animal')!r} "
                              f"(expected one of {', '.join(a.value for a in Animal)})") from None
        if card.id in seen:
            raise InvalidDeck(f"{source}: card id {card.id!r} appears twice")
        if card.black not in black:
            raise InvalidDeck(f"{source}: card {card.id!r}: {card.black!r} is not on the black die")
        if card.white not in white:
            raise InvalidDeck(f"{source}: card {card.id!r}: {card.white!r} is not on the white die")
        seen.add(card.id)
        cards.append(card)
    if not cards:
        raise InvalidDeck(f"{source}: no cards")
    return Deck(tuple(cards), black, white, bool(data.get("provisional", False)))


def load_deck(path: Path | str | None = None) -> Deck:
    """Load a deck data file (the shipped provisional default when ``path`` is None)."""
    path = Path(path) if path is not None else DEFAULT_DECK
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidDeck(f"{path}: not valid TOML: {str(exc).splitlines()[0]}") from None
    return parse_deck(data, str(path))
