"""Adding cards to a farm: columns, cabbage points, cats; the rulebook's examples."""

import pytest

from farmbox.firmware.rules.cardgame import CAT, Animal, Card, CardGameError, Farm


def test_chris_adds_his_pig_to_his_pig_column():
    # "Chris chooses the pig from his cards and adds it to the previously played pig card."
    chris, _ = Farm().add(Card(Animal.PIG, icons=1))
    chris, _ = chris.add(Card(Animal.RABBIT))
    chris, points = chris.add(Card(Animal.PIG, icons=2))
    pig = chris.column(Animal.PIG)
    assert len(pig.cards) == 2 and pig.icons == 3
    assert len(chris.columns) == 2 and points == 0


def test_eve_scores_two_for_her_cabbage():
    # Eve adds a sheep with a cabbage; two cabbage icons above it -> 2 points.
    eve, p1 = Farm().add(Card(Animal.SHEEP, cabbage=1))
    eve, p2 = eve.add(Card(Animal.SHEEP))
    eve, p3 = eve.add(Card(Animal.SHEEP, cabbage=1))
    assert (p1, p2, p3) == (0, 0, 1)
    eve, points = eve.add(Card(Animal.SHEEP, cabbage=1))
    assert points == 2
    assert eve.column(Animal.SHEEP).cabbage == 3


def test_a_card_without_cabbage_scores_nothing_and_other_columns_do_not_count():
    farm, _ = Farm().add(Card(Animal.SHEEP, cabbage=2))
    farm, _ = farm.add(Card(Animal.PIG, cabbage=1))
    assert farm.add(Card(Animal.SHEEP))[1] == 0
    assert farm.add(Card(Animal.PIG, cabbage=2))[1] == 1
    assert farm.add(Card(Animal.COW, cabbage=1))[1] == 0


def test_a_cat_is_one_more_icon_but_cannot_start_a_column():
    farm, _ = Farm().add(Card(Animal.RABBIT, icons=3))
    with pytest.raises(CardGameError, match="cannot start a column"):
        farm.add(CAT, Animal.COW)
    with pytest.raises(CardGameError, match="which column"):
        farm.add(CAT)
    farm, points = farm.add(CAT, Animal.RABBIT)
    assert farm.column(Animal.RABBIT).icons == 4 and points == 0 and farm.cats == 1
    assert farm.longest == 1  # a cat is not a card of the column's kind


def test_columns_are_kept_in_scoring_order():
    farm = Farm()
    for animal in (Animal.HORSE, Animal.RABBIT, Animal.COW, Animal.CHICKEN):
        farm, _ = farm.add(Card(animal))
    assert farm.animals == (Animal.RABBIT, Animal.CHICKEN, Animal.COW, Animal.HORSE)


def test_removing_the_last_animal_card_takes_the_cats_too():
    rabbit = Card(Animal.RABBIT, icons=2)
    farm, _ = Farm().add(rabbit)
    farm, _ = farm.add(CAT, Animal.RABBIT)
    farm, _ = farm.add(CAT, Animal.RABBIT)
    farm, gone = farm.remove(Animal.RABBIT, rabbit)
    assert gone == (rabbit, CAT, CAT)
    assert farm.column(Animal.RABBIT) is None and farm.cats == 0
    with pytest.raises(CardGameError):
        farm.remove(Animal.RABBIT, rabbit)


def test_a_card_cannot_join_another_animals_column():
    with pytest.raises(CardGameError, match="cannot join the pig column"):
        Farm().add(Card(Animal.COW), Animal.PIG)


def test_bad_cards_are_rejected():
    with pytest.raises(CardGameError):
        Card(Animal.COW, icons=0)
    with pytest.raises(CardGameError):
        Card(None, water=1)
    with pytest.raises(CardGameError, match="unknown animal"):
        Animal.from_key("goat")
