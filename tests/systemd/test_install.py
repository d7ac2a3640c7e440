"""systemd/install.sh: shell syntax, shellcheck, and what a dry run would do to a Pi.

The dry runs use a stand-in ``apt-cache`` on PATH, so what "available from apt" means is
the test's choice, not this machine's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.systemd.test_unit import parse_unit, verify

REPO = Path(__file__).parents[2]
SCRIPT = REPO / "systemd" / "install.sh"
LOCK = REPO / "requirements.lock"
PI_OS_CONFIG = """\
# For more options and information see http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""


def fake_apt_cache(folder: Path, missing: tuple[str, ...]) -> Path:
    """An ``apt-cache`` that offers every package except ``missing``."""
    folder.mkdir(exist_ok=True)
    script = folder / "apt-cache"
    cases = "".join(f"  {name}) echo '  Candidate: (none)';;\n" for name in missing)
    script.write_text(f"#!/bin/sh\necho \"$2:\"\ncase \"$2\" in\n{cases}  *) echo '  Candidate: 1.0';;\nesac\n")
    script.chmod(0o755)
    return folder


def dry_run(tmp_path: Path, missing: tuple[str, ...] = (), **env: str) -> subprocess.CompletedProcess:
    # PREFIX and CONFIG_DIR must be paths the service can see (not under /tmp): a dry run
    # creates nothing, so these stand-ins need not exist.
    bin_dir = fake_apt_cache(tmp_path / "bin", missing)
    environment = {**os.environ, "DRY_RUN": "1", "CONFIG_DIR": "/srv/farmbox-dry-run/etc",
                   "PREFIX": "/srv/farmbox-dry-run/opt", "UNIT_DIR": str(tmp_path / "units"),
                   "BOOT_CONFIG": str(tmp_path / "config.txt"),
                   "MODULES_LOAD_DIR": str(tmp_path / "modules-load.d"), "SYSTEMD_RUNNING": "yes",
                   "PATH": f"{bin_dir}:{os.environ['PATH']}", **env}
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=environment,
                          timeout=60)


def commands(result: subprocess.CompletedProcess) -> list[str]:
    return [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]


def rendered_unit(result: subprocess.CompletedProcess) -> str:
    return "".join(line[2:] + "\n" for line in result.stdout.splitlines() if line.startswith("| "))


@pytest.fixture
def visible_dir() -> Iterator[Path]:
    """A real folder the service could see (install.sh refuses /tmp, /home, /root, ...): in the
    checkout's build/ unless the checkout itself lies in such a place (a CI clone in /tmp),
    else under /var/cache."""
    hidden = ("/home/", "/root/", "/run/user/", "/tmp/", "/var/tmp/")
    parent = REPO / "build"
    if str(parent.resolve()).startswith(hidden):
        parent = Path("/var/cache/farmbox-tests")
    parent.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix="install-sh-", dir=parent))
    yield path
    shutil.rmtree(path)


def test_bash_syntax():
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_shellcheck_is_clean():
    assert shutil.which("shellcheck"), "shellcheck not found: `make test` installs it with apt-get"
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_dry_run_installs_everything_in_order(tmp_path):
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    steps = commands(result)
    joined = "\n".join(steps)
    apt = next(s for s in steps if s.startswith("apt-get install"))
    assert "python3-picamera2" in apt and "python3-venv" in apt
    # lgpio is a wheel from the lock; no RPi.GPIO provider from apt with the default backend
    assert "lgpio" not in apt and "rpi.gpio" not in apt and "rpi-lgpio" not in apt
    assert "usermod --append --groups gpio,i2c,video farmbox" in joined
    venv = next(s for s in steps if " -m venv " in s)
    assert "--system-site-packages" in venv and venv.endswith("/srv/farmbox-dry-run/opt/.venv")
    pip = next(s for s in steps if "bin/pip install" in s)
    assert "--constraint /srv/farmbox-dry-run/opt/requirements.lock" in pip
    assert pip.endswith(f"{REPO}[pi]")
    assert f"install -m 0644 {LOCK} /srv/farmbox-dry-run/opt/requirements.lock" in steps
    assert f"install -m 0644 {SCRIPT.parent / 'farmbox.toml'} /srv/farmbox-dry-run/etc/farmbox.toml" in steps
    assert steps[-2:] == ["systemctl enable farmbox.service", "systemctl restart farmbox.service"]
    order = [joined.index(s) for s in ("apt-get install", "modules-load.d", "usermod", "-m venv",
                                       "bin/pip install", "farmbox.toml", "farmbox.service:",
                                       "systemctl enable")]
    assert order == sorted(order)


