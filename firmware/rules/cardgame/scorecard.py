"""The scorekeeper: one round's scoring from a description of the farms.

:func:`read_scorecard` turns a parsed TOML/JSON mapping (see docs/cardgame.md)
into a :class:`Scorecard`; :func:`tally` scores it: phase 2 gifts (with their
cabbage points), then :func:`score_round`, then the totals. Both are pure, so a
screen can call them with data entered on the buttons.

The reader refuses farms the rules rule out, each with one line naming the farmer,
the column or gift and the rule: horses or cats with 4 or fewer farmers, more gifts
than the gift limit, more cards of a kind (or more icons) than the deck holds. Every
count is bounded by the deck before anything is built from it.

>>> card = read_scorecard({"farmers": [
...     {"name": "Ann", "columns": [{"animal": "rabbit", "cards": [{}], "cats": 10**30}]},
...     {"name": "Bob"}]})
Traceback (most recent call last):
...
farmbox.firmware.rules.cardgame.cards.CardGameError: farmer Ann, column 1 (rabbit): cats = 1000000000000000000000000000000, but the cats stay in the box with 4 or fewer farmers
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import Animal, Card, CardGameError, Predator, quoted
from .deck import DEALS, GIFT_LIMITS, cards_for, load_deck
from .farm import Column, Farm
from .scoring import RoundScore, ScoringOptions, least_loss, score_round, team_points
from .teams import check_teams

_CARD_FIELDS = ("icons", "cabbage", "water", "small_dogs", "big_dogs")
#: Longest farmer name (it is shown on the scoreboard and in every error line).
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class Gift:
    """A gift waiting for phase 2: an animal card, or a cat with the column it joins.

    ``where`` names it in errors (``"farmer Ann, gift 2"``).
    """

    card: Card
    column: Animal | None = None
    where: str = ""


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
    """One gift added in phase 2; ``column`` None: a cat with no column to join left the game."""

    farmer: str
    card: Card
    column: Animal | None
    cabbage: int

    @property
    def left_game(self) -> bool:
        return self.column is None

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"farmer": self.farmer, "card": self.card.as_dict(),
                                  "column": None if self.column is None else self.column.value,
                                  "cabbage": self.cabbage}
        if self.column is None:
            out["left_game"] = True
        return out


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
    """Score one round of a scorecard, step by step.

    Phase 2 as the engine plays it: animal gifts first (cabbage scores, in the order
    listed), then cats; a cat joins the column it names, and a cat given to a farm
    with no column at all leaves the game (a cat cannot start a column).
    """
    farms = dict(zip(card.names, card.farms))
    steps: list[GiftStep] = []
    cabbage = {name: 0 for name in card.names}
    for name, gifts in zip(card.names, card.gifts):
        for gift in gifts:
            if gift.card.animal is not None:
                farms[name], points = farms[name].add(gift.card)
                cabbage[name] += points
                steps.append(GiftStep(name, gift.card, gift.card.animal, points))
    for name, gifts in zip(card.names, card.gifts):  # cats in turn order from the first farmer
        for gift in gifts:
            if gift.card.is_cat:
                if not farms[name].columns:
                    steps.append(GiftStep(name, gift.card, None, 0))  # leaves the game
                    continue
                if gift.column is None:
                    raise CardGameError(f"{gift.where or name}: say which column the cat joins")
                try:
                    farms[name], _ = farms[name].add(gift.card, gift.column)
                except CardGameError as exc:
                    raise CardGameError(f"{gift.where or 'farmer ' + name}: {exc}; it joins one "
                                        f"of {', '.join(a.value for a in farms[name].animals)}"
                                        ) from None
                steps.append(GiftStep(name, gift.card, gift.column, 0))

    prey = card.prey or {}

    def choose(name: str, column: Column) -> Card:
        index = prey.get((name, column.animal))
        if index is None:
            return least_loss(name, column)
        if not 1 <= index <= len(column.cards):
            raise CardGameError(f"farmer {name}, {column.animal.value} column: prey = {index}, "
                                f"but the column has {len(column.cards)} animal cards")
        return column.cards[index - 1]

    result = score_round(farms, card.options, choose)
    before = dict(zip(card.names, card.before))
    totals = {n: before[n] + cabbage[n] + result.points[n] for n in card.names}
    return Tally(tuple(steps), cabbage, result, before, totals,
                 team_points(totals, card.teams) if card.teams else {})


# --- reading a parsed file ---------------------------------------------------

def _int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CardGameError(f"{where}: expected a whole number >= 0, got {quoted(value)}")
    return value


def _score(value: object, where: str) -> int:
    """A track position: a whole number, below 0 too (cats cost a point each, as in the engine)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise CardGameError(f"{where}: expected a whole number, got {quoted(value)}")
    return value


