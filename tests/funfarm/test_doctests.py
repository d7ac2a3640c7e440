"""The Fun Farm rules' and deck file's docstring examples run (their purity is checked with
the other games' rules in ``tests/rules/test_purity.py``)."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["farmbox.firmware.rules.funfarm.deck",
                                    "farmbox.firmware.rules.funfarm.game",
                                    "farmbox.firmware.games.funfarm.deck_file"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0
