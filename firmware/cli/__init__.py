"""The ``farmbox`` command line.

Each command group lives in its own module with a ``register(subparsers)``
function; bad input anywhere becomes one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Modules that add sub-commands, in help order.
COMMAND_MODULES = (
    "farmbox.firmware.cli.superfarmer",
    "farmbox.firmware.cli.device",
    "farmbox.firmware.cli.enroll",
    "farmbox.firmware.cli.vision",
    "farmbox.firmware.cli.cardgame",
    "farmbox.firmware.cli.league",
)

EXIT_BAD_INPUT = 2


class CommandError(Exception):
    """A failure to report as one line with exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="farmbox", description="A Raspberry Pi companion for the Super Farmer games."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``farmbox`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (CommandError, ValueError, OSError, KeyError) as exc:
        message = str(exc) if not isinstance(exc, KeyError) else f"missing {exc}"
        print(f"farmbox {args.command}: error: {message.splitlines()[0] if message else type(exc).__name__}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
