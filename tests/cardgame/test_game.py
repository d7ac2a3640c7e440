"""Phase 1 turns, dealing, passing, gift limits, phase 2, the end of the game."""

import random

import pytest

from farmbox.firmware.rules.cardgame import (
    DEALS,
    GIFT_LIMITS,
    Animal,
    Card,
    CardGameError,
    Farm,
    Game,
    GameOptions,
    Placement,
    Predator,
    default_teams,
    load_deck,
    play_game,
)
from farmbox.firmware.rules.cardgame.bots import GreedyBot, RandomBot, SpoilerBot, make_bot
from farmbox.firmware.rules.cardgame.game import play_turn
from farmbox.firmware.rules.errors import IllegalAction

DECK = load_deck()


def new_game(players=4, seed=0, **options) -> Game:
    return Game(players, random.Random(seed), GameOptions(**options), DECK)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_hands_and_extra_decks(players):
    game = new_game(players)
    game.start_round()
    deal = DEALS[players]
    assert [len(h) for h in game.hands] == [deal.hand] * players
    assert [len(p) for p in game.waiting[0]] == [deal.extra[0]]
    if players >= 5:
        # the second extra deck lies by the fourth farmer
        assert [len(p) for p in game.waiting[3]] == [deal.extra[1]]
        assert game.fourth == 3
    assert sum(len(q) for q in game.waiting) == len(deal.extra)
    assert len(game.all_cards()) == 110


def test_first_farmer_plays_passes_left_and_takes_the_extra_deck():
    game = new_game(4)
    game.start_round()
    hand = list(game.hands[0])
    extra = list(game.waiting[0][0])
    add = Placement(hand[0])
    game.take_turn(add, hand[1], 2)
    assert game.farms[0].cards() == (hand[0],)
    assert game.gifts[2] == [hand[1]]
    assert list(game.waiting[1][0]) == hand[2:]        # passed to the left
    assert game.hands[0] == extra                      # picked up the extra deck
    assert game.next_turn() == 1


def play_out_round(game: Game, bot) -> None:
    while not game.round_over:
        play_turn(game, bot)


def test_round_two_starts_right_of_the_first_farmer_and_passes_right():
    game = new_game(5)
    bot = GreedyBot()
    game.start_round()
    assert (game.first, game.direction) == (0, 1)
    play_out_round(game, bot)
    game.add_gifts([bot] * 5)
    game.score([bot] * 5)
    game.start_round()
    assert (game.first, game.direction) == (4, -1)
    assert game.fourth == 1  # 4 -> 3 -> 2 -> 1, three steps to the right
    assert [len(p) for p in game.waiting[4]] == [6] and [len(p) for p in game.waiting[1]] == [4]
    hand = list(game.hands[4])
    game.take_turn(Placement(hand[0]) if not hand[0].is_cat else
                   game.legal_adds(4, hand[:1])[0], hand[1], 0)
    assert list(game.waiting[3][-1]) == hand[2:]       # passed to the right
    assert game.next_turn() == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_round_uses_every_dealt_card_and_fills_every_gift_limit(players):
    game = new_game(players, seed=players)
    game.start_round()
    bot = RandomBot(random.Random(players))
    play_out_round(game, bot)
    deal = DEALS[players]
    assert game.turns == deal.cards(players) // 2
    assert [len(g) for g in game.gifts] == [GIFT_LIMITS[players]] * players
    assert sum(len(f.cards()) for f in game.farms) + len(game.removed) == game.turns
    assert not any(game.hands) and game.round_over
    with pytest.raises(IllegalAction):
        game.next_turn()


def test_no_gift_to_a_farmer_at_the_limit():
    game = new_game(2)
    game.start_round()
    game.gifts[1] = [Card(Animal.PIG)] * GIFT_LIMITS[2]
    hand = list(game.hands[0])
    assert game.gift_targets(0) == []
    with pytest.raises(IllegalAction, match="discard"):
        game.take_turn(Placement(hand[0]), hand[1], 1)