def test_a_wheel_is_installed_instead_of_the_checkout(tmp_path):
    wheel = tmp_path / "farmbox-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    pip = next(s for s in commands(dry_run(tmp_path, FARMBOX_WHEEL=str(wheel))) if "bin/pip install" in s)
    assert pip.endswith(f"{wheel}[pi]")
    result = dry_run(tmp_path, FARMBOX_WHEEL=str(tmp_path / "nope.whl"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"install.sh: error: FARMBOX_WHEEL={tmp_path / 'nope.whl'} is not a file"]


def test_prefix_and_config_dir_are_written_into_the_unit(tmp_path):
    result = dry_run(tmp_path, PREFIX="/srv/box", CONFIG_DIR="/etc/box-settings")
    assert result.returncode == 0, result.stderr
    text = rendered_unit(result)
    unit = parse_unit(text)
    service = dict(unit["Service"])
    assert service["ExecStart"] == "/srv/box/.venv/bin/farmbox run --config /etc/box-settings/farmbox.toml"
    assert dict(unit["Unit"])["Documentation"] == "file:/srv/box/docs/hardware.md"
    assert "/opt/farmbox" not in text and "/etc/farmbox" not in text
    assert shutil.which("systemd-analyze"), "systemd-analyze not found: `make test` installs systemd with apt-get"
    verified = verify(tmp_path, text, program="srv/box/.venv/bin/farmbox")
    assert verified.returncode == 0 and verified.stderr.strip() == "", verified.stderr


def test_the_default_render_is_the_unit_file(tmp_path):
    result = dry_run(tmp_path, PREFIX="/opt/farmbox", CONFIG_DIR="/etc/farmbox")
    assert rendered_unit(result) == (SCRIPT.parent / "farmbox.service").read_text()


@pytest.mark.parametrize("name, value, reason", [
    ("PREFIX", "/home/pi/farmbox", "is hidden from the service"),
    ("CONFIG_DIR", "/tmp/farmbox", "is hidden from the service"),
    ("PREFIX", "/root/box", "is hidden from the service"),
    ("PREFIX", "opt/farmbox", "must be an absolute path"),
    ("CONFIG_DIR", "/etc/farm box", "must be an absolute path"),
    ("PREFIX", "/opt/farmbox/", "must be an absolute path"),
])
def test_a_directory_the_unit_cannot_use_is_one_line_exit_2(tmp_path, name, value, reason):
    result = dry_run(tmp_path, **{name: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"install.sh: error: {name}") and reason in lines[0]
    assert commands(result) == []


def test_existing_config_is_kept(tmp_path, visible_dir):
    (visible_dir / "farmbox.toml").write_text("[game]\nplayers = 3\n")
    result = dry_run(tmp_path, CONFIG_DIR=str(visible_dir))
    assert result.returncode == 0, result.stderr
    assert not any(s.startswith("install -m 0644") and s.endswith("farmbox.toml") for s in commands(result))
    assert "keeping the existing" in result.stderr


def test_rpi_gpio_backend_replaces_rpi_lgpio_and_allows_gpiomem_by_path(tmp_path):
    result = dry_run(tmp_path, GPIO_BACKEND="rpi-gpio")
    assert result.returncode == 0, result.stderr
    apt = next(s for s in commands(result) if s.startswith("apt-get install"))
    assert "python3-rpi.gpio" in apt and "lgpio" not in apt
    drop_in = next(s for s in commands(result) if s.startswith(f"write {tmp_path / 'units'}/farmbox.service.d"))
    assert "Environment=GPIOZERO_PIN_FACTORY=rpigpio" in drop_in
    # rpi-gpiomem is a misc device on current kernels: the bcm2835-gpiomem class is gone
    assert "DeviceAllow=/dev/gpiomem rw" in drop_in and "bcm2835" not in drop_in


def test_the_default_backend_removes_an_old_rpi_gpio_drop_in(tmp_path):
    assert f"rm -f {tmp_path / 'units'}/farmbox.service.d/gpio.conf" in commands(dry_run(tmp_path))


def test_unknown_backend_is_one_line_exit_2(tmp_path):
    result = dry_run(tmp_path, GPIO_BACKEND="pigpio")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "install.sh: error: GPIO_BACKEND must be lgpio or rpi-gpio, got 'pigpio'"]


def test_packages_apt_cannot_offer_are_one_line_each_and_the_rest_goes_on(tmp_path):
    result = dry_run(tmp_path, missing=("python3-picamera2", "i2c-tools"))
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if "not available from apt" in line]
    assert notes == [
        "install.sh: i2c-tools not available from apt here: skipped",
        "install.sh: python3-picamera2 not available from apt here (it comes from the Raspberry Pi"
        " archive): camera source picamera2 will not work, usb:N and none still do"]
    apt = next(s for s in commands(result) if s.startswith("apt-get install"))
    assert apt.split()[-1] == "python3-venv"
    joined = "\n".join(commands(result))
    assert "useradd" in joined and " -m venv " in joined and "farmbox.service:" in joined


