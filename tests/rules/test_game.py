"""A game: turns, one exchange per turn, wins, undo, serialisation, compact trades."""

import json

import pytest

from farmbox.firmware.rules.errors import IllegalAction, IllegalExchange, InvalidState
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, EventKind, Exchange
from farmbox.firmware.rules.superfarmer.dice import Roll
from farmbox.firmware.rules.superfarmer.game import Game, GameState, new_state
from farmbox.firmware.rules.superfarmer.herd import Animal, Herd


def R(text: str) -> Roll:
    return Roll.parse(text)


def E(text: str) -> Exchange:
    return Exchange.parse(text)


def game_with(farms: list[str], rules=CLASSIC, current: int = 0) -> Game:
    herds = tuple(Herd.parse(f) for f in farms)
    state = GameState(rules, herds, rules.stock_for(*herds), current=current,
                      turns=(0,) * len(herds))
    state.check()
    return Game(state=state)


def test_turn_order_and_counts():
    g = Game(3)
    for _ in range(4):
        g.roll(R("rabbit,rabbit"))
    s = g.state
    assert s.current == 1 and s.turns == (2, 1, 1)
    assert [str(f) for f in s.farms] == ["rabbit=2", "rabbit=1", "rabbit=1"]
    assert s.stock[Animal.RABBIT] == 56


def test_player_counts():
    with pytest.raises(IllegalAction, match="1-6 players"):
        Game(7)
    with pytest.raises(IllegalAction, match="2-6 players"):
        Game(1, COMPACT)
    g = Game(2, COMPACT)
    assert [str(f) for f in g.state.farms] == ["rabbit=1", "rabbit=1"]
    assert g.state.stock[Animal.RABBIT] == 58


def test_one_exchange_per_turn():
    g = game_with(["rabbit=12"])
    g.exchange(E("rabbit=6->sheep=1"))
    with pytest.raises(IllegalExchange, match="one exchange per turn"):
        g.exchange(E("rabbit=6->small_dog=1"))
    assert g.legal_exchanges() == []
    g.roll(R("pig,pig"))
    assert g.state.farm == Herd.parse("rabbit=6,sheep=1,pig=1")
    assert g.legal_exchanges()  # a new turn allows a new exchange
    g.exchange(E("rabbit=6->small_dog=1"))


def test_win_after_exchange_counts_the_turn():
    g = game_with(["horse=2", ""])
    events = g.exchange(E("horse=1->cow=1,pig=1,sheep=1,rabbit=18"))
    assert [e.kind for e in events] == [EventKind.EXCHANGED, EventKind.WON]
    s = g.state
    assert s.over and s.winner == 0 and s.turns == (1, 0)
    with pytest.raises(IllegalAction, match="over"):
        g.roll(R("rabbit,rabbit"))


def test_win_after_roll():
    g = game_with(["sheep=1,pig=1,cow=1,horse=1"])
    result = g.roll(R("rabbit,rabbit"))
    assert result.won and g.state.over and g.state.winner == 0 and g.state.turns == (1,)


def test_undo_restores_exactly():
    g = game_with(["rabbit=12"])
    before = g.state
    g.exchange(E("rabbit=6->sheep=1"))
    after_exchange = g.state
    g.roll(R("wolf,fox"))
    assert g.state.farm.is_empty()
    assert g.undo() == after_exchange
    assert g.undo() == before
    assert not g.can_undo
    with pytest.raises(IllegalAction, match="nothing to undo"):
        g.undo()
    g.exchange(E("rabbit=6->small_dog=1"))  # a different exchange is allowed again
    assert g.state.farm == Herd.parse("rabbit=6,small_dog=1")


def test_round_trip_through_json():
    g = game_with(["rabbit=7,sheep=2", "pig=1"], COMPACT.with_options(play_on=False))
    g.exchange(E("rabbit=6->small_dog=1"))
    g.roll(R("sheep,fox"))
    d = json.loads(json.dumps(g.state.to_dict()))
    back = GameState.from_dict(d)
    assert back == g.state
    assert back.rules.play_on is False and back.rules.wolf_spares == COMPACT.wolf_spares
    assert back.last_events == g.state.last_events
    assert GameState.from_dict(new_state(4).to_dict()) == new_state(4)