def test_everyone_full_discard_and_draw_into_own_gifts():
    game = new_game(3)
    game.start_round()
    for seat in (1, 2):
        game.gifts[seat] = [Card(Animal.PIG)] * GIFT_LIMITS[3]
    top = game.draw_pile[0]
    hand = list(game.hands[0])
    game.take_turn(Placement(hand[0]), hand[1], None)
    assert game.discards == [hand[1]]
    assert game.gifts[0] == [top]
    assert game.draw_pile[0] is not top


def test_illegal_turns_are_refused():
    game = new_game(4)
    game.start_round()
    hand = list(game.hands[0])
    stranger = game.hands[1][0]
    with pytest.raises(IllegalAction):
        game.take_turn(Placement(stranger), hand[1], 1)
    with pytest.raises(IllegalAction):
        game.take_turn(Placement(hand[0]), hand[1], 0)      # not to yourself
    with pytest.raises(IllegalAction):
        game.take_turn(Placement(hand[0]), stranger, 1)     # gift from someone else's hand
    assert game.hands[0] == hand                           # nothing changed... (atomic)


def test_cat_gifts_join_columns_in_turn_order_and_a_lone_cat_leaves():
    game = new_game(5)
    game.start_round()
    game.hands = [[] for _ in range(5)]
    game.waiting = [type(w)() for w in game.waiting]
    cats = [c for c in DECK if c.is_cat]
    game.farms[0], _ = Farm().add(Card(Animal.PIG, serial=500))
    game.gifts[0] = [cats[0], Card(Animal.PIG, cabbage=1, serial=501)]
    game.gifts[1] = [cats[1]]          # seat 1 has no column: the cat cannot join
    asked = []

    class Recorder(GreedyBot):
        def cat_column(self, g, seat, columns):
            asked.append((seat, tuple(columns)))
            return super().cat_column(g, seat, columns)

    game.add_gifts([Recorder()] * 5)
    assert asked == [(0, (Animal.PIG,))]
    assert game.farms[0].column(Animal.PIG).icons == 3 and game.farms[0].cats == 1
    assert cats[1] in game.removed and game.farms[1].cats == 0


def test_predator_token_is_tossed_each_round():
    tossed = set()
    for seed in range(12):
        game = new_game(4, seed=seed, predators="token")
        game.start_round()
        assert len(game.predators) == 1
        tossed |= set(game.predators)
    assert tossed == {Predator.FOX, Predator.WOLF}
    game = new_game(4, predators="hard")
    game.start_round()
    assert game.predators == (Predator.FOX, Predator.WOLF)
    with pytest.raises(CardGameError):
        GameOptions(predators="bear")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_game_two_rounds(players):
    result = play_game(players, [make_bot(b, random.Random(players)) for b in
                                 ("greedy", "spoiler", "random", "greedy", "spoiler", "random")[:players]],
                       random.Random(players), GameOptions(predators="token"), DECK)
    assert [r.number for r in result.rounds] == [1, 2]
    assert [r.direction for r in result.rounds] == [1, -1]
    assert result.rounds[1].first == players - 1
    best = max(result.scores)
    assert all(result.scores[w] == best for w in result.winners)
    cabbage = [sum(r.cabbage[s] for r in result.rounds) for s in range(players)]
    names = [f"farmer {s + 1}" for s in range(players)]
    for s in range(players):
        assert result.scores[s] == cabbage[s] + sum(r.score.points[names[s]] for r in result.rounds)


def test_ties_go_to_the_longest_column_then_are_shared():
    game = new_game(3)
    game.scores = [10, 10, 7]
    farm_a, farm_b = Farm(), Farm()
    for i in range(3):
        farm_a, _ = farm_a.add(Card(Animal.PIG, serial=900 + i))
    for i in range(2):
        farm_b, _ = farm_b.add(Card(Animal.COW, icons=3, serial=910 + i))
    game.farms = [farm_a, farm_b, Farm()]
    assert game.result().winners == (0,)
    game.farms = [farm_b, farm_b, Farm()]
    assert game.result().winners == (0, 1)


