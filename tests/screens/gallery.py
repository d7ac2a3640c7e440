"""Every screen in a fixed example situation: the reference PNGs for tests and docs.

    python -m tests.screens.gallery            # tests/screens/reference + docs/screens (3x)
    python -m tests.screens.gallery --out DIR  # write them somewhere else
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace

from PIL import Image

import farmbox.firmware.games.superfarmer.screens as sf
from farmbox.firmware.box.i18n import LANGUAGES, translator
from farmbox.firmware.games.superfarmer.advice import offers, prepare
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT
from farmbox.firmware.rules.superfarmer.dice import Face, Roll
from farmbox.firmware.rules.superfarmer.game import Game, GameState
from farmbox.firmware.rules.superfarmer.herd import Herd
from tests.gallery import write_references


def _midgame() -> GameState:
    farms = (Herd.parse("rabbit=7,sheep=2,pig=1,small_dog=1"), Herd.parse("rabbit=3,cow=1"))
    return GameState(CLASSIC, farms, CLASSIC.stock_for(*farms), current=0, turns=(11, 11))


def _after(roll: str, farm: str) -> GameState:
    farms = (Herd.parse(farm), Herd.parse("rabbit=2"))
    g = Game(state=GameState(CLASSIC, farms, CLASSIC.stock_for(*farms), turns=(4, 4)))
    g.roll(Roll.parse(roll))
    return g.state


def _won() -> GameState:
    farms = (Herd.parse("rabbit=1,sheep=1,pig=1,cow=1,horse=1"), Herd.parse("rabbit=9,sheep=2"),
             Herd.parse("rabbit=4"))
    return GameState(COMPACT, farms, COMPACT.stock_for(*farms), current=1, places=(0,),
                     turns=(30, 29, 29))


def scenes(language: str) -> dict[str, Callable[[], Image.Image]]:
    """Screen name -> a function drawing it in ``language``."""
    tr = translator(language)
    prepare(CLASSIC, wait=True)  # the menu's star is the advisor's pick
    mid = _midgame()
    menu = offers(mid)
    compact = GameState(COMPACT, (Herd.parse("rabbit=8,sheep=1"), Herd.parse("rabbit=1,pig=2")),
                        COMPACT.stock_for(Herd.parse("rabbit=8,sheep=1"),
                                          Herd.parse("rabbit=1,pig=2")), turns=(6, 6))
    partner = next(o for o in offers(compact) if o.partner is not None)
    return {
        "farm": lambda: sf.farm(mid, tr),
        "farm_no_camera": lambda: sf.farm(mid, tr, camera_ok=False),
        "stock": lambda: sf.stock(mid, tr),
        "roll": lambda: sf.roll_result(_after("sheep,rabbit", "rabbit=5,sheep=3"), tr),
        "fox": lambda: sf.predator(_after("rabbit,fox", "rabbit=9,sheep=1"), tr),
        "wolf": lambda: sf.predator(_after("wolf,pig", "rabbit=4,sheep=3,pig=2,cow=1"), tr),
        "dog_saved": lambda: sf.predator(_after("wolf,rabbit", "rabbit=4,sheep=3,big_dog=1"), tr),
        "trade": lambda: sf.trade(mid, menu, 0, tr),
        "trade_partner": lambda: sf.trade(compact, [partner], 0, tr),
        "consent": lambda: sf.consent(compact, partner, tr),
        "green_die": lambda: sf.dice_entry(mid, False, 1, None, tr),
        "red_die": lambda: sf.dice_entry(mid, True, 4, Face.SHEEP, tr),
        "confirm": lambda: sf.confirm(mid, (Face.PIG, Face.HORSE), 0.62, tr),
        "winner": lambda: sf.winner(_won(), tr),
        "winner_over": lambda: sf.winner(replace(_won(), over=True), tr),
        "new_game": lambda: sf.new_game(tr),
        "camera_gone": lambda: sf.camera_gone(tr, "no frame for 1.6 s"),
        "journal": lambda: sf.journal_repaired(tr, 1, 142),
        "progress": lambda: sf.progress(tr, tr("REPLAYING JOURNAL"), 0.4),
        "table_view": lambda: sf.table_view(tr, "http://192.168.1.23:8080/"),
        "table_view_off": lambda: sf.table_view(tr, None),
        "farm_named": lambda: sf.farm(mid, tr, names=["Ala", "Bolek"]),
    }


def all_screens() -> dict[str, Image.Image]:
    """``<language>_<screen>`` -> image, for every language."""
    return {f"{lang}_{name}": draw() for lang in LANGUAGES
            for name, draw in scenes(lang).items()}


def main(argv: list[str] | None = None) -> int:
    return write_references(argv, "write the reference screen PNGs", all_screens, "screens",
                            "superfarmer_")


if __name__ == "__main__":
    sys.exit(main())
