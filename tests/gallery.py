"""What every screen gallery shares: write the screens as reference PNGs (tests, 1x) and as
the pictures in docs/screens (3x). Dev tools, so they live here and not in the wheel."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from farmbox.firmware.box.drawing.canvas import save

ROOT = Path(__file__).resolve().parents[1]


def write_references(argv: list[str] | None, description: str,
                     screens: Callable[[], dict[str, Image.Image]], tests: str,
                     docs_prefix: str) -> int:
    """A gallery's ``main``: write ``screens()`` to ``tests/<tests>/reference`` (1x) and to
    ``docs/screens`` (3x, names prefixed by ``docs_prefix``), or both to one ``--out`` folder."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, help="one folder for both (default: tests + docs)")
    args = parser.parse_args(argv)
    targets = [(args.out, 1, "")] if args.out else [
        (ROOT / "tests" / tests / "reference", 1, ""),
        (ROOT / "docs" / "screens", 3, docs_prefix)]
    images = screens()
    for folder, scale, prefix in targets:
        folder.mkdir(parents=True, exist_ok=True)
        for name, image in images.items():
            save(image, folder / f"{prefix}{name}.png", scale)
        print(f"wrote {len(images)} screens to {folder}")
    return 0
