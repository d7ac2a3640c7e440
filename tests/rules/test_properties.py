"""Invariants over long random games in every variant (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.rules.superfarmer import (
    VARIANTS,
    IllegalExchange,
    apply_exchange,
    legal_exchanges,
    settle,
)
from farmbox.firmware.rules.superfarmer.dice import ALL_ROLLS
from farmbox.firmware.rules.superfarmer.game import Game
from farmbox.firmware.rules.superfarmer.herd import Animal, Herd

VARIANT_NAMES = sorted(VARIANTS)


def assert_conserved(game: Game) -> None:
    s = game.state
    total = s.stock
    for farm in s.farms:
        assert min(farm.counts) >= 0
        total = total + farm
    assert min(s.stock.counts) >= 0
    # Per species, farms + main herd hold the full set (128 tokens).
    assert total == s.rules.herd_sizes
    assert total.size == 128


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(VARIANT_NAMES),
       players=st.integers(1, 6), trade_bias=st.floats(0.0, 1.0))
def test_long_random_games_conserve_tokens(seed, name, players, trade_bias):
    rules = VARIANTS[name].with_options(play_on=True) if name == "classic" else VARIANTS[name]
    players = max(players, rules.min_players)
    rng = random.Random(seed)
    game = Game(players, rules)
    assert_conserved(game)
    for _ in range(150):
        if game.state.over:
            break
        s = game.state
        if rng.random() < trade_bias:
            partner = None
            if rules.player_exchanges and rng.random() < 0.3:
                others = [p for p in range(s.players) if p != s.current and p not in s.places]
                partner = rng.choice(others) if others else None
            options = game.legal_exchanges(partner)
            if options:
                ex = rng.choice(options)
                value_before = s.farm.value
                partner_value = s.farms[partner].value if partner is not None else None
                game.exchange(ex, partner=partner, consent=True)
                assert ex.gives.value == ex.takes.value
                assert game.state.farms[s.current].value == value_before
                if partner is not None:
                    assert game.state.farms[partner].value == partner_value
                assert_conserved(game)
                if game.state.over:
                    break
        game.roll(rng.choice(ALL_ROLLS))
        assert_conserved(game)
    s = game.state
    assert sum(s.turns) >= 1


herds = st.tuples(*(st.integers(0, n) for n in (60, 24, 20, 12, 6, 4, 2))).map(Herd)


@settings(max_examples=150, deadline=None)
@given(farm=herds, name=st.sampled_from(VARIANT_NAMES), roll=st.sampled_from(sorted(set(ALL_ROLLS), key=str)))
def test_settle_conserves_and_never_goes_negative(farm, name, roll):
    rules = VARIANTS[name]
    stock = rules.herd_sizes - farm
    result = settle(farm, stock, roll, rules)
    assert result.farm + result.stock == rules.herd_sizes
    assert result.won == result.farm.is_complete()


@settings(max_examples=60, deadline=None)
@given(farm=herds, data=st.data())
def test_every_listed_exchange_keeps_value(farm, data):
    stock = Herd((60, 24, 20, 12, 6, 4, 2)) - farm
    options = legal_exchanges(farm, stock)
    if not options:
        # Nothing listed: then not even the simplest trades were possible.
        assert not (farm[Animal.SHEEP] and stock[Animal.RABBIT] >= 6)
        assert not (farm[Animal.RABBIT] >= 6 and stock[Animal.SHEEP])
        return
    ex = data.draw(st.sampled_from(options))
    f, s = apply_exchange(farm, stock, ex)
    assert f.value == farm.value and s.value == stock.value
    assert f + s == farm + stock
    assert (ex.gives.size == 1) or (ex.takes.size == 1)
    try:
        apply_exchange(f, s, ex.reversed())
    except IllegalExchange:  # pragma: no cover - the reverse is always possible
        raise AssertionError(f"cannot undo {ex}") from None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(VARIANT_NAMES),
       players=st.integers(1, 6), turns=st.integers(0, 60))
def test_legal_exchanges_lists_exactly_what_exchange_accepts(seed, name, players, turns):
    """issue 10, point 11: legal_exchanges(partner=...) lists only what exchange accepts."""
    rules = VARIANTS[name].with_options(play_on=True)
    players = max(players, rules.min_players)
    rng = random.Random(seed)
    game = Game(players, rules)
    for _ in range(turns):
        if game.state.over:
            break
        if rng.random() < 0.3:
            options = game.legal_exchanges()
            if options:
                game.exchange(rng.choice(options))
                if game.state.over:
                    break
        if rng.random() < 0.8:
            game.roll(rng.choice(ALL_ROLLS))
    s = game.state
    for partner in [None, -1, *range(s.players + 1)]:
        listed = game.legal_exchanges(partner)
        for ex in listed:
            trial = Game(state=s)
            trial.exchange(ex, partner=partner, consent=True)  # accepted: no exception
        if partner is not None and not listed and 0 <= partner < s.players:
            # Nothing listed: exchange refuses every trade the two farms could pay.
            for ex in legal_exchanges(s.farm, s.farms[partner])[:20]:
                try:
                    Game(state=s).exchange(ex, partner=partner, consent=True)
                except (IllegalExchange, ValueError):
                    continue
                raise AssertionError(f"{ex} with player {partner + 1} is accepted but not listed")
