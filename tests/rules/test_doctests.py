"""The examples in the rules modules' docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["superfarmer", "superfarmer.herd", "superfarmer.dice", "superfarmer.variants",
           "superfarmer.settle", "superfarmer.exchanges", "superfarmer.game", "superfarmer.odds",
           "superfarmer.strategies", "superfarmer.simulate", "superfarmer.solitaire",
           "superfarmer.advisor"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"farmbox.firmware.rules.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
