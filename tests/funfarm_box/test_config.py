"""``[funfarm]`` in the box's settings: the options reach the referee, bad values and bad
deck files are one line and exit status 2 from ``farmbox run``, before any hardware opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from farmbox.firmware.box.config import ConfigError, load_config, load_config_text
from farmbox.firmware.cli import main
from farmbox.firmware.games.funfarm.box import open_box, rules_of
from farmbox.firmware.rules.funfarm import BuzzTakes, Escaped, TieRule

BASE = """
[hardware]
simulated = true
[display]
driver = "dummy"
[game]
mode = "funfarm"
players = 3
[journal]
dir = "{journal}"
"""


def _config_file(tmp_path: Path, funfarm: str) -> Path:
    path = tmp_path / "farmbox.toml"
    path.write_text(BASE.format(journal=tmp_path / "journal") + "[funfarm]\n" + funfarm)
    return path


def test_the_defaults_are_one_animal_escapes_leave_reroll_8_s():
    ff = load_config().funfarm
    assert (ff.tie, ff.buzz_takes, ff.escaped, ff.race_time, ff.deck) == \
        ("reroll", "one_animal", "leave", 8.0, "")
    rules = rules_of(load_config())
    assert (rules.tie, rules.buzz_takes, rules.escaped) == \
        (TieRule.REROLL, BuzzTakes.ONE_ANIMAL, Escaped.LEAVE)
    assert len(rules.deck) == 24


def test_the_options_reach_the_referee(tmp_path, pins):
    path = _config_file(tmp_path, 'tie = "deal"\nbuzz_takes = "all"\nescaped = "stay"\n'
                                  'race_time = 3.5\n')
    referee = open_box(load_config(path))
    try:
        s = referee.session
        assert (s.rules.tie, s.rules.buzz_takes, s.rules.escaped, s.race_time) == \
            (TieRule.DEAL, BuzzTakes.ALL, Escaped.STAY, 3.5)
    finally:
        referee.close()


@pytest.mark.parametrize("line,message", [
    ('tie = "coin"', "[funfarm] tie: unknown value 'coin' (choose reroll, deal)"),
    ('buzz_takes = "two"', "[funfarm] buzz_takes: unknown value 'two' (choose one_animal, all)"),
    ('escaped = "gone"', "[funfarm] escaped: unknown value 'gone' (choose leave, stay)"),
    ("race_time = -1", "[funfarm] race_time must be 0-600 seconds"),
    ('race_time = "8"', "[funfarm] race_time must be a number, got '8'"),
    ("ties = 1", "[funfarm] unknown key 'ties'"),
])
def test_bad_values_are_one_line(line, message):
    with pytest.raises(ConfigError) as info:
        load_config_text("[funfarm]\n" + line + "\n", source="farmbox.toml")
    assert str(info.value).startswith("farmbox.toml: " + message) and "\n" not in str(info.value)


@pytest.mark.parametrize("deck,message", [
    ('cards = ["x"]\n[dice]\nblack = ["red", "blue"]\nwhite = ["red", "blue"]\n',
     "card 1 must be a table like"),
    ('cards = [{ id = "pig-1", animal = "pig", black = "mauve", white = "red" }]\n'
     '[dice]\nblack = ["red", "blue"]\nwhite = ["red", "blue"]\n',
     "card 1 ('pig-1'): 'mauve' is not on the black die (red, blue)"),
    (None, "no such file"),
])
def test_farmbox_run_refuses_a_bad_deck_file_in_one_line(tmp_path, capsys, deck, message):
    deck_path = tmp_path / "my-deck.toml"
    if deck is not None:
        deck_path.write_text(deck)
    path = _config_file(tmp_path, f'deck = "{deck_path}"\n')
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err, err
    assert err.startswith(f"farmbox run: error: {path}: [funfarm] deck: deck file {deck_path}")
    assert not (tmp_path / "journal").exists()   # refused before anything was opened


def test_farmbox_run_refuses_a_bad_option_in_one_line(tmp_path, capsys):
    path = _config_file(tmp_path, 'escaped = "away"\n')
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"farmbox run: error: {path}: [funfarm] escaped: unknown value 'away' "
                   f"(choose leave, stay)")


def test_a_good_owner_deck_is_used_and_journaled(tmp_path, pins):
    deck_path = tmp_path / "my-deck.toml"
    deck_path.write_text('cards = [\n'
                         '{ id = "a", animal = "pig", black = "red", white = "blue" },\n'
                         '{ id = "b", animal = "cow", black = "blue", white = "red" },\n'
                         '{ id = "c", animal = "cow", black = "red", white = "red" },\n]\n'
                         '[dice]\nblack = ["red", "blue"]\nwhite = ["red", "blue"]\n')
    referee = open_box(load_config(_config_file(tmp_path, f'deck = "{deck_path}"\n')))
    try:
        assert [c.id for c in referee.session.rules.deck.cards] == ["a", "b", "c"]
    finally:
        referee.close()
    deck_path.write_text("not a deck any more")  # edited after the game began: the journal
    referee = open_box(load_config(_config_file(tmp_path, "")))  # has its deck
    try:
        assert len(referee.session.rules.deck) == 3 and referee.journal.seq == 1
    finally:
        referee.close()
