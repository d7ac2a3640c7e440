"""The examples in the hardware and settings docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["farmbox.firmware.box.config", "hw", "farmbox.hw.buttons", "farmbox.hw.patterns", "farmbox.hw.pins", "farmbox.hw.display", "farmbox.hw.camera"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
