"""Exceptions for bad input to the rules engines.

Every class is a :class:`ValueError`, so callers that only want "bad input"
can catch that; the message is one line naming the bad part.
"""


class RulesError(ValueError):
    """Base class of every rules error."""


class InvalidHerd(RulesError):
    """A herd string or mapping is malformed (unknown animal, bad count)."""


class InvalidRoll(RulesError):
    """A roll names a face that is not on that die."""


class IllegalExchange(RulesError):
    """An exchange breaks the rules (value, shape, stock, one per turn)."""


class IllegalAction(RulesError):
    """An action out of turn or after the end of the game."""


class InvalidState(RulesError):
    """A serialised game or a farm/stock pair that cannot be accounted for."""
