"""Pure game rules: no I/O, no clock, randomness only through an injected RNG."""
