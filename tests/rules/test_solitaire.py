"""The solitaire model: transitions agree with settle(), the shipped table obeys Bellman."""

import random

import numpy as np
import pytest

from farmbox.firmware.box import solved_tables
from farmbox.firmware.box.solved_tables import model_for
from farmbox.firmware.rules.errors import InvalidState
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, apply_exchange, legal_exchanges, settle
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.firmware.rules.superfarmer.herd import Herd
from farmbox.firmware.rules.superfarmer.solitaire import CAPS, _distinct_rolls, roll_successors, solve

TINY = (8, 3, 2, 2, 2, 1, 1)
#: Smaller still, for tests that solve.
SOLVE = (6, 2, 2, 1, 2, 1, 1)


def capped(farm: Herd, caps) -> tuple[int, ...]:
    return tuple(min(n, c) for n, c in zip(farm.counts, caps))


@pytest.mark.parametrize("rules", [CLASSIC, COMPACT], ids=["classic", "compact"])
def test_numpy_transitions_match_settle(rules):
    shape = tuple(c + 1 for c in TINY)
    succ = roll_successors(rules, TINY)
    rolls = [r for r, _ in _distinct_rolls()]
    assert sum(p for _, p in succ) == pytest.approx(1.0)
    rng = random.Random(3)
    # Every dog/predator case is in the first 24 (all dog counts), then a random sample.
    flats = list(range(24)) + rng.sample(range(int(np.prod(shape))), 300)
    for flat in flats:
        farm = Herd(tuple(int(i) for i in np.unravel_index(flat, shape)))
        stock = rules.herd_sizes - farm
        for roll, (idx, _) in zip(rolls, succ):
            want = capped(settle(farm, stock, roll, rules).farm, TINY)
            got = tuple(int(i) for i in np.unravel_index(idx[flat], shape))
            assert got == want, (str(farm), str(roll))


def test_tiny_model_solves_and_caches(tmp_path):
    model = solved_tables.load(CLASSIC, SOLVE, cache_dir=tmp_path)
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].suffix == ".npz"
    again = solved_tables.read(files[0], CLASSIC)
    assert again.policy.tolist() == model.policy.tolist()
    assert again.expected_turns(Herd()) == pytest.approx(model.expected_turns(Herd()), rel=1e-6)
    # A model for other rules does not accept this file.
    with pytest.raises(InvalidState, match="other rules"):
        solved_tables.read(files[0], COMPACT)
    files[0].write_bytes(b"not a table")
    with pytest.raises(InvalidState, match="unreadable"):
        solved_tables.read(files[0], CLASSIC)
    # A damaged cache is solved again and replaced.
    assert solved_tables.load(CLASSIC, SOLVE, cache_dir=tmp_path).expected_turns(Herd()) == \
        pytest.approx(model.expected_turns(Herd()), rel=1e-6)
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_bad_caps():
    with pytest.raises(ValueError, match="cap for horse"):
        solve(CLASSIC, (8, 3, 2, 2, 7, 1, 1))


def test_more_room_never_hurts_the_model():
    # Caps only throw animals away, so a bigger box can only lower expected turns.
    small = solve(CLASSIC, SOLVE)
    bigger = solve(CLASSIC, (8,) + SOLVE[1:])
    assert bigger.expected_turns(Herd()) <= small.expected_turns(Herd()) + 1e-9


def test_shipped_table_obeys_bellman_with_the_real_rules():
    model = model_for(CLASSIC)
    assert model.caps == CAPS
    rng = random.Random(7)
    rolls = list(ALL_ROLLS)
    checked = 0
    while checked < 40:
        farm = Herd(tuple(rng.randint(0, c) for c in CAPS))
        if farm.is_complete():
            continue
        stock = CLASSIC.herd_sizes - farm
        # after(s) = 1 + E[turns(settle(s))], from the real settle().
        expected = 1.0
        for roll in rolls:
            nxt = settle(farm, stock, roll).farm
            expected += 0 if nxt.is_complete() else model.expected_turns(nxt) / 144
        assert model.expected_turns_after(farm) == pytest.approx(expected, abs=2e-3)
        # turns(s) = the best of rolling now and every exchange that fits the caps.
        options = [model.expected_turns_after(farm)]
        for ex in legal_exchanges(farm, stock):
            f, _ = apply_exchange(farm, stock, ex)
            if all(n <= c for n, c in zip(f.counts, CAPS)):
                options.append(1.0 if f.is_complete() else model.expected_turns_after(f))
        assert model.expected_turns(farm) == pytest.approx(min(options), abs=2e-3)
        best = model.best(farm)
        chosen = model.expected_turns_after(farm) if best is None else (
            lambda f: 1.0 if f.is_complete() else model.expected_turns_after(f))(
                apply_exchange(farm, stock, best)[0])
        assert chosen == pytest.approx(min(options), abs=2e-3)
        checked += 1


def test_model_figures_are_plausible():
    model = model_for(CLASSIC)
    empty = model.expected_turns(Herd())
    # Better than the best published student strategy (mean 39.8), and
    # a farm one exchange from complete needs exactly one turn.
    assert 20 < empty < 36
    assert model.expected_turns(Herd.parse("horse=2")) == pytest.approx(1.0)
    assert model.expected_turns(Herd.parse("rabbit=30")) < empty
