#!/usr/bin/env python3
"""The installed unit under a real systemd: farmbox.service booted in a systemd-nspawn
container (x86_64 Debian 12, systemd 252, the systemd of Raspberry Pi OS bookworm).

A maintainer check next to ``make pi-check`` (which emulates arm64 but has no systemd
running). It builds, or reuses, a bookworm root in ``$PI_CHECK_CACHE`` (default
/var/cache/farmbox-pi-check), runs systemd/install.sh in a fresh copy with a wheel of the
checkout, switches the settings to simulated parts, and boots the container with
``--private-network``. A oneshot unit in the container waits for farmbox.service (Type=notify:
started means READY=1 arrived) and writes down what systemd says about it: running, no
restarts, its seccomp filters and capabilities, ``systemd-analyze security`` on the loaded
unit, then stops it (exit status 0) and powers off. A second oneshot, with the unit's
User/SupplementaryGroups/PrivateUsers, reads a file that only the group gpio may read:
PrivateUsers=yes shows the groups as nogroup, and this shows the kernel still honours them.

Usage (as root): ``python3 bench/unit_check.py [--rebuild]``. Prints each step's time and
one last line, passed or the step that failed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("PI_CHECK_CACHE", "/var/cache/farmbox-pi-check"))
BASE = CACHE / "bookworm-amd64"
WORK = CACHE / "unit-work"
LOG = CACHE / "logs" / "unit-check.log"
PACKAGES = "systemd,python3,python3-venv,passwd,ca-certificates"
STAMP = f"farmbox unit-check base root 1: {PACKAGES}"
INSIDE = "/srv/farmbox-check"  # nspawn mounts a fresh /tmp: keep our files elsewhere
NSPAWN = ["systemd-nspawn", "-q", "--keep-unit", "--register=no", "-D", str(WORK)]
SIMULATED = """\
[hardware]
simulated = true
[display]
driver = "dummy"
[camera]
source = "none"
[journal]
dir = "/var/lib/farmbox"
"""
REPORT_UNIT = f"""\
[Unit]
Description=unit-check: how farmbox.service runs, then power off
After=farmbox.service
Wants=farmbox.service

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'out={INSIDE}/report.txt; \\
  systemctl show -p ActiveState -p SubState -p StatusText -p NRestarts farmbox > $out; \\
  pid=$(systemctl show -p MainPID --value farmbox); \\
  grep -E "^(Seccomp|NoNewPrivs|CapEff|Groups):" /proc/$pid/status >> $out; \\
  systemd-analyze security --no-pager farmbox.service | tail -n 1 >> $out; \\
  systemctl start unit-check-groups.service; \\
  journalctl -u unit-check-groups --no-pager -o cat | sed "s/^/groups: /" >> $out; \\
  systemctl stop farmbox; \\
  systemctl show -p Result -p ExecMainStatus farmbox | sed "s/^/after stop: /" >> $out; \\
  systemctl poweroff'

[Install]
WantedBy=multi-user.target
"""
GROUPS_UNIT = """\
[Unit]
Description=unit-check: read a file only the group gpio may read, with PrivateUsers=yes

