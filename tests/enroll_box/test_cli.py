"""``farmbox enroll dice``: the command that starts the guided enrollment on the box."""

from __future__ import annotations

import threading
import time

import cv2

from farmbox.firmware.box.config import load_config
from farmbox.firmware.cli import main
from farmbox.hw.pins import simulated_pins
from farmbox.vision.render.dice import render_background


def _config(tmp_path, camera: str) -> str:
    path = tmp_path / "farmbox.toml"
    path.write_text(
        "[hardware]\nsimulated = true\n[display]\ndriver = \"dummy\"\n"
        f"[camera]\nsource = \"{camera}\"\n"
        f"[journal]\ndir = \"{tmp_path / 'state'}\"\n"
        "[buttons]\ndebounce_ms = 1\nhold_time = 0.05\n")
    return str(path)


def test_without_a_camera_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["enroll", "dice", "--config", _config(tmp_path, "none")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "needs a camera" in err
    assert not (tmp_path / "state").exists()


def test_a_bad_per_face_is_refused(tmp_path, capsys):
    assert main(["enroll", "dice", "--per-face", "0", "--config", _config(tmp_path, "none")]) == 2
    assert "--per-face" in capsys.readouterr().err


def test_back_on_the_first_screen_cancels_and_writes_nothing(tmp_path, capsys):
    table = tmp_path / "table"
    table.mkdir()
    cv2.imwrite(str(table / "empty.png"), render_background())
    config = _config(tmp_path, f"folder:{table}")
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
        rc = main(["enroll", "dice", "--config", config, "--model", str(tmp_path / "m.npz")])
        presser.join()
    assert rc == 1
    assert "nothing written" in capsys.readouterr().err
    assert not (tmp_path / "m.npz").exists()
    assert not (tmp_path / "state" / "dice-samples").exists()
