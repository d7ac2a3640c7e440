"""Fun Farm (RULES.md section 3): the deck data file and the pure rules engine."""

from .deck import DEFAULT_DECK, Animal, Card, Deck, InvalidDeck, load_deck, parse_deck
from .game import (
    ColourRoll,
    Event,
    EventKind,
    FarmState,
    FunFarmRules,
    Phase,
    TieRule,
    Turn,
    buzz,
    catch,
    draw,
    end_round,
    new_game,
    random_roll,
    roll,
)

__all__ = [
    "DEFAULT_DECK", "Animal", "Card", "ColourRoll", "Deck", "Event", "EventKind", "FarmState",
    "FunFarmRules", "InvalidDeck", "Phase", "TieRule", "Turn", "buzz", "catch", "draw",
    "end_round", "load_deck", "new_game", "parse_deck", "random_roll", "roll",
]
