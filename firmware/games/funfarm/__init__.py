"""games/funfarm."""
