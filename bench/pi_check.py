#!/usr/bin/env python3
"""``make pi-check``: farmbox on an emulated arm64 Debian 12 (bookworm), before a release.

A maintainer check, not a test (it takes minutes): it builds, or reuses, an arm64 bookworm
root (the base of Raspberry Pi OS, Python 3.11), runs ``systemd/install.sh`` in a fresh copy
of it with a wheel of this checkout, and then runs the box's commands there under user-mode
emulation (``proot -q qemu-aarch64-static``). Every step prints its time; the last line says
``passed`` or which step failed (exit status 1).

How the root is made (measured on an x86_64 Debian 12 host):

- ``debootstrap --arch=arm64 --foreign --variant=minbase bookworm`` with the mirror apt uses
  here, then the second stage inside through proot. The base root is kept in
  ``$PI_CHECK_CACHE`` (default ``/var/cache/farmbox-pi-check``; never in the repository) and
  reused; every check copies it and installs into the copy, so install.sh always meets a
  machine it has never seen.
- In a container debootstrap leaves ``ROOT/proc`` a symlink to ``/proc``, and proot's
  ``-b /proc`` then fails ("Too many levels of symbolic links"): it is made an empty folder.
- Debian's proot 5.1 does not translate paths in statx and faccessat2, which qemu and glibc
  use. A seccomp filter, installed with ctypes and prctl before proot is exec'd, makes those
  (and openat2, renameat2, clone3, fchmodat2, execveat) fail with ENOSYS so the callers fall
  back to calls proot does translate. The same filter refuses mount and umount (EPERM): a
  second stage or a package script unmounting "/proc" inside proot would otherwise reach the
  host's own /proc.
- pip in the root uses a copy of the host's CA bundle (PIP_CERT) and a pip cache kept next to
  the root. Nothing of the host but /dev and /proc is bound in: a bound file is writable from
  inside, and the root's update-ca-certificates once rewrote the host's bundle that way. The Raspberry Pi archive is not reachable: python3-picamera2, python3-libcamera,
  python3-lgpio and python3-rpi-lgpio are absent, which install.sh must survive. There is no
  gpiochip in the emulation, so the box runs on simulated pins (``[hardware] simulated``).

Usage: ``python3 bench/pi_check.py [--rebuild] [--keep]``.
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import functools
import os
import platform
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("PI_CHECK_CACHE", "/var/cache/farmbox-pi-check"))
BASE = CACHE / "bookworm-arm64"
WORK = CACHE / "work"
PIP_CACHE = CACHE / "pip"
LOGS = CACHE / "logs"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
ROOT_CA = "/usr/local/share/pi-check/host-ca.crt"  # a copy, inside the root
#: Packages from Debian main the base root gets on top of minbase: Python, what install.sh
#: installs from Debian anyway (so each check does not download them again), useradd, and
#: systemd for systemctl enable and systemd-analyze.
BASE_PACKAGES = ("python3", "python3-venv", "python3-pip", "python3-numpy", "i2c-tools",
                 "passwd", "systemd", "ca-certificates")
BASE_STAMP = "farmbox pi-check base root 1: " + " ".join(BASE_PACKAGES)
HOST_TOOLS = {"debootstrap": "debootstrap", "qemu-aarch64-static": "qemu-user-static",
              "proot": "proot"}
IN_ROOT = "/tmp/farmbox-check"  # the checkout, the wheel and scratch files, inside the root
ROOT_ENV = {
    "HOME": "/root",
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
    "DEBIAN_FRONTEND": "noninteractive",
    "PIP_CERT": "/usr/local/share/pi-check/host-ca.crt",
    "SSL_CERT_FILE": "/usr/local/share/pi-check/host-ca.crt",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "PIP_DEFAULT_TIMEOUT": "180",
    # rpi-lgpio's RPi.GPIO refuses to import off a Pi without a board revision (Pi 4 B here).
    "RPI_LGPIO_REVISION": "c03111",
    "PYTHONDONTWRITEBYTECODE": "1",
}
VENV = "/opt/farmbox/.venv"

# --- the seccomp filter ------------------------------------------------------------------

#: x86_64 system call numbers (asm/unistd_64.h).
ENOSYS_CALLS = {"renameat2": 316, "execveat": 322, "statx": 332, "clone3": 435, "openat2": 437,
                "faccessat2": 439, "fchmodat2": 452}
EPERM_CALLS = {"mount": 165, "umount2": 166}
AUDIT_ARCH_X86_64 = 0xC000003E
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06


def seccomp_program() -> list[tuple[int, int, int, int]]:
    """The BPF program: ENOSYS for the calls proot cannot translate, EPERM for (u)mount."""
    verdicts = [(nr, SECCOMP_RET_ERRNO | errno.ENOSYS) for nr in ENOSYS_CALLS.values()]
    verdicts += [(nr, SECCOMP_RET_ERRNO | errno.EPERM) for nr in EPERM_CALLS.values()]
    program = [(BPF_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
               (BPF_JEQ_K, 1, 0, AUDIT_ARCH_X86_64),
               (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW)]
    for nr, verdict in verdicts:
        program += [(BPF_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
                    (BPF_JEQ_K, 0, 1, nr), (BPF_RET_K, 0, 0, verdict)]
    program.append((BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    return program


def install_seccomp_filter() -> None:
    """Install :func:`seccomp_program` on this process (inherited by everything it execs)."""
    program = seccomp_program()
    code = b"".join(struct.pack("=HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(program), ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


# --- running things in the root ----------------------------------------------------------

class StepFailed(Exception):
    """A step's command or assertion failed; the message is the one-line reason."""


