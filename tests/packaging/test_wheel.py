"""The wheel: everything under the one name we own, no dev tools, and it runs from a clean venv."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--disable-pip-version-check", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    (found,) = out.glob("farmbox-*.whl")
    return found


def test_the_wheel_installs_only_under_farmbox_and_ships_no_dev_tools(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    code = [n for n in names if not n.startswith("farmbox-")]  # less the .dist-info
    assert code and all(n.startswith(("farmbox/firmware/", "farmbox/vision/", "farmbox/hw/"))
                        for n in code), sorted({n.split("/")[0] for n in code})
    assert not [n for n in code if "gallery" in n or "/tests/" in n or n.endswith(".mo")]
    for needed in ("farmbox/firmware/box/default.toml",
                   "farmbox/firmware/box/i18n/pl/LC_MESSAGES/farmbox.po",
                   "farmbox/firmware/rules/funfarm/deck.toml"):
        assert needed in names


def test_the_installed_wheel_runs_help_and_a_settle(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--quiet",
                    "--disable-pip-version-check", str(wheel)], check=True, timeout=300)
    # The dependencies (numpy, OpenCV, ...) come from this test's environment, not farmbox itself.
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    farmbox = env_dir / "bin" / "farmbox"
    run = dict(cwd=tmp_path, capture_output=True, text=True, timeout=120)
    help_ = subprocess.run([str(farmbox), "--help"], **run)
    assert help_.returncode == 0 and "settle" in help_.stdout
    where = subprocess.run([str(py), "-c", "import farmbox.firmware as f; print(f.__file__)"], **run)
    assert where.stdout.strip().startswith(str(env_dir)), where.stdout
    settle = subprocess.run([str(farmbox), "settle", "--herd", "rabbit=5,sheep=3,pig=2",
                             "--roll", "sheep,rabbit"], **run)
    assert settle.returncode == 0, settle.stderr
    assert settle.stdout.splitlines()[0] == \
        "roll sheep,rabbit: rabbit=5,sheep=3,pig=2 -> rabbit=8,sheep=5,pig=2"
