"""Bots and tournaments: legal play, and the greedy bots outscore the random one."""

import random

import pytest

from farmbox.firmware.rules.cardgame import Animal, Card, Farm, Game, GameOptions, Placement, load_deck
from farmbox.firmware.rules.cardgame.bots import GreedyBot, SpoilerBot, best_gain, make_bot
from farmbox.firmware.rules.cardgame.tournament import Standings, lineup, tournament


def test_greedy_and_spoiler_beat_random():
    bots = ("greedy", "spoiler", "random")
    standings = Standings(lineup(3, bots))
    for seats, result in tournament(3, bots, games=30, seed=11):
        standings.record(seats, result)
    rates = {b["bot"]: b["win_rate"] for b in standings.as_dict()["bots"]}
    assert rates["random"] < rates["greedy"] and rates["random"] < rates["spoiler"]
    assert sum(standings.seat_wins) == pytest.approx(30)
    # rotating seats: every bot sat in every seat equally often
    assert set(standings.bot_seats.values()) == {30}


def test_greedy_takes_the_cabbage_points():
    game = Game(2, random.Random(0), GameOptions(), load_deck())
    farm = Farm()
    for i in range(2):
        farm, _ = farm.add(Card(Animal.SHEEP, cabbage=1, serial=800 + i))
    game.farms[0] = farm
    options = [Placement(Card(Animal.COW, serial=900)), Placement(Card(Animal.SHEEP, cabbage=1, serial=901))]
    assert GreedyBot().add(game, 0, options) == options[1]


def test_spoiler_gifts_the_leader_what_helps_them_least():
    game = Game(3, random.Random(0), GameOptions(), load_deck())
    game.farms[1], _ = Farm().add(Card(Animal.PIG, serial=801))
    game.farms[2], _ = Farm().add(Card(Animal.PIG, serial=802))
    game.scores = [0, 3, 9]
    pig, cow = Card(Animal.PIG, icons=2, serial=901), Card(Animal.COW, serial=902)
    card, to = SpoilerBot().gift(game, 0, [pig, cow], [1, 2])
    assert best_gain(game, to, card) == min(best_gain(game, f, c) for f in (1, 2) for c in (pig, cow))
    assert to == 2  # ties on gain go to the leader


def test_make_bot_refuses_unknown_names():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius", random.Random(0))
