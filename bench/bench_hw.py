"""Hardware-layer figures on simulated parts: button latency, OLED frame cost, camera reads.

    .venv/bin/python bench/bench_hw.py              # 300 presses, 200 frames, 60 images
    .venv/bin/python bench/bench_hw.py --quick

- button edge -> event: time from letting go of a mock pin (the edge that decides a
  press) until ``ButtonPanel.get`` returns it, with debounce 0 and 30 ms; the 30 ms
  case also shows a release hidden in bounce, which waits for the window to close.
- OLED: the real luma ssd1306 / sh1106 drivers encoding a frame into a FakeSerial
  (the byte packing is the CPU part of a frame; I2C at 400 kHz adds ~26 ms on a Pi).
- open_hardware + close of the whole simulated box.
- folder camera reads of 960x720 PNG and JPEG frames.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from farmbox.firmware.box.config import CameraConfig, DisplayConfig, load_config
from farmbox.hw import open_hardware
from farmbox.hw.buttons import ButtonPanel
from farmbox.hw.camera import open_camera
from farmbox.hw.display import FakeSerial, open_display
from farmbox.hw.pins import simulated_pins

warnings.filterwarnings("ignore", category=DeprecationWarning)


def summary(name: str, samples_s: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples_s)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name:<44} n={len(ms):<5} median {statistics.median(ms):8.3f} ms   "
          f"p95 {p95:8.3f} ms   max {ms[-1]:8.3f} ms")


def bench_buttons(presses: int) -> None:
    for debounce_ms, bounce in ((0, False), (30, False), (30, True)):
        with simulated_pins() as pins, ButtonPanel({"ok": 13}, hold_time=1.0,
                                                    debounce_ms=debounce_ms) as panel:
            pin = pins.pin(13)
            samples = []
            label = f"button edge->event, debounce {debounce_ms} ms" + (", bouncy" if bounce else "")
            for _ in tqdm(range(presses if not bounce else presses // 10), desc=label, leave=False,
                          file=sys.stderr):
                pin.drive_low()
                if bounce:  # a release hidden in bounce: decided when the window closes
                    pin.drive_high()
                    start = time.perf_counter()
                else:
                    time.sleep((debounce_ms + 1) / 1000)
                    start = time.perf_counter()
                    pin.drive_high()
                event = panel.get(timeout=1)
                samples.append(time.perf_counter() - start)
                assert event is not None and event.kind == "press"
                time.sleep((debounce_ms + 1) / 1000)
            summary(label, samples)


def bench_display(frames: int) -> None:
    rng = np.random.default_rng(1)
    images = [Image.fromarray(rng.integers(0, 2, (64, 128), dtype=np.uint8) * 255).convert("1")
              for _ in range(16)]
    for driver in ("ssd1306", "sh1106"):
        display = open_display(DisplayConfig(driver=driver), serial=FakeSerial())
        samples = []
        for i in tqdm(range(frames), desc=driver, leave=False, file=sys.stderr):
            start = time.perf_counter()
            display.show(images[i % len(images)])
            samples.append(time.perf_counter() - start)
        summary(f"{driver} frame encode (FakeSerial)", samples)


def bench_open_close(rounds: int) -> None:
    config = load_config()
    samples = []
    for _ in tqdm(range(rounds), desc="open_hardware", leave=False, file=sys.stderr):
        with simulated_pins():
            start = time.perf_counter()
            open_hardware(config).close()
            samples.append(time.perf_counter() - start)
    summary("open_hardware+close (simulated, 15 buttons)", samples)


def bench_camera(images: int) -> None:
    rng = np.random.default_rng(2)
    with tempfile.TemporaryDirectory() as folder:
        for suffix in (".png", ".jpg"):
            sub = Path(folder) / suffix[1:]
            sub.mkdir()
            for i in range(images):
                frame = rng.integers(0, 255, (720, 960, 3), dtype=np.uint8)
                frame = cv2.GaussianBlur(frame, (0, 0), 3)  # photo-like, not noise
                cv2.imwrite(str(sub / f"{i:04}{suffix}"), frame)
            camera = open_camera(CameraConfig(source=f"folder:{sub}"))
            samples = []
            for _ in range(images):
                start = time.perf_counter()
                camera.read()
                samples.append(time.perf_counter() - start)
            summary(f"folder camera read, 960x720 {suffix[1:]}", samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    scale = 5 if args.quick else 1
    cv2.setNumThreads(1)
    bench_buttons(300 // scale)
    bench_display(200 // scale)
    bench_open_close(20 // scale)
    bench_camera(60 // scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
