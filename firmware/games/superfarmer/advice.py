"""The exchange menu's order: the advisor's pick first.

The advisor is ``farmbox.firmware.rules.superfarmer.strategies``' "advisor" (the solved solitaire model). Its
table loads in about a second for a variant that ships one, but a variant without a shipped
table is solved on first use (a minute here, longer on a Pi), so :func:`prepare` loads it in
the background; until it is ready the menu is ordered by the exact expected value of the
farm after the next roll (``farmbox.firmware.rules.superfarmer.odds``).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from farmbox.firmware.rules.superfarmer import Exchange, Rules, apply_exchange, legal_exchanges
from farmbox.firmware.rules.superfarmer.game import GameState
from farmbox.firmware.rules.superfarmer.herd import Herd
from farmbox.firmware.rules.superfarmer.odds import expected_gain


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


log = logging.getLogger(__name__)

_ready: set[Rules] = set()
_loading: dict[Rules, threading.Thread] = {}
_lock = threading.Lock()


def _load(rules: Rules) -> None:
    from farmbox.firmware.box.solved_tables import model_for

    try:
        model_for(rules)  # shipped or cached table (else solved and cached); the advisor plays it
    except Exception as exc:  # the menu still works, ordered by expected value
        log.warning("advisor for %s unavailable: %s", rules.name, exc)
        return
    with _lock:
        _ready.add(rules)


def prepare(rules: Rules, wait: bool | float = False) -> bool:
    """Load (or solve) the advisor's table for ``rules``; True once it is ready.

    ``wait``: True waits for it, a number waits at most that many seconds.
    """
    with _lock:
        if rules in _ready:
            return True
        thread = _loading.get(rules)
        if thread is None:
            thread = threading.Thread(target=_load, args=(rules,), name="advisor", daemon=True)
            _loading[rules] = thread
            thread.start()
    if wait is True:
        thread.join()
    elif wait:
        thread.join(timeout=float(wait))
    return advisor_ready(rules)


def advisor_ready(rules: Rules) -> bool:
    with _lock:
        return rules in _ready


def _advisor_pick(state: GameState) -> tuple[bool, Exchange | None]:
    """(True, pick) from the rules advisor when its table is ready, else (False, None)."""
    if not advisor_ready(state.rules):
        return False, None
    from farmbox.firmware.rules.superfarmer.strategies import STRATEGIES

    others = tuple(f for i, f in enumerate(state.farms) if i != state.current)
    return True, STRATEGIES["advisor"].choose(state.farm, state.stock, state.rules, others)


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
