"""Compile the ``.po`` catalogs to ``.mo`` (the subset of msgfmt our catalogs use).

    python -m farmbox.firmware.box.i18n.compile          # rewrite every .mo
    python -m farmbox.firmware.box.i18n.compile --check  # exit 1 if a .mo is out of date
"""

from __future__ import annotations

import argparse
import ast
import os
import struct
import sys
import tempfile
from pathlib import Path

from farmbox.firmware.box.i18n import DOMAIN, LANGUAGES, LOCALEDIR


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po file (plain entries; the header is the "" entry)."""
    messages: dict[str, str] = {}
    key: str | None = None
    current: dict[str, str] = {}

    def flush() -> None:
        if "msgid" in current and "msgstr" in current:
            messages[current["msgid"]] = current["msgstr"]
        current.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            key, rest = "msgid", line[6:]
        elif line.startswith("msgstr "):
            key, rest = "msgstr", line[7:]
        elif line.startswith('"') and key:
            rest = line
        else:
            raise ValueError(f"line {n}: cannot parse {raw!r}")
        current[key] = current.get(key, "") + ast.literal_eval(rest)
    flush()
    return messages


def mo_bytes(messages: dict[str, str]) -> bytes:
    """The GNU .mo encoding of ``messages`` (sorted keys, no hash table)."""
    keys = sorted(messages)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode(), messages[k].encode()
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"{len(koffsets)}i", *koffsets) + \
        struct.pack(f"{len(voffsets)}i", *voffsets) + ids + strs


def catalogs() -> list[tuple[Path, Path]]:
    """(po, mo) paths of every language."""
    out = []
    for lang in LANGUAGES:
        folder = LOCALEDIR / lang / "LC_MESSAGES"
        out.append((folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the .mo files")
    args = parser.parse_args(argv)
    stale = 0
    for po, mo in catalogs():
        data = mo_bytes(parse_po(po.read_text(encoding="utf-8")))
        if mo.exists() and mo.read_bytes() == data:
            continue
        stale += 1
        if args.check:
            print(f"{mo} is out of date", file=sys.stderr)
            continue
        fd, tmp = tempfile.mkstemp(dir=mo.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, mo)
        print(f"wrote {mo}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