def _keys(table: object, allowed: Sequence[str], where: str) -> Mapping[str, object]:
    if not isinstance(table, Mapping):
        raise CardGameError(f"{where}: expected a table, got {quoted(table)}")
    unknown = sorted(str(k) for k in set(table) - set(allowed))
    if unknown:
        raise CardGameError(f"{where}: unknown key {quoted(unknown[0])}")
    return table


def _list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise CardGameError(f"{where}: expected a list, got {quoted(value)}")
    return value


def _animal(value: object, where: str, cat_hint: str) -> Animal:
    """An animal column name; ``"cat"`` gets ``cat_hint`` (cats are not columns)."""
    if isinstance(value, str) and value.strip().lower() == "cat":
        raise CardGameError(f"{where}: {cat_hint}")
    try:
        return Animal.from_key(value)
    except CardGameError as exc:
        raise CardGameError(f"{where}: {exc}") from None


def _players(count: int) -> str:
    return {2: "2 farmers", 3: "3-4 farmers", 4: "3-4 farmers"}.get(count, "5-6 farmers")


@dataclass
class _Limits:
    """What the cards in play allow (cards per animal, cats, icons per animal and field),
    and how much of it the file has used so far."""

    players: int
    cards: dict[Animal, int]
    cats: int
    fields: dict[tuple[Animal, str], int]
    #: Cards two rounds deal: no table holds more.
    dealt: int
    # running totals over the file
    seen: dict[Animal, int] = field(default_factory=dict)
    seen_cats: int = 0
    seen_total: int = 0
    #: Serial numbers for the cards read, so equal cards stay apart (as the deck's do).
    serial: int = 0

    def next_serial(self) -> int:
        self.serial += 1
        return self.serial

    @classmethod
    def for_players(cls, deck: Sequence[Card], players: int) -> "_Limits":
        in_play = cards_for(deck, players)
        cards: dict[Animal, int] = {}
        fields: dict[tuple[Animal, str], int] = {}
        for card in in_play:
            if card.animal is None:
                continue
            cards[card.animal] = cards.get(card.animal, 0) + 1
            for name in _CARD_FIELDS:
                key = (card.animal, name)
                fields[key] = fields.get(key, 0) + getattr(card, name)
        cats = sum(card.is_cat for card in in_play)
        return cls(players, cards, cats, fields, 2 * DEALS[players].cards(players))

    def column(self, animal: Animal, where: str) -> None:
        if not self.cards.get(animal):
            raise CardGameError(f"{where}: no {animal.value} cards with {self.players} farmers "
                                "(with 4 or fewer farmers the horses stay in the box)")

    def cards_in(self, animal: Animal, count: int, where: str) -> None:
        """Refuse ``count`` more cards of ``animal`` before any is built (``count`` may be huge)."""
        self.column(animal, where)
        total = self.seen.get(animal, 0) + count
        if total > self.cards[animal]:
            raise CardGameError(f"{where}: {total} {animal.value} cards on the table, the deck "
                                f"holds {self.cards[animal]}")
        self._table(count, where)
        self.seen[animal] = total

    def cats_in(self, count: int, where: str, what: str = "") -> None:
        """Refuse ``count`` more cats (``what`` names them in the error, e.g. ``cats = 3``)."""
        if count and not self.cats:
            raise CardGameError(f"{where}: {what or f'cats = {count}'}, but the cats stay in "
                                "the box with 4 or fewer farmers")
        total = self.seen_cats + count
        if total > self.cats:
            raise CardGameError(f"{where}: {total} cats on the table, the deck holds {self.cats}")
        self._table(count, where)
        self.seen_cats = total

    def _table(self, count: int, where: str) -> None:
        self.seen_total += count
        if self.seen_total > self.dealt:
            raise CardGameError(f"{where}: {self.seen_total} cards on the table, but two rounds "
                                f"deal {self.dealt} with {self.players} farmers")

    def card_fields(self, animal: Animal, values: Mapping[str, int], where: str) -> None:
        """Refuse a card showing more of an icon than all the deck's cards of its kind together.

        (A bound, not a census: the deck's composition is provisional, so a card that is
        not exactly one of the deck file's is accepted as long as it stays in bounds.)
        """
        for name, n in values.items():
            most = self.fields.get((animal, name), 0)
            if n > most:
                shown = "animal icons" if name == "icons" else name.replace("_", " ") + " icons"
                raise CardGameError(f"{where}: {name} = {quoted(n)}, but all the {animal.value} "
                                    f"cards in the deck show {most} {shown} together")


