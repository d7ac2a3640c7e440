"""The examples in the rules modules' docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["herd", "dice", "superfarmer", "game", "odds", "strategies", "simulate", "solitaire",
           "advisor"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"farmbox.firmware.rules.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
