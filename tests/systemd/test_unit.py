"""systemd/farmbox.service: the properties the box relies on, and systemd's own verdict."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from farmbox.firmware.box.config import load_config

SYSTEMD = Path(__file__).parents[2] / "systemd"
UNIT = SYSTEMD / "farmbox.service"


def parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    """Sections -> (key, value) pairs in order; repeated keys (DeviceAllow=) all kept."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        assert current is not None and "=" in line, f"line {number}: {raw!r}"
        key, value = line.split("=", 1)
        current.append((key.strip(), value.strip()))
    return sections


@pytest.fixture(scope="module")
def unit():
    return parse_unit(UNIT.read_text())


def one(unit, section: str, key: str) -> str:
    values = [v for k, v in unit[section] if k == key]
    assert len(values) == 1, f"{key}= appears {len(values)} times in [{section}]"
    return values[0]


def every(unit, section: str, key: str) -> list[str]:
    return [v for k, v in unit[section] if k == key]


def test_sections(unit):
    assert list(unit) == ["Unit", "Service", "Install"]
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_notify_with_watchdog(unit):
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    assert 0 < int(one(unit, "Service", "WatchdogSec")) <= 60


def test_restarts_on_failure_but_not_on_bad_config(unit):
    assert one(unit, "Service", "Restart") == "on-failure"
    assert "2" in one(unit, "Service", "RestartPreventExitStatus").split()


def test_runs_the_venv_command_with_the_pi_config(unit):
    command = one(unit, "Service", "ExecStart").split()
    assert command == ["/opt/farmbox/.venv/bin/farmbox", "run", "--config", "/etc/farmbox/farmbox.toml"]


def test_dedicated_user_in_hardware_groups(unit):
    assert one(unit, "Service", "User") == "farmbox"
    assert set(one(unit, "Service", "SupplementaryGroups").split()) >= {"gpio", "i2c", "video"}


def test_state_directory_is_where_the_journal_goes(unit):
    state = one(unit, "Service", "StateDirectory")
    assert state == "farmbox"
    pi = load_config(SYSTEMD / "farmbox.toml")
    assert pi.journal.dir == f"/var/lib/{state}"
    assert one(unit, "Service", "WorkingDirectory") == f"/var/lib/{state}"
    # lgpio writes notification pipes into LG_WD: it must be a directory the unit makes writable
    runtime = one(unit, "Service", "RuntimeDirectory")
    assert f"LG_WD=/run/{runtime}" in every(unit, "Service", "Environment")


def test_the_pin_factory_is_named_in_the_unit(unit):
    assert "GPIOZERO_PIN_FACTORY=lgpio" in every(unit, "Service", "Environment")


def test_the_readers_matrices_are_multiplied_on_one_thread(unit):
    # OpenBLAS's threads beside the box's own work only wait for each other (Makefile, test)
    assert "OPENBLAS_NUM_THREADS=1" in every(unit, "Service", "Environment")


def test_hardening_still_reaches_the_hardware(unit):
    keys = {k for k, _ in unit["Service"]}
    assert "PrivateDevices" not in keys and "ProtectClock" not in keys
    assert one(unit, "Service", "DevicePolicy") == "closed"
    allowed = {v.split()[0]: v.split()[1] for v in every(unit, "Service", "DeviceAllow")}
    for device in ("char-gpiochip", "char-i2c", "char-video4linux", "char-media", "char-dma_heap",
                   "/dev/dma_heap/linux,cma"):
        assert allowed.get(device) == "rw", device
    assert one(unit, "Service", "NoNewPrivileges") == "yes"
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert one(unit, "Service", "ProtectHome") == "yes"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""
    assert "AF_UNIX" in one(unit, "Service", "RestrictAddressFamilies").split()


