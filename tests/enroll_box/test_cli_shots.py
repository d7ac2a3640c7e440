"""``farmbox enroll cards`` and ``farmbox enroll colour-dice``: bad input is one line and exit
status 2 before the first photo; BACK on the first screen cancels and writes nothing."""

from __future__ import annotations

import threading
import time

import cv2
import pytest

from farmbox.firmware.box.config import load_config
from farmbox.firmware.cli import main
from farmbox.firmware.cli.enroll import deck_cards
from farmbox.hw.pins import simulated_pins
from farmbox.vision.render.cards import scene

from .test_cli import _config


@pytest.fixture
def table(tmp_path):
    folder = tmp_path / "table"
    folder.mkdir()
    cv2.imwrite(str(folder / "card.png"), scene(3, ids=["sheep-1"]).image)
    return f"folder:{folder}"


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("kind", ["cards", "colour-dice"])
def test_without_a_camera_is_one_line_and_exit_2(tmp_path, capsys, kind):
    assert main(["enroll", kind, "--config", _config(tmp_path, "none")]) == 2
    assert "needs a camera" in one_line(capsys)


def test_a_missing_deck_file_is_one_line_and_exit_2(tmp_path, capsys, table):
    config = _config(tmp_path, table)
    assert main(["enroll", "cards", "--config", config, "--deck", str(tmp_path / "no.toml")]) == 2
    err = one_line(capsys)
    assert "no.toml" in err and "no such file" in err
    assert main(["enroll", "cards", "--config", config, "--deck", str(tmp_path / "no.txt")]) == 2
    assert "no.txt: no such file" in one_line(capsys)
    bad = tmp_path / "bad.txt"
    bad.write_text("sheep-1\nsheep-1\n")
    assert main(["enroll", "cards", "--config", config, "--deck", str(bad)]) == 2
    assert "one distinct card id a line" in one_line(capsys)
    assert main(["enroll", "colour-dice", "--config", config, "--deck", str(bad)]) == 2
    assert "--deck is for enrolling cards" in one_line(capsys)
    assert not (tmp_path / "state").exists()


def test_an_unwritable_model_path_is_one_line_and_exit_2(tmp_path, capsys, table):
    config = _config(tmp_path, table)
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert main(["enroll", "cards", "--config", config, "--model", str(folder)]) == 2
    assert "is a directory" in one_line(capsys)
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    assert main(["enroll", "colour-dice", "--config", config, "--model", str(plain / "m.json")]) == 2
    assert "is not a folder" in one_line(capsys)
    link = tmp_path / "link.npz"
    link.symlink_to(tmp_path / "elsewhere.npz")
    assert main(["enroll", "cards", "--config", config, "--model", str(link)]) == 2
    assert "symlink" in one_line(capsys)
    assert not (tmp_path / "elsewhere.npz").exists()


def test_a_text_deck_names_its_cards_without_pictures(tmp_path):
    deck = tmp_path / "set.txt"
    deck.write_text("# my deck\n1-red-oval-solid\n\n2-green-diamond-open\n")
    ids, picture, name = deck_cards(str(deck))
    assert ids == ["1-red-oval-solid", "2-green-diamond-open"] and picture is None
    ids, picture, name = deck_cards(None)
    assert len(ids) == 24 and picture("cow-2").size == (38, 38) and name("cow-2") == "COW-2"


@pytest.mark.parametrize("kind", ["cards", "colour-dice"])
def test_back_on_the_first_screen_cancels_and_writes_nothing(tmp_path, capsys, table, kind):
    config = _config(tmp_path, table)
    back = load_config().buttons.back
    with simulated_pins() as factory:
        def press_back() -> None:
            time.sleep(1.0)  # the first screen is up by then
            pin = factory.pin(back)
            pin.drive_low()
            time.sleep(0.01)
            pin.drive_high()
        presser = threading.Thread(target=press_back)
        presser.start()
        rc = main(["enroll", kind, "--config", config, "--no-web", "--model", str(tmp_path / "m")])
        presser.join()
    assert rc == 1
    assert "nothing written" in capsys.readouterr().err
    assert not (tmp_path / "m").exists() and not (tmp_path / "state" / f"{kind}-samples").exists()


def test_a_busy_web_port_is_one_line_and_exit_2(tmp_path, capsys, table):
    """The service still running holds [web] port: say so, open nothing for long."""
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    config = tmp_path / "web.toml"
    config.write_text(open(_config(tmp_path, table)).read()
                      + f"[web]\nport = {port}\nbind = \"127.0.0.1\"\npin = \"2468\"\n")
    try:
        with simulated_pins():
            assert main(["enroll", "cards", "--config", str(config)]) == 2
    finally:
        busy.close()
    err = one_line(capsys)
    assert f"port {port}" in err and "systemctl stop farmbox" in err


def test_with_a_pin_the_page_is_served_while_it_runs_and_its_address_printed(tmp_path, capsys, table):
    import json
    import socket
    import urllib.request

    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    config = tmp_path / "web.toml"
    config.write_text(open(_config(tmp_path, table)).read()
                      + f"[web]\nport = {port}\nbind = \"127.0.0.1\"\npin = \"2468\"\n")
    back = load_config().buttons.back
    seen: list[dict] = []
    with simulated_pins() as factory:
        def look_then_back() -> None:
            deadline = time.monotonic() + 20
            while not seen and time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/enroll/api/state", timeout=2) as r:
                        seen.append(json.loads(r.read()))
                except OSError:
                    time.sleep(0.05)  # not serving yet
            pin = factory.pin(back)
            pin.drive_low()
            time.sleep(0.01)
            pin.drive_high()
        presser = threading.Thread(target=look_then_back)
        presser.start()
        rc = main(["enroll", "cards", "--config", str(config), "--model", str(tmp_path / "m")])
        presser.join()
    assert rc == 1
    out = capsys.readouterr().out
    assert f"enroll from a phone: http://127.0.0.1:{port}/enroll" in out
    # the empty table first (the card reader's table), then the deck's first card
    assert seen and seen[0]["kind"] == "cards" and seen[0]["phase"] == "clear" and seen[0]["clear"]
