"""Pure game rules, one subpackage per game: ``superfarmer``, ``cardgame``, ``funfarm``.

No file I/O, no clock, no environment; randomness only through an injected RNG. The
exceptions every game raises are in :mod:`.errors`.
"""
