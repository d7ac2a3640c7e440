"""The advisor's solved solitaire tables on disk: the shipped ones and a cache of the rest.

The rules (:mod:`farmbox.firmware.rules.superfarmer.solitaire`) solve a variant's
model and turn it into bytes and back; this module is where those bytes live:

- the shipped tables, package data of the rules (``rules/superfarmer/data/``, classic
  and compact with the full herd), read-only;
- the cache, ``$XDG_CACHE_HOME/farmbox`` (default ``~/.cache/farmbox``), one file per
  variant and herd (the file name is :meth:`Model.key` of the herd sizes, what the
  wolf spares and the caps), written atomically the first time a variant is solved.

A damaged or stale cache file is solved again and replaced; a read-only cache only
costs the solve next time. ``python -m farmbox.firmware.box.solved_tables`` writes a
shipped table.
"""

from __future__ import annotations

import argparse
import os
import time
from importlib import resources
from pathlib import Path

from farmbox.firmware.box.files import write_atomically
from farmbox.firmware.rules.errors import InvalidState
from farmbox.firmware.rules.superfarmer.solitaire import (
    Model,
    SolveProgress,
    caps_for,
    remember,
    remembered,
    solve,
)
from farmbox.firmware.rules.superfarmer.variants import CLASSIC, Rules, variant

#: The package whose ``data/`` folder holds the shipped tables.
SHIPPED_PACKAGE = "farmbox.firmware.rules.superfarmer"


def shipped_dir() -> Path:
    """The folder of the shipped tables (inside the installed rules package)."""
    return Path(str(resources.files(SHIPPED_PACKAGE).joinpath("data")))


def default_cache_dir() -> Path:
    """Where solved tables are cached: ``$XDG_CACHE_HOME/farmbox`` or ``~/.cache/farmbox``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "farmbox"


def table_name(rules: Rules, caps: tuple[int, ...]) -> str:
    """The file name of the table for ``rules`` and ``caps``."""
    return f"solitaire-{Model.key(rules, caps)}.npz"


def read(path: Path, rules: Rules = CLASSIC) -> Model:
    """Read a table file; one for other rules or caps, or a damaged one, is an InvalidState."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidState(f"{path}: unreadable policy table ({exc.strerror or exc})") from None
    try:
        return Model.from_bytes(data, rules)
    except InvalidState as exc:
        raise InvalidState(f"{path}: {exc}") from None


def save(model: Model, path: Path) -> None:
    """Write ``model``'s table to ``path`` atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, model.to_bytes())


def load(rules: Rules = CLASSIC, caps: tuple[int, ...] | None = None,
         cache_dir: Path | None = None, progress: SolveProgress | None = None) -> Model:
    """The table for ``rules``: the shipped one, else the cached one, else solve and cache it.

    ``progress`` hears how far a solve has got (it is not called when a table is read).
    The model is also remembered for the rules' own ``model_for``.
    """
    caps = caps_for(rules) if caps is None else tuple(caps)
    name = table_name(rules, caps)
    folder = cache_dir if cache_dir is not None else default_cache_dir()
    for path in (shipped_dir() / name, folder / name):
        if path.exists():
            try:
                return remember(read(path, rules))
            except InvalidState:
                pass  # stale or damaged: solve again below
    model = solve(rules, caps, progress=progress)
    try:
        save(model, folder / name)
    except OSError:
        pass  # a read-only home only costs the solve next time
    return remember(model)


def model_for(rules: Rules = CLASSIC, caps: tuple[int, ...] | None = None,
              progress: SolveProgress | None = None) -> Model:
    """The model for ``rules``: already in this process, else :func:`load` (memoised)."""
    caps = caps_for(rules) if caps is None else tuple(caps)
    model = remembered(rules, caps)
    return model if model is not None else load(rules, caps, progress=progress)


def main(argv: list[str] | None = None) -> int:
    """Solve a variant's model and write its table (default: into the shipped data folder)."""
    p = argparse.ArgumentParser(prog="python -m farmbox.firmware.box.solved_tables",
                                description=main.__doc__)
    p.add_argument("--caps", help="7 caps, rabbit..big_dog (default: the variant's own)")
    p.add_argument("--out", type=Path, help="output file (default: the shipped data folder)")
    p.add_argument("--variant", default="classic")
    args = p.parse_args(argv)
    rules = variant(args.variant)
    caps = tuple(int(c) for c in args.caps.split(",")) if args.caps else caps_for(rules)
    t0 = time.perf_counter()
    model = solve(rules, caps)
    elapsed = time.perf_counter() - t0
    out = args.out or shipped_dir() / table_name(rules, caps)
    save(model, out)
    print(f"{rules.name} caps={caps}: {model.turns.size} farms, {len(model.exchanges)} exchanges, "
          f"{model.iterations} rounds in {elapsed:.1f}s; expected turns from "
          f"{str(rules.starting) or 'an empty farm'}: {model.expected_turns(rules.starting):.4f}; "
          f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())


__all__ = ["default_cache_dir", "load", "model_for", "read", "save", "shipped_dir", "table_name"]
