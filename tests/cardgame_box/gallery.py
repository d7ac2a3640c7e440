"""Every card game screen in a fixed example game: the reference PNGs for tests and docs.

    python -m tests.cardgame_box.gallery            # tests/cardgame_box/reference + docs/screens
    python -m tests.cardgame_box.gallery --out DIR  # write them somewhere else
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PIL import Image

import farmbox.firmware.games.cardgame.screens as cg
from farmbox.firmware.box.i18n import LANGUAGES
from farmbox.firmware.games.cardgame.session import (
    RoundResult,
    Scorekeeper,
    Setup,
    TableState,
    Timeline,
    apply,
    score_action,
)
from tests.gallery import write_references

#: Three farmers, fox token: F1 rabbit/sheep/cow, F2 rabbit/chicken/pig, F3 a bit of all.
ROUND_1 = (
    0,                                                      # the token shows the fox
    3, 5, 1, 1, 0, 2, 3, 0, 2, 0, 1, 2, 0, 0, 2, 1,         # F1 ... cabbage 2, confirmed
    2, 4, 0, 1, 1, 2, 0, 1, 0, 2, 3, 1, 0, 0, 1, 1,         # F2
    1, 1, 0, 0, 2, 3, 1, 0, 1, 1, 0, 0, 0, 2, 3, 0, 2, 0, 1,  # F3
    2, 1,                                                   # F2's rabbit given to the fox
)
SETUP = Setup(players=3, predators="token")


def keeper_at(state: TableState, page: int = 0, value: int | None = None) -> Scorekeeper:
    keeper = Scorekeeper(state.setup, timeline=Timeline(state))
    keeper._board = False
    keeper.page = page
    if value is not None:
        keeper.value = value
    return keeper


def _state(answers: tuple[int, ...], setup: Setup = SETUP) -> TableState:
    return TableState(setup, answers=answers)


def _after_round_1() -> TableState:
    state = _state(ROUND_1)
    return apply(state, score_action(state))


def _over(round_2: tuple[int, ...], setup: Setup = SETUP) -> TableState:
    state = _after_round_1() if setup == SETUP else None
    assert state is not None
    state = TableState(state.setup, 2, round_2, state.results, state.carry)
    return apply(state, score_action(state))


#: Round 2 for the winner screens: F2 pulls level with F1 (tie-break) or ahead.
ROUND_2_LEVEL = (1,
                 3, 5, 1, 1, 0, 2, 3, 0, 2, 0, 1, 2, 0, 0, 0, 1,
                 2, 3, 0, 0, 1, 2, 0, 1, 0, 2, 3, 1, 0, 0, 0, 1,
                 1, 1, 0, 0, 2, 3, 1, 0, 1, 1, 0, 0, 0, 2, 3, 0, 2, 0, 1)


def _tied(longest: tuple[int, ...]) -> TableState:
    """A finished game where F1 and F2 both have 31 points; ``longest`` decides."""
    first = RoundResult(("fox",), (2, 1, 0), (12, 14, 8), (14, 15, 8), (3, 3, 2))
    last = RoundResult(("wolf",), (1, 0, 2), (16, 16, 9), (31, 31, 19), longest)
    return TableState(SETUP, 2, (), (first, last), ())


def scenes(language: str) -> dict[str, Callable[[], Image.Image]]:
    """Screen name -> a function drawing it in ``language``."""
    tr = cg.translator(language)
    five = Setup(players=5, advanced_water=True, predators="hard")
    teams = Setup(players=4, teams=2)
    r1 = _after_round_1()

    def entry(answers: tuple[int, ...], value: int, setup: Setup = SETUP) -> Image.Image:
        return cg.render(keeper_at(_state(answers, setup), value=value), language)

    def page(n: int) -> Image.Image:
        return cg.render(keeper_at(_state(ROUND_1), page=n), language)

    team_state = TableState(teams, 2, (), (RoundResult(
        (), (1, 0, 2, 0), (9, 7, 4, 6), (10, 7, 6, 6), (3, 2, 2, 2)),), ())
    return {
        "setup_players": lambda: cg.setup(Setup(players=4), 0, tr),
        "setup_predators": lambda: cg.setup(Setup(players=4, predators="token"), 2, tr),
        "setup_teams": lambda: cg.setup(Setup(players=6, teams=3), 3, tr),
        "token": lambda: entry((), 1),
        "cards": lambda: entry((0,), 3),
        "icons": lambda: entry((0, 3), 5),
        "dogs": lambda: entry((0, 3, 5), 1),
        "water": lambda: entry((0, 3, 5, 1, 1, 0, 2, 3, 0), 2),
        "cats": lambda: entry((2, 3, 1, 0), 1, five),
        "cabbage": lambda: entry(ROUND_1[:15], 2),
        "confirm": lambda: entry(ROUND_1[:16], 1),
        "prey": lambda: entry(ROUND_1[:-2], 2),
        "attack": lambda: page(0),
        "attack_none": lambda: page(2),
        "column": lambda: page(3),
        "water_points": lambda: page(len(keeper_at(_state(ROUND_1)).pages()) - 3),
        "cats_points": lambda: page(len(keeper_at(_state(ROUND_1)).pages()) - 2),
        "totals": lambda: page(len(keeper_at(_state(ROUND_1)).pages()) - 1),
        "scoreboard": lambda: cg.scoreboard(r1, tr),
        "scoreboard_teams": lambda: cg.scoreboard(team_state, tr),
        "winner": lambda: cg.winner(_over(ROUND_2_LEVEL), tr),
        "winner_longest": lambda: cg.winner(_tied((5, 4, 3)), tr),
        "winner_shared": lambda: cg.winner(_tied((4, 4, 3)), tr),
    }


def all_screens() -> dict[str, Image.Image]:
    """``<language>_<screen>`` -> image, for every language."""
    return {f"{lang}_{name}": draw() for lang in LANGUAGES
            for name, draw in scenes(lang).items()}


def main(argv: list[str] | None = None) -> int:
    return write_references(argv, "write the card game's reference screen PNGs", all_screens,
                            "cardgame_box", "cardgame_")


if __name__ == "__main__":
    sys.exit(main())
