"""The enrollment screens in fixed situations: reference PNGs for the tests, pictures for docs/.

    python -m tests.enroll_box.gallery
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PIL import Image

from farmbox.firmware.box.i18n import LANGUAGES
from farmbox.firmware.cli.enroll import deck_cards, die_picture
from farmbox.firmware.games.enroll import shot_screens
from farmbox.firmware.games.enroll.screens import (
    building,
    capturing,
    check,
    clear_table,
    done,
    error,
    example_photo,
    prompt,
    review,
    translator,
    weak_face_names,
)
from farmbox.firmware.games.enroll.shots import Subject
from tests.gallery import write_references


def scenes(language: str) -> dict[str, Callable[[], Image.Image]]:
    """Screen name -> a function drawing it in ``language``."""
    tr = translator(language)
    return {
        "clear": lambda: clear_table(tr, 0, 20),
        "prompt_green": lambda: prompt(tr, "wolf", "green", 1, 2, 18, 20),
        "prompt_red": lambda: prompt(tr, "rabbit", "red", 2, 2, 1, 20),
        "capture": lambda: capturing(tr, 5, 20),
        "review": lambda: review(tr, example_photo(), "cow", "green", 7, 20),
        "review_table": lambda: review(tr, example_photo(), None, None, 0, 20),
        "no_die": lambda: error(tr, "NO DIE FOUND IN THE FRAME"),
        "camera_gone": lambda: error(tr, "CAMERA GONE", "camera feed: unplugged"),
        "building": lambda: building(tr, 0.45),
        "done": lambda: done(tr, 20, 0.6, 0.06),
        "check": lambda: check(tr, weak_face_names(tr, [("pig", "green"), ("sheep", "red")], [1, 2])),
        "check_many": lambda: check(tr, weak_face_names(tr, [("rabbit", "green"), ("sheep", "green"),
                                                             ("pig", "red"), ("horse", "red"),
                                                             ("fox", "red")])),
        "done_weak": lambda: done(tr, 20, 0.55, 0.12, still_weak=2),
        "done_unchecked": lambda: done(tr, 10, 0.6, 0.06, unchecked=4),
        **shot_scenes(tr),
    }


def shot_scenes(tr) -> dict[str, Callable[[], Image.Image]]:
    """The card and colour-dice enrollment's screens."""
    _, picture, _ = deck_cards(None)
    sheep = Subject("sheep-1", "SHEEP-1", picture("sheep-1"))
    blue = Subject("black/blue", "BLUE ON BLACK", die_picture("black", "blue"))
    weak = ["GOAT-2", "PIG-3", "COW-1", "HORSE-4", "CHICK-2"]
    return {
        "cards_clear": lambda: clear_table(tr, 0, 72, shot_screens.TITLES["cards"][0]),
        "cards_prompt": lambda: shot_screens.prompt(tr, "cards", sheep, 2, 3, 4, 72),
        "cards_review": lambda: shot_screens.review_shot(tr, example_photo(), sheep, 5, 72),
        "cards_no_card": lambda: error(tr, "NO CARD FOUND"),
        "cards_building": lambda: shot_screens.learning(tr, "cards", 0.6),
        "cards_weak": lambda: shot_screens.weak(tr, weak),
        "cards_done": lambda: shot_screens.done(tr, "cards", 24, 72, 0),
        "cards_done_weak": lambda: shot_screens.done(tr, "cards", 24, 72, 2),
        "colour_clear": lambda: clear_table(tr, 0, 36, "ENROLL COLOUR DICE"),
        "colour_prompt": lambda: shot_screens.prompt(tr, "colour-dice", blue, 1, 3, 12, 36),
        "colour_weak": lambda: shot_screens.weak(tr, ["RED ON WHITE"]),
        "colour_done": lambda: shot_screens.done(tr, "colour-dice", 12, 36, 0),
    }


def all_screens() -> dict[str, Image.Image]:
    """``<language>_<screen>`` -> image, for every language."""
    return {f"{lang}_{name}": draw() for lang in LANGUAGES for name, draw in scenes(lang).items()}


def main(argv: list[str] | None = None) -> int:
    return write_references(argv, "write the enrollment screens' reference PNGs", all_screens,
                            "enroll_box", "enroll_")


if __name__ == "__main__":
    sys.exit(main())
