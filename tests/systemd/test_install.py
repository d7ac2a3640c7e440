"""systemd/install.sh: shell syntax, shellcheck, and what a dry run would do to a Pi."""

from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "systemd" / "install.sh"


def dry_run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DRY_RUN": "1", "CONFIG_DIR": str(tmp_path / "etc"),
                   "PREFIX": str(tmp_path / "opt"), "UNIT_DIR": str(tmp_path / "units"),
                   "BOOT_CONFIG": str(tmp_path / "config.txt"), **env}
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=environment,
                          timeout=60)


def commands(result: subprocess.CompletedProcess) -> list[str]:
    return [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]


def test_bash_syntax():
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_shellcheck_is_clean():
    if shutil.which("shellcheck") is None:
        warnings.warn("shellcheck not found (apt-get install shellcheck): only bash -n ran", stacklevel=1)
        subprocess.run(["bash", "-n", str(SCRIPT)], check=True)
        return
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_dry_run_installs_everything_in_order(tmp_path):
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    steps = commands(result)
    joined = "\n".join(steps)
    apt = next(s for s in steps if s.startswith("apt-get install"))
    assert "python3-picamera2" in apt and "python3-lgpio" in apt
    assert "rpi.gpio" not in apt and "rpi-lgpio" not in apt  # only one GPIO backend
    assert "usermod --append --groups gpio,i2c,video farmbox" in joined
    venv = next(s for s in steps if " -m venv " in s)
    assert "--system-site-packages" in venv and venv.endswith(str(tmp_path / "opt/.venv"))
    assert f"install -m 0644 {SCRIPT.parent / 'farmbox.toml'} {tmp_path / 'etc/farmbox.toml'}" in steps
    assert steps[-2:] == ["systemctl enable farmbox.service", "systemctl restart farmbox.service"]
    order = [joined.index(s) for s in ("apt-get install", "usermod", "-m venv", "bin/pip install", "farmbox.toml",
                                       "farmbox.service", "systemctl enable")]
    assert order == sorted(order)


def test_existing_config_is_kept(tmp_path):
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/farmbox.toml").write_text("[game]\nplayers = 3\n")
    result = dry_run(tmp_path)
    assert result.returncode == 0
    assert not any(s.startswith("install -m 0644") and s.endswith("farmbox.toml") for s in commands(result))
    assert "keeping the existing" in result.stderr


def test_rpi_gpio_backend_replaces_lgpio_and_sets_the_factory(tmp_path):
    result = dry_run(tmp_path, GPIO_BACKEND="rpi-gpio")
    assert result.returncode == 0, result.stderr
    apt = next(s for s in commands(result) if s.startswith("apt-get install"))
    assert "python3-rpi.gpio" in apt and "python3-lgpio" not in apt
    assert "GPIOZERO_PIN_FACTORY=rpigpio" in result.stdout


def test_unknown_backend_is_one_line_exit_2(tmp_path):
    result = dry_run(tmp_path, GPIO_BACKEND="pigpio")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "install.sh: error: GPIO_BACKEND must be lgpio or rpi-gpio, got 'pigpio'"]


def test_i2c_is_made_fast_once(tmp_path):
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm=on\n")
    assert "append to" in dry_run(tmp_path).stdout and "400000" in dry_run(tmp_path).stdout
    boot.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=100000\n")
    assert "i2c_arm_baudrate" not in dry_run(tmp_path).stdout  # the owner's choice is kept
