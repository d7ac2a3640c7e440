"""Suite-wide settings.

Hypothesis: no per-example deadline (the 2-core CI machine is shared, and a slow example is
not a failure: timings belong in bench/), and under CI the examples are derandomised so a
run can be repeated exactly.  The longest test files are collected first (see
:data:`LONGEST_FIRST`).
"""

import os

from hypothesis import settings

settings.register_profile("farmbox", deadline=None, print_blob=True)
settings.register_profile("farmbox-ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("farmbox-ci" if os.environ.get("CI") else "farmbox")


#: The test files that take longest (their tests' durations summed, ``pytest --durations=0``,
#: 2026-12-03: 200-50 s each, most of it the independent renderers drawing whole boxes), in that
#: order.  ``make test`` hands whole files to its two workers in the order collected; these go
#: first, so the two do not end with one of them alone on a long file.
LONGEST_FIRST = (
    "vision_cards/test_colour_dice.py", "vision_cards/test_colour_dice_cards.py",
    "vision_cards/test_empty_table.py", "vision_cards/test_lens_and_cut_cards.py",
    "vision_cards/test_colour_dice_boxes.py", "enroll_box/test_check.py",
    "vision_cards/test_holdout_render.py", "vision_dice/test_leaning_camera.py",
    "vision_cards/test_cards_on_stripes.py", "service/test_camera_game.py",
)


def pytest_collection_modifyitems(items: list) -> None:
    """Run the files of :data:`LONGEST_FIRST` first (the rest in the order collected)."""
    rank = {f"tests/{name}": i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
