"""Phase 3: columns, water, cats, predators; the rulebook's worked examples."""

import pytest

from farmbox.firmware.rules.cardgame import (
    CAT,
    Animal,
    Card,
    CardGameError,
    Farm,
    Predator,
    ScoringOptions,
    score_round,
    team_points,
)


def build(*columns) -> Farm:
    """A farm from (animal, [cards...], cats) triples."""
    farm = Farm()
    for animal, cards, cats in columns:
        for card in cards:
            farm, _ = farm.add(Card(animal, **card))
        for _ in range(cats):
            farm, _ = farm.add(CAT, animal)
    return farm


def marta_and_robert():
    # Marta: 3 rabbit icons + one cat added at the end of the round, 1 water icon.
    marta = build((Animal.RABBIT, [{"icons": 2, "water": 1}, {"icons": 1}], 1))
    # Robert: 3 rabbit cards, 3 water icons on them.
    robert = build((Animal.RABBIT, [{"water": 1}] * 3, 0))
    return {"Marta": marta, "Robert": robert}


def test_marta_scores_her_rabbits_with_the_cat():
    score = score_round(marta_and_robert())
    rabbit = score.columns[0]
    assert rabbit.animal is Animal.RABBIT
    assert rabbit.icons == {"Marta": 4, "Robert": 3}
    assert rabbit.leaders == ("Marta",) and rabbit.points == 4


def test_marta_and_robert_water_and_cat():
    score = score_round(marta_and_robert())
    # Marta +1 water, -1 cat: the counter stays where it was; Robert +3 water.
    assert score.water.points == {"Marta": 1, "Robert": 3}
    assert score.cats == {"Marta": 1, "Robert": 0}
    assert score.parts("Marta") == {"columns": 4, "water": 1, "cats": -1}
    assert score.points == {"Marta": 4, "Robert": 3}


def eve_aleksander_yaniv():
    eve = build((Animal.RABBIT, [{"water": 3}], 0), (Animal.PIG, [{}], 0))
    aleksander = build((Animal.SHEEP, [{"water": 2}, {"water": 2}], 0),
                       (Animal.COW, [{"water": 1}], 0), (Animal.PIG, [{"water": 3}], 0))
    yaniv = build((Animal.CHICKEN, [{"water": 4}], 0), (Animal.COW, [{"water": 1}], 0))
    return {"Eve": eve, "Aleksander": aleksander, "Yaniv": yaniv}


def test_advanced_water_eve_aleksander_yaniv():
    farms = eve_aleksander_yaniv()
    water = score_round(farms, ScoringOptions(advanced_water=True)).water
    assert water.declared == {"Eve": 0, "Aleksander": 1, "Yaniv": 1}
    # Eve gets nothing; the tied Aleksander and Yaniv score all their water.
    assert water.points == {"Eve": 0, "Aleksander": 8, "Yaniv": 5}
    basic = score_round(farms).water
    assert basic.points == {"Eve": 3, "Aleksander": 8, "Yaniv": 5}


def test_advanced_water_nobody_scores_when_all_declare_zero():
    farms = {"A": build((Animal.RABBIT, [{"water": 2}], 0), (Animal.PIG, [{}], 0)),
             "B": build((Animal.COW, [{}], 0))}
    water = score_round(farms, ScoringOptions(advanced_water=True)).water
    assert water.declared == {"A": 0, "B": 0} and water.points == {"A": 0, "B": 0}


def test_ties_all_score_and_columns_go_in_order():
    farms = {"A": build((Animal.PIG, [{"icons": 2}], 0), (Animal.RABBIT, [{}], 0)),
             "B": build((Animal.PIG, [{}, {}], 0)),
             "C": build((Animal.COW, [{"icons": 3}], 0))}
    score = score_round(farms)
    assert [c.animal for c in score.columns] == list(Animal)
    pig = score.columns[3]
    assert pig.leaders == ("A", "B") and pig.points == 2
    assert score.columns[5].leaders == () and score.columns[5].points == 0
    assert score.points == {"A": 3, "B": 2, "C": 3}


