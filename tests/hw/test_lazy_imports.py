"""OpenCV and numpy are slow to import: hw imports them only when a camera needs them, so the
service's start (to READY) does not pay for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    return proc.stdout.strip()


def test_importing_hw_and_the_services_does_not_load_opencv_or_numpy():
    out = run("import sys, farmbox.hw, farmbox.hw.camera, farmbox.firmware.games.superfarmer.box, farmbox.firmware.games.funfarm.box, "
              "farmbox.firmware.games.cardgame.box; print('cv2' in sys.modules, 'numpy' in sys.modules)")
    assert out == "False False"


def test_a_folder_camera_loads_opencv_when_it_reads(tmp_path):
    frame = np.zeros((24, 32, 3), np.uint8)
    frame[:, :, 2] = 200  # red in BGR
    Image.fromarray(frame[:, :, ::-1]).save(tmp_path / "0.png")
    out = run("import sys\nfrom farmbox.hw.camera import FolderCamera\n"
              f"cam = FolderCamera({str(tmp_path)!r})\nbefore = 'cv2' in sys.modules\n"
              "f = cam.read()\nprint(before, 'cv2' in sys.modules, f.shape, int(f[0, 0, 2]))")
    assert out == "False True (24, 32, 3) 200"
