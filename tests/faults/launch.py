"""Run a farmbox service process with faults injected below it (not in the code under test).

    python -m tests.faults.launch PLAN -- MODULE ARGS...

``PLAN`` is JSON:

- ``{"i2c": {"fail": [3, 4, 5], "errno": 121}}``: ``smbus2.SMBus`` is a
  :class:`tests.faults.bus.FlakyBus` failing those transfers (luma's real i2c code runs);
  ``"down": true``: every transfer fails (the OLED is unplugged);
- ``{"journal": {"file": "superfarmer.jsonl", "write": [5, 6], "fsync": [9], "errno": 28}}``:
  the OS calls ``os.write`` / ``os.fsync`` on that file fail on those calls (counted per
  file), with that errno (28 ENOSPC, 5 EIO); ``"full_after": N`` makes every write after
  the N-th fail until ``"free_after"`` more calls were refused;
- ``{"bug": "module:Class.method"}``: that method raises KeyError (a bug, not bad input).

MODULE (``farmbox.firmware.cli`` or ``farmbox.firmware.games.superfarmer.box``) then runs
with ARGS as its ``main``; the exit status is its return value.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any


def _fd_name(fd: int) -> str:
    try:
        return os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return ""


def install_journal_faults(plan: dict[str, Any]) -> None:
    """Wrap ``os.write`` and ``os.fsync`` so that calls on the journal file fail as planned."""
    name = plan.get("file", "superfarmer.jsonl")
    code = int(plan.get("errno", 28))
    fail = {"write": set(plan.get("write", ())), "fsync": set(plan.get("fsync", ()))}
    full_after = plan.get("full_after")
    free_after = int(plan.get("free_after", 0))
    calls = {"write": 0, "fsync": 0}
    refused = [0]
    real = {"write": os.write, "fsync": os.fsync}

    def failing(kind: str, fd: int) -> bool:
        if _fd_name(fd) != name:
            return False
        calls[kind] += 1
        if calls[kind] in fail[kind]:
            return True
        if kind == "write" and full_after is not None and calls["write"] > full_after \
                and refused[0] < free_after:
            refused[0] += 1
            return True
        return False

    def write(fd: int, data: Any) -> int:
        if failing("write", fd):
            if code == 28 and len(data) > 1:  # a full disk takes part of the line first
                real["write"](fd, bytes(data[: len(data) // 2]))
            raise OSError(code, os.strerror(code))
        return real["write"](fd, data)

    def fsync(fd: Any) -> None:
        fileno = fd if isinstance(fd, int) else fd.fileno()
        if failing("fsync", fileno):
            raise OSError(code, os.strerror(code))
        real["fsync"](fd)

    os.write = write  # type: ignore[assignment]
    os.fsync = fsync  # type: ignore[assignment]


def install_i2c_faults(plan: dict[str, Any]) -> None:
    """Make ``smbus2.SMBus(port)`` a bus that fails the planned transfers."""
    import smbus2

    from tests.faults.bus import FlakyBus

    bus = FlakyBus(set(plan.get("fail", ())), int(plan.get("errno", 121)))
    bus.down = bool(plan.get("down", False))

    def open_bus(port: int) -> FlakyBus:
        return bus

    smbus2.SMBus = open_bus  # type: ignore[assignment,misc]


def install_bug(target: str) -> None:
    """Make ``module:Class.method`` raise KeyError (a bug deep in the code)."""
    module_name, _, attr = target.partition(":")
    owner_name, _, method = attr.partition(".")
    owner = getattr(importlib.import_module(module_name), owner_name)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("planted bug")

    setattr(owner, method, broken)


def main(argv: list[str]) -> int:
    plan = json.loads(argv[0])
    assert argv[1] == "--", "PLAN -- MODULE ARGS..."
    module, args = argv[2], argv[3:]
    if "journal" in plan:
        install_journal_faults(plan["journal"])
    if "i2c" in plan:
        install_i2c_faults(plan["i2c"])
    if "bug" in plan:
        install_bug(plan["bug"])
    sys.argv = [module, *args]
    return int(importlib.import_module(module).main(args) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
