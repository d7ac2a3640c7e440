"""Fun Farm rounds: activation, catches, penalties, escapes, the Farmer, the end, tie-breaks."""

import random

import pytest

from farmbox.firmware.rules.errors import IllegalAction, InvalidRoll, InvalidState
from farmbox.firmware.rules.funfarm import (
    Animal,
    BuzzTakes,
    ColourRoll,
    Escaped,
    EventKind,
    FarmState,
    FunFarmRules,
    Phase,
    TieRule,
    buzz,
    catch,
    close_race,
    draw,
    end_round,
    new_game,
    parse_deck,
    race_order,
    roll,
)

# A small deck whose card numbers we can reason about.
SMALL = parse_deck({
    "dice": {"black": ["red", "blue", "green"], "white": ["red", "blue", "green"]},
    "cards": [
        {"id": "sheep-a", "animal": "sheep", "black": "red", "white": "blue"},    # 0
        {"id": "sheep-b", "animal": "sheep", "black": "green", "white": "green"},  # 1
        {"id": "pig-a", "animal": "pig", "black": "blue", "white": "red"},        # 2
        {"id": "cow-a", "animal": "cow", "black": "green", "white": "red"},       # 3
        {"id": "sheep-c", "animal": "sheep", "black": "blue", "white": "blue"},   # 4
        {"id": "horse-a", "animal": "horse", "black": "red", "white": "red"},     # 5
    ],
})
RULES = FunFarmRules(deck=SMALL)
#: Today's table rules before issue 10: one buzz takes all, escaped cards stay.
OLD = FunFarmRules(deck=SMALL, buzz_takes=BuzzTakes.ALL, escaped=Escaped.STAY)


def state(draw_pile=(), circle=(), piles=((), ()), **kw):
    s = FarmState(tuple(draw_pile), tuple(circle), tuple(tuple(p) for p in piles),
                  contenders=tuple(range(len(piles))), **kw)
    s.check(len(SMALL))
    return s


def test_new_game_shuffles_whole_deck_and_checks_players():
    s = new_game(4, FunFarmRules(), random.Random(3), farmer=2)
    assert sorted(s.draw_pile) == list(range(24)) and s.draw_pile != tuple(range(24))
    assert s.farmer == 2 and s.scores == (0, 0, 0, 0) and s.phase is Phase.DRAW
    for n in (1, 11):
        with pytest.raises(IllegalAction, match="2-10 players"):
            new_game(n, FunFarmRules(), random.Random(0))
    assert new_game(10, FunFarmRules(), random.Random(0)).players == 10


def test_activation_is_black_or_white():
    s = draw(state(draw_pile=[5], circle=[0, 1, 2, 3, 4]), RULES).state
    t = roll(s, RULES, ColourRoll("blue", "red"))
    # blue black: 2, 4; red white: 2, 3, 5; card 0 (red, blue) and 1 (green, green) are not.
    assert t.state.activated == (2, 3, 4, 5)
    assert t.events[0].kind is EventKind.ROLLED and t.state.phase is Phase.CATCH


def test_catcher_takes_every_activated_card_of_that_animal():
    s = draw(state(draw_pile=[4], circle=[0, 1, 2, 3], piles=[(5,), ()]), RULES).state
    s = roll(s, RULES, ColourRoll("red", "blue")).state   # 0 by black red, 4 by white blue
    assert set(s.activated) == {0, 4}
    t = catch(s, RULES, 1, Animal.SHEEP, random.Random(0))
    assert t.state.piles[1] == (0, 4)          # both sheep cards, one per die
    assert 1 in t.state.circle                 # the sheep card that was not activated stays
    assert t.events[0].kind is EventKind.CAUGHT and t.state.uncaught == ()


