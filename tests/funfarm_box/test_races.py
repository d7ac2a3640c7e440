"""Issue 10 on the box: one race per animal, the race closing on the box's clock, buzzes
held while the roll is being read or entered, and every action journaled and published."""

from __future__ import annotations

import json
import time

from farmbox.firmware.box.i18n import translator
from farmbox.firmware.games.funfarm.screens import verdict_text
from farmbox.firmware.games.funfarm.session import Entry
from farmbox.firmware.rules.funfarm import Escaped, EventKind, FunFarmRules, Phase
from farmbox.hw.buttons import ButtonEvent

from .conftest import Clock, activating, missing, open_table, two_animals


def _journal(table) -> list[dict]:
    return [json.loads(line)["action"] for line in
            (table.journal_dir / "funfarm.jsonl").read_text().splitlines()]


def _buzzes(table) -> list[list[int]]:
    return [a["players"] for a in _journal(table) if a["action"] == "buzz"]


def _two_animals_activated(t) -> tuple[int, int]:
    """Turn two cards of different animals, then roll what activates both."""
    rules = t.session.rules
    a, b, r = two_animals(rules, t.session.state.draw_pile)
    t.turn(rules.deck.cards[a].id)
    miss = missing(rules, (a,))
    t.roll(miss.black, miss.white)          # nothing on: the card stays in the circle
    t.turn(rules.deck.cards[b].id)
    t.roll(r.black, r.white)
    assert set(t.session.state.uncaught) == {a, b}
    return a, b


def test_each_animal_is_its_own_race_on_the_buzzers(table):
    """Player 3 buzzes first and takes the animal turned earlier; player 1, 3 ms later,
    takes the other one (the old rule gave player 3 both)."""
    a, b = _two_animals_activated(table)
    before = len(table.downs())
    table.push((2,), (0,))
    s = table.session.state
    assert s.piles[2] == (a,) and s.piles[0] == (b,) and s.uncaught == ()
    assert _buzzes(table) == [[2], [0]]
    d2, d0 = table.downs()[before:before + 2]
    takes = table.session.takes
    assert [tk.players for tk in takes] == [(2,), (0,)]
    assert takes[0].lead_ms == (d0.t_ns - d2.t_ns) // 1_000_000   # by how many ms
    assert takes[1].lead_ms is None                               # nobody after player 1
    assert verdict_text(table.session.verdict, translator("en"))[0].startswith("P1 TAKES 1")


def test_the_same_player_may_buzz_again_with_the_other_hand(table):
    a, b = _two_animals_activated(table)
    t0 = time.monotonic_ns()
    for dt in (0, 40_000_000):  # the same buzzer pushed twice, 40 ms apart
        table.hw.buttons.events.put(ButtonEvent("player2", "down", t0 + dt))
    table.settle()
    assert table.session.state.piles[1] == (a, b)
    assert _buzzes(table) == [[1], [1]]


def test_all_gives_the_whole_round_to_the_first_buzz(tmp_path, pins):
    from farmbox.firmware.rules.funfarm import BuzzTakes

    t = open_table(tmp_path / "j", 3, rules=FunFarmRules(buzz_takes=BuzzTakes.ALL))
    try:
        a, b = _two_animals_activated(t)
        t.push((2,), (0,))
        assert set(t.session.state.piles[2]) == {a, b} and t.session.state.piles[0] == ()
        assert _buzzes(t) == [[2]]
    finally:
        t.referee.close()
        t.hw.close()


def test_the_race_closes_on_the_box_clock_and_uncaught_cards_escape(tmp_path, pins):
    clock = Clock()
    t = open_table(tmp_path / "j", 3, clock=clock, race_time=8.0)
    try:
        a, b = _two_animals_activated(t)
        t.push((1,))                      # one animal taken, the other still running
        assert t.session.state.uncaught == (b,)
        clock.now += 7.9
        t.referee.step(timeout=0)
        assert t.session.state.uncaught == (b,) and "close" not in [x["action"] for x in _journal(t)]
        clock.now += 0.2
        t.referee.step(timeout=0)
        s = t.session.state
        assert _journal(t)[-1] == {"action": "close"}
        assert s.escaped == (b,) and b not in s.circle and s.uncaught == ()
        assert t.session.verdict.kinds == {EventKind.CAUGHT}   # the take stays up
        t.push((0,))                      # after the close: late, no penalty, not journaled
        assert t.session.state == s and _journal(t)[-1] == {"action": "close"}
        seq = t.referee.journal.seq
    finally:
        t.referee.close()
        t.hw.close()
    again = open_table(tmp_path / "j", 3)  # a power cut: the replay is exact
    try:
        assert again.session.state == s and again.referee.journal.seq == seq
        assert again.session.race_time == 8.0
    finally:
        again.referee.close()
        again.hw.close()


