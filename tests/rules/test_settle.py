"""Settling a roll: breeding, caps, fox, wolf, dogs, both predators, wins."""

import pytest

from farmbox.firmware.rules.errors import InvalidRoll
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, EventKind, settle
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS, GREEN, RED, Face, Roll
from farmbox.firmware.rules.superfarmer.herd import Animal, Herd


def run(farm: str, roll: str, rules=CLASSIC, stock: str | None = None):
    f = Herd.parse(farm)
    s = Herd.parse(stock) if stock is not None else rules.stock_for(f)
    return settle(f, s, Roll.parse(roll), rules)


def kinds(result):
    return [(e.kind, e.animal, e.count) for e in result.events]


def test_dice_are_as_the_rules_say():
    assert sorted(f.value for f in GREEN) == sorted(
        ["wolf", "cow", "pig"] + ["sheep"] * 3 + ["rabbit"] * 6)
    assert sorted(f.value for f in RED) == sorted(
        ["fox", "horse"] + ["pig"] * 2 + ["sheep"] * 2 + ["rabbit"] * 6)
    assert len(ALL_ROLLS) == 144


@pytest.mark.parametrize("text", ["horse,rabbit", "rabbit,cow", "fox,rabbit", "rabbit,wolf",
                                  "rabbit", "rabbit,rabbit,rabbit", "cat,rabbit"])
def test_faces_not_on_that_die(text):
    with pytest.raises(InvalidRoll):
        Roll.parse(text)


def test_breeding_pairs():
    r = run("rabbit=5,sheep=3,pig=2", "sheep,rabbit")
    assert str(r.farm) == "rabbit=8,sheep=5,pig=2"
    assert (EventKind.BRED, Animal.RABBIT, 3) in kinds(r)
    assert (EventKind.BRED, Animal.SHEEP, 2) in kinds(r)
    # Two rabbits on the dice breed from an empty farm; one does not.
    assert str(run("", "rabbit,rabbit").farm) == "rabbit=1"
    assert run("", "rabbit,sheep").farm.is_empty()
    assert str(run("pig=1", "pig,pig").farm) == "pig=2"
    assert str(run("horse=1", "rabbit,horse").farm) == "horse=2"


def test_breeding_capped_by_stock_and_the_rest_lost():
    r = run("rabbit=50", "rabbit,rabbit")
    # 26 due, only 10 in the herd.
    assert r.farm[Animal.RABBIT] == 60 and r.stock[Animal.RABBIT] == 0
    assert (EventKind.CAPPED, Animal.RABBIT, 16) in kinds(r)
    r = run("sheep=4", "sheep,sheep", stock="sheep=1")
    assert r.farm[Animal.SHEEP] == 5 and r.stock[Animal.SHEEP] == 0
    r = run("sheep=4", "sheep,sheep", stock="")
    assert r.farm[Animal.SHEEP] == 4
    assert kinds(r) == [(EventKind.CAPPED, Animal.SHEEP, 3)]


def test_fox_takes_rabbits_unless_a_small_dog():
    r = run("rabbit=9,sheep=2", "sheep,fox")
    assert str(r.farm) == "sheep=3"
    assert (EventKind.LOST_TO_FOX, Animal.RABBIT, 9) in kinds(r)
    assert r.stock[Animal.RABBIT] == 60
    r = run("rabbit=9,small_dog=2", "rabbit,fox")
    assert str(r.farm) == "rabbit=14,small_dog=1"
    assert (EventKind.DOG_USED, Animal.SMALL_DOG, 1) in kinds(r)
    # A big dog is no help against the fox.
    assert str(run("rabbit=9,big_dog=1", "pig,fox").farm) == "big_dog=1"


def test_wolf_classic_and_compact():
    farm = "rabbit=9,sheep=2,pig=3,cow=1,horse=1,small_dog=1"
    r = run(farm, "wolf,rabbit")
    # Classic: the wolf spares horses and small dogs; the rabbit face breeds from none.
    assert str(r.farm) == "horse=1,small_dog=1"
    lost = {e.animal: e.count for e in r.events if e.kind is EventKind.LOST_TO_WOLF}
    assert lost == {Animal.RABBIT: 9, Animal.SHEEP: 2, Animal.PIG: 3, Animal.COW: 1}
    r = run(farm, "wolf,rabbit", COMPACT)
    # Compact: rabbits stay (and breed).
    assert str(r.farm) == "rabbit=14,horse=1,small_dog=1"
    r = run(farm + ",big_dog=1", "wolf,sheep")
    assert str(r.farm) == "rabbit=9,sheep=3,pig=3,cow=1,horse=1,small_dog=1"
    assert (EventKind.DOG_USED, Animal.BIG_DOG, 1) in kinds(r)


def test_wolf_spares_option():
    rules = CLASSIC.with_options(wolf_spares=frozenset({Animal.HORSE, Animal.COW}))
    r = run("cow=2,small_dog=1,sheep=1", "wolf,horse", rules)
    assert str(r.farm) == "cow=2"


def test_fox_and_wolf_together_each_dog_against_its_own():
    both = "wolf,fox"
    r = run("rabbit=7,sheep=2,small_dog=1", both)
    # The dog saves the rabbits from the fox, then the wolf takes them anyway.
    assert r.farm.is_empty()
    assert kinds(r)[0] == (EventKind.DOG_USED, Animal.SMALL_DOG, 1)
    assert (EventKind.LOST_TO_WOLF, Animal.RABBIT, 7) in kinds(r)
    r = run("rabbit=7,sheep=2,small_dog=1,big_dog=1", both)
    assert str(r.farm) == "rabbit=7,sheep=2"
    used = [e.animal for e in r.events if e.kind is EventKind.DOG_USED]
    assert used == [Animal.SMALL_DOG, Animal.BIG_DOG]
    r = run("rabbit=7,sheep=2,big_dog=1", both)
    assert str(r.farm) == "sheep=2"
    r = run("rabbit=7,sheep=2,small_dog=3", both)
    assert str(r.farm) == "small_dog=2"


def test_tokens_only_move_between_farm_and_herd():
    farm = Herd.parse("rabbit=13,sheep=5,pig=2,cow=1,small_dog=1")
    stock = CLASSIC.stock_for(farm)
    for roll in set(ALL_ROLLS):
        r = settle(farm, stock, roll)
        assert r.farm + r.stock == CLASSIC.herd_sizes


def test_win_after_roll():
    r = run("sheep=1,pig=1,cow=1,horse=1", "rabbit,rabbit")
    assert r.won and r.events[-1].kind is EventKind.WON
    r = run("sheep=1,pig=1,cow=1,horse=1", "rabbit,rabbit", stock="sheep=3")
    assert not r.won  # no rabbit left in the herd to breed
    assert kinds(r) == [(EventKind.CAPPED, Animal.RABBIT, 1)]
    # The first horse never comes from the dice: one horse face breeds nothing.
    assert not run("rabbit=3,sheep=1,pig=1,cow=1", "rabbit,horse").won


def test_predators_first_then_breeding():
    # The fox clears the rabbits, then the green rabbit has nothing to breed with.
    assert run("rabbit=4", "rabbit,fox").farm.is_empty()
    assert Face.FOX in RED and Face.WOLF in GREEN
