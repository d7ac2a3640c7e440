"""games/superfarmer."""
