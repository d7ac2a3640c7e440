"""bench/bench_vision.py scores what the CLI printed against labels.json, for every kind."""

import json
from pathlib import Path

import pytest

from tests.bench_scripts import bench_script

bench = bench_script("bench_vision")


def test_cards_are_scored_as_multisets():
    labels = {"a.jpg": ["x", "x", "y", "z"], "b.jpg": ["y"]}
    results = {"a.jpg": {"cards": [{"id": "x"}, {"id": "y"}, {"id": "w"}, {"id": None}, {"id": "x"}]},
               "b.jpg": {"cards": []}}
    c, confusion, notes = bench.score_cards(labels, results)
    assert (c["cards"], c["exact"], c["wrong"], c["unsure"], c["missed"], c["extra"]) == (5, 3, 1, 1, 1, 1)
    assert confusion == {("z", "w"): 1}
    assert len(notes) == 2


def test_dice_refusals_and_wrong_reads_are_told_apart():
    labels = {"1": ["rabbit", "fox"], "2": ["sheep", "pig"], "3": None,
              "4": {"faces": None, "reason": "die out of view"}, "5": ["cow", "horse"]}
    results = {"1": {"faces": ["rabbit", "fox"], "reason": "ok"},
               "2": {"faces": ["rabbit", "pig"], "reason": "ok"},
               "3": {"faces": ["rabbit", "rabbit"], "reason": "ok"},
               "4": {"faces": None, "reason": "one die hidden"},
               "5": {"faces": None, "reason": "unsure"}}
    c, reasons, confusion, _ = bench.score_dice(labels, results)
    assert (c["scenes"], c["exact"], c["wrong"], c["unsure"]) == (3, 1, 1, 1)
    assert (c["refuse_scenes"], c["refused_right"], c["read_should_refuse"], c["refused_other_reason"]) == (2, 1, 1, 1)
    assert confusion == {("sheep", "rabbit"): 1}
    assert reasons["unsure"] == 1 and reasons["one die hidden (expected die out of view)"] == 1


@pytest.mark.parametrize("got,exact,wrong,unsure", [
    ({"white": "red", "black": "blue"}, 2, 0, 0),
    ({"white": "red", "black": None}, 1, 0, 1),
    ({"white": "green", "black": "blue"}, 1, 1, 0),
])
def test_colour_dice_are_scored_per_die(got, exact, wrong, unsure):
    c, _, _, _ = bench.score_colour_dice({"s": {"white": "red", "black": "blue"}}, {"s": {"dice": got}})
    assert (c["exact"], c["wrong"], c["unsure"], c["rolls_exact"]) == (exact, wrong, unsure, int(exact == 2))


def test_the_bench_runs_the_cli_on_a_real_photo_folder(capsys):
    assert bench.main(["cards", str(Path(__file__).parents[1] / "vision_cards" / "data" / "set-ones"),
                       "--show", "0"]) == 0
    out = capsys.readouterr().out
    assert "cards 54: found 54 (100.0%)" in out and "ms per frame" in out


@pytest.mark.parametrize("kind, make, problem", [
    ("cards", None, "{d}: no such folder"),
    ("cards", {}, "{d}: no labels.json"),
    ("cards", "{bad", "{d}/labels.json: not readable JSON"),
    ("cards", [], "{d}/labels.json: not an object of scene name -> truth"),
    ("cards", {"a.jpg": "cow"}, "{d}/labels.json: a.jpg: not a list of card ids for cards"),
    ("dice", {"a.jpg": ["rabbit"]}, "{d}/labels.json: a.jpg: not [green_face, red_face]"),
    ("dice", {"a.jpg": {"face": None}}, "{d}/labels.json: a.jpg: not [green_face, red_face]"),
    ("colour-dice", {"a.jpg": ["red", "blue"]}, '{d}/labels.json: a.jpg: not {{"white": colour'),
])
def test_a_folder_not_in_the_layout_is_one_line_and_exit_2(kind, make, problem, tmp_path, capsys):
    d = tmp_path / "set"
    if make is not None:
        (d / "enroll").mkdir(parents=True)
        (d / "scenes").mkdir()
        if make != {}:
            (d / "labels.json").write_text(make if isinstance(make, str) else json.dumps(make))
    assert bench.main([kind, str(d)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("bench_vision: " + problem.format(d=d)), err


def test_the_layouts_own_folders_are_asked_for(tmp_path, capsys):
    (tmp_path / "enroll").mkdir()
    (tmp_path / "labels.json").write_text(json.dumps({"a.jpg": ["cow"]}))
    assert bench.main(["cards", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"bench_vision: {tmp_path}: no scenes/ folder\n"
