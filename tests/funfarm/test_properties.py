"""Property tests: over random games, every card is always somewhere exactly once (caught,
in the circle, escaped or still in the draw pile), under every option."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.rules.funfarm import (
    Animal,
    BuzzTakes,
    Escaped,
    EventKind,
    FunFarmRules,
    Phase,
    TieRule,
    buzz,
    catch,
    close_race,
    draw,
    end_round,
    new_game,
    random_roll,
    roll,
)

RULES = {(t, b, e): FunFarmRules(tie=t, buzz_takes=b, escaped=e)
         for t in TieRule for b in BuzzTakes for e in Escaped}


def play(seed: int, players: int, buzzer: bool, tie: TieRule, mistakes: float,
         takes: BuzzTakes = BuzzTakes.ONE_ANIMAL, escaped: Escaped = Escaped.LEAVE):
    """A whole game with random players; yields every state."""
    rules = RULES[tie, takes, escaped]
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
        if buzzer and table.random() < 0.3:  # the race's time ran out
            t = close_race(s, rules)
            yield t.state, t.events
            s = t.state
        t = end_round(s, rules, rng)
        yield t.state, t.events
        s = t.state
    raise AssertionError("game did not end")


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), buzzer=st.booleans(),
       tie=st.sampled_from(list(TieRule)), mistakes=st.floats(0, 0.6),
       takes=st.sampled_from(list(BuzzTakes)), escaped=st.sampled_from(list(Escaped)))
def test_cards_are_conserved_and_games_end_with_one_leader(seed, players, buzzer, tie, mistakes,
                                                          takes, escaped):
    last = None
    draws = 0
    gone: set[int] = set()
    for s, events in play(seed, players, buzzer, tie, mistakes, takes, escaped):
        s.check(24)           # caught + circle + escaped + draw pile = each of the 24 once
        assert s.cards_total() == 24
        assert len(s.draw_pile) + len(s.circle) + sum(s.scores) + len(s.escaped) == 24
        assert gone <= set(s.escaped)    # an escaped card never comes back
        gone = set(s.escaped)
        if escaped is Escaped.STAY:
            assert not s.escaped
        draws += sum(e.kind is EventKind.DRAWN for e in events)
        for e in events:
            if e.kind is EventKind.CAUGHT and takes is BuzzTakes.ONE_ANIMAL and buzzer:
                assert len({RULES[tie, takes, escaped].deck.cards[c].animal for c in e.cards}) == 1
        last = s
    assert last.over
    if last.winner is None:  # shared: nothing was left to decide a tie-break with
        assert not last.circle and not last.draw_pile and len(last.contenders) >= 2
        assert len({last.scores[p] for p in last.contenders}) == 1
        return
    assert last.winner in last.contenders
    best = last.scores[last.winner]
    assert all(last.scores[p] < best for p in last.contenders if p != last.winner)
    if last.tiebreaks == 0:
        assert draws == 24 and best == max(last.scores)
    else:  # the real totals: the winner was level with the other tied players at the top
        assert last.totals[last.winner] == max(last.totals)
