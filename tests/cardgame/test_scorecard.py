"""The scorekeeper's pure API (what a scoreboard screen calls): read_scorecard + tally."""

import pytest

from farmbox.firmware.rules.cardgame import Animal, CardGameError, read_scorecard, tally

#: Marta's cat needs 5-6 farmers (with 4 or fewer the cats stay in the box, issue 10): three
#: more farmers, each with one rabbit card and a dog, so neither the rabbit column nor the fox
#: changes anything for Marta and Robert.
OTHERS = ("Chris", "Eve", "Yaniv")


def marta_robert(**options):
    return {"options": options, "farmers": [
        {"name": "Marta", "score": 7,
         "columns": [{"animal": "rabbit", "cards": [{"icons": 2, "water": 1}, {"icons": 1}]}],
         "gifts": [{"cat": "rabbit"}]},
        {"name": "Robert",
         "columns": [{"animal": "rabbit", "cards": [{"water": 1}, {"water": 1}, {"water": 1, "small_dogs": 1}]}]},
    ] + [{"name": n, "columns": [{"animal": "rabbit", "cards": [{"small_dogs": 1}]}]} for n in OTHERS]}


def marta_and_robert(points):
    return {k: v for k, v in points.items() if k not in OTHERS}


def test_marta_and_robert_from_a_scorecard():
    result = tally(read_scorecard(marta_robert()))
    assert result.round.columns[0].leaders == ("Marta",) and result.round.columns[0].points == 4
    assert marta_and_robert(result.round.water.points) == {"Marta": 1, "Robert": 3}
    assert marta_and_robert(result.totals) == {"Marta": 7 + 4 + 1 - 1, "Robert": 3}
    assert [(g.farmer, g.column) for g in result.gifts] == [("Marta", Animal.RABBIT)]


def test_the_farmer_chooses_the_prey():
    data = marta_robert(predators=["fox"])
    data["farmers"][0]["columns"][0]["prey"] = 1      # Marta gives up her 2-icon rabbit
    result = tally(read_scorecard(data))
    attack = result.round.attacks[0]
    assert attack.attacked == ("Marta",)
    assert [c.icons for c in attack.lost["Marta"]] == [2]
    # 1 rabbit icon + cat = 2 < Robert's 3: Robert takes the rabbit column now
    assert result.round.columns[0].leaders == ("Robert",)
    default = tally(read_scorecard(marta_robert(predators=["fox"])))
    assert [c.icons for c in default.round.attacks[0].lost["Marta"]] == [1]


def test_gifts_score_cabbage_in_the_order_listed():
    data = marta_robert()
    data["farmers"][1]["columns"].append({"animal": "sheep", "cards": [{"cabbage": 1}]})
    data["farmers"][1]["gifts"] = [{"animal": "sheep", "cabbage": 1},
                                   {"animal": "sheep", "cabbage": 2}]
    result = tally(read_scorecard(data))
    assert [g.cabbage for g in result.gifts if g.farmer == "Robert"] == [1, 2]
    assert marta_and_robert(result.cabbage) == {"Marta": 0, "Robert": 3}
    assert result.as_dict()["totals"]["Robert"] == 3 + 3 + 3


@pytest.mark.parametrize("change, message", [
    (lambda d: d["farmers"][0]["columns"][0].update(prey=0), "prey = 0"),
    (lambda d: d["farmers"][0]["columns"].append({"animal": "rabbit", "cards": [{}]}), "listed twice"),
    (lambda d: d["farmers"][0]["columns"][0]["cards"].append({"animal": "pig"}), "pig card in the rabbit"),
    (lambda d: d["farmers"][0]["columns"][0]["cards"].append({"icons": True}), "icons"),
    (lambda d: d["options"].update(advanced_water="yes"), "advanced_water"),
    (lambda d: d["options"].update(predators=["fox", "fox"]), "at most once"),
    (lambda d: d["farmers"][1]["gifts"].append({"cat": "pig", "icons": 1}) if "gifts" in d["farmers"][1]
     else d["farmers"][1].update(gifts=[{"cat": "pig", "icons": 1}]), "only names its column"),
    (lambda d: d["farmers"][1].update(gifts=[{"icons": 1}]), "needs animal"),
    (lambda d: d.update(round=1), "unknown key 'round'"),
])
def test_bad_scorecards(change, message):
    data = marta_robert(predators=["fox"])
    change(data)
    with pytest.raises(CardGameError, match=message):
        tally(read_scorecard(data))