[Service]
Type=oneshot
User=farmbox
Group=farmbox
SupplementaryGroups=gpio i2c video
PrivateUsers=yes
ExecStart=/bin/sh -c 'id; cat /srv/gpio-only.txt'
"""


class StepFailed(Exception):
    """A step failed; the message is the one-line reason."""


def run(command: Sequence[str], timeout: float = 1800) -> str:
    """``command`` to completion, its output appended to the log; a failure names it."""
    with LOG.open("a") as log:
        log.write("\n$ " + " ".join(command) + "\n")
        log.flush()
        start = log.tell()
        try:
            status = subprocess.run(list(command), stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            raise StepFailed(f"timed out after {timeout:.0f} s") from None
    with LOG.open() as log:
        log.seek(start)
        output = log.read()
    if status != 0:
        lines = [line for line in output.splitlines() if line.strip()] or ["(no output)"]
        raise StepFailed(f"exit status {status}: {lines[-1][:200]}")
    return output


def tools() -> str:
    if os.geteuid() != 0:
        raise StepFailed("run as root")
    missing = [p for tool, p in (("systemd-nspawn", "systemd-container"), ("debootstrap", "debootstrap"))
               if shutil.which(tool) is None]
    if missing:
        run(["apt-get", "update", "-qq"])
        run(["apt-get", "install", "-y", "-qq", *missing])
    lines = [line for line in run(["systemd-nspawn", "--version"]).splitlines() if line.startswith("systemd ")]
    return lines[0] if lines else "systemd-nspawn"


def base_root(rebuild: bool) -> str:
    stamp = BASE / ".farmbox-unit-check"
    if not rebuild and stamp.is_file() and stamp.read_text().strip() == STAMP:
        return f"reused {BASE}"
    if BASE.exists():
        shutil.rmtree(BASE)
    run(["debootstrap", "--variant=minbase", f"--include={PACKAGES}", "bookworm", str(BASE),
         "http://deb.debian.org/debian"])
    (BASE / "etc/apt/apt.conf.d/00unit-check").write_text('APT::Sandbox::User "root";\n')
    stamp.write_text(STAMP + "\n")
    return f"built {BASE}"


def install() -> str:
    if WORK.exists():
        shutil.rmtree(WORK)
    run(["cp", "-a", "--reflink=auto", str(BASE), str(WORK)])
    inside = WORK / INSIDE.lstrip("/")
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=REPO, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listing):
        if (REPO / name).is_file():
            (inside / "src" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, inside / "src" / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(inside / "wheel"),
         str(inside / "src")])
    wheel = next((inside / "wheel").glob("farmbox-*.whl")).name
    ca = WORK / "usr/local/share/unit-check/host-ca.crt"
    ca.parent.mkdir(parents=True)
    shutil.copyfile("/etc/ssl/certs/ca-certificates.crt", ca)  # a copy: pip behind the proxy
    output = run([*NSPAWN, "--pipe", "env", f"PIP_CERT=/{ca.relative_to(WORK)}",
                  f"FARMBOX_WHEEL={INSIDE}/wheel/{wheel}", "SYSTEMD_RUNNING=no",
                  "bash", f"{INSIDE}/src/systemd/install.sh"])
    notes = [line for line in output.splitlines() if "not available" in line or "not running" in line]
    return f"{len(notes)} notes: " + " | ".join(n.removeprefix("install.sh: ")[:60] for n in notes)


def boot() -> str:
    (WORK / "etc/farmbox/farmbox.toml").write_text(SIMULATED)
    units = WORK / "etc/systemd/system"
    (units / "unit-check-report.service").write_text(REPORT_UNIT)
    (units / "unit-check-groups.service").write_text(GROUPS_UNIT)
    (units / "multi-user.target.wants/unit-check-report.service").symlink_to(
        "/etc/systemd/system/unit-check-report.service")
    secret = WORK / "srv/gpio-only.txt"
    secret.write_text("readable by the group gpio\n")
    run([*NSPAWN, "--pipe", "chgrp", "gpio", "/srv/gpio-only.txt"])
    secret.chmod(0o640)
    run([*NSPAWN, "--private-network", "-b"], timeout=600)
    report = WORK / INSIDE.lstrip("/") / "report.txt"
    if not report.is_file():
        raise StepFailed("the container wrote no report (did farmbox.service start?)")
    return report.read_text()


def judge(report: str) -> str:
    facts = dict(line.split("=", 1) for line in report.splitlines() if "=" in line and ":" not in line[:12])
    need = {"ActiveState": "active", "SubState": "running", "NRestarts": "0"}
    for key, value in need.items():
        if facts.get(key) != value:
            raise StepFailed(f"farmbox.service {key}={facts.get(key)}, not {value}")
    if not facts.get("StatusText", "").startswith("farmer 1's turn 1"):
        raise StepFailed(f"STATUS {facts.get('StatusText')!r}")
    status = dict(re.findall(r"^(\w+):\s*(.*)$", report, re.M))
    if status.get("Seccomp") != "2" or status.get("NoNewPrivs") != "1" or int(status.get("CapEff", "1"), 16):
        raise StepFailed(f"not sandboxed as the unit says: {status}")
    score = re.search(r"Overall exposure level for farmbox.service: ([\d.]+)", report)
    if not score or float(score.group(1)) > 1.2:
        raise StepFailed(f"exposure {score.group(1) if score else '?'}")
    if "groups: readable by the group gpio" not in report:
        raise StepFailed("with PrivateUsers=yes the group gpio could not read its file")
    if "after stop: Result=success" not in report or "after stop: ExecMainStatus=0" not in report:
        raise StepFailed("farmbox.service did not stop cleanly")
    groups = next((line for line in report.splitlines() if line.startswith("groups: uid=")), "")
    return f"running, READY, seccomp on, no capabilities, exposure {score.group(1)}; PrivateUsers probe: {groups[8:]}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args(argv)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    LOG.write_text(f"unit-check {time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n")
    report: list[str] = []

    def booted() -> str:
        report.append(boot())
        return "report written"

    steps: list[tuple[str, Callable[[], str]]] = [
        ("host tools", tools), ("bookworm amd64 root", lambda: base_root(args.rebuild)),
        ("install.sh in a fresh copy", install),
        ("boot with farmbox.service", booted),
        ("what systemd says", lambda: judge(report[0]))]
    for name, action in steps:
        started = time.monotonic()
        print(f"-- {name} ...", flush=True)
        try:
            note = action()
        except StepFailed as failure:
            print(f"unit-check: FAILED at step '{name}': {failure} (log {LOG})")
            return 1
        print(f"   {name}: ok in {time.monotonic() - started:.1f} s ({note})", flush=True)
    print(report[0].rstrip())
    print(f"unit-check: passed ({time.strftime('%Y-%m-%d')}, farmbox.service under systemd 252 in systemd-nspawn)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
