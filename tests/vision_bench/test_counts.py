"""The vision bench scripts refuse a count out of range in one line, as the farmbox command does."""

import subprocess
import sys

import pytest

from tests.bench_scripts import BENCH, bench_script

counts = bench_script("counts")


@pytest.mark.parametrize("text, least, problem", [("-1", 0, "-1 is less than 0"), ("0", 1, "0 is less than 1"),
                                                  ("x", 1, "'x' is not a whole number"),
                                                  ("2.5", 0, "'2.5' is not a whole number")])
def test_a_count_below_its_least_or_not_whole_is_refused(text, least, problem, capsys):
    ap = counts.Parser(prog="script.py")
    ap.add_argument("--n", type=counts.at_least(least))
    with pytest.raises(SystemExit) as stop:
        ap.parse_args(["--n", text])
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"script.py: error: argument --n: {problem}\n"
    assert ap.parse_args(["--n", str(least)]).n == least


@pytest.mark.parametrize("script, args", [
    ("holdout_cards", ["OUT", "--sets", "0"]),
    ("holdout_dice", ["OUT", "--scenes", "-1"]),
    ("holdout_colour_dice", ["OUT", "--shots", "0"]),
    ("bench_dice", ["--scenes", "0"]),
    ("bench_cards", ["--repeat", "0"]),
])
def test_the_vision_bench_scripts_refuse_a_bad_count_before_any_work(script, args, tmp_path):
    run = subprocess.run([sys.executable, str(BENCH / f"{script}.py"), *args], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith(f"{script}.py: error: argument ")
    assert list(tmp_path.iterdir()) == []


def test_the_look_check_refuses_a_folder_that_is_no_dice_box(tmp_path):
    run = subprocess.run([sys.executable, str(BENCH / "look_check.py"), str(tmp_path / "cards")], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [f"look_check: {tmp_path / 'cards'} is not a box of bench/holdout_dice.py "
                                       "(<style>-<table>-<seed>/enroll)"]