def test_wrong_catch_returns_one_random_card_to_the_circle():
    s = draw(state(draw_pile=[3], circle=[], piles=[(0, 1, 2), (4, 5)]), RULES).state
    s = roll(s, RULES, ColourRoll("green", "red")).state   # activates cow 3
    t = catch(s, RULES, 0, Animal.PIG, random.Random(7))
    assert [e.kind for e in t.events] == [EventKind.WRONG_CATCH, EventKind.PENALTY]
    back = t.events[1].cards[0]
    assert back in (0, 1, 2) and back in t.state.circle and back not in t.state.piles[0]
    assert len(t.state.piles[0]) == 2 and t.state.uncaught == (3,)
    t.state.check(len(SMALL))


def test_wrong_catch_with_an_empty_pile_costs_nothing_and_catch_before_roll_is_wrong():
    s = draw(state(draw_pile=[3], piles=[(), (0, 1, 2, 4, 5)]), RULES).state
    t = catch(s, RULES, 0, Animal.COW, random.Random(0))   # before the roll: wrong
    assert [e.kind for e in t.events] == [EventKind.WRONG_CATCH, EventKind.NO_PENALTY]
    assert t.state == s


def test_escaped_cards_stay_and_can_be_caught_later_with_escaped_stay():
    rng = random.Random(0)
    s = draw(state(draw_pile=[2, 5], circle=[0, 1, 3, 4]), OLD).state
    s = roll(s, OLD, ColourRoll("blue", "green")).state    # activates 2, 4 (blue) and 1 (green)
    t = end_round(s, OLD, rng)
    assert t.events[0].kind is EventKind.ESCAPED and set(t.events[0].cards) == {1, 2, 4}
    s = t.state
    assert {1, 2, 4} <= set(s.circle) and s.activated == () and s.farmer == 1 and not s.escaped
    s = draw(s, OLD).state
    s = roll(s, OLD, ColourRoll("blue", "green")).state
    assert catch(s, OLD, 0, Animal.PIG, rng).state.piles[0] == (2,)


def test_escaped_cards_leave_the_game_by_default():
    """Issue 10 point 2: an activated card nobody caught before the next card is turned has
    escaped; only the cards that were not activated stay in the circle."""
    rng = random.Random(0)
    s = draw(state(draw_pile=[2, 5], circle=[0, 1, 3, 4]), RULES).state
    s = roll(s, RULES, ColourRoll("blue", "green")).state    # activates 1, 2, 4
    t = end_round(s, RULES, rng)
    assert t.events[0].kind is EventKind.ESCAPED and set(t.events[0].cards) == {1, 2, 4}
    s = t.state
    assert s.circle == (0, 3) and set(s.escaped) == {1, 2, 4} and s.cards_total() == 6
    s.check(len(SMALL))
    # The same animal on a later card is caught normally.
    s = roll(draw(s, RULES).state, RULES, ColourRoll("red", "red")).state   # 5 horse, 0, 3
    assert catch(s, RULES, 0, Animal.HORSE, rng).state.piles[0] == (5,)
    assert FarmState.from_dict(s.to_dict(), RULES) == s


def test_the_race_closes_on_time_and_its_cards_escape():
    rng = random.Random(0)
    s = draw(state(draw_pile=[5], circle=[0, 2, 3], piles=[(1,), (4,)]), RULES).state
    s = roll(s, RULES, ColourRoll("red", "red")).state    # 0 sheep, 2 pig, 3 cow, 5 horse
    s = buzz(s, RULES, [1], rng).state                   # one animal taken
    t = close_race(s, RULES)
    assert [e.kind for e in t.events] == [EventKind.CLOSED, EventKind.ESCAPED]
    assert len(t.state.escaped) == 3 and t.state.uncaught == () and t.state.circle == ()
    late = buzz(t.state, RULES, [0], rng)
    assert late.events[0].kind is EventKind.LATE_BUZZ and late.state == t.state
    kept = close_race(buzz(roll(draw(state(draw_pile=[5], circle=[0, 2, 3], piles=[(1,), (4,)]),
                                     OLD).state, OLD,
                                ColourRoll("red", "red")).state, OLD, [1], rng).state, OLD)
    assert kept.state.escaped == () and kept.events[0].kind is EventKind.CLOSED
    assert end_round(t.state, RULES, rng).state.phase is Phase.OVER