def proot_command(root: Path, argv: Sequence[str], env: dict[str, str] | None = None,
                  cwd: str = "/", binds: Sequence[str] = ()) -> list[str]:
    """``argv`` run inside ``root`` through proot and qemu, with a clean environment."""
    # Only /dev and /proc are bound: a bound host file is writable from inside, and a package
    # script (update-ca-certificates!) would rewrite the host's copy. Files are copied in.
    seed_host_files(root)
    command = ["proot", "-q", "qemu-aarch64-static", "-r", str(root), "-w", cwd,
               "-b", "/dev", "-b", "/proc"]
    for bind in binds:
        command += ["-b", bind]
    environment = {**ROOT_ENV, **(env or {})}
    return command + ["/usr/bin/env", "-i", *(f"{k}={v}" for k, v in environment.items()), *argv]


def seed_host_files(root: Path) -> None:
    """Copy the host's DNS settings and CA bundle into ``root`` (pip needs the bundle: the
    proxy's CA is not in Debian's)."""
    for name in ("etc/resolv.conf", "etc/hosts"):
        target = root / name
        if target.is_symlink():
            target.unlink()
        if (root / "etc").is_dir():
            shutil.copyfile(Path("/") / name, target)
    ca = root / ROOT_CA.lstrip("/")
    ca.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HOST_CA, ca)


def launch(command: Sequence[str], log: Path, **kwargs: object) -> subprocess.Popen[bytes]:
    """Start ``command`` under the seccomp filter, its output appended to ``log``."""
    handle = log.open("ab")
    handle.write(("\n$ " + " ".join(command) + "\n").encode())
    handle.flush()
    return subprocess.Popen(list(command), stdout=handle, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, preexec_fn=install_seccomp_filter,
                            **kwargs)  # type: ignore[call-overload]


def run_logged(command: Sequence[str], log: Path, timeout: float = 3600) -> str:
    """Run ``command`` (seccomp filter on) to completion; its output; a failure names it."""
    start = log.stat().st_size if log.exists() else 0
    proc = launch(command, log)
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise StepFailed(f"timed out after {timeout:.0f} s") from None
    with log.open("rb") as handle:
        handle.seek(start)
        output = handle.read().decode(errors="replace")
    if status != 0:
        last = [line for line in output.splitlines() if line.strip()][-1:] or ["(no output)"]
        raise StepFailed(f"exit status {status}: {last[0][:200]}")
    return output