def _card(table: object, animal: Animal, where: str, limits: _Limits) -> Card:
    t = _keys(table, ("animal", *_CARD_FIELDS), where)
    if "animal" in t:
        named = _animal(t["animal"], where, "a cat is not an animal card: add it to a column "
                                            "with cats = N")
        if named is not animal:
            raise CardGameError(f"{where}: a {named.value} card in the {animal.value} column")
    values = {f: _int(t.get(f, 1 if f == "icons" else 0), f"{where}: {f}") for f in _CARD_FIELDS}
    limits.card_fields(animal, values, where)
    try:
        return Card(animal, **values, serial=limits.next_serial())
    except CardGameError as exc:
        raise CardGameError(f"{where}: {exc}") from None


def read_scorecard(data: Mapping[str, object], deck: Sequence[Card] | None = None) -> Scorecard:
    """Build a scorecard from a parsed TOML/JSON file; one-line errors name the bad part.

    ``deck``: the box's cards (default: the packaged deck), which bound every count.
    """
    top = _keys(data, ("options", "farmers"), "file")
    opts = _keys(top.get("options", {}), ("advanced_water", "predators", "teams"), "options")
    advanced = opts.get("advanced_water", False)
    if not isinstance(advanced, bool):
        raise CardGameError(f"options.advanced_water: expected true or false, got {quoted(advanced)}")
    raw_predators = _list(opts.get("predators", []), "options.predators")
    if len(raw_predators) > 2:
        raise CardGameError(f"options.predators: at most fox and wolf, got {len(raw_predators)}")
    predators = tuple(Predator.from_key(p) for p in raw_predators)
    if len(set(predators)) != len(predators):
        raise CardGameError("options.predators: each predator at most once")
    farmers = _list(top.get("farmers"), "farmers") if "farmers" in top else []
    if not 2 <= len(farmers) <= 6:
        raise CardGameError(f"farmers: the game is for 2-6 farmers, the file has {len(farmers)}")
    players = len(farmers)
    limits = _Limits.for_players(load_deck() if deck is None else deck, players)
    gift_limit = GIFT_LIMITS[players]
    names: list[str] = []
    farms: list[Farm] = []
    gifts: list[tuple[Gift, ...]] = []
    before: list[int] = []
    prey: dict[tuple[str, Animal], int] = {}
    for i, entry in enumerate(farmers, 1):
        f = _keys(entry, ("name", "score", "columns", "gifts"), f"farmer #{i}")
        name = f.get("name")
        if not isinstance(name, str) or not name.strip() or name in names:
            raise CardGameError(f"farmer #{i}: needs a name of its own, got {quoted(name)}")
        if len(name) > MAX_NAME or not name.isprintable():
            raise CardGameError(f"farmer #{i}: a name is at most {MAX_NAME} printable characters "
                                f"on one line, got {quoted(name)}")
        names.append(name)
        who = f"farmer {name}"
        before.append(_score(f.get("score", 0), f"{who}: score"))
        farm = Farm()
        columns = _list(f.get("columns", []), f"{who}: columns")
        if len(columns) > len(limits.cards):
            raise CardGameError(f"{who}: {len(columns)} columns, but {players} farmers play "
                                f"{len(limits.cards)} animals")
        for j, col in enumerate(columns, 1):
            here = f"{who}, column {j}"
            c = _keys(col, ("animal", "cards", "cats", "prey"), here)
            if "animal" not in c:
                raise CardGameError(f"{here}: needs animal = \"rabbit\" (or another animal)")
            animal = _animal(c["animal"], here, "a cat is not a column: add it to the column "
                                                "it joins with cats = N")
            here = f"{here} ({animal.value})"
            limits.column(animal, here)
            if farm.column(animal) is not None:
                raise CardGameError(f"{here}: listed twice")
            raw_cards = _list(c.get("cards", []), f"{here}: cards")
            if not raw_cards:
                raise CardGameError(f"{here}: no animal cards (a cat cannot start a column)")
            limits.cards_in(animal, len(raw_cards), here)
            for k, t in enumerate(raw_cards, 1):
                farm, _ = farm.add(_card(t, animal, f"{here}, card {k}", limits))
            cats = _int(c.get("cats", 0), f"{here}: cats")
            limits.cats_in(cats, here)
            for _ in range(cats):
                farm, _ = farm.add(Card(None, serial=limits.next_serial()), animal)
            if "prey" in c:
                prey[(name, animal)] = _int(c["prey"], f"{here}: prey")
        farms.append(farm)
        own: list[Gift] = []
        raw_gifts = _list(f.get("gifts", []), f"{who}: gifts")
        if len(raw_gifts) > gift_limit:
            raise CardGameError(f"{who}, gifts: {len(raw_gifts)} gifts, but with "
                                f"{_players(players)} a farmer receives at most {gift_limit} "
                                "(the gift limit)")
        for k, g in enumerate(raw_gifts, 1):
            here = f"{who}, gift {k}"
            t = _keys(g, ("animal", "cat", *_CARD_FIELDS), here)
            if "cat" in t:
                if set(t) != {"cat"}:
                    raise CardGameError(f"{here}: a cat gift only names its column (cat = \"rabbit\")")
                column = _animal(t["cat"], here, "cat = names the column the cat joins "
                                                 "(cat = \"rabbit\")")
                limits.cats_in(1, here, "a cat gift")
                own.append(Gift(Card(None, serial=limits.next_serial()), column, here))
            elif "animal" in t:
                animal = _animal(t["animal"], here, "a cat gift is written cat = \"column\" "
                                                    "(the column it joins), not animal = \"cat\"")
                limits.cards_in(animal, 1, here)
                own.append(Gift(_card(t, animal, here, limits), None, here))
            else:
                raise CardGameError(f"{here}: needs animal = ... or cat = \"column\"")
        gifts.append(tuple(own))
    teams: tuple[tuple[str, ...], ...] = ()
    if "teams" in opts:
        raw = [tuple(_list(t, "options.teams")) for t in _list(opts["teams"], "options.teams")]
        for team in raw:
            for member in team:
                if member not in names:
                    raise CardGameError(f"options.teams: no farmer named {quoted(member)}")
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
