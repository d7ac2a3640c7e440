"""Super Farmer, the dice game (RULES.md section 1): herds, dice, variants, settling, exchanges.

The core is here for ``from farmbox.firmware.rules.superfarmer import ...``; the modules
around it are imported by name: :mod:`.game` (turns and undo), :mod:`.odds` (exact
figures of one roll), :mod:`.strategies`, :mod:`.simulate`, :mod:`.solitaire` (the
solved solitaire model, numpy) and :mod:`.advisor`. All of it is pure: no files, no
clock, no environment; randomness only from an injected :class:`random.Random`.

>>> farm = Herd.parse("rabbit=5,sheep=3,pig=2")
>>> str(settle(farm, CLASSIC.stock_for(farm), Roll.parse("sheep,rabbit")).farm)
'rabbit=8,sheep=5,pig=2'
"""

from ..errors import IllegalAction, IllegalExchange, InvalidHerd, InvalidRoll, InvalidState
from .dice import Roll
from .exchanges import (
                        Exchange,
                        apply_exchange,
                        check_exchange_shape,
                        find_combination,
                        legal_exchanges,
                        single_animal,
                        winning_exchange,
)
from .herd import ANIMALS, LIVESTOCK, Animal, Herd
from .settle import Event, EventKind, Settlement, settle
from .variants import CLASSIC, COMPACT, FULL_HERD, VARIANTS, Rules, variant

__all__ = [
    "ANIMALS",
    "CLASSIC",
    "COMPACT",
    "FULL_HERD",
    "LIVESTOCK",
    "VARIANTS",
    "Animal",
    "Event",
    "EventKind",
    "Exchange",
    "Herd",
    "IllegalAction",
    "IllegalExchange",
    "InvalidHerd",
    "InvalidRoll",
    "InvalidState",
    "Roll",
    "Rules",
    "Settlement",
    "apply_exchange",
    "check_exchange_shape",
    "find_combination",
    "legal_exchanges",
    "settle",
    "single_animal",
    "variant",
    "winning_exchange",
]
