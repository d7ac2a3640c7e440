"""The scripts of ``bench/`` as modules, for tests that drive them (they are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_script(name: str) -> ModuleType:
    """``bench/<name>.py`` imported once under ``name`` (with ``bench/`` on the import path,
    as when it is run: the scripts share ``bench/counts.py``)."""
    if name in sys.modules:
        return sys.modules[name]
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


#: Boxes of ``bench/holdout_colour_dice.py`` that tests in more than one file read (seed, mark
#: style, table: the most throws any test reads of it).  Each is rendered whole once a run,
#: whatever a test asks first; a test reads its first throws (a box's throws do not depend on
#: how many follow).
SHARED_BOXES = {(2, "painted", "felt"): 100, (6, "painted", "linen"): 100, (24, "pips", "felt"): 70}


def colour_dice_box(tmp_path: Path, seed: int, style: str, kind: str,
                    scenes: int) -> tuple[Path, dict[str, dict[str, str]]]:
    """A box of ``bench/holdout_colour_dice.py`` (3 enrollment shots a colour, no cards) with
    ``scenes`` throws or more, rendered once a run and shared by the tests and by the two
    workers of ``make test`` (beside ``tmp_path``, a test's own folder, in the run's temporary
    folder; a file lock keeps a second worker from rendering it again): (its folder, the
    labels of its first ``scenes`` throws).  Read it, write nothing into it."""
    import fcntl
    import json
    import os

    most = SHARED_BOXES.get((seed, style, kind), scenes)
    assert scenes <= most, f"{(seed, style, kind)} is shared with {most} throws: raise SHARED_BOXES"
    # the workers' own folders lie in one folder of the run (pytest-xdist): the boxes go there
    base = tmp_path.parent      # the run's temporary folder, or under pytest-xdist the worker's
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "colour-dice-boxes"
    root.mkdir(exist_ok=True)
    folder = root / f"{style}-{kind}-{seed}-{most}"
    with open(root / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "centres.json").is_file():   # written last
            bench_script("holdout_colour_dice").write_set(folder, seed, style, kind, most, 3, progress=False)
    labels = json.loads((folder / "labels.json").read_text())
    return folder, {f"throw-{i:04d}.jpg": labels[f"throw-{i:04d}.jpg"] for i in range(scenes)}
