"""The examples in the hardware and settings docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["firmware.config", "hw", "hw.buttons", "hw.patterns", "hw.pins", "hw.display", "hw.camera"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