def test_team_mode_shares_a_track():
    teams = default_teams(4)
    game = new_game(4, teams=teams)
    game.scores = [5, 9, 6, 1]
    result = game.result()
    assert result.team_scores == (11, 10) and result.winners == (0, 2)
    played = play_game(6, [SpoilerBot()] * 6, random.Random(3), GameOptions(teams=default_teams(6, 3)), DECK)
    assert sum(played.team_scores) == sum(played.scores)
    assert len(played.winners) in (3, 6)
    with pytest.raises(CardGameError, match="side by side"):
        GameOptions(teams=((0, 1), (2, 3))) and Game(4, random.Random(0), GameOptions(teams=((0, 1), (2, 3))), DECK)
    with pytest.raises(CardGameError, match="4 or 6"):
        Game(5, random.Random(0), GameOptions(teams=((0, 2), (1, 3, 4))), DECK)


def test_bad_setups_are_refused():
    with pytest.raises(CardGameError, match="2-6"):
        Game(7, random.Random(0))
    with pytest.raises(CardGameError, match="choosers"):
        play_game(3, [GreedyBot()], random.Random(0))
    game = new_game(2)
    game.start_round()
    bot = GreedyBot()
    with pytest.raises(IllegalAction, match="not scored"):
        game.start_round()
    with pytest.raises(IllegalAction, match="last card"):
        game.score([bot, bot])
    play_out_round(game, bot)
    with pytest.raises(IllegalAction, match="gifts"):
        game.score([bot, bot])
    game.add_gifts([bot, bot])
    game.score([bot, bot])
    with pytest.raises(IllegalAction, match="no round"):
        game.score([bot, bot])
    game.start_round()
    play_out_round(game, bot)
    game.add_gifts([bot, bot])
    game.score([bot, bot])
    with pytest.raises(IllegalAction, match="over after two rounds"):
        game.start_round()


def test_the_fourth_farmer_takes_the_second_extra_deck_then_what_was_passed():
    game = new_game(6, seed=2)
    game.start_round()
    extra_two = list(game.waiting[3][0])
    bot = GreedyBot()
    passed_by_seat_2 = None
    while game.turns < 6:          # the first go-around
        seat = game.next_turn()
        if seat == 2:
            hand = list(game.hands[2])
            add = bot.add(game, 2, game.legal_adds(2))
            rest = [c for c in hand if c != add.card]
            gift, to = bot.gift(game, 2, rest, game.gift_targets(2))
            passed_by_seat_2 = [c for c in rest if c != gift]
            game.take_turn(add, gift, to)
        else:
            play_turn(game, bot)
    assert game.hands[3] == extra_two
    assert list(game.waiting[3][0]) == passed_by_seat_2
    while game.next_turn() != 3:
        play_turn(game, bot)
    play_turn(game, bot)           # seat 3 plays the extra deck, then picks up seat 2's pile
    assert game.hands[3] == passed_by_seat_2


def test_everyone_full_with_an_empty_deck_keeps_the_discarded_card():
    game = new_game(2)
    game.start_round()
    game.draw_pile = []
    game.gifts[1] = [Card(Animal.PIG, serial=700 + i) for i in range(GIFT_LIMITS[2])]
    hand = list(game.hands[0])
    game.take_turn(Placement(hand[0]), hand[1], None)
    assert game.gifts[0] == [hand[1]] and game.discards == []


def test_whole_games_with_random_gifts_use_the_discard_rule():
    discards = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(3, rng, GameOptions(), DECK)
        bots = [RandomBot(rng)] * 3
        for _ in range(2):
            game.start_round()
            while not game.round_over:
                play_turn(game, bots[game.next_turn()])
            assert [len(g) for g in game.gifts] == [GIFT_LIMITS[3]] * 3
            game.add_gifts(bots)
            game.score(bots)
        discards += len(game.discards)
    assert discards > 0
