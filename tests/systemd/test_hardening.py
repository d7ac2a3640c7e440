"""The unit's MemoryDenyWriteExecute=yes, tried on the real code: Python, numpy, OpenCV,
Pillow, luma, gpiozero and the service itself, under the rule systemd installs for it.

systemd 252 (bookworm) implements MemoryDenyWriteExecute= as a seccomp filter
(``seccomp_memory_deny_write_execute``): ``mmap`` with both PROT_WRITE and PROT_EXEC,
``mprotect``/``pkey_mprotect`` adding PROT_EXEC and ``shmat`` with SHM_EXEC fail with EPERM.
The same filter is built here with ctypes and installed in the child before it execs Python.
"""

from __future__ import annotations

import ctypes
import os
import platform
import signal
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]

#: machine -> (AUDIT_ARCH, {call: number}) from asm/unistd.h
ARCHES = {
    "x86_64": (0xC000003E, {"mmap": 9, "mprotect": 10, "shmat": 30, "pkey_mprotect": 329}),
    "aarch64": (0xC00000B7, {"mmap": 222, "mprotect": 226, "shmat": 196, "pkey_mprotect": 288}),
}
PROT_WRITE, PROT_EXEC, SHM_EXEC = 0x2, 0x4, 0o100000
LD_ABS, AND_K, JEQ_K, RET_K = 0x20, 0x54, 0x15, 0x06
ALLOW, EPERM = 0x7FFF0000, 0x00050000 | 1
ARG2 = 16 + 2 * 8  # seccomp_data.args[2], low 32 bits (little-endian)


def mdwe_program(arch: int, calls: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """systemd's MemoryDenyWriteExecute rule as classic BPF."""
    rules = [(calls["mmap"], PROT_WRITE | PROT_EXEC), (calls["mprotect"], PROT_EXEC),
             (calls["pkey_mprotect"], PROT_EXEC), (calls["shmat"], SHM_EXEC)]
    program = [(LD_ABS, 0, 0, 4), (JEQ_K, 1, 0, arch), (RET_K, 0, 0, ALLOW)]
    for number, mask in rules:
        program += [(LD_ABS, 0, 0, 0), (JEQ_K, 0, 4, number),  # not this call: next rule
                    (LD_ABS, 0, 0, ARG2), (AND_K, 0, 0, mask), (JEQ_K, 0, 1, mask),
                    (RET_K, 0, 0, EPERM)]
    program.append((RET_K, 0, 0, ALLOW))
    return program


def deny_write_execute() -> None:
    """preexec_fn: install the filter in the child (no new privileges, as systemd sets)."""
    arch, calls = ARCHES[platform.machine()]
    program = mdwe_program(arch, calls)
    code = b"".join(struct.pack("=HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(code, len(code))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    fprog = Program(len(program), ctypes.addressof(buffer))
    if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:
        os._exit(99)


pytestmark = pytest.mark.skipif(platform.machine() not in ARCHES or sys.platform != "linux",
                                reason="seccomp numbers known for Linux x86_64 and aarch64 only")


def under_mdwe(code: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          preexec_fn=deny_write_execute, cwd=REPO, **kwargs)


def test_the_filter_refuses_writable_executable_memory():
    """Without this the other tests would prove nothing."""
    probe = (
        "import ctypes, mmap\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.mmap.restype = ctypes.c_void_p\n"
        "libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]\n"
        "wx = libc.mmap(None, 4096, mmap.PROT_WRITE | mmap.PROT_EXEC, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)\n"
        "print('wx', wx == ctypes.c_void_p(-1).value, ctypes.get_errno())\n"
        "rw = libc.mmap(None, 4096, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)\n"
        "print('rw', rw == ctypes.c_void_p(-1).value)\n"
        "print('mprotect', libc.mprotect(ctypes.c_void_p(rw), 4096, mmap.PROT_READ | mmap.PROT_EXEC), ctypes.get_errno())\n")
    result = under_mdwe(probe)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == ["wx True 1", "rw False", "mprotect -1 1"]


def test_numpy_opencv_pillow_and_the_dice_reader_run_under_it():
    work = (
        "import ctypes, numpy, cv2, PIL.Image, gpiozero, luma.core, luma.oled.device\n"
        "from gpiozero.pins.mock import MockFactory\n"
        "from farmbox.vision.render.dice import Setup, render_scene, write_samples\n"
        "from farmbox.vision.dice.enroll import enroll_folder\n"
        "from farmbox.vision.dice.reader import DiceReader\n"
        "import tempfile\n"
        "a = numpy.random.default_rng(1).random((200, 200))\n"
        "print('inv', bool(numpy.allclose(a @ numpy.linalg.inv(a), numpy.eye(200), atol=1e-6)))\n"
        "setup = Setup.from_seed(4242, table_kind='wood')\n"
        "with tempfile.TemporaryDirectory() as folder:\n"
        "    model = enroll_folder(write_samples(folder + '/S', setup=setup, per_face=1, seed=4242))\n"
        "image, truth = render_scene(901, setup=setup)\n"
        "ok, png = cv2.imencode('.png', image)\n"
        "back = cv2.imdecode(png, cv2.IMREAD_COLOR)\n"
        "print('png', bool(ok and (back == image).all()))\n"
        "PIL.Image.fromarray(back[:, :, ::-1]).convert('1').resize((128, 64))\n"
        "reading = DiceReader(model).read(back)\n"
        "print('read', type(reading).__name__)\n")
    result = under_mdwe(work)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == ["inv True", "png True", "read DiceReading"]


def test_the_service_reaches_ready_and_stops_under_it(tmp_path):
    config = tmp_path / "farmbox.toml"
    config.write_text(f'[hardware]\nsimulated = true\n[web]\nport = 0\n[display]\ndriver = "dummy"\n'
                      f'[journal]\ndir = "{tmp_path / "journal"}"\n')
    sock_path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(60)
    env = dict(os.environ, NOTIFY_SOCKET=sock_path)
    # what ExecStart runs: the venv's console script
    farmbox = Path(sys.executable).with_name("farmbox")
    command = [str(farmbox)] if farmbox.exists() else [sys.executable, "-m", "farmbox.firmware.games.superfarmer.box"]
    proc = subprocess.Popen([*command, "run", "--config", str(config)] if farmbox.exists()
                            else [*command, "--config", str(config)],
                            cwd=REPO, env=env, stderr=subprocess.PIPE, text=True,
                            preexec_fn=deny_write_execute)
    messages: list[str] = []
    try:
        while "READY=1" not in messages:
            messages += sock.recv(4096).decode().split("\n")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        while "STOPPING=1" not in messages:
            messages += sock.recv(4096).decode().split("\n")
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert any(m.startswith("STATUS=farmer 1's turn 1") for m in messages)
    assert proc.stderr is not None and "new classic game for 2 players" in proc.stderr.read()
