"""Fun Farm (RULES.md section 3): the deck data file and the pure rules engine."""

from .deck import (
    DEFAULT_DECK_FILE,
    Animal,
    Card,
    Deck,
    InvalidDeck,
    deck_as_data,
    load_deck,
    parse_deck,
    parse_deck_text,
)
from .game import (
    BuzzTakes,
    ColourRoll,
    Escaped,
    Event,
    EventKind,
    FarmState,
    FunFarmRules,
    Phase,
    TieRule,
    Turn,
    buzz,
    catch,
    close_race,
    draw,
    end_round,
    new_game,
    race_order,
    random_roll,
    roll,
)

__all__ = [
    "DEFAULT_DECK_FILE", "Animal", "BuzzTakes", "Card", "ColourRoll", "Deck", "Escaped", "Event",
    "EventKind", "FarmState", "FunFarmRules", "InvalidDeck", "Phase", "TieRule", "Turn", "buzz",
    "catch", "close_race", "deck_as_data", "draw", "end_round", "load_deck", "new_game",
    "parse_deck", "parse_deck_text", "race_order", "random_roll", "roll",
]
