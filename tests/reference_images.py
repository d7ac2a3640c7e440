"""The screen tests' comparison with the reference PNGs (written by the screen galleries)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops


def assert_matches_reference(image: Image.Image, reference: Path, regenerate: str) -> None:
    """``image`` is a 128x64 1-bit frame equal pixel for pixel to the PNG ``reference``;
    ``regenerate`` is the module (``python -m ...``) that rewrites the references."""
    assert image.mode == "1" and image.size == (128, 64)
    want = Image.open(reference).convert("1")
    diff = ImageChops.difference(image.convert("L"), want.convert("L")).getbbox()
    assert diff is None, (f"{reference.stem} differs from its reference in box {diff}; "
                          f"rerun python -m {regenerate}")


def reference_names(folder: Path) -> set[str]:
    """The screen names that have a reference PNG in ``folder``."""
    return {p.stem for p in folder.glob("*.png")}