def test_farmer_passes_left_and_game_ends_after_the_round_of_the_last_card():
    rng = random.Random(0)
    s = FarmState((0, 1), (), ((), (), ()), farmer=2, contenders=(0, 1, 2))
    s = roll(draw(s, RULES).state, RULES, ColourRoll("red", "red")).state
    s = catch(s, RULES, 1, Animal.SHEEP, rng).state
    s = end_round(s, RULES, rng).state
    assert s.farmer == 0 and not s.over
    s = roll(draw(s, RULES).state, RULES, ColourRoll("blue", "blue")).state  # last card drawn
    assert s.draw_pile == () and not s.over
    t = end_round(s, RULES, rng)
    assert t.state.over and t.state.winner == 1
    assert t.events[-1].kind is EventKind.WON
    with pytest.raises(IllegalAction, match="game is over"):
        draw(t.state, RULES)
    with pytest.raises(IllegalAction, match="game is over"):
        catch(t.state, RULES, 0, Animal.COW, rng)


def test_tiebreak_shuffles_tied_piles_keeps_circle_until_one_leads():
    rng = random.Random(5)
    # Last card 5 drawn; players 0 and 2 tie on 2 cards, player 1 has 1.
    s = state(draw_pile=[5], piles=[(0, 1), (2,), (3, 4)])
    s = roll(draw(s, RULES).state, RULES, ColourRoll("green", "green")).state  # nothing activated
    t = end_round(s, RULES, rng)
    s = t.state
    assert not s.over and s.contenders == (0, 2) and s.tiebreaks == 1
    assert sorted(s.draw_pile) == [0, 1, 3, 4] and s.piles == ((), (2,), ())
    assert s.circle == (5,)                       # the circle is kept
    assert s.farmer == 1                          # someone outside the tie rolls
    assert t.events[-1].kind is EventKind.TIEBREAK
    with pytest.raises(IllegalAction, match="not in the tie-break"):
        catch(draw(s, RULES).state, RULES, 1, Animal.HORSE, rng)
    # One tie-break round: player 2 catches the horse (card 5), and wins.
    s = draw(s, RULES).state
    s = roll(s, RULES, ColourRoll("red", "red")).state
    s = catch(s, RULES, 2, Animal.HORSE, rng).state
    t = end_round(s, RULES, rng)
    assert t.state.over and t.state.winner == 2
    t.state.check(len(SMALL))


def test_tiebreak_with_no_cards_plays_rounds_without_drawing():
    rng = random.Random(1)
    s = FarmState((), (0, 1, 2, 3, 4, 5), ((), ()), phase=Phase.CATCH,
                  roll=ColourRoll("red", "red"), contenders=(0, 1))
    s = end_round(s, RULES, rng).state
    assert s.tiebreaks == 1 and s.draw_pile == () and not s.over
    t = draw(s, RULES)
    assert t.events == () and t.state.phase is Phase.ROLL and len(t.state.circle) == 6


def test_buzzer_single_first_buzz_takes_all_activated_cards_with_buzz_takes_all():
    rng = random.Random(0)
    s = draw(state(draw_pile=[5], circle=[0, 1, 2, 3, 4]), OLD).state
    s = roll(s, OLD, ColourRoll("blue", "red")).state
    t = buzz(s, OLD, [1], rng)
    assert set(t.state.piles[1]) == {2, 3, 4, 5} and t.events[0].kind is EventKind.CAUGHT
    late = buzz(t.state, OLD, [0], rng)
    assert late.state == t.state and late.events[0].kind is EventKind.LATE_BUZZ


