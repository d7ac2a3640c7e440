"""The fault-injection suite: the real service process (``python -m
farmbox.firmware.games.superfarmer.box`` or ``farmbox run``) with faults injected below it by
:mod:`tests.faults.launch` (the I2C bus, the OS calls on the journal file), and the real
journal, display and CLI code in-process over a bus / files that fail as told."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOX = "farmbox.firmware.games.superfarmer.box"
CLI = "farmbox.firmware.cli"


def write_config(folder: Path, driver: str = "dummy", players: int = 2) -> Path:
    """A settings file for a simulated box with its journal in ``folder/journal``."""
    path = folder / "farmbox.toml"
    path.write_text(f'[hardware]\nsimulated = true\n[display]\ndriver = "{driver}"\n'
                    f'[camera]\nsource = "none"\n[game]\nplayers = {players}\n'
                    f'[journal]\ndir = "{folder / "journal"}"\n[web]\nport = 0\n')
    return path


@dataclass
class Run:
    """What one service process did: its exit status, stdout lines, stderr lines."""

    code: int
    out: list[str]
    err: list[str]

    @property
    def acks(self) -> list[int]:
        return [int(line.split()[1]) for line in self.out if line.startswith("ack ")]

    def ready(self) -> tuple[int, str]:
        """The ``ready SEQ DIGEST`` line: where the replayed journal stood."""
        line = next(line for line in self.out if line.startswith("ready "))
        _, seq, digest = line.split()
        return int(seq), digest


def service_env() -> dict[str, str]:
    """The environment of a service process: this tree's tests importable (after whatever
    PYTHONPATH says), no systemd socket."""
    paths = [p for p in (os.environ.get("PYTHONPATH", ""), str(ROOT)) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PYTHONUNBUFFERED="1")
    env.pop("NOTIFY_SOCKET", None)
    return env


def run(module: str, args: list[str], plan: dict[str, object] | None = None,
        timeout: float = 240) -> Run:
    """Run ``module``'s main with ``args`` in a new process, faults as ``plan`` says."""
    env = service_env()
    command = [sys.executable, "-m", "tests.faults.launch", json.dumps(plan or {}), "--",
               module, *args]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return Run(done.returncode, done.stdout.splitlines(), done.stderr.splitlines())


@dataclass
class Serving:
    """A service process running until the ``with`` block ends (SIGTERM), its stderr read
    line by line as it comes."""

    process: subprocess.Popen[str]
    err: list[str] = field(default_factory=list)
    code: int | None = None
    _lines: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def wait_for_line(self, text: str, seconds: float = 60) -> str | None:
        """The first stderr line containing ``text`` (None if none came in ``seconds``)."""
        end = time.monotonic() + seconds
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            self.err.append(line)
            if text in line:
                return line


@contextmanager
def serving(module: str, args: list[str], plan: dict[str, object] | None = None
            ) -> Iterator[Serving]:
    env = service_env()
    command = [sys.executable, "-m", "tests.faults.launch", json.dumps(plan or {}), "--",
               module, *args]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    service = Serving(process)

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            service._lines.put(line.rstrip("\n"))
        service._lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield service
    finally:
        process.send_signal(signal.SIGTERM)
        service.code = process.wait(timeout=60)
        reader.join(timeout=10)
        while not service._lines.empty():
            line = service._lines.get()
            if line is not None:
                service.err.append(line)


@pytest.fixture
def box_config(tmp_path: Path) -> Path:
    return write_config(tmp_path)
