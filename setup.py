"""Packaging that pyproject.toml cannot say on its own.

The folders stay at the top of the repository (the product's design card) but are installed
under one name we own, ``farmbox.firmware``, ``farmbox.vision`` and ``farmbox.hw``: generic
top-level names such as ``hw`` would collide with other distributions in a Pi's
``--system-site-packages`` venv. Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

ROOTS = ("firmware", "vision", "hw")

setup(
    packages=["farmbox." + name for name in find_packages(include=[f"{r}*" for r in ROOTS])],
    package_dir={f"farmbox.{root}": root for root in ROOTS},
)