def test_hardening_added_for_issue_11(unit):
    assert every(unit, "Service", "SystemCallFilter") == ["@system-service", "~@privileged @resources"]
    assert one(unit, "Service", "SystemCallErrorNumber") == "EPERM"
    for key in ("PrivateMounts", "PrivateNetwork", "PrivateUsers", "MemoryDenyWriteExecute", "PrivateTmp"):
        assert one(unit, "Service", key) == "yes", key
    assert one(unit, "Service", "UMask") == "0077"
    # Said why not in the unit: gpiozero reads the board revision from /proc/cpuinfo or
    # /proc/device-tree when the pin factory opens, and ProcSubset=pid hides both.
    assert "ProcSubset" not in {k for k, _ in unit["Service"]}
    assert "Not ProcSubset=pid" in UNIT.read_text()
    # the journal is created by the service user only: 0077 leaves it 0600
    assert one(unit, "Service", "StateDirectoryMode") == "0750"


def test_the_unit_keeps_no_configuration_directory_of_its_own(unit):
    """install.sh makes CONFIG_DIR; ConfigurationDirectory= would make /etc/farmbox anyway."""
    assert "ConfigurationDirectory" not in {k for k, _ in unit["Service"]}


def exposure(path: Path) -> float:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    match = re.search(r"Overall exposure level for farmbox.service: ([\d.]+)", result.stdout)
    assert match, result.stdout[-500:]
    return float(match.group(1))


def offline_security_supported() -> bool:
    result = subprocess.run(["systemd-analyze", "security", "--help"], capture_output=True, text=True)
    return "--offline" in result.stdout


def test_exposure_score_is_at_most_1_2(tmp_path):
    assert shutil.which("systemd-analyze"), "systemd-analyze not found: `make test` installs systemd with apt-get"
    assert offline_security_supported(), "systemd-analyze security --offline needs systemd 250 or later"
    assert exposure(UNIT) <= 1.2
    # and the score would notice losing the syscall filter
    weaker = tmp_path / "farmbox.service"
    weaker.write_text(UNIT.read_text().replace("SystemCallFilter=~@privileged @resources\n", "")
                      .replace("PrivateNetwork=yes", "PrivateNetwork=no")
                      .replace("PrivateUsers=yes", "PrivateUsers=no"))
    assert exposure(weaker) > 1.2


def verify(tmp_path: Path, unit_text: str,
           program: str = "opt/farmbox/.venv/bin/farmbox") -> subprocess.CompletedProcess:
    """``systemd-analyze verify`` on ``unit_text`` installed in a throw-away root.

    The root holds the system's stock units (for sysinit.target and friends) and
    a stand-in ``program`` (/opt/farmbox/.venv/bin/farmbox), since verify checks ExecStart exists.
    """
    root = tmp_path / "root"
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "usr/lib/systemd").mkdir(parents=True)
    stock = Path("/usr/lib/systemd/system")
    shutil.copytree(stock, root / "usr/lib/systemd/system", symlinks=True)
    stand_in = root / program
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    (root / "etc/systemd/system/farmbox.service").write_text(unit_text)
    return subprocess.run(["systemd-analyze", "verify", "--man=no", f"--root={root}", "farmbox.service"],
                          capture_output=True, text=True, timeout=60)


def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    assert shutil.which("systemd-analyze"), "systemd-analyze not found: `make test` installs systemd with apt-get"
    result = verify(tmp_path, UNIT.read_text())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == "", result.stderr


def test_systemd_analyze_verify_would_catch_a_mistake(tmp_path):
    assert shutil.which("systemd-analyze"), "systemd-analyze not found: `make test` installs systemd with apt-get"
    broken = UNIT.read_text().replace("DeviceAllow=char-i2c rw", "DeviceAllow=char-i2c rwz")
    result = verify(tmp_path, broken)
    assert "Invalid device rights 'rwz'" in result.stderr


def test_a_bad_config_exits_with_the_status_systemd_will_not_restart(unit, tmp_path):
    """ExecStart's own command with a broken settings file: one line, exit status 2."""
    import sys

    bad = tmp_path / "farmbox.toml"
    bad.write_text("[buttons]\nnxt = 6\n")
    args = one(unit, "Service", "ExecStart").split()[1:]
    args[args.index("--config") + 1] = str(bad)
    result = subprocess.run([sys.executable, "-m", "firmware", *args], capture_output=True,
                            text=True, timeout=60)
    assert str(result.returncode) in one(unit, "Service", "RestartPreventExitStatus").split()
    assert result.stderr.strip().splitlines() == [f"farmbox run: error: {bad}: [buttons] unknown key 'nxt'"]
