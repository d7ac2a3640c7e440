"""advise(): the recommended exchange and the numbers that explain it."""

import pytest

from farmbox.firmware.rules.errors import InvalidState
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, apply_exchange
from farmbox.firmware.rules.superfarmer.advisor import advise
from farmbox.firmware.rules.superfarmer.herd import Herd
from farmbox.firmware.rules.superfarmer.odds import expected_gain


def test_advice_is_the_best_alternative():
    a = advise(Herd.parse("rabbit=14,sheep=2"))
    assert a.alternatives[0][1] == a.exchange
    turns = [t for t, _ in a.alternatives]
    assert turns == sorted(turns)
    assert a.turns_recommended == pytest.approx(turns[0], abs=1e-9)
    assert a.turns_saved >= 0 and not a.capped
    f, s = apply_exchange(a.farm, a.stock, a.exchange) if a.exchange else (a.farm, a.stock)
    assert a.gain_recommended == expected_gain(f, s, CLASSIC)
    assert a.gain_without == expected_gain(a.farm, a.stock, CLASSIC)


def test_no_exchange_for_an_empty_farm():
    a = advise(Herd())
    assert a.exchange is None and a.turns_saved == 0 and a.gain_recommended == a.gain_without
    assert a.as_dict()["exchange"] is None


def test_big_farms_are_capped_and_compact_has_its_own_table():
    a = advise(Herd.parse("rabbit=55,sheep=20"))
    assert a.capped and a.as_dict()["model"]["capped"] is True
    c = advise(Herd.parse("rabbit=3,sheep=2"), rules=COMPACT)
    assert c.turns_recommended < advise(Herd.parse("rabbit=3,sheep=2")).turns_recommended


def test_bad_states():
    with pytest.raises(InvalidState, match="already complete"):
        advise(Herd.parse("rabbit=1,sheep=1,pig=1,cow=1,horse=1"))
    with pytest.raises(InvalidState, match="cannot account"):
        advise(Herd.parse("rabbit=40"), stock=Herd.parse("rabbit=30"))
