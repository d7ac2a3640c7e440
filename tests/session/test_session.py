"""The Super Farmer session state machine, driven by button names and observations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.box.observations import RollSeen
from farmbox.firmware.games.superfarmer.advice import offers
from farmbox.firmware.games.superfarmer.session import CAMERA_TIMEOUT, GREEN_FACES, RED_FACES, Phase, Session
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT, legal_exchanges
from farmbox.firmware.rules.superfarmer.dice import Face, Roll
from farmbox.firmware.rules.superfarmer.game import Game, GameState
from farmbox.firmware.rules.superfarmer.herd import Herd


def make(players=2, rules=CLASSIC, state=None, camera=False):
    log: list[tuple[dict, GameState]] = []
    s = Session(players, rules, lambda a, st_: log.append((a, st_)), camera=camera, state=state)
    return s, log


def enter_roll(s: Session, roll: Roll) -> None:
    s.press("ok")
    assert s.phase is Phase.GREEN
    for _ in range(GREEN_FACES.index(roll.green)):
        s.press("next")
    s.press("ok")
    assert s.phase is Phase.RED
    for _ in range(RED_FACES.index(roll.red)):
        s.press("next")
    s.press("ok")


def state_with(farm: str, rules=CLASSIC, other: str = "") -> GameState:
    farms = (Herd.parse(farm), Herd.parse(other))
    return GameState(rules, farms, rules.stock_for(*farms), turns=(0, 0))


def test_manual_roll_settles_and_passes_the_turn():
    s, log = make()
    enter_roll(s, Roll(Face.RABBIT, Face.RABBIT))
    assert s.phase is Phase.RESULT
    assert str(s.state.farms[0]) == "rabbit=1" and s.state.current == 1
    assert log[-1][0] == {"action": "roll", "roll": "rabbit,rabbit", "source": "buttons"}
    s.press("ok")
    assert s.phase is Phase.FARM


def test_back_leaves_roll_entry_without_settling():
    s, log = make()
    s.press("ok"); s.press("next"); s.press("back"); s.press("back")
    assert s.phase is Phase.FARM and not log


def test_exchange_menu_holds_only_legal_exchanges_advice_first():
    from farmbox.firmware.games.superfarmer.advice import prepare
    from farmbox.firmware.rules.superfarmer.strategies import STRATEGIES

    assert prepare(CLASSIC, wait=True)
    st_ = state_with("rabbit=13,sheep=1")
    pick = STRATEGIES["advisor"].choose(st_.farm, st_.stock, CLASSIC, (st_.farms[1],))
    s, log = make(state=st_)
    s.press("next")
    assert s.phase is Phase.TRADE
    legal = {str(e) for e in legal_exchanges(st_.farm, st_.stock)}
    assert {str(o.exchange) for o in s.menu} == legal
    advised = [o for o in s.menu if o.advised]
    assert pick is not None and advised == [s.menu[0]] and s.menu[0].exchange == pick
    s.press("next"); s.press("prev")
    assert s.cursor == 0
    s.press("ok")
    assert log[-1][0]["action"] == "exchange"
    assert s.state.exchanged and s.phase is Phase.FARM
    s.press("next")  # one exchange per turn: no menu any more
    assert s.phase is Phase.STOCK


def test_the_exchange_applied_is_the_one_shown():
    st_ = state_with("rabbit=13,sheep=1")
    s, _ = make(state=st_)
    s.press("next"); s.press("next"); s.press("next")
    chosen = s.menu[s.cursor].exchange
    s.press("ok")
    expected = Game(state=st_)
    expected.exchange(chosen)
    assert s.state == expected.state


def test_journal_commit_happens_before_the_state_changes():
    seen = []
    s = Session(2, CLASSIC, lambda a, st_: seen.append((s.state.turns, st_.turns)))
    s.roll_seen(RollSeen(None, 0, "motion"), 0.0)
    s.roll_seen(RollSeen((Face.SHEEP, Face.SHEEP), 0.99), 0.1)
    assert seen == [((0, 0), (1, 0))]


def test_commit_failure_changes_nothing():
    def boom(action, state):
        raise OSError("disk full")
    s = Session(2, CLASSIC, boom)
    before = s.state
    with pytest.raises(OSError):
        enter_roll(s, Roll(Face.RABBIT, Face.RABBIT))
    assert s.state is before


def test_camera_roll_needs_motion_and_never_settles_twice():
    s, log = make(camera=True)
    still = RollSeen((Face.RABBIT, Face.RABBIT), 0.99, "ok")
    s.roll_seen(still, 0.0)
    assert not log  # no motion seen yet: these dice may be an old roll
    s.roll_seen(RollSeen(None, 0.0, "motion"), 0.1)
    s.roll_seen(still, 0.2)
    s.roll_seen(still, 0.3)
    s.roll_seen(still, 0.4)
    assert [a["action"] for a, _ in log] == ["roll"]
    assert sum(s.state.turns) == 1
    s.roll_seen(RollSeen(None, 0.0, "motion"), 0.5)
    s.roll_seen(still, 0.6)
    assert sum(s.state.turns) == 2


def test_unsure_reading_asks_for_confirmation():
    s, log = make(camera=True)
    s.roll_seen(RollSeen(None, 0.0, "motion"), 0.0)
    s.roll_seen(RollSeen((Face.PIG, Face.HORSE), 0.6, "ok"), 0.1)
    assert s.phase is Phase.CONFIRM and not log
    s.press("ok")
    assert log[-1][0]["roll"] == "pig,horse" and s.phase is Phase.RESULT


def test_unsure_reading_can_be_fixed_on_the_buttons():
    s, log = make(camera=True)
    s.roll_seen(RollSeen(None, 0.0, "motion"), 0.0)
    s.roll_seen(RollSeen((Face.PIG, Face.HORSE), 0.6, "ok"), 0.1)
    s.press("next")
    assert s.phase is Phase.GREEN and s.selected_faces == (Face.PIG, Face.HORSE)
    s.press("ok"); s.press("next"); s.press("ok")
    assert log[-1][0]["roll"] == f"pig,{RED_FACES[(RED_FACES.index(Face.HORSE) + 1) % 5].value}"


def test_hold_undoes_and_is_journaled():
    s, log = make()
    enter_roll(s, Roll(Face.SHEEP, Face.SHEEP))
    after = s.state
    s.hold("back")
    assert log[-1][0] == {"action": "undo"} and s.state.turns == (0, 0)
    assert log[-1][1] == s.state and after != s.state
    s.hold("back")  # nothing left to undo: a mistake beep, no record
    assert len(log) == 2 and "mistake" in s.take_alerts()


def test_predators_raise_their_own_alerts():
    for farm, roll, alert in (("rabbit=5", "rabbit,fox", "fox"),
                              ("rabbit=5,sheep=2", "wolf,rabbit", "wolf"),
                              ("rabbit=5,big_dog=1", "wolf,rabbit", "dog"),
                              ("rabbit=5,small_dog=1", "rabbit,fox", "dog")):
        s, _ = make(state=state_with(farm))
        enter_roll(s, Roll.parse(roll))
        assert s.take_alerts() == [alert], (farm, roll)


def test_winner_screen_and_new_game():
    # The first horse comes only by exchange: two cows buy it and complete the farm.
    st_ = state_with("rabbit=2,sheep=1,pig=1,cow=3", CLASSIC)
    s, log = make(state=st_)
    s.press("next")
    target = next(i for i, o in enumerate(s.menu) if str(o.exchange) == "cow=2->horse=1")
    for _ in range(target):
        s.press("next")
    s.press("ok")
    assert s.phase is Phase.WINNER and s.state.over and s.state.winner == 0
    assert "win" in s.take_alerts()
    s.press("next")
    assert s.phase is Phase.WINNER  # only ok leads on
    s.press("ok"); s.press("back")
    assert s.phase is Phase.WINNER
    s.press("ok"); s.press("ok")
    assert log[-1][0]["action"] == "new_game" and s.phase is Phase.FARM
    assert s.state.farms == (Herd(), Herd()) and not s.can_undo


def test_compact_partner_exchange_waits_for_the_partners_ok():
    st_ = state_with("rabbit=8,sheep=1", COMPACT, "rabbit=1,pig=2")
    s, log = make(rules=COMPACT, state=st_)
    s.press("next")
    i = next(i for i, o in enumerate(s.menu) if o.partner == 1)
    for _ in range(i):
        s.press("next")
    s.press("ok")
    assert s.phase is Phase.CONSENT and not log
    s.press("back")
    assert s.phase is Phase.TRADE and not log
    s.press("ok"); s.press("ok")
    assert log[-1][0]["partner"] == 1
    assert s.state.farms[1] != st_.farms[1]


def test_compact_plays_on_for_places():
    farms = (Herd.parse("rabbit=1,sheep=1,pig=1,cow=3"), Herd.parse("rabbit=3"),
             Herd.parse("rabbit=2"))
    s, _ = make(3, COMPACT, GameState(COMPACT, farms, COMPACT.stock_for(*farms),
                                      turns=(0, 0, 0)))
    s.press("next")
    target = next(i for i, o in enumerate(s.menu) if str(o.exchange) == "cow=2->horse=1"
                  and o.partner is None)
    for _ in range(target):
        s.press("next")
    s.press("ok")
    assert s.phase is Phase.WINNER and not s.state.over and s.state.places == (0,)
    s.press("next")
    assert s.phase is Phase.FARM and s.state.current == 1


def test_camera_gone_alert_within_two_seconds_and_buttons_still_work():
    s, log = make(camera=True)
    s.frame_seen(10.0)
    s.tick(10.0 + CAMERA_TIMEOUT - 0.1)
    assert s.camera_ok and s.notice is None
    s.tick(10.0 + CAMERA_TIMEOUT + 0.1)  # < 2 s after the last frame
    assert not s.camera_ok and s.notice is not None and s.notice.kind == "camera_gone"
    assert "error" in s.take_alerts()
    s.press("ok")  # dismisses the notice
    enter_roll(s, Roll(Face.RABBIT, Face.RABBIT))
    assert log[-1][0]["source"] == "buttons"
    s.frame_seen(20.0)
    assert s.camera_ok
    s.roll_seen(RollSeen(None, 0, "motion"), 20.1)
    s.roll_seen(RollSeen((Face.SHEEP, Face.PIG), 0.95), 20.2)
    assert log[-1][0] == {"action": "roll", "roll": "sheep,pig", "source": "camera"}


def test_notices_expire():
    s, _ = make()
    s.report("journal", "1/5", 3.0)
    s.tick(4.0)
    assert s.notice is not None
    s.tick(8.0)
    assert s.notice is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["prev", "next", "ok", "back", "hold"]),
                          st.tuples(st.sampled_from(list(Face)), st.sampled_from(list(Face)),
                                    st.floats(0, 1))), max_size=80))
def test_any_input_keeps_the_books_balanced(inputs):
    log: list = []
    s = Session(2, COMPACT, lambda a, st_: log.append((a, st_)), camera=True)
    t = 0.0
    for item in inputs:
        t += 0.1
        if item == "hold":
            s.hold("ok", t)
        elif isinstance(item, str):
            s.press(item, t)
        else:
            g, r, c = item
            s.roll_seen(RollSeen(None, 0, "motion"), t)
            try:
                faces = Roll(g, r)
            except ValueError:
                continue
            s.roll_seen(RollSeen((faces.green, faces.red), c), t)
        s.state.check()
        if log:
            assert log[-1][1] == s.state  # what is on disk is what is shown
    # Replaying the records through the rules engine gives the same game.
    from farmbox.firmware.games.superfarmer.actions import Timeline
    from farmbox.firmware.rules.superfarmer.game import new_state
    tl = Timeline(new_state(2, COMPACT))
    for action, state in log:
        tl.apply(action, tl.preview(action))
        assert tl.state == state


def test_offers_are_all_legal_for_a_busy_farm():
    st_ = state_with("rabbit=20,sheep=4,pig=2,cow=1,small_dog=1")
    menu = offers(st_)
    assert menu and all(st_.farm.covers(o.exchange.gives) and st_.stock.covers(o.exchange.takes)
                        for o in menu)


def test_result_screen_names_the_farm_that_rolled():
    from farmbox.firmware.box.i18n import translator
    from farmbox.firmware.games.superfarmer.render import render
    from farmbox.firmware.games.superfarmer.screens import roll_result

    farms = (Herd.parse("rabbit=1,sheep=1,pig=1,cow=1,horse=1"), Herd.parse("rabbit=2"),
             Herd.parse("rabbit=3"))
    st_ = GameState(COMPACT, farms, COMPACT.stock_for(*farms), current=2, places=(0,),
                    turns=(5, 5, 4))
    s, _ = make(3, COMPACT, st_)
    s.press("ok")  # winner screen -> play on
    enter_roll(s, Roll(Face.RABBIT, Face.SHEEP))
    assert s.rolled_by == 2 and s.state.current == 1  # farm 1 (index 0) has finished
    assert render(s).tobytes() == roll_result(s.state, translator("en"), 2).tobytes()