def test_each_activated_animal_is_its_own_race():
    """Issue 10 point 1: the first buzz takes the animal with the most activated cards
    (ties: the card turned earliest) with all its activated cards, the next buzz the next
    animal; the same player may buzz again (two hands)."""
    rng = random.Random(0)
    s = draw(state(draw_pile=[5], circle=[3, 0, 2, 4, 1]), RULES).state
    s = roll(s, RULES, ColourRoll("blue", "blue")).state
    # blue black: 2 pig, 4 sheep; blue white: 0 sheep, 4 sheep -> sheep 0, 4 and pig 2.
    assert set(s.activated) == {0, 2, 4}
    assert race_order(s, RULES) == ((0, 4), (2,))
    t = buzz(s, RULES, [1], rng)
    assert t.events[0].kind is EventKind.CAUGHT and t.state.piles[1] == (0, 4)
    assert t.state.uncaught == (2,) and 1 in t.state.circle     # non-activated sheep stays
    t = buzz(t.state, RULES, [1], rng)                          # the same player, other hand
    assert t.state.piles[1] == (0, 4, 2) and t.state.uncaught == ()
    assert buzz(t.state, RULES, [0], rng).events[0].kind is EventKind.LATE_BUZZ


def test_equal_animals_race_in_the_order_their_cards_were_turned():
    rng = random.Random(0)
    s = draw(state(draw_pile=[5], circle=[3, 0, 2], piles=[(1,), (4,)]), RULES).state
    s = roll(s, RULES, ColourRoll("red", "red")).state   # 0 sheep, 2 pig, 3 cow, 5 horse: 1 each
    assert race_order(s, RULES) == ((3,), (0,), (2,), (5,))
    order = []
    for player in (0, 1, 0, 1):
        t = buzz(s, RULES, [player], rng)
        order.append(t.events[0].cards)
        s = t.state
    assert order == [(3,), (0,), (2,), (5,)] and s.scores == (3, 3)  # 5: turned last


def test_buzzer_false_start_and_empty_buzz_are_penalised():
    rng = random.Random(0)
    s = draw(state(draw_pile=[1], circle=[], piles=[(0, 2), (3, 4, 5)]), RULES).state
    t = buzz(s, RULES, [1, 0], rng)   # before the roll is read: both false start
    kinds = [e.kind for e in t.events]
    assert kinds == [EventKind.FALSE_START, EventKind.PENALTY] * 2
    assert t.state.scores == (1, 2) and len(t.state.circle) == 3


def test_buzz_with_nothing_activated_is_a_mistake():
    rng = random.Random(0)
    s = draw(state(draw_pile=[1], circle=[], piles=[(0, 2), (3, 4, 5)]), RULES).state
    s = roll(s, RULES, ColourRoll("red", "red")).state    # card 1 is green/green
    assert s.activated == ()
    t = buzz(s, RULES, [0], rng)
    assert [e.kind for e in t.events] == [EventKind.EMPTY_BUZZ, EventKind.PENALTY]
    assert t.state.scores == (1, 3)


def test_same_millisecond_tie_reroll():
    rng = random.Random(0)
    s = draw(state(draw_pile=[5], circle=[0, 2], piles=[(1,), (3, 4)]), RULES).state
    s = roll(s, RULES, ColourRoll("red", "red")).state
    t = buzz(s, RULES, [0, 1], rng)
    assert t.events[0].kind is EventKind.TIE and t.events[0].players == (0, 1)
    assert t.state.scores == (1, 2) and t.state.phase is Phase.ROLL and t.state.activated == ()
    assert roll(t.state, RULES, ColourRoll("blue", "blue")).state.phase is Phase.CATCH


def test_same_millisecond_tie_deals_the_raced_animal():
    rules = FunFarmRules(deck=SMALL, tie=TieRule.DEAL)
    s = draw(state(draw_pile=[4], circle=[0, 2, 1], piles=[(3,), (5,)]), rules).state
    s = roll(s, rules, ColourRoll("blue", "blue")).state    # sheep 0, 4; pig 2
    t = buzz(s, rules, [1, 0], random.Random(4))
    assert t.events[0].kind is EventKind.TIE and t.events[0].cards == (0, 4)
    assert t.state.scores == (2, 2) and t.state.uncaught == (2,)


