"""The scorekeeper cannot be fooled (issue 10, points 6-9).

It refuses farms the rules rule out, never hangs or recurses on hostile files, names
where every error is, and scores exactly as the engine does: a property test plays
engine games and scores each round's farms with ``farmbox cardgame score``.
"""

import json
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.firmware.cli import main
from farmbox.firmware.cli.cardgame import load_farms_file
from farmbox.firmware.rules.cardgame import (
    CAT,
    Animal,
    Card,
    Farm,
    Game,
    GameOptions,
    load_deck,
    read_scorecard,
    tally,
)
from farmbox.firmware.rules.cardgame.bots import make_bot
from farmbox.firmware.rules.cardgame.farm import Column
from farmbox.firmware.rules.cardgame.game import Placement, play_turn
from farmbox.firmware.rules.cardgame.scoring import least_loss

DECK = load_deck()
FIELDS = ("icons", "cabbage", "water", "small_dogs", "big_dogs")


def run(capsys, path):
    code = main(["cardgame", "score", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def farmers(*entries: str) -> str:
    return "".join(entries)


def farmer(name: str, body: str = "") -> str:
    return f'[[farmers]]\nname = "{name}"\n{body}'


def column(animal: str, cards: str = "[{}]", extra: str = "") -> str:
    return f'[[farmers.columns]]\nanimal = {animal}\ncards = {cards}\n{extra}'


def gift(body: str) -> str:
    return f"[[farmers.gifts]]\n{body}\n"


PLAIN = [farmer(n, column('"rabbit"')) for n in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")]


def table(players: int, *first: str) -> str:
    """Ann (first) as given, then plain farms up to ``players``."""
    return farmers(farmer("Ann", "".join(first)), *PLAIN[1:players])


HOSTILE = [
    # point 6: farms the rules rule out, each naming farmer, column or gift, and the rule
    ("horse4", table(4, column('"horse"')), "farmer Ann, column 1 (horse): no horse cards with 4 farmers"),
    ("horsegift", table(3, column('"cow"'), gift('animal = "horse"')),
     "farmer Ann, gift 1: no horse cards with 3 farmers"),
    ("cats4", table(4, column('"rabbit"', extra="cats = 1\n")),
     "farmer Ann, column 1 (rabbit): cats = 1, but the cats stay in the box with 4 or fewer"),
    ("catgift2", table(2, column('"rabbit"'), gift('cat = "rabbit"')),
     "farmer Ann, gift 1: a cat gift, but the cats stay in the box with 4 or fewer farmers"),
    ("gifts2", table(2, column('"rabbit"'), *[gift('animal = "pig"')] * 7),
     "farmer Ann, gifts: 7 gifts, but with 2 farmers a farmer receives at most 6"),
    ("gifts4", table(4, column('"rabbit"'), *[gift('animal = "pig"')] * 6),
     "with 3-4 farmers a farmer receives at most 5 (the gift limit)"),
    ("gifts6", table(6, column('"rabbit"'), *[gift('animal = "pig"')] * 5),
     "with 5-6 farmers a farmer receives at most 4"),
    ("rabbits", table(2, column('"rabbit"', "[" + "{}," * 23 + "]")),
     "farmer Ann, column 1 (rabbit): 23 rabbit cards on the table, the deck holds 22"),
    ("rabbits2", farmers(farmer("Ann", column('"rabbit"', "[" + "{}," * 21 + "]")),
                         farmer("Bob", column('"rabbit"', "[{}, {}]"))),
     "farmer Bob, column 1 (rabbit): 23 rabbit cards on the table, the deck holds 22"),
    ("cats5", table(5, column('"rabbit"', extra="cats = 5\n")), "5 cats on the table, the deck holds 4"),
    ("catgifts", table(6, column('"rabbit"', extra="cats = 3\n"), gift('cat = "rabbit"'),
                       gift('cat = "rabbit"')), "farmer Ann, gift 2: 5 cats on the table"),
    ("water", table(2, column('"pig"', "[{water = 9}]")),
     "farmer Ann, column 1 (pig), card 1: water = 9, but all the pig cards in the deck show"),
    # point 7: never hang, never recurse: one line at once
    ("hugecats", table(6, column('"rabbit"', extra="cats = 1000000000000000000000000000000\n")),
     "cats on the table, the deck holds 4"),
    ("hugeicons", table(2, column('"rabbit"', "[{icons = 1000000000000000000000000000000}]")),
     "farmer Ann, column 1 (rabbit), card 1: icons = 1000000000000000000000000000000"),
    ("deep", "x = " + "[" * 100_000 + "]" * 100_000 + "\n", "brackets nested 100000 deep"),
    ("deepjson.json", '{"farmers": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested 100001 deep"),
    ("deepopen", "x = " + "[" * 100_000 + "\n", "brackets nested 100000 deep"),
    ("tables", "x = " + "{a = " * 5000 + "1" + "}" * 5000, "nested 5000 deep"),
    ("manycards", table(2, column('"rabbit"', "[" + "{}," * 200_000 + "]")),
     "200000 rabbit cards on the table, the deck holds 22"),
    ("longname", table(2, column('"' + "x" * 100_000 + '"')), "unknown animal 'xxxxxxxx"),
    # point 9: every error names where it is
    ("animal5", farmers(farmer("Ann", column('"rabbit"') + column("5")), PLAIN[1]),
     "farmer Ann, column 2: unknown animal 5"),
    ("catgiftanimal", table(5, column('"rabbit"'), gift('animal = "cat"')),
     'farmer Ann, gift 1: a cat gift is written cat = "column"'),
    ("catcolumn", table(5, column('"cat"')), "farmer Ann, column 1: a cat is not a column"),
    ("catcard", table(5, column('"rabbit"', '[{animal = "cat"}]')),
     "farmer Ann, column 1 (rabbit), card 1: a cat is not an animal card"),
    ("badfield", table(2, column('"rabbit"', '[{water = "x"}]')),
     "farmer Ann, column 1 (rabbit), card 1: water: expected a whole number"),
    ("badgift", table(2, column('"rabbit"'), gift('animal = "goat"')),
     "farmer Ann, gift 1: unknown animal 'goat'"),
    ("nocolumn", table(5, column('"rabbit"'), gift('cat = "pig"')),
     "farmer Ann, gift 1: a cat cannot start a column (no pig column); it joins one of rabbit"),
    ("newline", farmers(farmer("Ann\\nBob", column('"rabbit"')), PLAIN[1]),
     "farmer #1: a name is at most 40 printable characters on one line, got 'Ann\\nBob'"),
    ("longkey", table(2, column('"rabbit"', "[{" + "w" * 5000 + " = 1}]")), "unknown key 'wwww"),
    ("score", table(2, 'score = "3"\n', column('"rabbit"')), "farmer Ann: score: expected a whole number, got '3'"),
]


@pytest.mark.parametrize("name,text,fragment", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_or_impossible_files_are_one_line_errors(tmp_path, capsys, name, text, fragment):
    path = tmp_path / (name if name.endswith(".json") else name + ".toml")
    path.write_text(text)
    code, out, err = run(capsys, path)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith("farmbox cardgame: error: ")
    assert fragment in err
    assert len(err) < 400  # the bad part is quoted short, not the whole file


def test_a_big_file_is_refused_before_parsing(tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_bytes(b"# " + b"x" * (2 << 20))
    code, _, err = run(capsys, path)
    assert code == 2 and "larger than 1024 KiB" in err


def test_the_rules_still_allow_what_the_table_allows(tmp_path, capsys):
    # 5 farmers: horses and cats in play; 4 gifts each is the limit, not over it.
    text = table(5, column('"horse"', "[{icons = 2}]", "cats = 2\n"), column('"rabbit"'),
                 *[gift('animal = "rabbit"')] * 3, gift('cat = "horse"'))
    path = tmp_path / "ok.toml"
    path.write_text(text)
    code, out, err = run(capsys, path)
    assert code == 0, err
    assert json.loads(out)["totals"]["Ann"] == 5 + 4 - 3  # horse 2 + 3 cats, rabbit 1 + 3, 3 cats


# --- point 8: a cat with no column to join leaves the game, as in the engine -------------------

class Recorder:
    """Wraps a bot and writes down the choices of phase 2 and 3 (for the scorecard)."""

    def __init__(self, inner, before: Farm) -> None:
        self.inner, self.before = inner, before
        self.order: list[Card] = []
        self.cats: list[Animal] = []
        self.prey_index: dict[Animal, int] = {}

    def add(self, game, seat, options: Sequence[Placement]) -> Placement:
        pick = self.inner.add(game, seat, options)
        self.order.append(pick.card)
        return pick

    def cat_column(self, game, seat, columns):
        column = self.inner.cat_column(game, seat, columns)
        self.cats.append(column)
        return column

    def prey(self, game, seat, column: Column) -> Card:
        if self.before.column(column.animal) is None:
            # A column the gifts started: the file has no entry to put a prey on.
            card = least_loss(game.names[seat], column)
        else:
            card = self.inner.prey(game, seat, column)
        self.prey_index[column.animal] = column.cards.index(card) + 1
        return card

    def __getattr__(self, name):
        return getattr(self.inner, name)


def card_table(card: Card) -> dict[str, object]:
    return {f: getattr(card, f) for f in FIELDS}


def farms_file(game: Game, farms: list[Farm], gifts: list[list[Card]], before: list[int],
               recorders: list[Recorder]) -> dict[str, object]:
    """The round as a FARMS file, as a table would write it down."""
    out = []
    for seat, name in enumerate(game.names):
        rec = recorders[seat]
        columns = []
        for col in farms[seat].columns:
            entry: dict[str, object] = {"animal": col.animal.value,
                                        "cards": [card_table(c) for c in col.cards],
                                        "cats": len(col.cats)}
            if col.animal in rec.prey_index:
                entry["prey"] = rec.prey_index[col.animal]
            columns.append(entry)
        own = [{"animal": c.animal.value, **card_table(c)} for c in rec.order]
        cats = [c for c in gifts[seat] if c.is_cat]
        # A cat that left the game names no column the farm has: any animal will do.
        own += [{"cat": a.value} for a in rec.cats] + [{"cat": "rabbit"}] * (len(cats) - len(rec.cats))
        out.append({"name": name, "score": before[seat], "columns": columns, "gifts": own})
    options = {"advanced_water": game.options.advanced_water,
               "predators": [p.value for p in game.predators]}
    return {"options": options, "farmers": out}


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1),
       line=st.lists(st.sampled_from(["random", "greedy", "spoiler"]), min_size=6, max_size=6),
       predators=st.sampled_from(["off", "token", "hard"]), advanced=st.booleans())
def test_the_scorekeeper_agrees_with_the_engine(players, seed, line, predators, advanced):
    rng = random.Random(seed)
    bots = [make_bot(name, rng) for name in line[:players]]
    g = Game(players, rng, GameOptions(advanced, predators), DECK)
    with tempfile.TemporaryDirectory() as folder:
        for number in range(2):
            g.start_round()
            while not g.round_over:
                play_turn(g, bots[g.next_turn()])
            farms, gifts, before = list(g.farms), [list(x) for x in g.gifts], list(g.scores)
            recorders = [Recorder(b, f) for b, f in zip(bots, farms)]
            g.add_gifts(recorders)
            g.score(recorders)
            path = Path(folder) / f"round{number}.json"
            path.write_text(json.dumps(farms_file(g, farms, gifts, before, recorders)))
            # The CLI path: file -> JSON on stdout.
            import io
            from contextlib import redirect_stdout
            buf = io.StringIO()
            with redirect_stdout(buf):
                assert main(["cardgame", "score", str(path), "--json"]) == 0
            result = json.loads(buf.getvalue())
            assert result["totals"] == dict(zip(g.names, g.scores))
            assert result["points"] == g.records[-1].score.points
            # The same reading, for the farms after scoring (cards and cats, in order).
            t = tally(read_scorecard(load_farms_file(path)))
            for seat, name in enumerate(g.names):
                mine = [(c.animal, [card_table(x) for x in c.cards], len(c.cats))
                        for c in t.round.farms[name].columns]
                engine = [(c.animal, [card_table(x) for x in c.cards], len(c.cats))
                          for c in g.farms[seat].columns]
                assert mine == engine


def test_a_gifted_cat_with_no_column_leaves_the_game_as_in_the_engine(tmp_path, capsys):
    rng = random.Random(1)
    g = Game(5, rng, deck=DECK)
    g.start_round()
    g.hands = [[] for _ in range(5)]
    for pile in g.waiting:
        pile.clear()
    cat = next(c for c in g.draw_pile if c.is_cat)
    g.draw_pile.remove(cat)
    rabbit = Card(Animal.RABBIT, serial=999)
    g.farms = [Farm(), *[Farm().add(rabbit)[0] for _ in range(4)]]
    g.gifts = [[cat], [], [], [], []]
    bots = [make_bot("greedy", rng) for _ in range(5)]
    g.add_gifts(bots)
    assert cat in g.removed and not g.farms[0].columns  # the engine: the cat left the game
    record = g.score(bots)
    text = farmers(farmer("Ann", gift('cat = "rabbit"')), *PLAIN[1:5])
    path = tmp_path / "cat.toml"
    path.write_text(text)
    code, out, err = run(capsys, path)
    assert code == 0, err
    result = json.loads(out)
    assert result["gifts"] == [{"farmer": "Ann", "card": {"kind": "cat"}, "column": None,
                                "cabbage": 0, "left_game": True}]
    assert result["cats"]["Ann"] == 0 and result["points"]["Ann"] == record.score.points["farmer 1"]
    main(["cardgame", "score", str(path)])
    assert "  Ann: cat -> leaves the game (no column to join)" in capsys.readouterr().out
    # The pure API says the same, and a cat with a column to join still needs to name one.
    t = tally(read_scorecard({"farmers": [{"name": "Ann", "gifts": [{"cat": "pig"}]},
                                          *[{"name": n} for n in "BCDE"]]}))
    assert t.gifts[0].left_game and t.round.farms["Ann"].cats == 0
    assert CAT.is_cat
