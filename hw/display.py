"""The 128x64 one-bit OLED: luma.oled ssd1306/sh1106 over I2C, or a stand-in.

Stand-ins: ``dummy`` (luma.core; keeps the last frame), ``capture`` (luma
emulator; one numbered PNG per frame in a folder) and ``gifanim`` (luma
emulator; an animated GIF written when the display is closed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PIL import Image

from farmbox.hw.config import DisplayConfig

SIZE = (128, 64)


class FakeSerial:
    """A luma serial interface that records what the driver sends instead of sending it.

    ``commands`` holds one tuple per ``command(*cmd)`` call, ``data_sent`` one
    list per ``data(...)`` call (a full 128x64 ssd1306 frame is one list of 1024 bytes).
    """

    def __init__(self) -> None:
        self.commands: list[tuple[int, ...]] = []
        self.data_sent: list[list[int]] = []
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        self.commands.append(tuple(cmd))

    def data(self, data: Any) -> None:
        self.data_sent.append(list(data))

    def cleanup(self) -> None:
        self.cleaned_up = True


def fake_serial() -> FakeSerial:
    """A :class:`FakeSerial` to pass as ``open_display(config, serial=...)``."""
    return FakeSerial()


class Display:
    """What the screens draw on: ``show`` one 128x64 mode-"1" image at a time."""

    size = SIZE

    def __init__(self, device: Any, driver: str, output: Path | None = None,
                 temp_output: Path | None = None) -> None:
        self.device = device
        self.driver = driver
        self.output = output
        self.last_image: Image.Image | None = None
        self.frames = 0
        self._temp_output = temp_output
        self._closed = False

    def show(self, image: Image.Image) -> None:
        """Put ``image`` on the screen (ValueError if it is not 128x64 mode "1")."""
        if image.mode != "1" or image.size != SIZE:
            raise ValueError(f"display: need a 128x64 mode '1' image, got {image.size[0]}x"
                             f"{image.size[1]} mode {image.mode!r}")
        self.device.display(image)
        self.last_image = image.copy()
        self.frames += 1

    def close(self) -> None:
        """Blank a real OLED; gifanim: write the GIF (whole, or not at all)."""
        if self._closed:
            return
        self._closed = True
        if self.driver == "gifanim":
            self._write_gif()
        else:
            self.device.cleanup()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write_gif(self) -> None:
        assert self.output is not None and self._temp_output is not None
        try:
            self.device.write_animation()
            if self._temp_output.exists():
                os.replace(self._temp_output, self.output)
        finally:
            self.device._images.clear()  # luma's own atexit hook would write it again
            self._temp_output.unlink(missing_ok=True)


def open_display(config: DisplayConfig, serial: Any = None, frame_seconds: float = 0.5) -> Display:
    """The display ``config.driver`` names.

    ``serial``: for ssd1306/sh1106, a luma serial interface to use instead of
    I2C (a :class:`FakeSerial` in tests). ``frame_seconds``: gifanim frame time.
    A missing OLED or output folder is an OSError naming it.
    """
    driver = config.driver
    if driver in ("ssd1306", "sh1106"):
        from luma.oled import device as oled

        if serial is None:
            serial = _i2c(config)
        device = getattr(oled, driver)(serial, width=SIZE[0], height=SIZE[1], rotate=config.rotate)
        return Display(device, driver)
    if driver == "dummy":
        from luma.core.device import dummy

        return Display(dummy(width=SIZE[0], height=SIZE[1], rotate=config.rotate, mode="1"), driver)
    if driver in ("capture", "gifanim"):
        return _emulator(config, frame_seconds)
    raise ValueError(f"display: unknown driver {driver!r}")


def _i2c(config: DisplayConfig) -> Any:
    from luma.core.error import Error as LumaError
    from luma.core.interface.serial import i2c

    try:
        return i2c(port=config.i2c_port, address=config.i2c_address)
    except (LumaError, OSError) as exc:
        raise OSError(f"display: no {config.driver} at I2C address {config.i2c_address:#04x} on "
                      f"/dev/i2c-{config.i2c_port}: {exc}") from None


def _emulator(config: DisplayConfig, frame_seconds: float) -> Display:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from luma.emulator import device as emulator

    output = Path(config.output)
    transform = "none" if config.scale == 1 else "identity"
    common = dict(width=SIZE[0], height=SIZE[1], rotate=config.rotate, mode="1",
                  transform=transform, scale=config.scale)
    if config.driver == "capture":
        if not output.is_dir():
            raise OSError(f"display: capture folder {output} does not exist")
        device = emulator.capture(file_template=str(output / "frame_{0:06}.png"), **common)
        return Display(device, "capture", output=output)
    if not output.parent.is_dir():
        raise OSError(f"display: folder for {output} does not exist")
    temp = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    device = emulator.gifanim(filename=str(temp), duration=frame_seconds, **common)
    return Display(device, "gifanim", output=output, temp_output=temp)
