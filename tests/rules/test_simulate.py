"""The simulator: reproducible, the real rules, solitaire and tables of 2-6."""

import random
import statistics

import pytest

from farmbox.firmware.cli.superfarmer import settled_rolls_per_second
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, apply_exchange
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.firmware.rules.superfarmer.game import Game
from farmbox.firmware.rules.superfarmer.herd import Herd
from farmbox.firmware.rules.superfarmer.simulate import SolitaireTable, simulate_solitaire, simulate_table
from farmbox.firmware.rules.superfarmer.strategies import STRATEGIES


@pytest.mark.parametrize("name", ["naive", "hoard", "advisor"])
def test_seeded_runs_repeat(name):
    s = STRATEGIES[name]
    a = simulate_solitaire(s, games=150, rng=random.Random(42))
    b = simulate_solitaire(s, games=150, rng=random.Random(42))
    c = simulate_solitaire(s, games=150, rng=random.Random(43))
    assert a.turns == b.turns and a.turns != c.turns
    assert min(a.turns) >= 1 and a.games == 150


def test_memory_does_not_change_results():
    s = STRATEGIES["hoard"]
    table = SolitaireTable(s)
    warm = simulate_solitaire(s, games=100, rng=random.Random(1), table=table)
    again = simulate_solitaire(s, games=100, rng=random.Random(1), table=table)
    assert warm.turns == again.turns
    assert warm.settled > 0 and again.settled == 0  # the second run only looks up


def test_solitaire_game_replays_with_the_game_object():
    # Replaying the simulator's choices through Game gives the same turn count.
    s = STRATEGIES["advisor"]
    rng = random.Random(9)
    for _ in range(20):
        game = Game(1)
        seed = rng.randrange(2**32)
        roll_rng = random.Random(seed)
        while not game.state.over:
            st = game.state
            ex = s.choose(st.farm, st.stock, CLASSIC)
            if ex is not None:
                game.exchange(ex)
                if game.state.over:
                    break
            game.roll(ALL_ROLLS[int(roll_rng.random() * 144)])
        sim = simulate_solitaire(s, games=1, rng=random.Random(seed))
        assert sim.turns == [game.state.turns[0]]


def test_advisor_beats_the_published_best_and_the_others():
    results = {name: simulate_solitaire(STRATEGIES[name], games=1500, rng=random.Random(2024))
               for name in ("naive", "hoard", "advisor")}
    means = {k: r.mean_turns for k, r in results.items()}
    assert means["advisor"] < 36 < 39.8 < means["hoard"] < means["naive"]
    assert results["advisor"].median_turns <= 34
    d = results["advisor"].as_dict()
    assert set(d) >= {"games", "mean_turns", "median_turns", "games_per_second"}
    assert d["mean_turns"] == pytest.approx(statistics.fmean(results["advisor"].turns), abs=1e-3)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_tables_of_players(players):
    strategies = [STRATEGIES["advisor"], STRATEGIES["naive"]] * 3
    games = 240 // players
    r = simulate_table(strategies[:players], games=games, rules=CLASSIC, rng=random.Random(players))
    rates = r.seat_win_rates()
    assert len(rates) == players and sum(rates) == pytest.approx(1.0)
    per = r.strategy_win_rates()
    # The advisor seats win more than the naive seats.
    assert per["advisor"] > per["naive"]
    d = r.as_dict()
    assert d["players"] == players and d["games"] == games
    again = simulate_table(strategies[:players], games=games, rules=CLASSIC,
                           rng=random.Random(players))
    assert again.winners == r.winners and again.rounds == r.rounds


def test_compact_table_starts_with_a_rabbit_each():
    r = simulate_table([STRATEGIES["hoard"]] * 4, games=50, rules=COMPACT, rng=random.Random(3))
    assert r.games == 50 and all(w in range(4) for w in r.winners)
    with pytest.raises(ValueError, match="2-6 players"):
        simulate_table([STRATEGIES["hoard"]], games=1, rules=COMPACT)


def test_shared_herd_choices_are_payable():
    s = STRATEGIES["advisor"]
    farm = Herd.parse("rabbit=40,sheep=3,pig=2")
    others = (Herd.parse("rabbit=20,sheep=21,pig=18,cow=12,horse=6"),)
    stock = CLASSIC.stock_for(farm, *others)
    ex = s.choose(farm, stock, CLASSIC, others)
    if ex is not None:
        apply_exchange(farm, stock, ex)


def test_settled_rolls_per_second_runs():
    assert settled_rolls_per_second(2000) > 0
