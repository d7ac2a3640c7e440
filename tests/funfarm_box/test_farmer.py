"""The Farmer's button: manual card and dice entry, unsure readings, ending rounds; the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from farmbox.firmware.games.funfarm.demo import run_demo
from farmbox.firmware.games.funfarm.session import DiceSeen, Entry
from farmbox.firmware.rules.funfarm import Phase

from .conftest import open_table


def _actions(journal_dir: Path) -> list[dict]:
    return [json.loads(x)["action"] for x in
            (journal_dir / "funfarm.jsonl").read_text().splitlines()]


def test_one_button_fallback_card_and_dice(tmp_path, pins):
    """No camera: the Farmer's button alone enters the card (tap = next, hold = pick) and
    both dice."""
    t = open_table(tmp_path / "j", 2, camera=False)
    try:
        s = t.session
        t.button("farmer")
        assert s.entry is Entry.CARD
        t.button("farmer")
        t.button("farmer")
        want = s.entry_cards[2]
        t.hw.buttons.hold("farmer")
        t.settle()
        assert s.state.circle == (want,) and s.state.phase is Phase.ROLL
        t.button("farmer")
        assert s.entry is Entry.BLACK
        t.button("farmer")  # black: the second colour
        t.hw.buttons.hold("farmer")
        t.settle()
        assert s.entry is Entry.WHITE
        t.hw.buttons.hold("farmer")  # white: the first colour
        t.settle()
        faces = s.rules.deck
        assert s.state.roll is not None
        assert (s.state.roll.black, s.state.roll.white) == (faces.black_faces[1],
                                                            faces.white_faces[0])
        acts = _actions(t.journal_dir)
        assert acts[-2]["source"] == acts[-1]["source"] == "buttons"
        assert acts[-2]["card"] == faces.cards[want].id
        t.button("farmer")  # ends the round
        assert s.state.phase is Phase.DRAW and _actions(t.journal_dir)[-1]["action"] == "end_round"
    finally:
        t.referee.close()
        t.hw.close()


def test_unsure_reading_is_confirmed_on_the_buttons(table):
    s = table.session
    table.turn(s.rules.deck.cards[s.state.draw_pile[0]].id)
    table.referee.inbox.put(DiceSeen(None, None, t_ns=0))
    table.referee.inbox.put(DiceSeen("blue", "red", 0.5, t_ns=0))
    table.settle()
    assert s.entry is Entry.BLACK and s.state.phase is Phase.ROLL
    table.button("ok")
    table.button("ok")
    assert (s.state.roll.black, s.state.roll.white) == ("blue", "red")


def test_a_card_the_camera_sees_twice_is_drawn_once(table):
    s = table.session
    card = s.rules.deck.cards[s.state.draw_pile[0]].id
    table.turn(card)
    table.turn(card)  # still on the table, now in the circle: nothing new
    assert len(s.state.circle) == 1 and s.state.round == 1


def test_demo_fast_plays_a_whole_game(tmp_path, capsys):
    gif = tmp_path / "ff.gif"
    assert run_demo(4, 2, fast=True, quiet=True, gif_path=gif) == 0
    out = capsys.readouterr().out
    assert out.startswith("player ") and str(gif) in out
    with Image.open(gif) as im:
        assert im.size == (384, 192) and im.n_frames > 20


def test_demo_refuses_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="2-10"):
        run_demo(11, 1, True, True, tmp_path / "x.gif")
    with pytest.raises(ValueError, match="does not exist"):  # the demos' shared check
        run_demo(3, 1, True, True, tmp_path / "nope" / "x.gif")
    assert not list(tmp_path.iterdir())


def test_demo_speaks_polish_when_asked(tmp_path, capsys):
    """``farmbox demo funfarm --language pl``: the first frame asks to turn a card in Polish."""
    from farmbox.firmware.cli import main

    from .test_service import drawn_line, verdict_band

    gifs = {}
    for language in ("pl", "en"):
        gifs[language] = tmp_path / f"{language}.gif"
        assert main(["demo", "funfarm", "--players", "3", "--fast", "--quiet", "--language",
                     language, "--gif", str(gifs[language])]) == 0
    assert capsys.readouterr().out.count("player ") == 2
    for language, words in (("pl", "ODKRYJ KARTĘ"), ("en", "TURN A CARD")):
        with Image.open(gifs[language]) as im:
            first = im.convert("L").resize((128, 64), Image.NEAREST).point(lambda v: 255 * (v > 127))
        assert verdict_band(first) == drawn_line(words)
    with pytest.raises(ValueError, match="--language"):
        run_demo(3, 1, True, True, tmp_path / "x.gif", language="de")
