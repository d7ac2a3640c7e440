"""requirements.lock is in sync with pyproject.toml (fast, offline: text only).

The lock is what install.sh and ``make pi-check`` install on the Pi (``pip install
--constraint``); ``python3 bench/pi_check.py --write-lock`` writes it. Whether each pinned
version really has an aarch64 cp311 wheel is what ``make pi-check`` proves, by installing it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).parents[2]
LOCK = REPO / "requirements.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+!-]*)$")
VIA = re.compile(r"^ {4}# via (.+); (\S+\.whl|sdist, pure Python)$")
#: The extras the Pi installs (pi), the demo's display stand-ins (sim) and what pi-check
#: runs pytest with (test): pyproject.toml's, all of them.
EXTRAS = ("pi", "sim", "test")


def parse_lock(text: str) -> dict[str, tuple[Version, set[str], str]]:
    """canonical name -> (pinned version, who needs it, wheel file or 'sdist, pure Python')."""
    pins: dict[str, tuple[Version, set[str], str]] = {}
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(lines) % 2 == 0, "every pin is followed by one '# via' line"
    for pin_line, via_line in zip(lines[::2], lines[1::2]):
        pin = PIN.match(pin_line)
        assert pin, f"not an exact pin: {pin_line!r}"
        via = VIA.match(via_line)
        assert via, f"not a '# via WHO; WHEEL' line after {pin_line!r}: {via_line!r}"
        name = canonicalize_name(pin.group(1))
        assert name not in pins, f"{name} pinned twice"
        pins[name] = (Version(pin.group(2)), {w.strip() for w in via.group(1).split(",")}, via.group(2))
    return pins


@pytest.fixture(scope="module")
def lock():
    return parse_lock(LOCK.read_text())


@pytest.fixture(scope="module")
def project():
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def wanted(project) -> list[tuple[Requirement, str]]:
    requirements = [(Requirement(r), "farmbox") for r in project["dependencies"]]
    for extra in EXTRAS:
        requirements += [(Requirement(r), f"farmbox[{extra}]") for r in project["optional-dependencies"][extra]]
    return requirements


def test_every_dependency_and_extra_is_pinned_within_its_range(lock, project):
    for requirement, who in wanted(project):
        name = canonicalize_name(requirement.name)
        assert name in lock, f"{requirement} ({who}) is not in requirements.lock"
        version, askers, _ = lock[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {name}=={version}, outside pyproject.toml's {requirement}")
        assert who in askers, f"requirements.lock does not say {name} is needed by {who}"


def test_nothing_is_pinned_that_nobody_needs(lock, project):
    """Each pin is a dependency of farmbox or of another pinned package (no leftovers)."""
    direct = {canonicalize_name(r.name) for r, _ in wanted(project)}
    for name, (_, askers, _) in lock.items():
        for who in askers:
            if who.startswith("farmbox"):
                assert name in direct, f"{name} says it is needed by {who}, but pyproject.toml does not ask for it"
            else:
                assert canonicalize_name(who) in lock, f"{name} is needed by {who}, which is not pinned"


def test_the_pi_caps_hold(lock):
    """apt's picamera2 (seen through --system-site-packages) is built against numpy 1.x."""
    assert lock["numpy"][0] < Version("2")
    assert lock["opencv-python-headless"][0] < Version("4.11")


def test_compiled_packages_name_an_aarch64_cp311_wheel(lock):
    for name, (version, _, wheel) in lock.items():
        if wheel.startswith("sdist"):
            continue
        assert wheel.startswith(f"{name.replace('-', '_')}-{version}-") or \
            canonicalize_name(wheel.split("-")[0]) == name, f"{name}: {wheel} is another package's wheel"
        tags = wheel[:-len(".whl")].split("-")[-3:]
        python, abi, platform = tags
        stable_abi = abi == "abi3" and python.startswith("cp3") and int(python[3:]) <= 11
        assert "py3" in python or "cp311" in python or stable_abi, f"{wheel}: not for CPython 3.11"
        assert abi in ("none", "cp311", "abi3"), f"{wheel}: ABI {abi}"
        assert platform == "any" or "aarch64" in platform, f"{wheel}: not an aarch64 wheel"
    # the real lgpio (a 0.0.0.2 placeholder without any code is also on PyPI)
    assert lock["lgpio"][0] >= Version("0.2") and "aarch64" in lock["lgpio"][2]


def test_the_parser_would_catch_a_range_mismatch(project):
    text = LOCK.read_text().replace("\nnumpy==", "\nnumpy==0.9.")
    bad = parse_lock(text)
    requirement = next(r for r, _ in wanted(project) if r.name == "numpy")
    assert not requirement.specifier.contains(bad["numpy"][0])
    with pytest.raises(AssertionError, match="not an exact pin"):
        parse_lock(LOCK.read_text().replace("\ntqdm==", "\ntqdm>="))
