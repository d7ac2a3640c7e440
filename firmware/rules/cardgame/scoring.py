"""Phase 3, scoring one round: predators, the columns in order, water, cats.

:func:`score_round` is a pure function from the farms to a :class:`RoundScore`
breakdown (every step, every farmer's points), ready for a printout or a screen.

>>> from .cards import Card, CAT
>>> marta, _ = Farm().add(Card(Animal.RABBIT, icons=3, water=1))
>>> marta, _ = marta.add(CAT, Animal.RABBIT)
>>> robert = Farm()
>>> for _ in range(3):
...     robert, _ = robert.add(Card(Animal.RABBIT, water=1))
>>> score = score_round({"Marta": marta, "Robert": robert})
>>> score.columns[0].leaders, score.columns[0].points
(('Marta',), 4)
>>> score.points
{'Marta': 4, 'Robert': 3}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .cards import COLUMN_ORDER, Animal, Card, CardGameError, Predator
from .farm import Column, Farm

#: Which animal card a farmer gives up to a predator: (farmer, column) -> card.
PreyChoice = Callable[[str, Column], Card]


def least_loss(farmer: str, column: Column) -> Card:
    """The default choice: give up the card worth least (fewest icons, water, dogs; newest)."""
    order = range(len(column.cards))
    best = min(order, key=lambda i: (column.cards[i].icons, column.cards[i].water,
                                     column.cards[i].dogs, -i))
    return column.cards[best]


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    """The mode options that change scoring."""

    advanced_water: bool = False
    predators: tuple[Predator, ...] = ()


@dataclass(frozen=True, slots=True)
class Attack:
    """One predator against one column: dog icons per farmer, who was attacked, what left."""

    predator: Predator
    animal: Animal
    dogs: dict[str, int]
    attacked: tuple[str, ...]
    lost: dict[str, tuple[Card, ...]]

    def as_dict(self) -> dict[str, object]:
        return {"predator": self.predator.value, "animal": self.animal.value,
                "dogs": self.dogs, "attacked": list(self.attacked),
                "lost": {k: [c.as_dict() for c in v] for k, v in self.lost.items()}}


@dataclass(frozen=True, slots=True)
class ColumnScore:
    """One animal column compared across farms: the leaders score their icons."""

    animal: Animal
    icons: dict[str, int]
    leaders: tuple[str, ...]
    points: int

    def as_dict(self) -> dict[str, object]:
        return {"animal": self.animal.value, "icons": self.icons,
                "leaders": list(self.leaders), "points": self.points}


@dataclass(frozen=True, slots=True)
class WaterScore:
    """Water: +1 per icon (basic), or only for the highest declaration >= 1 (advanced)."""

    advanced: bool
    water: dict[str, int]
    declared: dict[str, int] | None
    points: dict[str, int]

    def as_dict(self) -> dict[str, object]:
        return {"advanced": self.advanced, "water": self.water,
                "declared": self.declared, "points": self.points}


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The whole scoring step of a round and each farmer's points from it."""

    attacks: tuple[Attack, ...]
    columns: tuple[ColumnScore, ...]
    water: WaterScore
    cats: dict[str, int]
    farms: dict[str, Farm] = field(repr=False)
    points: dict[str, int] = field(default_factory=dict)

    def column_points(self, farmer: str) -> int:
        return sum(c.points for c in self.columns if farmer in c.leaders)

    def parts(self, farmer: str) -> dict[str, int]:
        """A farmer's points split into columns, water and cats (they sum to the total)."""
        return {"columns": self.column_points(farmer), "water": self.water.points[farmer],
                "cats": -self.cats[farmer]}

    def as_dict(self) -> dict[str, object]:
        return {"attacks": [a.as_dict() for a in self.attacks],
                "columns": [c.as_dict() for c in self.columns],
                "water": self.water.as_dict(), "cats": {k: -v for k, v in self.cats.items()},
                "points": self.points,
                "parts": {name: self.parts(name) for name in self.points}}


def attack(farms: Mapping[str, Farm], predator: Predator, animal: Animal,
           choose: PreyChoice = least_loss) -> tuple[dict[str, Farm], Attack]:
    """One predator attacks one column on every farm.

    If every farmer shows as many dog icons in that column (0 included), nothing
    happens; otherwise each farmer with the fewest dogs gives up one animal card
    of their choice from it (a farmer without that column has nothing to lose).
    """
    dogs = {name: farm.dogs_in(animal) for name, farm in farms.items()}
    out = dict(farms)
    lost: dict[str, tuple[Card, ...]] = {}
    attacked: tuple[str, ...] = ()
    if len(set(dogs.values())) > 1:
        fewest = min(dogs.values())
        attacked = tuple(name for name, n in dogs.items() if n == fewest)
        for name in attacked:
            column = farms[name].column(animal)
            if column is None:
                continue
            card = choose(name, column)
            if card.is_cat or card not in column.cards:
                raise CardGameError(f"{name} must give up an animal card of the "
                                    f"{animal.value} column, not {card}")
            out[name], lost[name] = farms[name].remove(animal, card)
    return out, Attack(predator, animal, dogs, attacked, lost)


def water_score(farms: Mapping[str, Farm], advanced: bool = False) -> WaterScore:
    """Score the water icons, basic or advanced."""
    water = {name: farm.water for name, farm in farms.items()}
    if not advanced:
        return WaterScore(False, water, None, dict(water))
    declared = {name: min((c.water for c in farm.columns), default=0)
                for name, farm in farms.items()}
    best = max(declared.values(), default=0)
    points = {name: (water[name] if best >= 1 and declared[name] == best else 0)
              for name in farms}
    return WaterScore(True, water, declared, points)


def column_score(farms: Mapping[str, Farm], animal: Animal) -> ColumnScore:
    """Who has most icons of one animal (ties all score); nobody scores an empty column."""
    icons = {name: farm.icons_in(animal) for name, farm in farms.items()}
    most = max(icons.values(), default=0)
    leaders = tuple(n for n, v in icons.items() if v == most) if most > 0 else ()
    return ColumnScore(animal, icons, leaders, most if leaders else 0)


def score_round(farms: Mapping[str, Farm], options: ScoringOptions = ScoringOptions(),
                choose: PreyChoice = least_loss) -> RoundScore:
    """Score a round: predators first, then columns rabbit..horse, water, -1 per cat."""
    if not farms:
        raise CardGameError("no farms to score")
    current = dict(farms)
    attacks: list[Attack] = []
    for predator in options.predators:
        for animal in predator.prey:
            current, step = attack(current, predator, animal, choose)
            attacks.append(step)
    columns = tuple(column_score(current, animal) for animal in COLUMN_ORDER)
    water = water_score(current, options.advanced_water)
    cats = {name: farm.cats for name, farm in current.items()}
    points = {name: sum(c.points for c in columns if name in c.leaders)
              + water.points[name] - cats[name] for name in current}
    return RoundScore(tuple(attacks), columns, water, cats, current, points)


def team_points(points: Mapping[str, int], teams: Sequence[Sequence[str]]) -> dict[str, int]:
    """Points on each team's shared track, keyed by the team's names joined with '+'."""
    return {"+".join(team): sum(points[name] for name in team) for team in teams}