def test_same_millisecond_tie_deal():
    rules = FunFarmRules(deck=SMALL, tie=TieRule.DEAL, buzz_takes=BuzzTakes.ALL)
    s = draw(state(draw_pile=[5], circle=[0, 2, 3], piles=[(1,), (4,)]), rules).state
    s = roll(s, rules, ColourRoll("red", "red")).state     # activates 0, 2, 3, 5
    assert len(s.activated) == 4
    t = buzz(s, rules, [1, 0], random.Random(4))
    assert t.events[0].kind is EventKind.TIE
    assert t.state.scores == (3, 3) and t.state.uncaught == ()
    t.state.check(len(SMALL))


def test_phase_errors_and_bad_rolls():
    s = state(draw_pile=[0, 1, 2, 3, 4, 5])
    with pytest.raises(IllegalAction, match="cannot read the dice now"):
        roll(s, RULES, ColourRoll("red", "red"))
    with pytest.raises(IllegalAction, match="cannot end the round"):
        end_round(s, RULES, random.Random(0))
    s = draw(s, RULES).state
    with pytest.raises(IllegalAction, match="cannot draw"):
        draw(s, RULES)
    with pytest.raises(InvalidRoll, match="'pink' is not on the white die"):
        roll(s, RULES, ColourRoll("red", "pink"))
    with pytest.raises(InvalidRoll, match="BLACK,WHITE"):
        RULES.parse_roll("red")
    with pytest.raises(IllegalAction, match="no player 3"):
        buzz(s, RULES, [2], random.Random(0))


def test_state_round_trips_and_bad_state_is_named():
    rng = random.Random(2)
    rules = FunFarmRules()
    s = new_game(3, rules, rng)
    s = roll(draw(s, rules).state, rules, ColourRoll("red", "blue")).state
    assert FarmState.from_dict(s.to_dict(), rules) == s
    d = s.to_dict()
    d["circle"] = d["circle"] + [d["draw_pile"][0]]
    with pytest.raises(InvalidState, match="expected each of 24 once"):
        FarmState.from_dict(d, rules)
    d = s.to_dict()
    del d["piles"]
    with pytest.raises(InvalidState, match="missing or malformed 'piles'"):
        FarmState.from_dict(d, rules)


def test_after_a_tie_break_the_totals_are_the_games():
    """Issue 10 point 4: the winner of a tie-break is shown with the game's real totals."""
    rng = random.Random(5)
    s = state(draw_pile=[5], piles=[(0, 1), (2,), (3, 4)])
    s = roll(draw(s, RULES).state, RULES, ColourRoll("green", "green")).state  # nothing on
    s = end_round(s, RULES, rng).state
    assert s.scores == (0, 1, 0) and s.totals == (2, 1, 2)
    s = roll(draw(s, RULES).state, RULES, ColourRoll("red", "red")).state
    s = catch(s, RULES, 2, Animal.HORSE, rng).state
    s = end_round(s, RULES, rng).state
    assert s.over and s.winner == 2 and s.scores[2] == 1 and s.totals == (2, 1, 2)
    assert FarmState.from_dict(s.to_dict(), RULES).totals == (2, 1, 2)


def test_a_tie_with_nothing_left_to_catch_is_shared():
    """Every card escaped: no tie-break can decide, the tied players share the win."""
    rng = random.Random(1)
    s = FarmState((), (0, 1), ((), ()), phase=Phase.CATCH, roll=ColourRoll("red", "blue"),
                  activated=(0, 1), uncaught=(0, 1), contenders=(0, 1), escaped=(2, 3, 4, 5))
    t = end_round(s, RULES, rng)
    assert t.state.over and t.state.winner is None and t.state.contenders == (0, 1)
    assert t.events[-1].kind is EventKind.WON and t.events[-1].players == (0, 1)
    t.state.check(len(SMALL))
