"""The bench scripts' command lines: counts checked where they are parsed, errors in one line.

    from counts import Parser, at_least
    ap = Parser(description=...)
    ap.add_argument("--sets", type=at_least(1), default=3)

A count below its least (``--sets 0``, ``--scenes -1``) or not a whole number is refused by the
parser, as every other bad argument: one line, ``SCRIPT: error: ...``, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """argparse with its errors as one line and exit status 2 (no usage block)."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of ``least`` or more."""
    def count(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < least:
            raise argparse.ArgumentTypeError(f"{n} is less than {least}")
        return n
    count.__name__ = f"a count of {least} or more"
    return count