def test_dog_icons_do_not_count_as_animals():
    farms = {"A": build((Animal.SHEEP, [{"icons": 1, "small_dogs": 1, "big_dogs": 1}], 0)),
             "B": build((Animal.SHEEP, [{"icons": 2}], 0))}
    assert score_round(farms).columns[2].leaders == ("B",)


def test_fox_attacks_the_farmers_with_fewest_dogs():
    weak = Card(Animal.RABBIT)
    farms = {"A": build((Animal.RABBIT, [{"icons": 2}], 0)),
             "B": build((Animal.RABBIT, [{"icons": 1, "small_dogs": 1}], 0)),
             "C": build((Animal.PIG, [{}], 0))}
    farms["A"], _ = farms["A"].add(weak)
    score = score_round(farms, ScoringOptions(predators=(Predator.FOX,)))
    rabbit = score.attacks[0]
    assert (rabbit.predator, rabbit.animal) == (Predator.FOX, Animal.RABBIT)
    assert rabbit.dogs == {"A": 0, "B": 1, "C": 0}
    assert rabbit.attacked == ("A", "C") and rabbit.lost == {"A": (weak,)}
    assert score.farms["A"].column(Animal.RABBIT).icons == 2
    # chicken and sheep: everyone has 0 dogs -> no attack; the wolf never came.
    assert [a.attacked for a in score.attacks[1:]] == [(), ()]
    assert len(score.attacks) == 3
    assert score.farms["C"] == farms["C"]


def test_the_attacked_farmer_chooses_the_card_and_never_a_cat():
    strong, weak = Card(Animal.COW, icons=2), Card(Animal.COW)
    farm = build()
    farm, _ = farm.add(strong)
    farm, _ = farm.add(weak)
    farms = {"A": farm, "B": build((Animal.COW, [{"big_dogs": 1}], 0))}
    chosen = score_round(farms, ScoringOptions(predators=(Predator.WOLF,)),
                         lambda name, column: column.cards[0])
    assert chosen.farms["A"].column(Animal.COW).cards == (weak,)
    with pytest.raises(CardGameError, match="animal card"):
        score_round(farms, ScoringOptions(predators=(Predator.WOLF,)), lambda n, c: CAT)


def test_a_column_left_with_only_cats_loses_the_cats():
    farms = {"A": build((Animal.PIG, [{}], 2), (Animal.COW, [{}], 0)),
             "B": build((Animal.PIG, [{"small_dogs": 1}], 0))}
    score = score_round(farms, ScoringOptions(predators=(Predator.WOLF,)))
    assert score.farms["A"].column(Animal.PIG) is None
    assert score.attacks[0].lost["A"] == (Card(Animal.PIG), CAT, CAT)
    assert score.cats["A"] == 0  # the cats left the game, no penalty
    assert score.columns[3].leaders == ("B",)


def test_hard_mode_both_predators_hunt():
    farms = {"A": build((Animal.RABBIT, [{}, {}], 0), (Animal.COW, [{}, {}], 0)),
             "B": build((Animal.RABBIT, [{"small_dogs": 1}], 0), (Animal.COW, [{"big_dogs": 1}], 0))}
    score = score_round(farms, ScoringOptions(predators=(Predator.FOX, Predator.WOLF)))
    assert [a.animal for a in score.attacks] == [Animal.RABBIT, Animal.CHICKEN, Animal.SHEEP,
                                                 Animal.PIG, Animal.COW]
    assert score.farms["A"].column(Animal.RABBIT).icons == 1
    assert score.farms["A"].column(Animal.COW).icons == 1


def test_team_points_share_one_track():
    assert team_points({"A": 3, "B": 4, "C": 5, "D": 1}, [("A", "C"), ("B", "D")]) == {
        "A+C": 8, "B+D": 5}
