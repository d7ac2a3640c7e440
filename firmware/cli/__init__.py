"""The ``farmbox`` command line.

Each command group lives in its own module with a ``register(subparsers)``
function. Bad input is one line on stderr and exit status 2; a bug is a traceback and
exit status 1 (so systemd restarts the service, and the traceback is in its journal).

Bad input is what the project itself says is wrong (:func:`is_bad_input`):

- its own error classes: :class:`CommandError` and every ValueError subclass the project
  defines (ConfigError, SettingsError, RulesError and its kinds, JournalError,
  NotARegularFile, vision's ModelError, ...);
- a ValueError or OSError that a ``raise`` statement of the project names (``raise
  ValueError("--games must be at least 1")``, ``raise OSError("no samples folder X")``);
- an OSError about a file the user named (missing, not allowed, a folder, a loop).

Anything else (a TypeError, a KeyError, a ValueError from inside a library, an I/O error
such as EIO or a failing journal write) is a bug or a fault, not the user's input. An
argparse error is one line too (no usage block), exit status 2. Library chatter (OpenCV's
log, Python warnings) does not reach stderr.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import linecache
import os
import sys
import traceback
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import NoReturn

# OpenCV reads its log level when it loads: quiet before any command imports it.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
#: The math libraries' threads, set before any command imports numpy (they read it once, when
#: they load): one each, as the service's unit sets them.  The readers' matrix products are
#: small (a frame's dozen cards against the deck); OpenBLAS's threads, started for each, spin
#: waiting on the other cores: 40 card frames through ``farmbox vision read cards`` took 5.5 s
#: of CPU with its default threads on this 2-core machine and 2.8 s with one (the same
#: readings, wall time 3.2 against 2.8 s).  An owner's own setting is kept.
MATH_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
for _name in MATH_THREADS:
    os.environ.setdefault(_name, "1")

#: Modules that add sub-commands, in help order.
COMMAND_MODULES = (
    "farmbox.firmware.cli.superfarmer",
    "farmbox.firmware.cli.device",
    "farmbox.firmware.cli.enroll",
    "farmbox.firmware.cli.vision",
    "farmbox.firmware.cli.cardgame",
    "farmbox.firmware.cli.league",
)

EXIT_BUG = 1
EXIT_BAD_INPUT = 2

#: The folders of the project's code (installed as farmbox.firmware, .hw, .vision).
PACKAGES = tuple(Path(__file__).resolve().parents[2] / name for name in ("firmware", "hw", "vision"))

#: errno values of an OSError about a file the user named.
FILE_ERRNOS = frozenset({errno.ENOENT, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTDIR,
                         errno.ELOOP, errno.ENAMETOOLONG, errno.EROFS, errno.EEXIST})


class CommandError(ValueError):
    """A failure to report as one line with exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse with its errors as one line (``farmbox run: error: ...``), exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


def _ours(path: str) -> bool:
    try:
        where = Path(path).resolve()
        return any(where.is_relative_to(package) for package in PACKAGES)
    except (OSError, ValueError):
        return False


def _raised_by_our_raise(tb: TracebackType | None) -> bool:
    """True if the innermost frame of ``tb`` is the project's code at a ``raise`` statement
    (an error it means), not a call that failed inside a library or a builtin."""
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    filename = tb.tb_frame.f_code.co_filename
    return _ours(filename) and linecache.getline(filename, tb.tb_lineno).lstrip().startswith("raise")


def is_bad_input(exc: BaseException) -> bool:
    """True if ``exc`` is the project saying the user's input is wrong (see the module)."""
    if isinstance(exc, CommandError):
        return True
    module = type(exc).__module__
    if isinstance(exc, ValueError) and type(exc) is not ValueError and \
            module.startswith("farmbox.") and not isinstance(exc, OSError):
        return True
    if isinstance(exc, OSError):
        if type(exc).__module__.startswith("farmbox."):  # a fault (JournalWriteError, CameraGone)
            return False
        if exc.errno in FILE_ERRNOS and exc.filename is not None:
            return True
        return exc.errno is None and _raised_by_our_raise(exc.__traceback__)
    if type(exc) is ValueError:
        return _raised_by_our_raise(exc.__traceback__)
    return False


def one_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message (its class name if it has none)."""
    message = str(exc)
    return message.splitlines()[0] if message.strip() else type(exc).__name__


def quiet_libraries() -> None:
    """Library warnings (deprecations, OpenCV's log) do not reach stderr as extra lines."""
    if not sys.warnoptions:
        warnings.simplefilter("ignore")
    cv2 = sys.modules.get("cv2")
    if cv2 is not None and hasattr(cv2, "setLogLevel"):
        cv2.setLogLevel(0)  # loaded already (before this module): silent too


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="farmbox", description="A Raspberry Pi companion for the Super Farmer games."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``farmbox`` console script."""
    quiet_libraries()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if not is_bad_input(exc):
            traceback.print_exc(file=sys.stderr)
            return EXIT_BUG
        print(f"farmbox {args.command}: error: {one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
