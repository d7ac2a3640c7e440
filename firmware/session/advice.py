"""The exchange menu's order: the advisor's pick first.

Uses ``firmware.rules.advisor`` when it is installed; otherwise the exact expected gain of
the next roll (``firmware.rules.odds``) after each exchange decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from firmware.rules.game import GameState
from firmware.rules.herd import Herd
from firmware.rules.odds import expected_gain
from firmware.rules.superfarmer import Exchange, Rules, apply_exchange, legal_exchanges


@dataclass(frozen=True)
class Offer:
    """One line of the exchange menu: an exchange with the herd (partner None) or a player."""

    exchange: Exchange
    partner: int | None = None
    advised: bool = False


@lru_cache(maxsize=4096)
def _gain_after(farm: Herd, stock: Herd, exchange: Exchange | None, rules: Rules) -> Fraction:
    if exchange is not None:
        farm, stock = apply_exchange(farm, stock, exchange)
    if farm.is_complete():
        return Fraction(10**6)
    return Fraction(farm.value) + expected_gain(farm, stock, rules)


def _advisor_pick(state: GameState) -> tuple[bool, Exchange | None]:
    """(found, pick) from the rules advisor, or (False, None) when there is none."""
    try:
        from firmware.rules import advisor  # noqa: PLC0415  (optional, written separately)
    except ImportError:
        return False, None
    advise = getattr(advisor, "advise", None) or getattr(advisor, "best_exchange", None)
    if advise is None:
        return False, None
    pick = advise(state.farm, state.stock, state.rules)
    pick = getattr(pick, "exchange", pick)
    return True, pick if isinstance(pick, Exchange) else None


def offers(state: GameState) -> list[Offer]:
    """Every exchange the current farm may make now, the advised one first."""
    if state.over or state.exchanged:
        return []
    herd = legal_exchanges(state.farm, state.stock)
    found, pick = _advisor_pick(state)
    if not found:
        ranked = sorted(herd, key=lambda e: -_gain_after(state.farm, state.stock, e, state.rules))
        base = _gain_after(state.farm, state.stock, None, state.rules)
        pick = ranked[0] if ranked and _gain_after(state.farm, state.stock, ranked[0],
                                                    state.rules) > base else None
        herd = ranked
    result = [Offer(e, None, e == pick) for e in herd]
    result.sort(key=lambda o: not o.advised)
    if state.rules.player_exchanges:
        for partner in range(state.players):
            if partner == state.current or partner in state.places:
                continue
            result += [Offer(e, partner) for e in legal_exchanges(state.farm, state.farms[partner])]
    return result


def advised(state: GameState) -> Offer | None:
    """The advisor's exchange for the current farm now, or None (just roll)."""
    menu = offers(state)
    return menu[0] if menu and menu[0].advised else None
