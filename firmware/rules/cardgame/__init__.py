"""Super Farmer: The Card Game (RULES.md section 2): deck, farms, turns, scoring, bots.

Pure rules: the only I/O is :func:`load_deck` reading the packaged ``deck.toml``;
randomness comes only from an injected :class:`random.Random`.
"""

from .cards import CAT, COLUMN_ORDER, Animal, Card, CardGameError, Predator
from .deck import DEALS, DECK_SIZE, GIFT_LIMITS, Deal, cards_for, load_deck, parse_deck
from .farm import Column, Farm
from .game import Chooser, Game, GameOptions, GameResult, Placement, RoundRecord, play_game
from .scorecard import Gift, Scorecard, Tally, read_scorecard, tally
from .scoring import (
                      RoundScore,
                      ScoringOptions,
                      attack,
                      column_score,
                      least_loss,
                      score_round,
                      team_points,
                      water_score,
)
from .teams import check_teams, default_teams

__all__ = [
    "CAT", "COLUMN_ORDER", "Animal", "Card", "CardGameError", "Predator",
    "DEALS", "DECK_SIZE", "GIFT_LIMITS", "Deal", "cards_for", "load_deck", "parse_deck",
    "Column", "Farm", "Chooser", "Game", "GameOptions", "GameResult", "Placement",
    "RoundRecord", "play_game", "RoundScore", "ScoringOptions", "attack", "column_score",
    "least_loss", "score_round", "team_points", "water_score", "check_teams", "default_teams",
    "Gift", "Scorecard", "Tally", "read_scorecard", "tally",
]