class Check:
    """The steps, their times and the final verdict."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.times: list[tuple[str, float]] = []
        LOGS.mkdir(parents=True, exist_ok=True)
        self.log = LOGS / "pi-check.log"
        self.log.write_text(f"pi-check {time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n")

    def step(self, name: str, action: Callable[[], str | None]) -> None:
        """Run one step; print its time and what it found; a failure ends the check."""
        print(f"-- {name} ...", flush=True)
        started = time.monotonic()
        with self.log.open("a") as handle:
            handle.write(f"\n===== {name}\n")
        try:
            note = action()
        except StepFailed as failure:
            took = time.monotonic() - started
            print(f"   {name}: FAILED after {took:.1f} s: {failure}", flush=True)
            print(f"   full log: {self.log}", flush=True)
            print(f"pi-check: FAILED at step '{name}': {failure}", flush=True)
            raise SystemExit(1) from None
        took = time.monotonic() - started
        self.times.append((name, took))
        print(f"   {name}: ok in {took:.1f} s" + (f" ({note})" if note else ""), flush=True)

    def in_root(self, argv: Sequence[str], env: dict[str, str] | None = None, cwd: str = "/",
                timeout: float = 3600) -> str:
        """``argv`` in the work root; its output (stdout and stderr together)."""
        return run_logged(proot_command(WORK, argv, env, cwd, self.binds), self.log, timeout)

    @property
    def binds(self) -> list[str]:
        PIP_CACHE.mkdir(parents=True, exist_ok=True)
        return [f"{PIP_CACHE}:/root/.cache/pip"]


# --- the steps ---------------------------------------------------------------------------

def host_tools() -> str:
    """debootstrap, qemu-user-static and proot, from apt when missing."""
    if platform.machine() != "x86_64":
        raise StepFailed(f"the seccomp filter is written for x86_64 hosts, this is {platform.machine()}")
    if os.geteuid() != 0:
        raise StepFailed("run as root (debootstrap and the root's files need it)")
    missing = sorted({package for tool, package in HOST_TOOLS.items() if shutil.which(tool) is None})
    if missing:
        print(f"   installing {' '.join(missing)} with apt-get", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *missing]):
            if subprocess.run(command, env=env).returncode != 0:
                raise StepFailed(f"{' '.join(command)} failed")
    versions = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Version}, ", *HOST_TOOLS.values()],
                              capture_output=True, text=True).stdout.strip(" ,")
    return versions


def apt_mirror() -> str:
    """The Debian mirror apt already uses here (``PI_CHECK_MIRROR`` overrides it)."""
    if os.environ.get("PI_CHECK_MIRROR"):
        return os.environ["PI_CHECK_MIRROR"]
    texts = []
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]:
        if path.is_file():
            texts.append(path.read_text(errors="replace"))
    for text in texts:
        for match in re.finditer(r"(?:^deb\s+(?:\[[^]]*\]\s+)?|^URIs:\s*)(\S+/debian)/?\s", text, re.M):
            return match.group(1)
    return "http://deb.debian.org/debian"


def replace_symlinked_mount_points(root: Path) -> None:
    """ROOT/proc (and dev, sys) as a symlink to the host's breaks proot's binds: make them folders."""
    for name in ("proc", "sys", "dev"):
        path = root / name
        if path.is_symlink():
            path.unlink()
            path.mkdir()


def base_root(check: Check, rebuild: bool) -> str:
    """The arm64 bookworm root with BASE_PACKAGES, built once and reused."""
    stamp = BASE / ".farmbox-pi-check"
    if not rebuild and stamp.is_file() and stamp.read_text().strip() == BASE_STAMP:
        return f"reused {BASE}, built {time.strftime('%Y-%m-%d %H:%M', time.localtime(stamp.stat().st_mtime))}"
    debootstrapped = BASE / ".farmbox-debootstrapped"
    mirror = apt_mirror()
    first = second = 0.0
    if rebuild or not debootstrapped.is_file():
        if BASE.exists():
            shutil.rmtree(BASE)
        BASE.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        run_logged(["debootstrap", "--arch=arm64", "--foreign", "--variant=minbase", bookworm_keyring(),
                    "bookworm", str(BASE), mirror], check.log)
        first = time.monotonic() - started
        replace_symlinked_mount_points(BASE)
        run_logged(proot_command(BASE, ["/debootstrap/debootstrap", "--second-stage"]), check.log)
        second = time.monotonic() - started - first
        replace_symlinked_mount_points(BASE)
        debootstrapped.write_text(mirror + "\n")
    # apt's download sandbox user cannot work under proot; the root is ours anyway.
    (BASE / "etc/apt/apt.conf.d/00pi-check").write_text('APT::Sandbox::User "root";\n')
    (BASE / "etc/apt/sources.list").write_text(f"deb {mirror} bookworm main\n"
                                               f"deb {mirror} bookworm-updates main\n")
    run_logged(proot_command(BASE, ["apt-get", "update", "-q"]), check.log)
    install = proot_command(BASE, ["apt-get", "install", "-y", "-q", "--no-install-recommends",
                                   *BASE_PACKAGES])
    try:
        run_logged(install, check.log)
    except StepFailed:
        # systemd's postinst runs systemd-sysusers and systemd-tmpfiles, which make proot 5.1
        # abort (path.c compare_paths2: "length2 > 0" failed). The users and folders they make
        # (systemd-network, /var/log/journal...) mean nothing in this root: skip them.
        skip_under_proot(BASE / "var/lib/dpkg/info/systemd.postinst", ("systemd-sysusers", "systemd-tmpfiles"))
        run_logged(proot_command(BASE, ["dpkg", "--configure", "-a"]), check.log)
        run_logged(install, check.log)
    run_logged(proot_command(BASE, ["apt-get", "clean"]), check.log)
    stamp.write_text(BASE_STAMP + "\n")
    size = disk_usage(BASE)
    stages = (f"debootstrap first stage {first:.0f} s, second stage {second:.0f} s" if first
              else "debootstrap reused from an interrupted build")
    return f"built from {mirror}: {stages}, {size} MB"


def skip_under_proot(script: Path, commands: Sequence[str]) -> None:
    """Comment out the lines of a maintainer ``script`` that run one of ``commands``."""
    if not script.is_file():
        raise StepFailed(f"apt-get install failed and there is no {script.name} to repair")
    lines = script.read_text().splitlines()
    pattern = re.compile(r"^\s*(" + "|".join(map(re.escape, commands)) + r")\b")
    script.write_text("\n".join(": pi-check: skipped under proot # " + line if pattern.match(line) else line
                                for line in lines) + "\n")


def bookworm_keyring() -> str:
    keyring = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
    return f"--keyring={keyring}" if keyring.is_file() else "--no-check-gpg"


def disk_usage(path: Path) -> int:
    output = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True).stdout
    return int(output.split()[0]) if output else 0


def work_root() -> str:
    """A fresh copy of the base root for this check."""
    if WORK.exists():
        shutil.rmtree(WORK)
    result = subprocess.run(["cp", "-a", "--reflink=auto", str(BASE), str(WORK)], capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise StepFailed(f"cp -a {BASE} {WORK}: {result.stderr.strip()}")
    return f"{disk_usage(WORK)} MB"


def checkout_and_wheel(check: Check) -> str:
    """The checkout's files (tracked and new, as the working tree has them) and a wheel of it."""
    target = WORK / IN_ROOT.lstrip("/")
    source = target / "src"
    source.mkdir(parents=True)
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=REPO, capture_output=True, check=True).stdout
    count = 0
    for name in filter(None, listing.decode().split("\0")):
        path = REPO / name
        if path.is_file() and not path.is_symlink():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, source / name)
            count += 1
    wheels = target / "wheel"
    with tempfile.TemporaryDirectory() as build:
        shutil.copytree(source, Path(build) / "src")
        run_logged([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels),
                    str(Path(build) / "src")], check.log, timeout=900)
    built = sorted(wheels.glob("farmbox-*.whl"))
    if len(built) != 1:
        raise StepFailed(f"expected one farmbox wheel, found {[p.name for p in built]}")
    return f"{count} files, {built[0].name}"


