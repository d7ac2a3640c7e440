"""games/cardgame."""
