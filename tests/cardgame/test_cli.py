"""``farmbox cardgame score`` and ``simulate`` end to end, through farmbox.firmware.cli.main."""

import json
from pathlib import Path

import pytest

from farmbox.firmware.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "cardgame_farms.toml"


def run(capsys, *argv):
    code = main(["cardgame", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_example_file_step_by_step(capsys):
    code, out, err = run(capsys, "score", EXAMPLE)
    assert code == 0, err
    lines = out.splitlines()
    # the sections come in the rulebook's order
    order = [lines.index(h) for h in ("Phase 2: gifts", "Predators", "Columns", "Water", "Cats",
                                      "Totals")]
    assert order == sorted(order)
    assert "  Eve: sheep 1 icon, 1 cabbage -> sheep column, cabbage +2" in lines
    assert "  rabbit: icons Marta 4, Robert 3 -> Marta +4" in lines
    assert "  Marta: 0 before, cabbage +0, columns +4, water +1, cats -1 -> 4" in lines
    assert any(line.startswith("  fox on chicken") and "no attack" in line for line in lines)


def test_score_json_matches_the_rules(capsys):
    code, out, _ = run(capsys, "score", EXAMPLE, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["totals"] == {"Marta": 4, "Robert": 5, "Eve": 6, "Chris": 6, "Yaniv": 3}
    assert data["cabbage"]["Eve"] == 2
    assert data["water"]["points"]["Robert"] == 3
    assert [a["animal"] for a in data["attacks"]] == ["rabbit", "chicken", "sheep"]
    assert data["attacks"][0]["lost"] == {"Yaniv": [{"kind": "rabbit", "icons": 1}]}
    for name, parts in data["parts"].items():
        assert sum(parts.values()) == data["points"][name]
        assert data["totals"][name] == data["before"][name] + data["cabbage"][name] + data["points"][name]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


ROBERT = '[[farmers]]\nname = "Robert"\n[[farmers.columns]]\nanimal = "rabbit"\ncards = [{water = 1}]\n'


def test_score_json_file_with_advanced_water_and_teams(tmp_path, capsys):
    data = {"options": {"advanced_water": True, "teams": [["A", "C"], ["B", "D"]]},
            "farmers": [
                {"name": "A", "score": 10, "columns": [{"animal": "pig", "cards": [{"water": 1}]}]},
                {"name": "B", "columns": [{"animal": "pig", "cards": [{"water": 2}, {}]},
                                          {"animal": "rabbit", "cards": [{}]}]},
                {"name": "C", "columns": [{"animal": "cow", "cards": [{}]}]},
                # (no cat gift for D: with 4 farmers the cats stay in the box, issue 10)
                {"name": "D", "columns": [{"animal": "cow", "cards": [{"icons": 2}]}]}]}
    path = write(tmp_path, "farms.json", json.dumps(data))
    code, out, err = run(capsys, "score", path, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["water"]["declared"] == {"A": 1, "B": 0, "C": 0, "D": 0}
    assert result["water"]["points"] == {"A": 1, "B": 0, "C": 0, "D": 0}
    assert result["totals"] == {"A": 11, "B": 3, "C": 0, "D": 2}
    assert result["teams"] == {"A+C": 11, "B+D": 5}
    code, out, _ = run(capsys, "score", path)
    assert "Water (advanced)" in out and "  team A+C: 11" in out


@pytest.mark.parametrize("name, text, message", [
    ("missing.toml", None, "cannot read"),
    ("bad.toml", "farmers = [", "not valid TOML"),
    ("bad.json", "{", "not valid JSON"),
    ("one.toml", ROBERT, "2-6 farmers"),
    ("goat.toml", ROBERT + ROBERT.replace("Robert", "Eve").replace("rabbit", "goat"), "unknown animal 'goat'"),
    ("twice.toml", ROBERT + ROBERT, "needs a name of its own"),
    ("key.toml", ROBERT + ROBERT.replace("Robert", "Eve").replace("water = 1", "wter = 1"), "unknown key 'wter'"),
    # (five farmers: with 4 or fewer the cats stay in the box; Eve has a column, but no pig)
    ("cat.toml", "".join(ROBERT.replace("Robert", n) for n in ("Robert", "F", "G", "H"))
     + '[[farmers]]\nname = "Eve"\n[[farmers.columns]]\nanimal = "cow"\ncards = [{}]\n'
       '[[farmers.gifts]]\ncat = "pig"\n', "cat cannot start"),
    ("pred.toml", '[options]\npredators = ["bear"]\n' + ROBERT + ROBERT.replace("Robert", "E"), "unknown predator"),
    ("team.toml", '[options]\nteams = [["Robert", "E"]]\n' + ROBERT + ROBERT.replace("Robert", "E"), "team mode is for 4 or 6"),
    ("side.toml", '[options]\nteams = [["Robert", "E"], ["F", "G"]]\n' + "".join(
        ROBERT.replace("Robert", n) for n in ("Robert", "E", "F", "G")), "partners Robert and E sit side by side"),
    ("prey.toml", '[options]\npredators = ["fox"]\n' + ROBERT.replace("water = 1}]", "water = 1}]\nprey = 3")
     + '[[farmers]]\nname = "E"\n[[farmers.columns]]\nanimal = "rabbit"\ncards = [{small_dogs = 1}]\n', "prey = 3"),
])
def test_bad_files_are_one_line_errors(tmp_path, capsys, name, text, message):
    path = tmp_path / name if text is None else write(tmp_path, name, text)
    code, out, err = run(capsys, "score", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("farmbox cardgame: error: ")
    assert message in err


def test_simulate_json_win_rates(capsys):
    code, out, err = run(capsys, "simulate", "--players", 3, "--games", 9, "--seed", 4,
                         "--bots", "greedy,random", "--predators", "hard", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 9 and data["lineup"] == ["greedy", "random", "greedy"]
    assert sum(s["win_rate"] for s in data["seats"]) == pytest.approx(1.0)
    bots = {b["bot"]: b for b in data["bots"]}
    assert bots["greedy"]["seat_games"] == 18 and bots["random"]["seat_games"] == 9
    assert bots["greedy"]["win_rate"] * 18 + bots["random"]["win_rate"] * 9 == pytest.approx(9)
    assert "games" in err  # the tqdm progress bar goes to stderr
    again = run(capsys, "simulate", "--players", 3, "--games", 9, "--seed", 4,
                "--bots", "greedy,random", "--predators", "hard", "--json")[1]
    assert json.loads(again) == data  # seeded: the same games again


def test_simulate_text_and_teams(capsys):
    code, out, _ = run(capsys, "simulate", "--players", 4, "--games", 4, "--teams", 2)
    assert code == 0
    assert "per seat" in out and "per bot" in out and "teams ((0, 2), (1, 3))" in out


@pytest.mark.parametrize("argv, message", [
    (["--bots", "greedy,genius"], "unknown bot 'genius'"),
    (["--players", "7"], "2-6 farmers"),
    (["--games", "0"], "at least 1"),
    (["--players", "5", "--teams", "2"], "no teams of 2 for 5"),
])
def test_simulate_bad_options(capsys, argv, message):
    code, _, err = run(capsys, "simulate", *argv)
    assert code == 2 and message in err