def test_escaped_stay_keeps_the_closed_race_cards_in_the_circle(tmp_path, pins):
    clock = Clock()
    t = open_table(tmp_path / "j", 3, clock=clock,
                   rules=FunFarmRules(escaped=Escaped.STAY))
    try:
        a, b = _two_animals_activated(t)
        clock.now += 9
        t.referee.step(timeout=0)
        s = t.session.state
        assert s.escaped == () and {a, b} <= set(s.circle) and s.uncaught == ()
    finally:
        t.referee.close()
        t.hw.close()


def test_a_buzz_while_the_farmer_enters_the_dice_is_held_not_a_false_start(tmp_path, pins):
    """By hand: a buzz before colour entry opens is a false start; once it is open (the
    throw), a buzz is held, stamped and judged when the Farmer has entered the roll."""
    t = open_table(tmp_path / "j", 3, camera=False)
    try:
        s = t.session
        t.button("farmer")                          # card entry
        t.hw.buttons.hold("farmer")                 # pick the first card
        t.settle()
        card = s.state.circle[0]
        t.push((0,))                                # before the throw: a false start
        assert s.verdict.kinds == {EventKind.FALSE_START, EventKind.NO_PENALTY}
        t.button("farmer")                          # colour entry opens: the throw
        assert s.entry is Entry.BLACK
        t.push((2,))                                # held
        assert s.state.phase is Phase.ROLL and s.state.scores == (0, 0, 0)
        assert [b.player for b in s.held] == [2] and _buzzes(t) == [[0]]
        want = activating(s.rules, card)
        deck = s.rules.deck
        while deck.black_faces[s.black] != want.black:
            t.button("next")
        t.button("ok")
        while deck.white_faces[s.white] != want.white:
            t.button("next")
        t.button("ok")                              # the roll is known: the held buzz wins
        assert s.state.piles[2] == (card,) and _buzzes(t) == [[0], [2]]
        assert s.takes[0].players == (2,) and s.takes[0].reaction_ms is not None
    finally:
        t.referee.close()
        t.hw.close()


def test_a_buzz_while_the_dice_roll_is_held_on_the_camera_path(table):
    rules = table.session.rules
    card = table.session.state.draw_pile[0]
    table.turn(rules.deck.cards[card].id)
    table.referee.inbox.put(table_moving())
    table.settle()
    table.push((1,))                                # after the dice moved: held
    assert table.session.state.scores == (0, 0, 0) and not _buzzes(table)
    r = activating(rules, card)
    table.referee.inbox.put(still(r.black, r.white))
    table.settle()
    assert table.session.state.piles[1] == (card,) and _buzzes(table) == [[1]]


def table_moving():
    from farmbox.firmware.box.observations import DiceSeen

    return DiceSeen(None, None, t_ns=time.monotonic_ns())


def still(black: str, white: str):
    from farmbox.firmware.box.observations import DiceSeen

    return DiceSeen(black, white, t_ns=time.monotonic_ns())


def test_every_journaled_action_is_published_with_its_seq_and_state(table):
    seen = []
    table.referee.events.subscribe(seen.append)
    a, b = _two_animals_activated(table)
    table.push((0,))
    journal = [json.loads(x) for x in
               (table.journal_dir / "funfarm.jsonl").read_text().splitlines()]
    # Each step that journaled is followed by "settled" (the session has taken it in).
    assert {e.kind for e in seen} == {"action", "settled"} and seen[-1].kind == "settled"
    seen = [e for e in seen if e.kind == "action"]
    assert [(e.seq, e.data["action"], e.data["state"]) for e in seen] == \
        [(r["seq"], r["action"], r["state"]) for r in journal[-len(seen):]]
    assert seen[-1].data["action"]["action"] == "buzz"


def test_the_new_game_record_carries_the_options_and_the_deck(tmp_path, pins):
    from farmbox.firmware.rules.funfarm import BuzzTakes, TieRule, deck_as_data

    rules = FunFarmRules(tie=TieRule.DEAL, buzz_takes=BuzzTakes.ALL, escaped=Escaped.STAY)
    t = open_table(tmp_path / "j", 2, rules=rules, race_time=5.0)
    try:
        first = _journal(t)[0]
        assert (first["tie"], first["buzz_takes"], first["escaped"], first["race_time"]) == \
            ("deal", "all", "stay", 5.0)
        assert first["deck_data"] == deck_as_data(rules.deck)
    finally:
        t.referee.close()
        t.hw.close()
    again = open_table(tmp_path / "j", 2)   # other settings: the journal's rules win
    try:
        assert again.session.rules == rules and again.session.race_time == 5.0
    finally:
        again.referee.close()
        again.hw.close()
