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
from farmbox.firmware.games.funfarm.screens import render, table, translator, winner
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
    s.dice_seen(DiceSeen_moving(), 1_950_000_000)
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
    out.update(_races(language))
    out["funfarm_tiebreak_winner"] = winner(_after_tiebreak(), tr)
    out["funfarm_shared"] = winner(_shared(), tr)
    return out


def _race_session(language: str) -> FunFarmSession:
    """Four cards turned; the dice (yellow, purple) activate two sheep and a pig: two races,
    the sheep first (two cards), then the pig."""
    s = FunFarmSession(4, FunFarmRules(), rng=random.Random(4), camera=True)
    deck = s.rules.deck
    for cid in ("horse-1", "sheep-3", "pig-1", "sheep-2"):
        s.card_turned(cid)
        if cid != "sheep-2":
            circle = s.state.circle
            miss = next(ColourRoll(b, w) for b in deck.black_faces for w in deck.white_faces
                        if not any(s.rules.activates(x, ColourRoll(b, w)) for x in circle))
            s.dice_read(miss, 0)
    s.dice_seen(DiceSeen(None, None), 2_000_000_000)      # the dice are thrown ...
    s.dice_read(ColourRoll("yellow", "purple"), 2_300_000_000)  # ... and read
    return s


def _races(language: str) -> dict[str, Image.Image]:
    """The multi-animal race: open, the first animal taken, both taken, one escaped; a buzz
    held while the dice roll."""
    out = {}
    s = _race_session(language)
    out["funfarm_race_open"] = render(s, language)
    s.buzzes([Buzz(2_412_000_000, 2)])                    # P3 takes the two sheep
    out["funfarm_race_first"] = render(s, language)
    s.buzzes([Buzz(2_430_000_000, 0)])                    # P1 the pig, 18 ms behind P3
    s.buzzes([Buzz(2_455_000_000, 1)])                    # P2 too late: P1 was 25 ms ahead
    out["funfarm_race_taken"] = render(s, language)
    c = _race_session(language)
    c.buzzes([Buzz(2_412_000_000, 2)])
    c.tick(100.0)
    c.tick(108.5)                                          # 8 s later the race closes
    out["funfarm_race_escaped"] = render(c, language)
    h = _race_session(language)
    h.card_turned("goat-1")
    h.dice_seen(DiceSeen(None, None), 5_000_000_000)      # rolling: a buzz is held
    h.buzzes([Buzz(5_350_000_000, 1), Buzz(5_390_000_000, 3)])
    out["funfarm_held"] = render(h, language)
    return out


def _after_tiebreak() -> FarmState:
    """Players 1 and 2 tied on 6 cards; player 1 won the first tie-break round."""
    piles = ((0,), (), (1, 2, 3, 4), (5, 6, 7))
    return FarmState(draw_pile=tuple(range(8, 19)), circle=(19, 20, 21, 22), piles=piles,
                     farmer=2, phase=Phase.OVER, round=25, contenders=(0, 1), tiebreaks=1,
                     winner=0, escaped=(23,), game_scores=(6, 6, 4, 3))


def _shared() -> FarmState:
    """Every card escaped or caught, players 2 and 3 level: nothing left for a tie-break."""
    piles = ((0, 1), (2, 3, 4), (5, 6, 7), ())
    return FarmState(draw_pile=(), circle=(), piles=piles, farmer=1, phase=Phase.OVER,
                     round=24, contenders=(1, 2), escaped=tuple(range(8, 24)),
                     game_scores=(2, 3, 3, 0))


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
