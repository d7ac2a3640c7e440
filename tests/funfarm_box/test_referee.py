"""The buzzer referee through real gpiozero Buttons on MockFactory pins."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.games.funfarm.session import TIE_NS, Buzz, DiceSeen, first_buzz, races
from farmbox.firmware.rules.funfarm import (
    BuzzTakes,
    EventKind,
    FunFarmRules,
    Phase,
    TieRule,
    buzz,
    draw,
    end_round,
    new_game,
    roll,
)

from .conftest import activating, missing, open_table


def _journal(table) -> list[dict]:
    return [json.loads(line)["action"] for line in
            (table.journal_dir / "funfarm.jsonl").read_text().splitlines()]


def test_first_buzz_alone_takes_every_activated_card(table):
    rules = table.session.rules
    first = rules.deck.cards[table.session.state.draw_pile[0]].id
    table.turn(first)
    card = rules.deck.index(first)
    r = activating(rules, card)
    table.roll(r.black, r.white)
    assert table.session.state.activated == (card,)
    table.push((2,), (0,))  # player 3 first, player 1 three ms later (late: ignored)
    s = table.session.state
    assert s.piles[2] == (card,) and s.piles[0] == () and card not in s.circle
    assert table.session.verdict.players == (2,)
    assert [a["players"] for a in _journal(table) if a["action"] == "buzz"] == [[2]]
    assert table.session.verdict.reaction_ms[0] is not None


def test_same_millisecond_on_the_pins_is_a_tie_and_the_farmer_rolls_again(table):
    """Two mock pins pushed back to back: a tie exactly when their GPIO timestamps are less
    than 1 ms apart (retried: a busy machine sometimes spaces them more)."""
    rules = table.session.rules
    for attempt in range(8):
        s = table.session.state
        card = s.draw_pile[0]
        table.turn(rules.deck.cards[card].id)
        r = activating(rules, card)
        table.roll(r.black, r.white)
        before = len(table.downs())
        scores = s.scores
        table.push((0, 1))
        d0, d1 = table.downs()[before:before + 2]
        v = table.session.verdict
        if abs(d1.t_ns - d0.t_ns) < TIE_NS:
            assert v.tie and set(v.players) == {0, 1}
            assert table.session.state.phase is Phase.ROLL
            assert table.session.state.scores == scores
            break
        assert not v.tie and v.players == (0,)
    else:
        raise AssertionError("eight pushes, never within one millisecond")
    # The dice still lying there do not count again; a new roll does, and the race is new.
    table.referee.inbox.put(DiceSeen(r.black, r.white, t_ns=0))
    table.settle()
    assert table.session.state.phase is Phase.ROLL
    table.roll(r.black, r.white)
    got = table.session.state.scores[1]
    table.push((1,))
    assert table.session.state.scores[1] > got


def test_same_millisecond_tie_is_shown_and_rerolled(table):
    rules = table.session.rules
    card = table.session.state.draw_pile[0]
    table.turn(rules.deck.cards[card].id)
    r = activating(rules, card)
    table.roll(r.black, r.white)
    table.inject_same_ms(2, 0)
    v = table.session.verdict
    assert v.tie and v.players == (0, 2)
    assert table.session.state.phase is Phase.ROLL and table.session.state.scores == (0, 0, 0)
    assert card in table.session.state.circle
    assert "TIE P1=P3" in _screen_text(table)


def _screen_text(table) -> str:
    """What the verdict line says, checked through the real drawing code."""
    from farmbox.firmware.box.i18n import translator
    from farmbox.firmware.games.funfarm.screens import verdict_text

    return verdict_text(table.session.verdict, translator("en"))[0]


def test_tie_dealt_when_the_rules_say_deal(tmp_path, pins):
    t = open_table(tmp_path / "j", 3, rules=FunFarmRules(tie=TieRule.DEAL,
                                                         buzz_takes=BuzzTakes.ALL))
    try:
        rules = t.session.rules
        s = t.session.state
        # Two cards with the same black colour in the circle: both activate.
        a = s.draw_pile[0]
        b = next(c for c in s.draw_pile[1:]
                 if rules.deck.cards[c].black == rules.deck.cards[a].black)
        t.turn(rules.deck.cards[a].id)
        r = missing(rules, (a,))
        t.roll(r.black, r.white)
        t.turn(rules.deck.cards[b].id)
        t.roll(rules.deck.cards[a].black, "red" if rules.deck.cards[a].white != "red" else "blue")
        assert set(t.session.state.activated) >= {a, b}
        t.inject_same_ms(0, 2)
        kinds = t.session.verdict.kinds
        assert EventKind.TIE in kinds and EventKind.DEALT in kinds
        assert t.session.state.scores[1] == 0
        assert t.session.state.scores[0] + t.session.state.scores[2] == len(
            t.session.state.activated)
        assert abs(t.session.state.scores[0] - t.session.state.scores[2]) <= 1
    finally:
        t.referee.close()
        t.hw.close()


def test_false_start_with_and_without_a_pile(table):
    rules = table.session.rules
    first = rules.deck.cards[table.session.state.draw_pile[0]].id
    table.turn(first)
    table.push((1,))  # before the dice are read, empty pile: a mistake that costs nothing
    assert table.session.verdict.kinds == {EventKind.FALSE_START, EventKind.NO_PENALTY}
    r = activating(rules, rules.deck.index(first))
    table.roll(r.black, r.white)
    table.push((1,))
    assert table.session.state.scores == (0, 1, 0)
    second = next(c for c in table.session.state.draw_pile)
    table.turn(rules.deck.cards[second].id)
    table.push((1,))  # false start with one card: it goes back into the circle
    s = table.session.state
    assert table.session.verdict.kinds == {EventKind.FALSE_START, EventKind.PENALTY}
    assert s.scores == (0, 0, 0) and rules.deck.index(first) in s.circle


def test_wrong_buzz_when_nothing_is_activated(table):
    rules = table.session.rules
    s = table.session.state
    first = s.draw_pile[0]
    table.turn(rules.deck.cards[first].id)
    r = activating(rules, first)
    table.roll(r.black, r.white)
    table.push((0,))
    assert table.session.state.piles[0] == (first,)
    second = table.session.state.draw_pile[0]
    table.turn(rules.deck.cards[second].id)
    miss = missing(rules, (second,))
    table.roll(miss.black, miss.white)
    assert table.session.state.activated == ()
    table.push((2,))  # empty pile: nothing to lose
    assert table.session.verdict.kinds == {EventKind.EMPTY_BUZZ, EventKind.NO_PENALTY}
    table.push((0,))  # one card: back into the circle
    assert table.session.verdict.kinds == {EventKind.EMPTY_BUZZ, EventKind.PENALTY}
    assert table.session.state.piles[0] == () and first in table.session.state.circle


def test_full_game_equals_the_rules_engine_fed_the_same_events(tmp_path, pins):
    """A whole 3-player game on mock buzzers; the engine alone, fed the same cards, rolls,
    buzz groups and round ends (with the journal's random seeds), ends in the same state."""
    t = open_table(tmp_path / "j", 3, seed=5)
    rng = random.Random(11)
    played: list[tuple] = []
    try:
        rules = t.session.rules
        rounds = 0
        while not t.session.state.over and rounds < 120:
            s = t.session.state
            if s.phase is Phase.ROLL:
                pass  # a tie: the Farmer rolls again, no new card
            elif s.draw_pile:
                card = rules.deck.cards[rng.choice(sorted(s.draw_pile))].id
                t.turn(card)
                played.append(("end_round",) if s.phase is Phase.CATCH else ("none",))
                played.append(("draw", card))
            elif s.phase is Phase.CATCH:
                t.button("farmer")
                played.append(("end_round",))
                continue
            else:  # a tie-break deck that is empty: the Farmer starts a round without a card
                t.button("farmer")
                played.append(("draw", None))
            rounds += 1
            if rng.random() < 0.1:
                p = rng.choice(t.session.state.contenders)
                t.push((p,))
                played.append(("buzz", (p,)))
            r = rules.parse_roll(f"{rng.choice(rules.deck.black_faces)},"
                                 f"{rng.choice(rules.deck.white_faces)}")
            t.roll(r.black, r.white)
            played.append(("roll", r))
            order = rng.sample(list(t.session.state.contenders), k=rng.randint(0, 2))
            groups = [tuple(order[:2])] if len(order) == 2 and rng.random() < 0.3 \
                else [(p,) for p in order]
            if groups and len(groups[0]) == 2:
                # Same millisecond: injected with one GPIO timestamp (two mock pins pushed
                # back to back can land more than 1 ms apart on a busy machine).
                t.inject_same_ms(*groups[0])
            elif groups:
                t.push(*groups)  # real pins, 3 ms apart
            for g in groups:
                played.append(("buzz", g))
        assert t.session.state.over
        journal = _journal(t)
    finally:
        t.referee.close()
        t.hw.close()
    # The engine alone, with the seeds the journal recorded for random choices.
    seeds = iter(a.get("seed") for a in journal)
    state = new_game(3, FunFarmRules(), random.Random(next(seeds)))
    buzzes_recorded = 0
    for event in played:
        if event[0] == "none":
            continue
        if event[0] == "draw":
            if event[1] is not None:
                i = rules.deck.index(event[1])
                state = replace(state, draw_pile=(i,) + tuple(c for c in state.draw_pile
                                                              if c != i))
            next(seeds)
            state = draw(state, rules).state
        elif event[0] == "roll":
            next(seeds)
            state = roll(state, rules, event[1]).state
        elif event[0] == "end_round":
            state = end_round(state, rules, random.Random(next(seeds))).state
        elif event[0] == "buzz":
            late = state.phase is Phase.CATCH and state.activated and not state.uncaught
            if late:
                continue
            buzzes_recorded += 1
            state = buzz(state, rules, event[1], random.Random(next(seeds))).state
    assert state.over
    assert state.to_dict() == t.session.state.to_dict()
    assert buzzes_recorded == sum(a["action"] == "buzz" for a in journal)


@given(st.lists(st.tuples(st.integers(0, 5_000_000), st.integers(0, 9)), min_size=1,
                max_size=12))
@settings(max_examples=200, deadline=None)
def test_first_buzz_groups_the_first_millisecond(raw):
    buzzes = [Buzz(t, p) for t, p in raw]
    players, t0 = first_buzz(buzzes)
    assert t0 == min(t for t, _ in raw)
    within = {p for t, p in raw if t - t0 < TIE_NS}
    assert set(players) == within and len(players) == len(set(players))
    # Every buzz lands in exactly one race, races are in time order.
    rs = races(buzzes)
    assert [r[1] for r in rs] == sorted(r[1] for r in rs)
    assert rs[0] == (players, t0)


def test_lights_and_buzzer_mark_activation_win_and_mistake(table):
    seen: list[str] = []
    real = table.hw.alert
    table.hw.alert = lambda name: (seen.append(name), real(name))
    rules = table.session.rules
    card = table.session.state.draw_pile[0]
    table.turn(rules.deck.cards[card].id)
    table.push((2,))
    assert seen == ["mistake"]
    r = activating(rules, card)
    table.roll(r.black, r.white)
    assert seen == ["mistake", "activate"]
    table.push((0,))
    assert seen == ["mistake", "activate", "win"]
    table.push((1,))  # late: the cards are taken, no alert, nothing journaled
    assert seen == ["mistake", "activate", "win"]
    assert sum(a["action"] == "buzz" for a in _journal(table)) == 2


def test_docstring_examples():
    import doctest

    import farmbox.firmware.games.funfarm.session as module

    result = doctest.testmod(module)
    assert result.attempted >= 1 and result.failed == 0
