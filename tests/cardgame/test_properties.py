"""Invariants: cards are conserved through a whole game; scores are the sum of their parts."""

import doctest
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import farmbox.firmware.rules.cardgame as cardgame
from farmbox.firmware.rules.cardgame import (
    CAT,
    Animal,
    Card,
    Farm,
    Game,
    GameOptions,
    Predator,
    ScoringOptions,
    bots,
    cards,
    deck,
    farm,
    game,
    load_deck,
    score_round,
    scorecard,
    scoring,
    teams,
    tournament,
)
from farmbox.firmware.rules.cardgame.bots import make_bot
from farmbox.firmware.rules.cardgame.game import play_turn

DECK = load_deck()


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1),
       line=st.lists(st.sampled_from(["random", "greedy", "spoiler"]), min_size=6, max_size=6),
       predators=st.sampled_from(["off", "token", "hard"]), advanced=st.booleans())
def test_cards_are_conserved_and_scores_add_up_through_a_whole_game(players, seed, line,
                                                                    predators, advanced):
    rng = random.Random(seed)
    choosers = [make_bot(name, rng) for name in line[:players]]
    g = Game(players, rng, GameOptions(advanced, predators), DECK)
    box = Counter(DECK)
    for _ in range(2):
        g.start_round()
        while not g.round_over:
            play_turn(g, choosers[g.next_turn()])
            assert Counter(g.all_cards()) == box
        g.add_gifts(choosers)
        assert Counter(g.all_cards()) == box
        assert not any(g.gifts)
        before = list(g.scores)
        record = g.score(choosers)
        assert Counter(g.all_cards()) == box
        for seat, name in enumerate(g.names):
            parts = record.score.parts(name)
            assert sum(parts.values()) == record.score.points[name]
            assert g.scores[seat] - before[seat] == record.score.points[name]
            # no predator leaves a column holding only cats
            assert all(col.cards for col in g.farms[seat].columns)
    result = g.result()
    for seat in range(players):
        assert result.scores[seat] == sum(r.cabbage[seat] + r.score.points[g.names[seat]]
                                          for r in result.rounds)


card_st = st.builds(Card, st.sampled_from(list(Animal)), icons=st.integers(1, 3),
                    cabbage=st.integers(0, 2), water=st.integers(0, 2),
                    small_dogs=st.integers(0, 1), big_dogs=st.integers(0, 1))


@st.composite
def farms_st(draw):
    out = {}
    for i in range(draw(st.integers(2, 6))):
        f = Farm()
        for c in draw(st.lists(card_st, max_size=10)):
            f, _ = f.add(c)
        for _ in range(draw(st.integers(0, 2))):
            if f.columns:
                f, _ = f.add(CAT, draw(st.sampled_from(f.animals)))
        out[f"f{i}"] = f
    return out


@settings(max_examples=60, deadline=None)
@given(farms=farms_st(), advanced=st.booleans(),
       predators=st.sampled_from([(), (Predator.FOX,), (Predator.WOLF,),
                                  (Predator.FOX, Predator.WOLF)]))
def test_round_points_are_the_sum_of_columns_water_and_cats(farms, advanced, predators):
    score = score_round(farms, ScoringOptions(advanced, predators))
    for name in farms:
        parts = score.parts(name)
        assert parts["columns"] + parts["water"] + parts["cats"] == score.points[name]
        assert parts["cats"] == -score.farms[name].cats
        assert 0 <= parts["water"] <= score.farms[name].water
    for column in score.columns:
        if column.leaders:
            assert all(column.icons[n] == max(column.icons.values()) for n in column.leaders)
            assert column.points == max(column.icons.values())
    # cards only ever leave through the attacks, one animal card (plus orphaned cats) each
    for name in farms:
        left = Counter(farms[name].cards()) - Counter(score.farms[name].cards())
        lost = Counter(c for a in score.attacks for c in a.lost.get(name, ()))
        assert left == lost
        assert sum(not c.is_cat for c in lost.elements()) <= len(score.attacks)


@pytest.mark.parametrize("module", [cardgame, bots, cards, deck, farm, game, scoring,
                                    scorecard, teams, tournament])
def test_docstring_examples(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0


def test_engine_imports_only_the_standard_library_and_firmware_rules():
    import ast
    import sys
    from pathlib import Path

    root = Path(cardgame.__file__).parent
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                # relative: within cardgame, or one level up into farmbox.firmware.rules
                assert node.level <= 2, path
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                for name in names:
                    top = name.split(".")[0]
                    assert top in sys.stdlib_module_names or name.startswith("farmbox.firmware.rules"), (path, name)