@pytest.mark.parametrize("corrupt,fragment", [
    (lambda d: d.pop("farms"), "missing 'farms'"),
    (lambda d: d.update(farms=["rabbit=many"]), "bad saved game"),
    (lambda d: d.update(farms=["rabbit=61"]), "main herd"),
    (lambda d: d.update(stock="rabbit=1"), "expected"),
    (lambda d: d.update(current=5), "out of range"),
    (lambda d: d.update(current="x"), "bad saved game"),
    (lambda d: d.update(variant="chess"), "unknown variant"),
    (lambda d: d.update(last_roll="fox,wolf"), "bad saved game"),
    (lambda d: d.update(last_events=[{"kind": "teleported"}]), "bad saved game"),
    (lambda d: d.update(turns=[1]), "turns for 1 players"),
    (lambda d: d.update(places=[0, 0]), "bad places"),
    (lambda d: d["options"].update(wolf_spares=["dragon"]), "unknown animal"),
    (lambda d: d.update(options=None), "bad saved game"),
])
def test_corrupt_dict_is_invalid_state(corrupt, fragment):
    g = game_with(["rabbit=7", "pig=1"])
    g.roll(R("rabbit,sheep"))
    d = g.state.to_dict()
    corrupt(d)
    with pytest.raises(InvalidState) as info:
        GameState.from_dict(d)
    assert fragment in str(info.value)


def test_compact_exchange_with_a_consenting_player():
    g = game_with(["rabbit=7", "sheep=2", "pig=1"], COMPACT)
    ex = E("rabbit=6->sheep=1")
    with pytest.raises(IllegalExchange, match="did not agree"):
        g.exchange(ex, partner=1)
    with pytest.raises(IllegalExchange, match="no such partner"):
        g.exchange(ex, partner=0, consent=True)
    with pytest.raises(IllegalExchange, match="other side does not hold"):
        g.exchange(E("rabbit=6->small_dog=1"), partner=1, consent=True)
    assert {str(e) for e in g.legal_exchanges(partner=1)} == {"rabbit=6->sheep=1"}
    g.exchange(ex, partner=1, consent=True)
    s = g.state
    assert [str(f) for f in s.farms] == ["rabbit=1,sheep=1", "rabbit=6,sheep=1", "pig=1"]
    assert s.stock == COMPACT.stock_for(*s.farms)
    with pytest.raises(IllegalExchange, match="one exchange per turn"):
        g.exchange(ex, partner=2, consent=True)


def test_classic_has_no_player_exchanges():
    g = game_with(["rabbit=7", "sheep=2"])
    with pytest.raises(IllegalExchange, match="main herd only"):
        g.exchange(E("rabbit=6->sheep=1"), partner=1, consent=True)


def test_play_on_for_places():
    g = game_with(["sheep=1,pig=1,cow=1,horse=1", "sheep=1,pig=1,cow=1,horse=1", "rabbit=2"],
                  COMPACT)
    g.roll(R("rabbit,rabbit"))
    s = g.state
    assert s.places == (0,) and not s.over and s.current == 1
    g.roll(R("rabbit,rabbit"))
    s = g.state
    # Two of three finished: the last farmer takes third place and the game ends.
    assert s.over and s.places == (0, 1, 2)
    classic = game_with(["sheep=1,pig=1,cow=1,horse=1", "rabbit=2"])
    classic.roll(R("rabbit,rabbit"))
    assert classic.state.over and classic.state.places == (0,)


def test_play_on_skips_finished_players():
    g = game_with(["sheep=1,pig=1,cow=1,horse=1", "rabbit=1", "rabbit=1", "rabbit=1"], COMPACT)
    g.roll(R("rabbit,rabbit"))
    for expected in (1, 2, 3, 1, 2):
        assert g.state.current == expected
        g.roll(R("sheep,pig"))
    assert g.state.turns == (1, 2, 2, 1)


def test_a_trade_can_complete_the_partner():
    g = game_with(["rabbit=6", "sheep=1,pig=1,cow=1,horse=1,small_dog=1", "rabbit=1"], COMPACT)
    g.exchange(E("rabbit=6->small_dog=1"), partner=1, consent=True)
    s = g.state
    assert s.places == (1,) and not s.over
