"""The Fun Farm screens in fixed situations: reference PNGs for the tests, pictures for docs/.

    python -m tests.funfarm_box.gallery            # tests/funfarm_box/reference + docs/screens
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace

from PIL import Image

from farmbox.firmware.box.i18n import LANGUAGES
from farmbox.firmware.box.observations import DiceSeen
from farmbox.firmware.games.funfarm.screens import render, table, translator
from farmbox.firmware.games.funfarm.session import Buzz, FunFarmSession
from farmbox.firmware.rules.funfarm import ColourRoll, FarmState, FunFarmRules, Phase, TieRule
from tests.gallery import write_references

# ---------------------------------------------------------------------------
# The gallery: every screen in a fixed situation (reference PNGs for tests and docs)


def scenes(language: str = "en") -> dict[str, Image.Image]:
    """Screen name -> the screen in ``language`` in a fixed example game (4 players, seeded)."""
    def session(tie: str = "reroll") -> FunFarmSession:
        return FunFarmSession(4, FunFarmRules(tie=TieRule(tie)), rng=random.Random(4),
                              camera=True)

    def play(ses: FunFarmSession, cards: int) -> None:
        """Turn ``cards`` cards; player (round % 4) catches what the black die activates."""
        for k in range(cards):
            top = ses.state.draw_pile[0]
            ses.card_turned(ses.rules.deck.cards[top].id)
            c = ses.rules.deck.cards[top]
            white = next(w for w in ses.rules.deck.white_faces if w != c.white)
            ses.dice_read(ColourRoll(c.black, white), 0)
            if k % 3 != 2:
                ses.buzzes([Buzz(380_000_000 + k * 1_000_000, k % 4)])

    out: dict[str, Image.Image] = {}
    tr = translator(language)
    s = session()
    play(s, 7)
    s.card_turned(s.rules.deck.cards[s.state.draw_pile[0]].id)
    out["funfarm_turned"] = render(s, language)
    s.buzzes([Buzz(5, 1)])
    out["funfarm_false_start"] = render(s, language)
    last = s.state.circle[-1]
    c = s.rules.deck.cards[last]
    s.dice_read(ColourRoll(c.black, c.white), 1_000_000_000)
    out["funfarm_buzz"] = render(s, language)
    s.buzzes([Buzz(1_412_300_000, 2), Buzz(1_412_900_000, 3)])
    out["funfarm_tie"] = render(s, language)
    s.dice_seen(DiceSeen_moving(), 0)
    s.dice_read(ColourRoll(c.black, c.white), 2_000_000_000)
    s.buzzes([Buzz(2_397_000_000, 3), Buzz(2_450_000_000, 0)])
    out["funfarm_caught"] = render(s, language)
    s.card_turned(s.rules.deck.cards[s.state.draw_pile[0]].id)
    miss = next(ColourRoll(b, w) for b in s.rules.deck.black_faces
                for w in s.rules.deck.white_faces
                if not any(s.rules.activates(x, ColourRoll(b, w)) for x in s.state.circle))
    s.dice_read(miss, 3_000_000_000)
    out["funfarm_nothing_on"] = render(s, language)
    s.buzzes([Buzz(3_600_000_000, 0)])
    out["funfarm_wrong_buzz"] = render(s, language)
    s.press("farmer")  # the Farmer closes the round ...
    s.press("farmer")  # ... and enters the next card by hand
    s.press("next")
    out["funfarm_card_entry"] = render(s, language)
    s.press("back")
    s.card_turned(s.rules.deck.cards[s.state.draw_pile[0]].id)
    s.press("farmer")
    s.press("next")
    out["funfarm_black_die"] = render(s, language)
    s.press("ok")
    s.press("next")
    s.press("next")
    out["funfarm_white_die"] = render(s, language)
    d = session("deal")
    play(d, 24)
    while not d.state.over:
        d.press("farmer")
        if d.state.phase is Phase.DRAW and d.state.draw_pile:
            d.card_turned(d.rules.deck.cards[d.state.draw_pile[0]].id)
            d.dice_read(ColourRoll(d.rules.deck.black_faces[0], d.rules.deck.white_faces[0]), 0)
            d.buzzes([Buzz(1, d.state.contenders[0])])
    out["funfarm_winner"] = render(d, language)
    out["funfarm_crowded"] = table(_crowded(), FunFarmRules(), None, False, tr)
    return out


def DiceSeen_moving() -> DiceSeen:
    return DiceSeen(None, None)


def _crowded() -> FarmState:
    """Ten players, 20 cards in the circle (more than two rows hold)."""
    piles = ((0, 1), (), (2,), (), (), (3,), (), (), (), ())
    circle = tuple(range(4, 24))
    return replace(FarmState((), circle, piles, farmer=6, contenders=tuple(range(10))),
                   phase=Phase.DRAW, round=20)


def all_screens() -> dict[str, Image.Image]:
    """Every screen in every language: ``funfarm_<screen>`` in English (the names the English
    references always had), ``funfarm_<lang>_<screen>`` in the others."""
    out: dict[str, Image.Image] = {}
    for lang in LANGUAGES:
        prefix = "funfarm_" if lang == "en" else f"funfarm_{lang}_"
        out.update({prefix + name.removeprefix("funfarm_"): image
                    for name, image in scenes(lang).items()})
    return out


def main(argv: list[str] | None = None) -> int:
    """Rewrite tests/funfarm_box/reference (1x) and docs/screens (3x)."""
    return write_references(argv, "write the Fun Farm reference screen PNGs", all_screens,
                            "funfarm_box", "")


if __name__ == "__main__":
    sys.exit(main())
