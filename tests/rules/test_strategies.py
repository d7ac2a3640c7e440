"""Strategies choose legal exchanges, take wins, and play as described."""

import random

import pytest

from farmbox.firmware.rules.superfarmer import CLASSIC, apply_exchange, legal_exchanges, winning_exchange
from farmbox.firmware.rules.superfarmer.herd import Animal, Herd
from farmbox.firmware.rules.superfarmer.odds import expected_gain
from farmbox.firmware.rules.superfarmer.strategies import STRATEGIES, Greedy, Hoard, buy, sell, strategy


def H(text: str) -> Herd:
    return Herd.parse(text)


def test_lookup():
    assert strategy("advisor").name == "advisor"
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        strategy("best")


def test_winning_exchange_matches_brute_force():
    rng = random.Random(5)
    checked = wins = 0
    while checked < 80:
        farm = Herd(tuple(rng.randint(0, c) for c in (20, 6, 4, 3, 2, 2, 1)))
        if farm.value < 127 or farm.is_complete():
            continue
        stock = CLASSIC.stock_for(farm)
        brute = [e for e in legal_exchanges(farm, stock)
                 if apply_exchange(farm, stock, e)[0].is_complete()]
        found = winning_exchange(farm, stock)
        assert (found is None) == (not brute), str(farm)
        if found is not None:
            wins += 1
            assert apply_exchange(farm, stock, found)[0].is_complete()
        checked += 1
    assert 10 < wins < 80
    poor = H("rabbit=30,sheep=4,pig=6,horse=0")  # worth 126: never enough
    assert winning_exchange(poor, CLASSIC.stock_for(poor)) is None


def test_seed_win_by_selling_a_horse():
    farm = H("horse=2")
    ex = winning_exchange(farm, CLASSIC.stock_for(farm))
    f, _ = apply_exchange(farm, CLASSIC.stock_for(farm), ex)
    assert f.is_complete() and f[Animal.HORSE] == 1


def test_buy_and_sell_pay_exactly():
    farm = H("rabbit=7,sheep=1")
    assert str(buy(farm, CLASSIC.stock_for(farm), Animal.PIG)) == "rabbit=6,sheep=1->pig=1"
    assert buy(H("rabbit=11"), CLASSIC.stock_for(H("rabbit=11")), Animal.PIG) is None
    assert buy(farm, H("rabbit=1"), Animal.SHEEP) is None  # the herd has no sheep
    keep = H("rabbit=1,sheep=1")
    assert str(buy(farm, CLASSIC.stock_for(farm), Animal.SHEEP, keep=keep)) == "rabbit=6->sheep=1"
    assert buy(H("rabbit=6,sheep=1"), CLASSIC.stock_for(H("rabbit=6,sheep=1")), Animal.SHEEP,
               keep=keep) is None
    assert str(sell(H("horse=1"), CLASSIC.stock_for(H("horse=1")), Animal.HORSE)) == \
        "horse=1->cow=2"
    assert str(sell(H("cow=1"), H("pig=1,sheep=2,rabbit=20"), Animal.COW)) == \
        "cow=1->rabbit=12,sheep=2,pig=1"


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_choice_is_legal_and_wins_are_taken(name):
    s = STRATEGIES[name]
    rng = random.Random(11)
    for _ in range(60):
        farm = Herd(tuple(rng.randint(0, c) for c in (40, 8, 6, 3, 2, 2, 2)))
        if farm.is_complete():
            continue
        stock = CLASSIC.stock_for(farm)
        ex = s.choose(farm, stock, CLASSIC)
        assert s.choose(farm, stock, CLASSIC) == ex  # deterministic
        if ex is not None:
            f, st = apply_exchange(farm, stock, ex)
            assert f.value == farm.value
        if winning_exchange(farm, stock) is not None:
            assert ex is not None and apply_exchange(farm, stock, ex)[0].is_complete()


def test_choices_respect_a_shared_herd():
    # Another farm holds the cows: nobody may be paid a cow.
    farm = H("rabbit=30,sheep=4,pig=3,horse=1")
    stock = CLASSIC.stock_for(farm, H("cow=12"))
    for s in STRATEGIES.values():
        ex = s.choose(farm, stock, CLASSIC, (H("cow=12"),))
        if ex is not None:
            assert ex.takes[Animal.COW] == 0
            apply_exchange(farm, stock, ex)


def test_greedy_maximises_the_exact_expected_gain():
    farm = H("rabbit=20,sheep=2")
    stock = CLASSIC.stock_for(farm)
    ex = Greedy().choose(farm, stock, CLASSIC)
    chosen = expected_gain(*apply_exchange(farm, stock, ex), CLASSIC) if ex else \
        expected_gain(farm, stock)
    for cand in Greedy().candidates(farm, stock):
        assert expected_gain(*apply_exchange(farm, stock, cand), CLASSIC) <= chosen
    assert chosen >= expected_gain(farm, stock)


def test_hoard_order_rabbits_dogs_horse():
    h = Hoard()
    s = lambda text: h.choose(H(text), CLASSIC.stock_for(H(text)), CLASSIC)  # noqa: E731
    assert s("rabbit=9") is None  # still hoarding
    assert str(s("rabbit=10")) == "rabbit=6->small_dog=1"
    assert str(s("rabbit=40,sheep=5,small_dog=1")) == "rabbit=36->big_dog=1"
    # Then the missing animals from rabbits above the reserve of 12.
    assert str(s("rabbit=20,small_dog=1,big_dog=1")) == "rabbit=6->sheep=1"
    assert s("rabbit=17,sheep=1,small_dog=1,big_dog=1") is None  # 12 + 12 not spare
    assert str(s("rabbit=24,sheep=1,small_dog=1,big_dog=1")) == "rabbit=12->pig=1"
    # Never a horse before the winning move...
    assert s("rabbit=20,sheep=2,pig=1,cow=1,small_dog=1,big_dog=1") is None
    # ... which is taken as soon as it is there.
    won = s("rabbit=50,sheep=4,pig=2,cow=1,small_dog=1,big_dog=1")
    assert won.takes == H("horse=1")


def test_advisor_uses_the_model():
    adv = STRATEGIES["advisor"]
    farm = Herd()
    assert adv.choose(farm, CLASSIC.stock_for(farm), CLASSIC) is None
    # With plenty of rabbits the model buys protection or trades up.
    farm = H("rabbit=24")
    ex = adv.choose(farm, CLASSIC.stock_for(farm), CLASSIC)
    model = adv.model_for(CLASSIC)
    after = apply_exchange(farm, CLASSIC.stock_for(farm), ex)[0] if ex else farm
    assert model.expected_turns_after(after) == pytest.approx(model.expected_turns(farm), abs=1e-4)
    assert model.expected_turns_after(after) <= model.expected_turns_after(farm)