def test_without_python3_venv_nothing_can_work(tmp_path):
    result = dry_run(tmp_path, missing=("python3-venv",))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].startswith(
        "install.sh: error: python3-venv is not available from apt here")


def test_boot_lines_go_under_an_all_section(tmp_path):
    boot = tmp_path / "config.txt"
    boot.write_text(PI_OS_CONFIG.replace("\n[all]\n", "\n"))  # last section: [cm5]
    appended = [s for s in commands(dry_run(tmp_path)) if s.startswith("append to")]
    assert appended == [f"append to {boot}: [all] dtparam=i2c_arm=on",
                        f"append to {boot}: dtparam=i2c_arm_baudrate=400000"]
    boot.write_text(PI_OS_CONFIG)  # already ends in [all]: no second header
    appended = [s for s in commands(dry_run(tmp_path)) if s.startswith("append to")]
    assert appended == [f"append to {boot}: dtparam=i2c_arm=on",
                        f"append to {boot}: dtparam=i2c_arm_baudrate=400000"]


def test_i2c_is_made_fast_once(tmp_path):
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm=on\n")
    assert [s for s in commands(dry_run(tmp_path)) if s.startswith("append to")] == [
        f"append to {boot}: dtparam=i2c_arm_baudrate=400000"]
    boot.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=100000\n")
    assert "i2c_arm" not in dry_run(tmp_path).stdout  # the owner's choice is kept


def test_no_boot_config_is_said_not_failed(tmp_path):
    result = dry_run(tmp_path)
    assert result.returncode == 0
    assert f"install.sh: no {tmp_path / 'config.txt'} (not a Raspberry Pi OS boot partition)" in result.stderr


def test_the_device_class_modules_are_loaded_before_the_service(tmp_path):
    line = next(s for s in commands(dry_run(tmp_path)) if s.startswith("write") and "modules-load.d" in s)
    assert line.split(": ", 1)[0] == f"write {tmp_path / 'modules-load.d'}/farmbox.conf"
    assert line.split()[-3:] == ["i2c-dev", "videodev", "mc"]
    unit = parse_unit((SCRIPT.parent / "farmbox.service").read_text())
    assert ("After", "systemd-modules-load.service") in unit["Unit"]


def test_without_a_running_systemd_the_unit_is_only_enabled(tmp_path):
    result = dry_run(tmp_path, SYSTEMD_RUNNING="no")
    assert result.returncode == 0, result.stderr
    steps = commands(result)
    assert steps[-1] == "systemctl enable farmbox.service"
    assert not any("daemon-reload" in s or "restart" in s for s in steps)
    assert result.stderr.strip().splitlines()[-1] == (
        "install.sh: systemd is not running here (a chroot?): farmbox.service is enabled and starts at the next boot")
