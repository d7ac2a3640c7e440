"""The scorekeeper: one round's scoring from a description of the farms.

:func:`read_scorecard` turns a parsed TOML/JSON mapping (see docs/cardgame.md)
into a :class:`Scorecard`; :func:`tally` scores it: phase 2 gifts (with their
cabbage points), then :func:`score_round`, then the totals. Both are pure, so a
screen can call them with data entered on the buttons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import CAT, Animal, Card, CardGameError, Predator
from .farm import Column, Farm
from .scoring import RoundScore, ScoringOptions, least_loss, score_round, team_points
from .teams import check_teams

_CARD_FIELDS = ("icons", "cabbage", "water", "small_dogs", "big_dogs")


@dataclass(frozen=True, slots=True)
class Gift:
    """A gift waiting for phase 2: an animal card, or a cat with the column it joins."""

    card: Card
    column: Animal | None = None


@dataclass(frozen=True, slots=True)
class Scorecard:
    """Farms in seat order (clockwise from the first farmer), gifts, options, track."""

    names: tuple[str, ...]
    farms: tuple[Farm, ...]
    gifts: tuple[tuple[Gift, ...], ...]
    before: tuple[int, ...]
    options: ScoringOptions = ScoringOptions()
    teams: tuple[tuple[str, ...], ...] = ()
    prey: Mapping[tuple[str, Animal], int] | None = None


@dataclass(frozen=True, slots=True)
class GiftStep:
    farmer: str
    card: Card
    column: Animal
    cabbage: int

    def as_dict(self) -> dict[str, object]:
        return {"farmer": self.farmer, "card": self.card.as_dict(),
                "column": self.column.value, "cabbage": self.cabbage}


@dataclass(frozen=True, slots=True)
class Tally:
    """The round from gifts to totals; ``totals`` = before + cabbage + round points."""

    gifts: tuple[GiftStep, ...]
    cabbage: dict[str, int]
    round: RoundScore
    before: dict[str, int]
    totals: dict[str, int]
    teams: dict[str, int]

    def as_dict(self) -> dict[str, object]:
        return {"gifts": [g.as_dict() for g in self.gifts], "cabbage": self.cabbage,
                **self.round.as_dict(), "before": self.before, "totals": self.totals,
                "teams": self.teams}


def tally(card: Scorecard) -> Tally:
    """Score one round of a scorecard, step by step."""
    farms = dict(zip(card.names, card.farms))
    steps: list[GiftStep] = []
    cabbage = {name: 0 for name in card.names}
    for name, gifts in zip(card.names, card.gifts):
        for gift in gifts:
            if not gift.card.is_cat:
                farms[name], points = farms[name].add(gift.card)
                cabbage[name] += points
                steps.append(GiftStep(name, gift.card, gift.card.animal, points))  # type: ignore[arg-type]
    for name, gifts in zip(card.names, card.gifts):  # cats in turn order from the first farmer
        for gift in gifts:
            if gift.card.is_cat:
                assert gift.column is not None
                try:
                    farms[name], _ = farms[name].add(gift.card, gift.column)
                except CardGameError as exc:
                    raise CardGameError(f"{name}'s cat gift: {exc}") from None
                steps.append(GiftStep(name, gift.card, gift.column, 0))

    prey = card.prey or {}

    def choose(name: str, column: Column) -> Card:
        index = prey.get((name, column.animal))
        if index is None:
            return least_loss(name, column)
        if not 1 <= index <= len(column.cards):
            raise CardGameError(f"{name}'s {column.animal.value} prey = {index}: the column "
                                f"has {len(column.cards)} animal cards")
        return column.cards[index - 1]

    result = score_round(farms, card.options, choose)
    before = dict(zip(card.names, card.before))
    totals = {n: before[n] + cabbage[n] + result.points[n] for n in card.names}
    return Tally(tuple(steps), cabbage, result, before, totals,
                 team_points(totals, card.teams) if card.teams else {})


# --- reading a parsed file ---------------------------------------------------

def _int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CardGameError(f"{where}: expected a whole number >= 0, got {value!r}")
    return value


def _keys(table: object, allowed: Sequence[str], where: str) -> Mapping[str, object]:
    if not isinstance(table, Mapping):
        raise CardGameError(f"{where}: expected a table, got {table!r}")
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise CardGameError(f"{where}: unknown key {unknown[0]!r}")
    return table


def _card(table: object, animal: Animal, where: str) -> Card:
    t = _keys(table, ("animal", *_CARD_FIELDS), where)
    if "animal" in t and Animal.from_key(t["animal"]) is not animal:
        raise CardGameError(f"{where}: a {t['animal']} card in the {animal.value} column")
    values = {f: _int(t.get(f, 1 if f == "icons" else 0), f"{where} {f}") for f in _CARD_FIELDS}
    try:
        return Card(animal, **values)
    except CardGameError as exc:
        raise CardGameError(f"{where}: {exc}") from None


def _list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise CardGameError(f"{where}: expected a list, got {value!r}")
    return value


def read_scorecard(data: Mapping[str, object]) -> Scorecard:
    """Build a scorecard from a parsed TOML/JSON file; one-line errors name the bad part."""
    top = _keys(data, ("options", "farmers"), "file")
    opts = _keys(top.get("options", {}), ("advanced_water", "predators", "teams"), "options")
    advanced = opts.get("advanced_water", False)
    if not isinstance(advanced, bool):
        raise CardGameError(f"options.advanced_water: expected true or false, got {advanced!r}")
    predators = tuple(Predator.from_key(p) for p in _list(opts.get("predators", []),
                                                              "options.predators"))
    if len(set(predators)) != len(predators):
        raise CardGameError("options.predators: each predator at most once")
    farmers = _list(top.get("farmers"), "farmers") if "farmers" in top else []
    if not 2 <= len(farmers) <= 6:
        raise CardGameError(f"farmers: the game is for 2-6 farmers, the file has {len(farmers)}")
    names: list[str] = []
    farms: list[Farm] = []
    gifts: list[tuple[Gift, ...]] = []
    before: list[int] = []
    prey: dict[tuple[str, Animal], int] = {}
    for i, entry in enumerate(farmers, 1):
        f = _keys(entry, ("name", "score", "columns", "gifts"), f"farmer #{i}")
        name = f.get("name")
        if not isinstance(name, str) or not name.strip() or name in names:
            raise CardGameError(f"farmer #{i}: needs a name of its own, got {name!r}")
        names.append(name)
        before.append(_int(f.get("score", 0), f"{name} score"))
        farm = Farm()
        for j, col in enumerate(_list(f.get("columns", []), f"{name} columns"), 1):
            c = _keys(col, ("animal", "cards", "cats", "prey"), f"{name} column #{j}")
            animal = Animal.from_key(c.get("animal"))
            where = f"{name} {animal.value} column"
            if farm.column(animal) is not None:
                raise CardGameError(f"{where}: listed twice")
            cards = [_card(t, animal, f"{where} card #{k}")
                     for k, t in enumerate(_list(c.get("cards", []), f"{where} cards"), 1)]
            if not cards:
                raise CardGameError(f"{where}: no animal cards (a cat cannot start a column)")
            for card in cards:
                farm, _ = farm.add(card)
            for _ in range(_int(c.get("cats", 0), f"{where} cats")):
                farm, _ = farm.add(CAT, animal)
            if "prey" in c:
                prey[(name, animal)] = _int(c["prey"], f"{where} prey")
        farms.append(farm)
        own: list[Gift] = []
        for k, g in enumerate(_list(f.get("gifts", []), f"{name} gifts"), 1):
            where = f"{name} gift #{k}"
            t = _keys(g, ("animal", "cat", *_CARD_FIELDS), where)
            if "cat" in t:
                if set(t) != {"cat"}:
                    raise CardGameError(f"{where}: a cat gift only names its column (cat = \"rabbit\")")
                own.append(Gift(CAT, Animal.from_key(t["cat"])))
            elif "animal" in t:
                own.append(Gift(_card(t, Animal.from_key(t["animal"]), where)))
            else:
                raise CardGameError(f"{where}: needs animal = ... or cat = \"column\"")
        gifts.append(tuple(own))
    teams: tuple[tuple[str, ...], ...] = ()
    if "teams" in opts:
        raw = [tuple(_list(t, "options.teams")) for t in _list(opts["teams"], "options.teams")]
        for team in raw:
            for member in team:
                if member not in names:
                    raise CardGameError(f"options.teams: no farmer named {member!r}")
        n = len(names)
        if n not in (4, 6):
            raise CardGameError(f"options.teams: team mode is for 4 or 6 farmers, not {n}")
        for team in raw:
            seats = sorted(names.index(str(m)) for m in team)
            for a in seats:
                for b in seats:
                    if a < b and (b - a) % n in (1, n - 1):
                        raise CardGameError(f"options.teams: partners {names[a]} and {names[b]} "
                                            "sit side by side (farmers are listed clockwise)")
        try:
            check_teams(n, [tuple(names.index(str(m)) for m in team) for team in raw])
        except CardGameError as exc:
            raise CardGameError(f"options.teams: {exc}") from None
        teams = tuple(tuple(str(m) for m in team) for team in raw)
    return Scorecard(tuple(names), tuple(farms), tuple(gifts), tuple(before),
                     ScoringOptions(advanced, predators), teams, prey)
