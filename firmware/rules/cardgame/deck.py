"""The deck data file, its validation, and the deal for each player count.

The card list lives in ``deck.toml`` beside this module (provisional: the real
composition is not public). :func:`load_deck` is the engine's only I/O.

>>> deck = load_deck()
>>> len(deck), len(cards_for(deck, 4)), len(cards_for(deck, 5))
(110, 90, 110)
>>> DEALS[5]
Deal(hand=6, extra=(6, 4))
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from .cards import Animal, Card, CardGameError

DECK_SIZE = 110
CATS = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 6
_FIELDS = ("icons", "cabbage", "water", "small_dogs", "big_dogs")


@dataclass(frozen=True, slots=True)
class Deal:
    """Cards per farmer and the extra decks (first farmer's, then the fourth farmer's)."""

    hand: int
    extra: tuple[int, ...]

    def cards(self, players: int) -> int:
        """Cards dealt for one round."""
        return self.hand * players + sum(self.extra)


#: The rulebook's deal table, by number of farmers.
DEALS: dict[int, Deal] = {
    2: Deal(8, (8,)),
    3: Deal(8, (6,)),
    4: Deal(8, (8,)),
    5: Deal(6, (6, 4)),
    6: Deal(6, (6, 6)),
}

#: Most gifts one farmer may receive in a round, by number of farmers.
GIFT_LIMITS: dict[int, int] = {2: 6, 3: 5, 4: 5, 5: 4, 6: 4}


def check_players(players: int) -> int:
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CardGameError(f"the card game is for 2-6 farmers, got {players!r}")
    return players


def parse_deck(data: Mapping[str, object]) -> tuple[Card, ...]:
    """Validate a parsed deck file and expand it into numbered cards (serial 1..110)."""
    rows = data.get("card")
    if not isinstance(rows, list) or not rows:
        raise CardGameError("deck file: expected a list of [[card]] tables")
    unknown_top = set(data) - {"card"}
    if unknown_top:
        raise CardGameError(f"deck file: unknown key {sorted(unknown_top)[0]!r}")
    cards: list[Card] = []
    for number, row in enumerate(rows, 1):
        where = f"deck file card #{number}"
        if not isinstance(row, dict):
            raise CardGameError(f"{where}: expected a table")
        unknown = set(row) - {"kind", "count", *_FIELDS}
        if unknown:
            raise CardGameError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        count = row.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise CardGameError(f"{where}: count must be a whole number >= 1, got {count!r}")
        kind = row.get("kind")
        try:
            if kind == "cat":
                extra = [f for f in _FIELDS if f in row]
                if extra:
                    raise CardGameError(f"a cat has no {extra[0]}")
                template = Card(None)
            else:
                template = Card(Animal.from_key(kind), **{f: row.get(f, 0) for f in _FIELDS})
        except CardGameError as exc:
            raise CardGameError(f"{where}: {exc}") from None
        cards.extend([template] * count)
    cats = sum(card.is_cat for card in cards)
    if len(cards) != DECK_SIZE:
        raise CardGameError(f"deck file: {len(cards)} cards, the game has {DECK_SIZE}")
    if cats != CATS:
        raise CardGameError(f"deck file: {cats} cats, the game has {CATS}")
    if not any(card.animal is Animal.HORSE for card in cards):
        raise CardGameError("deck file: no horse cards")
    return tuple(_numbered(cards))


def _numbered(cards: Iterable[Card]) -> Iterable[Card]:
    for serial, card in enumerate(cards, 1):
        yield Card(card.animal, card.icons, card.cabbage, card.water,
                   card.small_dogs, card.big_dogs, serial)


def load_deck() -> tuple[Card, ...]:
    """Read and validate the packaged ``deck.toml`` (the engine's one I/O call)."""
    text = resources.files(__package__).joinpath("deck.toml").read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardGameError(f"deck file: {exc}") from None
    return parse_deck(data)


def cards_for(deck: Sequence[Card], players: int) -> tuple[Card, ...]:
    """The cards in play: with 4 or fewer farmers the horses and the cats stay in the box."""
    check_players(players)
    if players > 4:
        return tuple(deck)
    return tuple(c for c in deck if not c.is_cat and c.animal is not Animal.HORSE)
