"""The scorekeeper session without hardware: whole games equal the engine, bad actions refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.games.cardgame.bot import RoundTruth, count_of, next_move, setup_move
from farmbox.firmware.games.cardgame.session import (
    Phase,
    RoundResult,
    Scorekeeper,
    Setup,
    TableState,
    apply,
    column_cards,
    new_game_action,
    score_action,
    walk,
    winners,
)
from farmbox.firmware.rules.cardgame import (
    CAT,
    COLUMN_ORDER,
    Card,
    CardGameError,
    Farm,
    Predator,
    ScoringOptions,
    least_loss,
    score_round,
)
from farmbox.firmware.rules.cardgame.game import play_turn

from .conftest import engine_game


def keeper_for(setup: Setup) -> Scorekeeper:
    keeper = Scorekeeper(Setup())
    while keeper.phase is Phase.SETUP:
        keeper.press(setup_move(keeper, setup)[1])
    assert keeper.state.setup == setup
    return keeper


def enter(keeper: Scorekeeper, truth: RoundTruth) -> int:
    presses = 0
    if keeper.phase is Phase.SCOREBOARD:
        keeper.press("ok")
    while (move := next_move(keeper, truth)) is not None:
        keeper.press(move[1])
        presses += 1
    return presses


@pytest.mark.parametrize("setup,seed", [
    (Setup(2), 1), (Setup(3, predators="token"), 2), (Setup(4, True, "hard", 2), 3),
    (Setup(5, True, "token"), 4), (Setup(6, False, "hard", 3), 5), (Setup(6, True, "off", 2), 6),
])
def test_whole_game_on_buttons_equals_the_engine(setup, seed):
    game, bots = engine_game(setup, seed)
    keeper = keeper_for(setup)
    for _ in range(2):
        game.start_round()
        while not game.round_over:
            play_turn(game, bots[game.next_turn()])
        game.add_gifts(bots)
        farms = list(game.farms)
        truth = RoundTruth.from_record(farms, game.score(bots), setup.names)
        assert enter(keeper, truth) > 20
        assert keeper.state.scores == tuple(game.scores)
    result = game.result()
    assert keeper.phase is Phase.WINNER and winners(keeper.state)[0] == result.winners
    assert keeper.state.results[-1].longest == result.longest


cards = st.builds(lambda kind, icons, water, dogs: Card(COLUMN_ORDER[kind], icons, 0, water, dogs),
                  st.integers(0, 5), st.integers(1, 3), st.integers(0, 2), st.integers(0, 2))


@st.composite
def farms(draw, players):
    out = []
    for _ in range(players):
        farm = Farm()
        for card in draw(st.lists(cards, max_size=9)):
            farm, _ = farm.add(card)
        for _ in range(draw(st.integers(0, 2)) if farm.columns and players >= 5 else 0):
            farm, _ = farm.add(CAT, draw(st.sampled_from(farm.animals)))
        out.append(farm)
    return out


@settings(max_examples=25, deadline=None)
@given(data=st.data(), players=st.integers(2, 6), advanced=st.booleans(),
       mode=st.sampled_from(["off", "token", "hard"]))
def test_entered_counts_score_like_the_real_cards(data, players, advanced, mode):
    """Whatever the cards, the totals from their counts equal score_round on the cards."""
    table = data.draw(farms(players))
    if players <= 4:  # no horses, no cats with 4 or fewer farmers
        table = [Farm(tuple(c for c in f.columns if c.animal is not COLUMN_ORDER[-1]))
                 for f in table]
    predators = {"off": (), "hard": (Predator.FOX, Predator.WOLF),
                 "token": (data.draw(st.sampled_from(list(Predator))),)}[mode]
    cabbage = data.draw(st.lists(st.integers(0, 4), min_size=players, max_size=players))
    setup = Setup(players, advanced, mode)
    names = setup.names
    lost = {}

    def choose(name, column):
        card = least_loss(name, column)
        lost[(names.index(name), column.animal)] = card
        return card

    result = score_round(dict(zip(names, table)), ScoringOptions(advanced, predators), choose)
    keeper = keeper_for(setup)
    enter(keeper, RoundTruth(table, cabbage, predators, lost))
    assert keeper.state.scores == tuple(cabbage[i] + result.points[n] for i, n in enumerate(names))
    # Round 2 starts from the farms after scoring: cards, icons, water and cats carry over
    # exactly (dogs too, unless the card given up had dogs: the buttons do not ask that).
    for seat, name in enumerate(names):
        after = {c.animal.value: c.as_list() for c in count_of(result.farms[name]).columns}
        carried = keeper.state.carry[seat]
        assert after.keys() == carried.keys()
        for animal, numbers in after.items():
            cards_, icons, dogs, water, cats = carried[animal]
            assert [cards_, icons, water, cats] == numbers[:2] + numbers[3:]
            assert dogs >= numbers[2]


@given(st.integers(1, 6), st.integers(0, 8), st.integers(0, 5), st.integers(0, 3))
def test_column_cards_keep_the_counted_totals(n, extra, water, dogs):
    from farmbox.firmware.games.cardgame.session import ColumnCount
    col = ColumnCount(COLUMN_ORDER[2], n, n + extra, dogs, water)
    made = column_cards(col, None)
    assert len(made) == n and sum(c.icons for c in made) == n + extra
    assert sum(c.water for c in made) == water and sum(c.dogs for c in made) == dogs
    if n >= 2:
        made = column_cards(col, (1 + extra, water))
        assert made[0].icons == 1 + extra and made[0].water == water
        assert sum(c.icons for c in made) == n + extra and len(made) == n


def test_bad_actions_are_refused_with_one_line():
    state = apply(None, new_game_action(Setup(2)))
    with pytest.raises(CardGameError, match="expected F1.rabbit.cards, got F1.sheep.cards"):
        apply(state, {"action": "enter", "key": "F1.sheep.cards", "value": 1})
    with pytest.raises(CardGameError, match="expected 0-60"):
        apply(state, {"action": "enter", "key": "F1.rabbit.cards", "value": 61})
    with pytest.raises(CardGameError, match="not waiting for confirmation"):
        apply(state, {"action": "farmer", "seat": 0, "farm": {}})
    with pytest.raises(CardGameError, match="not fully entered"):
        apply(state, {"action": "score", "round": 1, "totals": [0, 0]})
    with pytest.raises(CardGameError, match="unknown action"):
        apply(state, {"action": "roll"})
    with pytest.raises(CardGameError, match="first action must be a new game"):
        apply(None, {"action": "enter", "key": "x", "value": 1})
    with pytest.raises(CardGameError, match="2-6 farmers"):
        Setup(7)
    with pytest.raises(CardGameError, match="no teams of 2 for 3 farmers"):
        Setup(3, teams=2)
    with pytest.raises(CardGameError, match="unknown key 'colour'"):
        Setup.from_dict({"players": 2, "colour": "red"})
    with pytest.raises(CardGameError, match="answer\\(s\\) after the last question"):
        walk(TableState(Setup(2), answers=(0, 0, 0, 0, 0, 0, 1) * 2 + (0,)))


def test_a_farmer_entry_must_match_the_numbers():
    state = apply(None, new_game_action(Setup(2)))
    for value in (1, 2, 0, 0, 0, 0, 0, 0, 3):  # rabbit 1 card 2 icons; no other column; cabbage 3
        state = apply(state, {"action": "enter", "key": walk(state).question.key, "value": value})
    farm = walk(state).farms[0].as_dict()
    assert farm == {"columns": {"rabbit": [1, 2, 0, 0, 0]}, "cabbage": 3}
    with pytest.raises(CardGameError, match="differs from the numbers entered"):
        apply(state, {"action": "farmer", "seat": 0, "farm": {**farm, "cabbage": 4}})
    state = apply(state, {"action": "farmer", "seat": 0, "farm": farm})
    for _ in range(5):
        state = apply(state, {"action": "enter", "key": walk(state).question.key, "value": 0})
    state = apply(state, {"action": "enter", "key": "F2.cabbage", "value": 0})
    state = apply(state, {"action": "farmer", "seat": 1, "farm": walk(state).farms[1].as_dict()})
    wrong = {**score_action(state), "totals": [0, 0]}
    with pytest.raises(CardGameError, match="differs from the scoring"):
        apply(state, wrong)
    state = apply(state, score_action(state))
    assert state.scores == (3 + 2, 0) and state.round == 2  # cabbage 3 + rabbit column 2
    assert TableState.from_dict(state.to_dict()) == state


def _finished(totals, longest, setup=Setup(3)):
    first = RoundResult((), (0,) * setup.players, totals, totals, longest)
    return TableState(setup, 2, (), (first, first), ())


def test_winners_and_the_tie_breaks():
    assert winners(_finished((20, 18, 3), (2, 5, 1))) == ((0,), "score")
    assert winners(_finished((20, 20, 3), (2, 5, 1))) == ((1,), "longest")
    assert winners(_finished((20, 20, 3), (5, 5, 1))) == ((0, 1), "shared")
    teams = Setup(4, teams=2)  # teams F1+F3 and F2+F4
    assert winners(_finished((10, 9, 5, 6), (1, 1, 1, 4), teams)) == ((1, 3), "longest")


def test_a_new_game_after_the_winner_rotates_the_journal(tmp_path):
    from farmbox.firmware.games.cardgame.session import CardgameJournal

    journal = CardgameJournal(tmp_path)
    replay = journal.open()
    assert replay.timeline is None
    keeper = Scorekeeper(Setup(), journal.append)
    setup = Setup(2)
    while keeper.phase is Phase.SETUP:
        keeper.press(setup_move(keeper, setup)[1])
    game, bots = engine_game(setup, 3)
    for _ in range(2):
        game.start_round()
        while not game.round_over:
            play_turn(game, bots[game.next_turn()])
        game.add_gifts(bots)
        farms = list(game.farms)
        enter(keeper, RoundTruth.from_record(farms, game.score(bots), setup.names))
    assert keeper.phase is Phase.WINNER and "win" in keeper.take_alerts()
    keeper.hold("ok")                                    # undo the last round ...
    assert keeper.phase is Phase.BREAKDOWN and not keeper.state.over
    keeper.press("ok")                                   # ... and put it back
    assert keeper.phase is Phase.WINNER and keeper.state.scores == tuple(game.scores)
    finished = journal.seq
    keeper.press("ok")                                   # new game: the setup again
    assert keeper.phase is Phase.SETUP and keeper.draft_setup == setup
    for _ in range(4):
        keeper.press("ok")
    assert keeper.phase is Phase.ENTRY and keeper.state.results == () and journal.seq == 1
    archived = [p for p in tmp_path.glob("cardgame-*.jsonl")]
    assert len(archived) == 1 and archived[0].name.endswith(f"-{finished}.jsonl")
    journal.close()
    assert CardgameJournal(tmp_path).open().timeline.state == keeper.state
