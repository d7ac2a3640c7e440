"""The advisor's shipped tables, read once for the whole folder through the box.

The rules solve a model they do not have in memory (pure, about 20 s); the box
(``farmbox.firmware.box.solved_tables``) reads the shipped tables, as the CLI and
the service do before the advisor plays.
"""

import pytest

from farmbox.firmware.box import solved_tables
from farmbox.firmware.rules.superfarmer import CLASSIC, COMPACT


@pytest.fixture(autouse=True, scope="session")
def shipped_advisor_tables() -> None:
    for rules in (CLASSIC, COMPACT):
        solved_tables.model_for(rules)
