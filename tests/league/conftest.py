"""A real mosquitto on a free local port (killed and restarted by the tests), a network cable
that can be pulled (a TCP relay), and simulated boxes: the real Super Farmer session and
journal, played by the bot, publishing their events like the box does."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from farmbox.firmware.box.events import Event, EventStream
from farmbox.firmware.box.observations import RollSeen
from farmbox.firmware.games.superfarmer.actions import new_game_action
from farmbox.firmware.games.superfarmer.bot import Bot
from farmbox.firmware.games.superfarmer.journal import SuperFarmerJournal
from farmbox.firmware.games.superfarmer.session import Session
from farmbox.firmware.rules.superfarmer import variant


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class Mosquitto:
    """Debian's mosquitto on ``port`` (no persistence: a restart forgets every queue)."""

    def __init__(self, folder: Path) -> None:
        exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(exe).exists():
            pytest.fail("mosquitto is needed: `make test` installs it with apt")
        self.exe = exe
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                             "log_dest none\n")
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while not port_open(self.port):
            assert self.proc.poll() is None, "mosquitto exited"
            assert time.monotonic() < end, "mosquitto did not listen"
            time.sleep(0.02)

    def kill(self) -> None:
        """kill -9: everything the broker held in memory is gone."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Cable:
    """A TCP relay from ``port`` to the broker that can be pulled out (every connection
    dropped, new ones refused) and plugged back in."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.server.getsockname()[1])
        self.plugged = True
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.plugged:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def pull(self) -> None:
        self.plugged = False
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def plug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        self.pull()
        self.server.close()


class SimBox:
    """A Super Farmer table without hardware: the real session and journal, played by the bot;
    each commit is journaled, then published on ``events`` (as the box's _commit does)."""

    def __init__(self, folder: Path, seed: int, names: list[str], rules: str = "compact") -> None:
        self.events = EventStream()
        self.journal = SuperFarmerJournal(folder)
        self.journal.open()
        self.bot = Bot(seed, camera=True, unsure=0.2)
        self.names = names
        self.rules = variant(rules)
        self.session = Session(len(names), self.rules, self._commit, camera=True)
        self.games = 0

    def begin(self) -> None:
        self.events.publish(Event("names", 0, {"names": self.names}))
        self._commit(new_game_action(len(self.names), self.rules), self.session.state)

    def _commit(self, action, state) -> None:
        seq = self.journal.append(action, state)
        self.events.publish(Event("action", seq, {"action": action, "state": state.to_dict()}))

    def step(self) -> bool:
        """One input from the bot; False when the game is over."""
        move = self.bot.next_input(self.session, self.journal.seq)
        if move is None:
            return False
        if isinstance(move, RollSeen):
            self.session.roll_seen(move, 0.0)
        elif move[0] == "press":
            self.session.press(move[1])
        else:
            self.session.hold(move[1])
        return True

    def new_game(self) -> None:
        self.games += 1
        self.bot = Bot(self.bot.seed + 100, camera=True, unsure=0.2)
        self.session.new_game()


@pytest.fixture
def broker(tmp_path):
    b = Mosquitto(tmp_path)
    try:
        yield b
    finally:
        b.stop()
