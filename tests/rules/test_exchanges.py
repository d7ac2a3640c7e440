"""One exchange per turn at exact value: shapes, stock, enumeration."""

import pytest

from farmbox.firmware.rules.errors import IllegalExchange
from farmbox.firmware.rules.superfarmer import (
    CLASSIC,
    Exchange,
    apply_exchange,
    check_exchange_shape,
    legal_exchanges,
)
from farmbox.firmware.rules.superfarmer.herd import ANIMALS, Animal, Herd


def H(text: str) -> Herd:
    return Herd.parse(text)


def test_seed_examples_across_levels():
    # Seed 004: 1 horse = 1 cow + 1 pig + 1 sheep + 18 rabbits.
    ex = Exchange.parse("horse=1->cow=1,pig=1,sheep=1,rabbit=18")
    farm = H("horse=1")
    new_farm, new_stock = apply_exchange(farm, CLASSIC.stock_for(farm), ex)
    assert str(new_farm) == "rabbit=18,sheep=1,pig=1,cow=1"
    assert new_farm.is_complete() is False  # the horse went back
    assert new_stock[Animal.HORSE] == 6 and new_stock[Animal.RABBIT] == 42
    # Seed 000: 6 rabbits + 1 sheep + 2 pigs = 1 cow.
    ex = Exchange.parse("rabbit=6,sheep=1,pig=2->cow=1")
    assert ex.value == 36
    farm = H("rabbit=7,sheep=1,pig=2")
    new_farm, _ = apply_exchange(farm, CLASSIC.stock_for(farm), ex)
    assert str(new_farm) == "rabbit=1,cow=1"


def test_dogs_are_bought_and_sold_at_value():
    farm = H("rabbit=6,cow=1")
    stock = CLASSIC.stock_for(farm)
    f, s = apply_exchange(farm, stock, Exchange.parse("rabbit=6->small_dog=1"))
    assert str(f) == "cow=1,small_dog=1" and s[Animal.SMALL_DOG] == 3
    f, s = apply_exchange(f, s, Exchange.parse("cow=1->big_dog=1"))
    assert str(f) == "small_dog=1,big_dog=1"
    f, s = apply_exchange(f, s, Exchange.parse("big_dog=1->sheep=3,small_dog=1,rabbit=12"))
    assert str(f) == "rabbit=12,sheep=3,small_dog=2"
    assert f + s == CLASSIC.herd_sizes


@pytest.mark.parametrize("text,fragment", [
    ("rabbit=5,sheep=1->pig=1", "unequal values"),
    ("sheep=2->pig=1,rabbit=0", None),
    ("sheep=2,rabbit=6->pig=1,sheep=1", "many-for-many"),
    ("rabbit=6,sheep=2->pig=1,small_dog=1", "many-for-many"),
    ("sheep=1->rabbit=5", "unequal values"),
    ("->rabbit=6", "at least one animal"),
    ("sheep=1->sheep=1", "same animal"),
    ("sheep=1 rabbit=6", "expected GIVES->TAKES"),
])
def test_shapes(text, fragment):
    if fragment is None:
        assert Exchange.parse(text).value == 12
        return
    with pytest.raises(IllegalExchange, match=fragment):
        Exchange.parse(text)


def test_both_sides_must_hold_what_they_pay():
    ex = Exchange.parse("rabbit=6->sheep=1")
    with pytest.raises(IllegalExchange, match="farm does not hold"):
        apply_exchange(H("rabbit=5"), CLASSIC.stock_for(H("rabbit=5")), ex)
    with pytest.raises(IllegalExchange, match="other side does not hold"):
        apply_exchange(H("rabbit=6"), H("rabbit=54"), ex)


def test_legal_exchanges_for_an_empty_or_poor_farm():
    empty = Herd()
    assert legal_exchanges(empty, CLASSIC.stock_for(empty)) == []
    five = H("rabbit=5")
    assert legal_exchanges(five, CLASSIC.stock_for(five)) == []
    six = H("rabbit=6")
    got = {str(e) for e in legal_exchanges(six, CLASSIC.stock_for(six))}
    assert got == {"rabbit=6->sheep=1", "rabbit=6->small_dog=1"}


def test_legal_exchanges_are_all_legal_and_complete():
    farm = H("rabbit=14,sheep=3,pig=1,small_dog=1")
    stock = CLASSIC.stock_for(farm)
    listed = legal_exchanges(farm, stock)
    keys = [(e.gives.counts, e.takes.counts) for e in listed]
    assert len(keys) == len(set(keys))
    for e in listed:
        f, s = apply_exchange(farm, stock, e)
        assert f.value == farm.value and f + s == farm + stock
    # Brute force over every small gives/takes pair of the right shape.
    brute = set()
    from itertools import product
    ranges = [range(n + 1) for n in farm.counts]
    for gives in product(*ranges):
        g = Herd(gives)
        if g.is_empty() or g.value > 72:
            continue
        if g.size == 1:
            i = max(range(7), key=lambda k: gives[k])
            # one animal for several: any combination worth the same, from the stock
            for combo in _worth(g.value, stock, exclude=i):
                brute.add((gives, combo))
        else:
            for j, a in enumerate(ANIMALS):
                if stock.counts[j] and gives[j] == 0 and a.value_in_rabbits == g.value:
                    one = [0] * 7
                    one[j] = 1
                    brute.add((gives, tuple(one)))
    assert set(keys) == brute


def _worth(value, stock, exclude):
    from farmbox.firmware.rules.superfarmer.herd import VALUES
    out = []

    def rec(k, remaining, acc):
        if k == 7:
            if remaining == 0:
                out.append(tuple(acc))
            return
        if k == exclude:
            rec(k + 1, remaining, acc + [0])
            return
        for n in range(min(stock.counts[k], remaining // VALUES[k]) + 1):
            rec(k + 1, remaining - n * VALUES[k], acc + [n])

    rec(0, value, [])
    return out


def test_legal_exchanges_respect_the_herd_stock():
    farm = H("sheep=1")
    stock = H("rabbit=3,small_dog=1")
    got = {str(e) for e in legal_exchanges(farm, stock)}
    assert got == {"sheep=1->small_dog=1"}
    got = {str(e) for e in legal_exchanges(H("cow=1"), H("rabbit=0"))}
    assert got == set()


def test_check_shape_directly():
    check_exchange_shape(H("cow=1"), H("pig=2,sheep=2"))
    with pytest.raises(IllegalExchange):
        check_exchange_shape(H("cow=1"), H("pig=2,sheep=1"))
