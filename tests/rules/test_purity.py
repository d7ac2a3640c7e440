"""The rules layer stays pure (issue 9): no file I/O, no clock, no environment.

Checked on the source of Super Farmer, the card game and Fun Farm: the modules import
nothing that reads the clock or the environment or writes files, and call no ``open()``.
(The card game's and Fun Farm's ``load_deck`` read their own packaged ``deck.toml`` through
``importlib.resources``, read-only package data; an owner's Fun Farm deck file is read in
``games/funfarm/deck_file.py``.)
"""

import ast
import sys
from pathlib import Path

import pytest

import farmbox.firmware.rules as rules

ROOT = Path(rules.__file__).parent
#: Modules that touch the clock, the environment or the file system.
FORBIDDEN = {"os", "time", "datetime", "tempfile", "pathlib", "shutil", "glob", "socket",
             "subprocess", "sqlite3", "logging", "threading"}
PURE = sorted([*ROOT.glob("superfarmer/*.py"), *ROOT.glob("cardgame/*.py"),
               *ROOT.glob("funfarm/*.py"), ROOT / "errors.py", ROOT / "__init__.py"])


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_module_is_pure(path):
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
            # numpy only where the solitaire model needs it
            allowed = ("numpy", "farmbox") if "superfarmer" in path.parts else ("farmbox",)
            assert top in sys.stdlib_module_names or top in allowed, f"{path.name} imports {name}"
            if top == "farmbox":
                assert name.startswith("farmbox.firmware.rules"), f"{path.name} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("open", "input", "print"), f"{path.name} calls {node.func.id}()"
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("environ", "getenv", "perf_counter", "process_time",
                                     "monotonic", "monotonic_ns",
                                     "read_bytes", "write_bytes", "write_text"), \
                f"{path.name} uses .{node.attr}"


def test_the_solitaire_table_lives_in_the_box():
    # The rules turn a model into bytes; finding, reading and writing files is the box's.
    text = (ROOT / "superfarmer" / "solitaire.py").read_text()
    assert "XDG_CACHE_HOME" not in text and "savez" in text and "BytesIO" in text