def wheel_in_root() -> str:
    return IN_ROOT + "/wheel/" + next((WORK / IN_ROOT.lstrip("/") / "wheel").glob("farmbox-*.whl")).name


#: The end of Raspberry Pi OS bookworm's /boot/firmware/config.txt: model filters last.
PI_OS_CONFIG_TXT = """\
# For more options and information see http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
arm_64bit=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host
"""


def install_sh(check: Check) -> str:
    """systemd/install.sh as a Pi owner runs it, with the wheel instead of building one."""
    boot = WORK / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True, exist_ok=True)
    boot.write_text(PI_OS_CONFIG_TXT)
    output = check.in_root(["bash", f"{IN_ROOT}/src/systemd/install.sh"],
                           env={"FARMBOX_WHEEL": wheel_in_root()})
    added = boot.read_text()[len(PI_OS_CONFIG_TXT):].split()
    if added != ["[all]", "dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]:
        raise StepFailed(f"config.txt got {added}, not the I2C lines under [all]")
    for expected in ("python3-picamera2", "user farmbox", "farmbox.service"):
        if expected not in output:
            raise StepFailed(f"install.sh said nothing about {expected}")
    for path in ("etc/systemd/system/farmbox.service", "etc/farmbox/farmbox.toml",
                 "opt/farmbox/.venv/bin/farmbox",
                 "etc/systemd/system/multi-user.target.wants/farmbox.service"):
        if not (WORK / path).exists() and not (WORK / path).is_symlink():
            raise StepFailed(f"install.sh did not create /{path}")
    if "farmbox:" not in (WORK / "etc/passwd").read_text():
        raise StepFailed("install.sh did not create the user farmbox")
    again = check.in_root(["bash", f"{IN_ROOT}/src/systemd/install.sh"],
                          env={"FARMBOX_WHEEL": wheel_in_root()})
    if boot.read_text()[len(PI_OS_CONFIG_TXT):].split() != added or "keeping the existing" not in again:
        raise StepFailed("a second install.sh changed config.txt again or replaced the settings")
    notes = [line.split("install.sh: ", 1)[1] for line in output.splitlines()
             if line.startswith("install.sh: ") and "not available" in line]
    return "; ".join(notes) if notes else "every package installed"


def unit_verifies(check: Check) -> str:
    """``systemd-analyze verify`` on the installed unit, inside the root; and its exposure."""
    output = check.in_root(["systemd-analyze", "verify", "--man=no",
                            "/etc/systemd/system/farmbox.service"])
    complaints = [line for line in output.splitlines() if line.strip() and not line.startswith("$ ")]
    if complaints:
        raise StepFailed(f"systemd-analyze verify: {complaints[0]}")
    security = check.in_root(["systemd-analyze", "security", "--offline=yes", "--no-pager",
                              "/etc/systemd/system/farmbox.service"])
    score = re.search(r"Overall exposure level for \S+: ([\d.]+)", security)
    return f"verify clean; exposure {score.group(1) if score else '?'}"


def venv_matches_the_lock(check: Check) -> str:
    """Every distribution in the venv (not apt's, seen through --system-site-packages) is
    pinned by requirements.lock at the version installed."""
    lock = {}
    for line in (REPO / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith((" ", "#")):
            name, version = line.split("==")
            lock[re.sub(r"[-_.]+", "-", name).lower()] = version
    frozen = check.in_root([f"{VENV}/bin/pip", "list", "--local", "--format=freeze"])
    installed = {}
    for line in frozen.splitlines():
        if "==" in line and not line.startswith("$"):
            name, version = line.strip().split("==")
            installed[re.sub(r"[-_.]+", "-", name).lower()] = version
    loose = [f"{n}=={v}" for n, v in sorted(installed.items())
             if n not in ("farmbox", "pip", "setuptools", "wheel") and lock.get(n) != v]
    if loose:
        raise StepFailed("not as requirements.lock pins them: " + ", ".join(loose))
    return f"{len(installed)} packages, all as pinned"


def real_pins_refused(check: Check) -> str:
    """simulated = false where there is no gpiochip: one line, exit 2, no mock pins."""
    scratch = WORK / IN_ROOT.lstrip("/")
    (scratch / "real.toml").write_text(RUN_CONFIG.replace("simulated = true", "simulated = false")
                                       .format(dir=f"{IN_ROOT}/journal-real"))
    proc = launch(proot_command(WORK, [f"{VENV}/bin/farmbox", "run", "--config", f"{IN_ROOT}/real.toml"],
                                env={"GPIOZERO_PIN_FACTORY": "lgpio"}, cwd=IN_ROOT, binds=check.binds),
                  check.log)
    status = proc.wait(timeout=1800)
    lines = [line for line in check.log.read_text().splitlines()[-5:] if line.startswith("farmbox run:")]
    if status != 2 or not lines or "the lgpio pin factory cannot open the pins" not in lines[-1]:
        raise StepFailed(f"exit status {status}, {lines[-1] if lines else 'no error line'}")
    return lines[-1][:150]


def expect(output: str, *needles: str) -> str:
    """``output``, if every needle is in it."""
    for needle in needles:
        if needle not in output:
            raise StepFailed(f"no {needle!r} in the output")
    return output


def farmbox(check: Check, *args: str, timeout: float = 3600) -> str:
    return check.in_root([f"{VENV}/bin/farmbox", *args], cwd=IN_ROOT, timeout=timeout)


def dice_frames(check: Check) -> str:
    """Render an enrollment folder and two rolls with the installed renderer, enroll, read."""
    script = (
        "import cv2, sys\n"
        "from farmbox.vision.render.dice import Setup, render_scene, write_samples\n"
        "setup = Setup.from_seed(4242, table_kind='wood')\n"
        f"write_samples('{IN_ROOT}/dice/SAMPLES', setup=setup, per_face=2, seed=4242)\n"
        "for seed in (901, 902):\n"
        "    image, truth = render_scene(seed, setup=setup)\n"
        f"    cv2.imwrite(f'{IN_ROOT}/dice/roll{{seed}}.png', image)\n"
        "    print('truth', seed, ','.join(truth['faces']))\n")
    rendered = check.in_root([f"{VENV}/bin/python", "-c", script])
    enrolled = farmbox(check, "vision", "enroll", "dice", f"{IN_ROOT}/dice/SAMPLES",
                       "--model", f"{IN_ROOT}/dice/dice.npz")
    expect(enrolled, "enrolled")
    read = farmbox(check, "vision", "read", "dice", "--model", f"{IN_ROOT}/dice/dice.npz", "--json",
                   f"{IN_ROOT}/dice/roll901.png", f"{IN_ROOT}/dice/roll902.png")
    expect(read, '"faces"', "roll901.png", "roll902.png")
    truths = re.findall(r"^truth (\d+) (\S+)$", rendered, re.M)
    faces = re.findall(r'"faces": (\[[^]]*\]|null)', read)
    return "truth " + " ".join(t[1] for t in truths) + "; read " + " ".join(faces)


def pytest_folders(check: Check) -> str:
    """The test tools from the lock, then the rules and hw test folders against the wheel."""
    check.in_root([f"{VENV}/bin/pip", "install", "--quiet", "--constraint",
                   f"{IN_ROOT}/src/requirements.lock", f"{wheel_in_root()}[test]"])
    output = check.in_root([f"{VENV}/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "tests/rules", "tests/hw"], cwd=f"{IN_ROOT}/src", timeout=7200)
    summary = [line for line in output.splitlines() if re.search(r"\d+ passed", line)]
    if not summary:
        raise StepFailed("pytest printed no summary")
    return summary[-1].strip("= ")


RUN_CONFIG = """\
[hardware]
simulated = true
[display]
driver = "dummy"
[camera]
source = "none"
[journal]
dir = "{dir}"
"""


def run_until_ready(check: Check) -> str:
    """``farmbox run`` on simulated parts until READY=1 on a NOTIFY_SOCKET the check binds,
    then SIGTERM to the process that sent it: STOPPING=1 and exit status 0."""
    scratch = WORK / IN_ROOT.lstrip("/")
    (scratch / "run.toml").write_text(RUN_CONFIG.format(dir=f"{IN_ROOT}/journal"))
    name = f"farmbox-pi-check-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)  # abstract: no path for proot to translate
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.settimeout(900)
    command = proot_command(WORK, [f"{VENV}/bin/farmbox", "run", "--config", f"{IN_ROOT}/run.toml"],
                            env={"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "20000000"},
                            cwd=IN_ROOT, binds=check.binds)
    proc = launch(command, check.log)
    started = time.monotonic()
    messages: list[str] = []
    sender = 0
    try:
        while "READY=1" not in messages:
            try:
                data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(12))
            except TimeoutError:
                raise StepFailed("no READY=1 within 900 s") from None
            messages += data.decode().split("\n")
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    sender = struct.unpack("=iII", payload[:12])[0]
        ready = time.monotonic() - started
        if not sender:
            raise StepFailed("READY=1 came without the sender's credentials")
        os.kill(sender, signal.SIGTERM)
        sock.settimeout(120)
        while "STOPPING=1" not in messages:
            try:
                messages += sock.recv(4096).decode().split("\n")
            except TimeoutError:
                raise StepFailed("no STOPPING=1 within 120 s of SIGTERM") from None
        status = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
    if status != 0:
        raise StepFailed(f"farmbox run exited {status} after SIGTERM")
    statuses = [m for m in messages if m.startswith("STATUS=")]
    return f"READY after {ready:.1f} s, {statuses[0] if statuses else 'no STATUS'}; SIGTERM -> exit 0"



# --- the lock file -----------------------------------------------------------------------

LOCK = REPO / "requirements.lock"
#: What the Pi needs beyond pyproject.toml's ranges: apt's picamera2 stack (seen through
#: --system-site-packages) is built against numpy 1.x, and opencv-python-headless 4.11 and
#: later want numpy 2.
LOCK_CAPS = {"numpy": "<2", "opencv-python-headless": "<4.11"}
LOCK_EXTRAS = ("pi", "sim", "test")
#: Pure-Python packages published only as an sdist (pip builds them anywhere).
SDIST_ONLY = ("sdnotify",)
AARCH64_PLATFORMS = ("manylinux_2_36_aarch64", "manylinux_2_34_aarch64", "manylinux_2_28_aarch64",
                     "manylinux_2_17_aarch64", "manylinux2014_aarch64")


def canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def project_requirements() -> list[tuple[str, str]]:
    """(requirement, who asks) for the dependencies and the LOCK_EXTRAS of pyproject.toml."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = [(r, "farmbox") for r in project["dependencies"]]
    for extra in LOCK_EXTRAS:
        wanted += [(r, f"farmbox[{extra}]") for r in project["optional-dependencies"][extra]]
    return wanted


def resolve(requirements: Sequence[str], aarch64: bool) -> list[dict]:
    """pip's resolution of ``requirements`` (a dry-run install report), for aarch64 cp311
    wheels only when ``aarch64``."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
                   "--quiet", "--report", str(report)]
        if aarch64:
            command += ["--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp",
                        "--abi", "cp311", "--target", str(Path(scratch) / "target")]
            for tag in AARCH64_PLATFORMS:
                command += ["--platform", tag]
        subprocess.run(command + list(requirements), check=True)
        import json
        return json.loads(report.read_text())["install"]


def write_lock() -> int:
    """Resolve pyproject.toml (+ LOCK_CAPS) for the Pi and write requirements.lock."""
    wanted = project_requirements()
    plain = []
    for requirement, _ in wanted:
        # lgpio's marker (platform_machine == 'aarch64') would be judged on this host: drop it.
        text = requirement.split(";")[0].strip()
        name = canonical(re.split(r"[<>=!~ \[]", text, maxsplit=1)[0])
        plain.append(text + LOCK_CAPS.get(name, "").replace("<", ",<" if re.search(r"[<>=]", text) else "<"))
    binary = [r for r in plain if canonical(re.split(r"[<>=!~ \[]", r, maxsplit=1)[0]) not in SDIST_ONLY]
    source = [r for r in plain if r not in binary]
    installs = resolve(binary, aarch64=True) + (resolve(source, aarch64=False) if source else [])
    pinned = {canonical(i["metadata"]["name"]): i for i in installs}
    askers: dict[str, set[str]] = {name: set() for name in pinned}
    for requirement, who in wanted:
        askers[canonical(re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0])].add(who)
    for install in pinned.values():
        for requirement in install["metadata"].get("requires_dist", []) or []:
            dependency = canonical(re.split(r"[<>=!~ \[;(]", requirement, maxsplit=1)[0])
            if dependency in askers and "extra ==" not in requirement:
                askers[dependency].add(install["metadata"]["name"])
    for install in pinned.values():  # asked for only through an extra (urllib3[socks])
        for requirement in install["metadata"].get("requires_dist", []) or []:
            dependency = canonical(re.split(r"[<>=!~ \[;(]", requirement, maxsplit=1)[0])
            if dependency in askers and not askers[dependency]:
                askers[dependency].add(install["metadata"]["name"])
    caps = ", ".join(f"{k}{v}" for k, v in LOCK_CAPS.items())
    lines = [
        "# requirements.lock: the exact versions farmbox runs with on a Raspberry Pi (aarch64,",
        "# CPython 3.11, Raspberry Pi OS / Debian 12 bookworm): pyproject.toml's dependencies",
        f"# and its extras {', '.join(LOCK_EXTRAS)}, capped for the Pi at {caps}",
        "# (apt's picamera2 is built against numpy 1.x). Each package names who needs it and",
        "# its aarch64 cp311 wheel (or says it is a pure-Python sdist). install.sh and",
        "# `make pi-check` install with `pip install --constraint requirements.lock`;",
        "# tests/systemd/test_lock.py checks it against pyproject.toml.",
        "# Regenerate: python3 bench/pi_check.py --write-lock",
    ]
    for name in sorted(pinned):
        install = pinned[name]
        wheel = install["download_info"]["url"].rsplit("/", 1)[-1]
        lines.append(f"{install['metadata']['name']}=={install['metadata']['version']}")
        kind = "sdist, pure Python" if not wheel.endswith(".whl") else wheel
        lines.append(f"    # via {', '.join(sorted(askers[name]))}; {kind}")
    LOCK.write_text("\n".join(lines) + "\n")
    print(f"wrote {LOCK}: {len(pinned)} packages")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="build the base root again")
    parser.add_argument("--keep", action="store_true", help="keep the work root afterwards")
    parser.add_argument("--write-lock", action="store_true",
                        help="resolve pyproject.toml for aarch64 cp311 and write requirements.lock")
    parser.add_argument("--root-only", action="store_true", help="stop once the base root is ready")
    args = parser.parse_args(argv)
    if args.write_lock:
        return write_lock()
    check = Check(args.keep)
    started = time.monotonic()
    print(f"pi-check {time.strftime('%Y-%m-%d %H:%M %Z')}: cache {CACHE}, log {check.log}", flush=True)
    check.step("host tools", host_tools)
    check.step("arm64 bookworm root", lambda: base_root(check, args.rebuild))
    if args.root_only:
        print(f"pi-check: base root ready in {BASE}")
        return 0
    check.step("fresh copy of the root", work_root)
    check.step("checkout and wheel", lambda: checkout_and_wheel(check))
    check.step("install.sh in the root", lambda: install_sh(check))
    check.step("systemd-analyze verify in the root", lambda: unit_verifies(check))

    def python_and_wheels() -> str:
        probe = ("import platform, sys, importlib.metadata as m\n"
                 "import numpy, cv2, PIL.Image, gpiozero, lgpio, luma.core, luma.oled.device\n"
                 "names = ('numpy', 'opencv-python-headless', 'pillow', 'gpiozero', 'lgpio', 'luma.oled')\n"
                 "print(platform.machine(), sys.version.split()[0],"
                 " ', '.join(f'{n} {m.version(n)}' for n in names))\n")
        output = check.in_root([f"{VENV}/bin/python", "-c", probe])
        expect(output, "aarch64 3.11")
        return [line for line in output.splitlines() if line.startswith("aarch64")][0]

    check.step("python and wheels", python_and_wheels)
    check.step("venv matches requirements.lock", lambda: venv_matches_the_lock(check))
    check.step("farmbox --help",
               lambda: f"{len(expect(farmbox(check, '--help'), 'settle', 'odds', 'run').splitlines())} lines")

    def settle() -> str:
        output = farmbox(check, "settle", "--herd", "rabbit=6,sheep=1", "--roll", "rabbit,sheep")
        return [line for line in output.splitlines() if line.startswith("roll ")][-1][:100]

    check.step("farmbox settle", settle)

    def odds() -> str:
        import json
        output = farmbox(check, "odds", "rabbit=6,sheep=1", "--json")
        line = [entry for entry in output.splitlines() if entry.startswith("{")]
        if not line:
            raise StepFailed("no JSON object in the output")
        data = json.loads(line[-1])
        return f"{len(data)} keys"

    check.step("farmbox odds --json", odds)
    check.step("farmbox vision enroll and read", lambda: dice_frames(check))
    def demo(game: str) -> str:
        output = farmbox(check, "demo", game, "--fast", "--quiet", "--no-camera")
        lines = [line for line in output.splitlines() if line.strip() and not line.startswith("$ ")]
        return lines[-1][:100] if lines else "no output"

    for game in ("superfarmer", "funfarm", "cardgame"):
        check.step(f"farmbox demo {game}", functools.partial(demo, game))
    check.step("pytest tests/rules tests/hw", lambda: pytest_folders(check))
    check.step("farmbox run until READY", lambda: run_until_ready(check))
    check.step("farmbox run on real pins without a gpiochip", lambda: real_pins_refused(check))
    if not args.keep:
        shutil.rmtree(WORK, ignore_errors=True)
    total = time.monotonic() - started
    print("times: " + ", ".join(f"{name} {took:.0f} s" for name, took in check.times))
    print(f"pi-check: passed ({len(check.times)} steps in {total / 60:.1f} min, "
          f"{time.strftime('%Y-%m-%d')}, arm64 Debian 12 under qemu-user)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
