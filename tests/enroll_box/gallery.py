"""The enrollment screens in fixed situations: reference PNGs for the tests, pictures for docs/.

    python -m tests.enroll_box.gallery
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PIL import Image

from farmbox.firmware.box.i18n import LANGUAGES
from farmbox.firmware.games.enroll.screens import (
    building,
    capturing,
    clear_table,
    done,
    error,
    example_photo,
    prompt,
    review,
    translator,
)
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
    }


def all_screens() -> dict[str, Image.Image]:
    """``<language>_<screen>`` -> image, for every language."""
    return {f"{lang}_{name}": draw() for lang in LANGUAGES for name, draw in scenes(lang).items()}


def main(argv: list[str] | None = None) -> int:
    return write_references(argv, "write the enrollment screens' reference PNGs", all_screens,
                            "enroll_box", "enroll_")


if __name__ == "__main__":
    sys.exit(main())
