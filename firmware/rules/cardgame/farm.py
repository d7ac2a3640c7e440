"""A farmer's farm: one column per animal, cats joined to columns, cabbage points.

>>> farm = Farm()
>>> farm, points = farm.add(Card(Animal.SHEEP, cabbage=1))
>>> farm, points = farm.add(Card(Animal.SHEEP, cabbage=1))
>>> farm, points = farm.add(Card(Animal.SHEEP, cabbage=1))
>>> points  # two cabbages above the new card
2
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .cards import COLUMN_ORDER, Animal, Card, CardGameError

_ORDER = {animal: i for i, animal in enumerate(COLUMN_ORDER)}


@dataclass(frozen=True, slots=True)
class Column:
    """The animal cards of one kind, in the order placed, and the cats joined to them."""

    animal: Animal
    cards: tuple[Card, ...] = ()
    cats: tuple[Card, ...] = ()
    #: Animal icons for scoring: the cards' icons plus one per cat (dogs never count).
    icons: int = field(init=False, compare=False, repr=False)
    water: int = field(init=False, compare=False, repr=False)
    cabbage: int = field(init=False, compare=False, repr=False)
    dogs: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Totals are kept, not recomputed: bots ask for them thousands of times a game.
        icons = water = cabbage = dogs = 0
        for card in self.cards:
            icons += card.icons
            water += card.water
            cabbage += card.cabbage
            dogs += card.small_dogs + card.big_dogs
        object.__setattr__(self, "icons", icons + len(self.cats))
        object.__setattr__(self, "water", water)
        object.__setattr__(self, "cabbage", cabbage)
        object.__setattr__(self, "dogs", dogs)

    @property
    def length(self) -> int:
        """Cards of its kind (cats are not of its kind), for the end-of-game tie-break."""
        return len(self.cards)

    def as_dict(self) -> dict[str, object]:
        return {"animal": self.animal.value, "cards": [c.as_dict() for c in self.cards],
                "cats": len(self.cats), "icons": self.icons, "water": self.water,
                "dogs": self.dogs}


@dataclass(frozen=True, slots=True)
class Farm:
    """The columns on the table in front of one farmer, in scoring order."""

    columns: tuple[Column, ...] = ()

    def __post_init__(self) -> None:
        animals = [c.animal for c in self.columns]
        if len(set(animals)) != len(animals):
            raise CardGameError("a farm has one column per animal")
        for column in self.columns:
            if not column.cards:
                raise CardGameError(f"the {column.animal.value} column has no animal card")
            if any(c.animal is not column.animal for c in column.cards):
                raise CardGameError(f"the {column.animal.value} column holds another animal")
            if any(not c.is_cat for c in column.cats):
                raise CardGameError(f"the {column.animal.value} column has a non-cat joker")
        object.__setattr__(self, "columns", tuple(sorted(
            self.columns, key=lambda c: _ORDER[c.animal])))

    def __iter__(self) -> Iterator[Column]:
        return iter(self.columns)

    def column(self, animal: Animal) -> Column | None:
        for column in self.columns:
            if column.animal is animal:
                return column
        return None

    def icons_in(self, animal: Animal) -> int:
        """Animal icons of the ``animal`` column, cats included (0 without that column)."""
        column = self.column(animal)
        return 0 if column is None else column.icons

    def dogs_in(self, animal: Animal) -> int:
        """Dog icons of the ``animal`` column (0 without that column)."""
        column = self.column(animal)
        return 0 if column is None else column.dogs

    @property
    def animals(self) -> tuple[Animal, ...]:
        return tuple(c.animal for c in self.columns)

    @property
    def water(self) -> int:
        return sum(c.water for c in self.columns)

    @property
    def cats(self) -> int:
        return sum(len(c.cats) for c in self.columns)

    @property
    def longest(self) -> int:
        """Cards in the longest column (the end-of-game tie-break)."""
        return max((c.length for c in self.columns), default=0)

    def cards(self) -> tuple[Card, ...]:
        """Every card on the farm (animal cards and cats)."""
        return tuple(card for col in self.columns for card in (*col.cards, *col.cats))

    def can_add(self, card: Card, column: Animal | None = None) -> bool:
        if card.is_cat:
            return column is not None and self.column(column) is not None
        return column is None or column is card.animal

    def add(self, card: Card, column: Animal | None = None) -> tuple["Farm", int]:
        """Place a card; return the new farm and its cabbage points.

        An animal card joins (or starts) its own column and, if it shows a cabbage,
        scores one point per cabbage icon on the cards already in that column.
        A cat joins the existing ``column`` it is given; it cannot start one.
        """
        if card.is_cat:
            if column is None:
                raise CardGameError("say which column the cat joins")
            old = self.column(column)
            if old is None:
                raise CardGameError(f"a cat cannot start a column (no {column.value} column)")
            return self._replace(replace(old, cats=old.cats + (card,))), 0
        assert card.animal is not None
        if column is not None and column is not card.animal:
            raise CardGameError(f"a {card.animal.value} card cannot join the {column.value} column")
        old = self.column(card.animal) or Column(card.animal)
        points = old.cabbage if card.cabbage else 0
        return self._replace(replace(old, cards=old.cards + (card,))), points

    def remove(self, animal: Animal, card: Card) -> tuple["Farm", tuple[Card, ...]]:
        """Take one animal card out of a column (a predator's prey).

        Returns the new farm and every card that left it: a column left with only
        cats loses the cats too.
        """
        old = self.column(animal)
        if old is None or card.is_cat or card not in old.cards:
            raise CardGameError(f"{card} is not an animal card of the {animal.value} column")
        cards = list(old.cards)
        cards.remove(card)
        if cards:
            return self._replace(replace(old, cards=tuple(cards))), (card,)
        return Farm(tuple(c for c in self.columns if c.animal is not animal)), (card, *old.cats)

    def _replace(self, new: Column) -> "Farm":
        # The columns are already valid: skip the checks (this runs on every card placed).
        columns = [c for c in self.columns if c.animal is not new.animal]
        columns.append(new)
        columns.sort(key=lambda c: _ORDER[c.animal])
        farm = object.__new__(Farm)
        object.__setattr__(farm, "columns", tuple(columns))
        return farm

    def as_dict(self) -> dict[str, object]:
        return {"columns": [c.as_dict() for c in self.columns]}
