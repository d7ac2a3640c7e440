"""Property tests: over random games, every card is always somewhere exactly once."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.rules.funfarm import (
    Animal,
    EventKind,
    FunFarmRules,
    Phase,
    TieRule,
    buzz,
    catch,
    draw,
    end_round,
    new_game,
    random_roll,
    roll,
)

RULES = {t: FunFarmRules(tie=t) for t in TieRule}


def play(seed: int, players: int, buzzer: bool, tie: TieRule, mistakes: float):
    """A whole game with random players; yields every state."""
    rules = RULES[tie]
    rng = random.Random(seed)          # the engine's RNG
    table = random.Random(seed + 1)    # the players and the dice
    s = new_game(players, rules, rng, farmer=table.randrange(players))
    yield s, ()
    for _ in range(5000):
        if s.over:
            return
        t = draw(s, rules)
        yield t.state, t.events
        s = t.state
        if table.random() < mistakes:  # a false start / a grab before the roll
            who = table.choice(s.contenders)
            t = buzz(s, rules, [who], rng) if buzzer else catch(s, rules, who, table.choice(list(Animal)), rng)
            yield t.state, t.events
            s = t.state
        t = roll(s, rules, random_roll(rules, table))
        yield t.state, t.events
        s = t.state
        for _ in range(table.randrange(4)):
            if buzzer:
                k = 1 if table.random() > 0.2 else min(2, len(s.contenders))
                t = buzz(s, rules, table.sample(s.contenders, k), rng)
            else:
                wanted = [rules.deck.cards[c].animal for c in s.uncaught]
                animal = table.choice(wanted) if wanted and table.random() > mistakes else table.choice(list(Animal))
                t = catch(s, rules, table.choice(s.contenders), animal, rng)
            yield t.state, t.events
            s = t.state
        if s.phase is Phase.ROLL:  # a tie was re-rolled
            t = roll(s, rules, random_roll(rules, table))
            yield t.state, t.events
            s = t.state
        t = end_round(s, rules, rng)
        yield t.state, t.events
        s = t.state
    raise AssertionError("game did not end")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), buzzer=st.booleans(),
       tie=st.sampled_from(list(TieRule)), mistakes=st.floats(0, 0.6))
def test_cards_are_conserved_and_games_end_with_one_leader(seed, players, buzzer, tie, mistakes):
    last = None
    draws = 0
    for s, events in play(seed, players, buzzer, tie, mistakes):
        s.check(24)                      # deck + circle + piles = each of the 24 cards once
        assert s.cards_total() == 24
        draws += sum(e.kind is EventKind.DRAWN for e in events)
        last = s
    assert last.over and last.winner in last.contenders
    best = last.scores[last.winner]
    assert all(last.scores[p] < best for p in last.contenders if p != last.winner)
    if last.tiebreaks == 0:
        assert draws == 24 and best == max(last.scores)
