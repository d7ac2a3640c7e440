"""The Fun Farm rules stay pure: no clock, no environment, no files but the package's own
read-only ``deck.toml`` (an owner's deck file is read in ``games/funfarm/deck_file.py``)."""

import ast
import sys
from pathlib import Path

import pytest

import farmbox.firmware.rules.funfarm as funfarm

ROOT = Path(funfarm.__file__).parent
FORBIDDEN = {"os", "time", "datetime", "tempfile", "pathlib", "shutil", "glob", "socket",
             "subprocess", "sqlite3", "logging", "threading"}


@pytest.mark.parametrize("path", sorted(ROOT.glob("*.py")), ids=lambda p: p.name)
def test_fun_farm_rules_module_is_pure(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            top = name.split(".")[0]
            assert top not in FORBIDDEN, f"{path.name} imports {name}"
            assert top in sys.stdlib_module_names or top == "farmbox", f"{path.name} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("open", "input", "print"), f"{path.name} calls {node.func.id}()"
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("environ", "getenv", "monotonic", "monotonic_ns",
                                     "read_bytes", "write_bytes", "write_text"), \
                f"{path.name} uses .{node.attr}"


@pytest.mark.parametrize("module", ["farmbox.firmware.rules.funfarm.deck",
                                    "farmbox.firmware.rules.funfarm.game",
                                    "farmbox.firmware.games.funfarm.deck_file"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0
