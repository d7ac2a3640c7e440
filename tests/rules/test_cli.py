"""`farmbox odds|settle|simulate|advise` through the real entry point."""

import json

import pytest

from farmbox.firmware.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json(capsys):
    code, out, _ = run(capsys, "odds", "rabbit=1", "--json")
    assert code == 0 and json.loads(out)["expected_gain"] == "133/144"


def test_settle_json(capsys):
    code, out, _ = run(capsys, "settle", "--herd", "rabbit=5,sheep=3,pig=2", "--roll", "sheep,rabbit",
                       "--json")
    d = json.loads(out)
    assert code == 0 and d["herd"]["rabbit"] == 8 and d["herd"]["sheep"] == 5
    assert set(d["stock"]) == set(d["herd"]) and len(d["herd"]) == 7
    assert d["winner"] is False and {"kind": "bred", "animal": "rabbit", "count": 3} in d["events"]


@pytest.mark.parametrize("argv,fragment", [
    (["settle", "--herd", "rabbit=5", "--roll", "fox,rabbit"], "'fox'"),
    (["settle", "--herd", "rabbit=70", "--roll", "rabbit,rabbit"], "cannot account"),
    (["settle", "--herd", "rabbit=5", "--stock", "rabbit=56", "--roll", "rabbit,rabbit"],
     "cannot account"),
    (["simulate", "--strategy", "best"], "unknown strategy 'best'"),
    (["simulate", "--players", "2", "--strategy", "naive,hoard,advisor"], "3 strategies for 2"),
    (["simulate", "--players", "7"], "1-6 players"),
    (["simulate", "--variant", "compact", "--players", "1"], "2-6 players"),
    (["simulate", "--games", "0"], "at least 1"),
    (["advise", "rabbit=x"], "bad HERD"),
    # issue 10, point 11: odds refuses a farm and herd that cannot exist together, as settle does
    (["odds", "rabbit=50", "--stock", "rabbit=20"], "cannot account"),
    (["odds", "horse=4", "--stock", "horse=3"], "cannot account"),
    (["advise", "rabbit=40", "--stock", "rabbit=30"], "cannot account"),
    # HERD counts are ASCII digits only, named in the error
    (["odds", "rabbit=١٢"], "'١٢'"),
    (["odds", "rabbit=²"], "'²'"),
    (["settle", "--herd", "sheep=³", "--roll", "rabbit,rabbit"], "'sheep=³'"),
    (["advise", "rabbit=1,sheep=1,pig=1,cow=1,horse=1"], "already complete"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and err.startswith("farmbox ")


def test_simulate_json_is_reproducible(capsys):
    argv = ["simulate", "--strategy", "hoard", "--games", "300", "--seed", "5", "--json"]
    code, out, err = run(capsys, *argv)
    first = json.loads(out)
    assert code == 0
    assert {"games", "mean_turns", "median_turns", "games_per_second"} <= set(first)
    assert first["games"] == 300 and first["seed"] == 5 and first["strategy"] == "hoard"
    _, again, _ = run(capsys, *argv)
    second = json.loads(again)
    assert second["mean_turns"] == first["mean_turns"]
    assert second["median_turns"] == first["median_turns"]


def test_simulate_several_players(capsys):
    code, out, _ = run(capsys, "simulate", "--players", "3", "--strategy", "advisor,naive,hoard",
                       "--games", "60", "--seed", "1", "--json")
    d = json.loads(out)
    assert code == 0 and d["players"] == 3 and len(d["win_rate_per_seat"]) == 3
    assert sum(d["win_rate_per_seat"]) == pytest.approx(1.0, abs=1e-3)
    assert set(d["win_rate_per_strategy"]) == {"advisor", "naive", "hoard"}


def test_simulate_text(capsys):
    code, out, _ = run(capsys, "simulate", "--games", "50", "--seed", "3")
    assert code == 0 and "50 classic games" in out and "seed 3" in out


def test_advise_json_explains_in_numbers(capsys):
    code, out, _ = run(capsys, "advise", "rabbit=14,sheep=2", "--json")
    d = json.loads(out)
    assert code == 0
    t = d["expected_turns"]
    assert t["recommended"] <= t["no_exchange"]
    assert d["expected_turns_saved"] == pytest.approx(t["no_exchange"] - t["recommended"], abs=2e-3)
    assert d["alternatives"][0]["expected_turns"] == pytest.approx(t["recommended"], abs=1e-3)
    if d["exchange"] is not None:
        assert d["exchange_text"] == d["alternatives"][0]["exchange"]


def test_advise_takes_the_win(capsys):
    code, out, _ = run(capsys, "advise", "horse=2", "--json")
    d = json.loads(out)
    assert d["wins_now"] is True and d["expected_turns"]["recommended"] == 1.0
    code, out, _ = run(capsys, "advise", "horse=2")
    assert "you win this turn" in out


def test_advise_respects_the_given_stock(capsys):
    code, out, _ = run(capsys, "advise", "rabbit=30", "--stock", "rabbit=30", "--json")
    d = json.loads(out)
    # The herd holds only rabbits: nothing can be bought.
    assert code == 0 and d["exchange"] is None
