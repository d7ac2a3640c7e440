"""The advisor for herds other than the full set (issue 10, point 10).

Each non-default herd is solved when first needed, with progress reported through
the callback, cached by the box per variant and herd, and checked against the real
settle() (Bellman) on farms that herd allows.
"""

import random

import pytest

from farmbox.firmware.box import solved_tables
from farmbox.firmware.rules.errors import InvalidHerd
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, Herd, settle
from farmbox.firmware.rules.superfarmer.advisor import advise
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.firmware.rules.superfarmer.solitaire import Model, caps_for, remembered, solve

#: Fewer than 60 rabbits and a single big dog (classic).
SMALL_CLASSIC = CLASSIC.with_options(
    herd_sizes=Herd.parse("rabbit=24,sheep=8,pig=6,cow=3,horse=2,small_dog=1,big_dog=1"))
#: Fewer rabbits and no big dog at all (compact, a rabbit each to start).
SMALL_COMPACT = COMPACT.with_options(
    herd_sizes=Herd.parse("rabbit=30,sheep=6,pig=5,cow=2,horse=2,small_dog=2"))


def bellman_holds(model: Model, rules, farms: int = 30) -> None:
    rng = random.Random(5)
    checked = 0
    while checked < farms:
        farm = Herd(tuple(rng.randint(0, c) for c in model.caps))
        if farm.is_complete():
            continue
        stock = rules.herd_sizes - farm
        expected = 1.0
        for roll in ALL_ROLLS:
            nxt = settle(farm, stock, roll, rules).farm
            expected += 0 if nxt.is_complete() else model.expected_turns(nxt) / 144
        assert model.expected_turns_after(farm) == pytest.approx(expected, abs=2e-3)
        checked += 1


@pytest.mark.parametrize("rules", [SMALL_CLASSIC, SMALL_COMPACT], ids=["classic", "compact"])
def test_a_smaller_herd_is_solved_once_then_read_from_the_cache(rules, tmp_path):
    assert caps_for(rules) == tuple(min(c, n) for c, n in zip((60, 8, 6, 3, 2, 2, 2),
                                                              rules.herd_sizes.counts))
    seen: list[float] = []
    model = solved_tables.load(rules, cache_dir=tmp_path, progress=seen.append)
    # Progress from the pure solver: rising, ending at 1.
    assert seen and seen == sorted(seen) and seen[-1] == 1.0 and 0 < seen[0] < 1
    files = [p.name for p in tmp_path.iterdir()]
    assert files == [solved_tables.table_name(rules, caps_for(rules))]
    assert model.caps == caps_for(rules)
    bellman_holds(model, rules)
    # The second time the table is read: no solving, the same numbers.
    again: list[float] = []
    cached = solved_tables.load(rules, cache_dir=tmp_path, progress=again.append)
    assert again == []
    start = rules.starting
    assert cached.expected_turns(start) == pytest.approx(model.expected_turns(start), abs=1e-4)
    assert remembered(rules) is not None


@pytest.mark.parametrize("rules", [SMALL_CLASSIC, SMALL_COMPACT], ids=["classic", "compact"])
def test_the_advisor_advises_on_a_smaller_herd(rules, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    solved_tables.model_for(rules)
    farm = Herd.parse("rabbit=14,sheep=2")
    a = advise(farm, rules=rules)
    assert a.caps == caps_for(rules)
    assert a.turns_recommended <= a.turns_without
    assert 1.0 < a.turns_recommended < 200
    # The full herd's model is a different one.
    full = advise(farm, rules=rules.with_options(herd_sizes=CLASSIC.herd_sizes))
    assert full.caps != a.caps


def test_the_cache_tells_herds_apart():
    assert Model.key(SMALL_CLASSIC, caps_for(SMALL_CLASSIC)) != Model.key(CLASSIC, caps_for(CLASSIC))
    other = CLASSIC.with_options(herd_sizes=Herd.parse(
        "rabbit=25,sheep=8,pig=6,cow=3,horse=2,small_dog=1,big_dog=1"))
    assert solved_tables.table_name(other, caps_for(other)) != \
        solved_tables.table_name(SMALL_CLASSIC, caps_for(SMALL_CLASSIC))


@pytest.mark.parametrize("herd,fragment", [
    ("rabbit=60,sheep=24,pig=20,cow=12,small_dog=4,big_dog=2", "no horse in the main herd"),
    ("rabbit=1,sheep=1,pig=1,cow=1,horse=1", "can never be completed"),
])
def test_a_herd_no_farm_can_complete_is_one_clear_error(herd, fragment):
    rules = CLASSIC.with_options(herd_sizes=Herd.parse(herd))
    with pytest.raises(InvalidHerd, match=fragment) as info:
        solve(rules)
    assert "\n" not in str(info.value)
