"""The 128x64 one-bit OLED: luma.oled ssd1306/sh1106 over I2C, or a stand-in.

Stand-ins: ``dummy`` (luma.core; keeps the last frame), ``capture`` (luma
emulator; one numbered PNG per frame in a folder) and ``gifanim`` (luma
emulator; an animated GIF written when the display is closed).

A real OLED that stops answering (errno 121 EREMOTEIO from a loose cable, EIO after a
brown-out) never stops the box: the frame is kept, the display is re-opened with backoff
(0.2 s doubling to 10 s) and the latest frame sent once it answers again
(:meth:`Display.recover`, called by the box on every step); :attr:`Display.faults` counts them.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from farmbox.hw.config import DisplayConfig

SIZE = (128, 64)

log = logging.getLogger(__name__)

#: The first and the longest wait (s) before a failed OLED is opened again.
RETRY_FIRST = 0.2
RETRY_MAX = 10.0


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
    """What the screens draw on: ``show`` one 128x64 mode-"1" image at a time.

    ``reopen`` (real OLEDs): makes a new luma device after the old one failed; ``clock``:
    when to try again. Without ``reopen`` an error of the device is raised as it is.
    """

    size = SIZE

    def __init__(self, device: Any, driver: str, output: Path | None = None,
                 temp_output: Path | None = None,
                 reopen: Callable[[], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.device = device
        self.driver = driver
        self.output = output
        self.last_image: Image.Image | None = None
        self.frames = 0
        #: Transfers that failed, and times the display was opened again.
        self.faults = 0
        self.reopened = 0
        self._temp_output = temp_output
        self._closed = False
        self._reopen = reopen
        self._clock = clock
        self._pending: Image.Image | None = None
        self._retry_at = 0.0
        self._wait = RETRY_FIRST

    @property
    def working(self) -> bool:
        """False while the OLED is not answering (the latest frame waits for it)."""
        return self.device is not None

    def show(self, image: Image.Image) -> None:
        """Put ``image`` on the screen (ValueError if it is not 128x64 mode "1"); if the
        OLED does not answer, it is shown once the display is back."""
        if image.mode != "1" or image.size != SIZE:
            raise ValueError(f"display: need a 128x64 mode '1' image, got {image.size[0]}x"
                             f"{image.size[1]} mode {image.mode!r}")
        self._pending = image.copy()
        self.recover()

    def recover(self) -> bool:
        """Send the frame that waits (re-opening a failed OLED when its backoff is over);
        True if the screen shows the latest frame."""
        if self._pending is None:
            return True
        if self._closed:
            return False
        if self.device is None:
            if self._reopen is None or self._clock() < self._retry_at:
                return False
            try:
                self.device = self._reopen()
            except Exception as exc:  # luma's errors are not OSErrors
                if not _transient(exc):
                    raise
                self._failed(exc)
                return False
            self.reopened += 1
            log.warning("display: %s answers again", self.driver)
        try:
            self.device.display(self._pending)
        except Exception as exc:
            if self._reopen is None or not _transient(exc):
                raise
            self._failed(exc)
            return False
        self.last_image, self._pending = self._pending, None
        self.frames += 1
        self._wait = RETRY_FIRST
        return True

    def _failed(self, exc: BaseException) -> None:
        self.faults += 1
        if self.device is not None:
            log.warning("display: %s stopped answering (%s); re-opening it", self.driver, exc)
        self.device = None  # its bus stays open for the next try
        self._retry_at = self._clock() + self._wait
        self._wait = min(self._wait * 2, RETRY_MAX)

    def close(self) -> None:
        """Blank a real OLED; gifanim: write the GIF (whole, or not at all)."""
        if self._closed:
            return
        self._closed = True
        if self.driver == "gifanim":
            self._write_gif()
        elif self.device is not None:
            try:
                self.device.cleanup()
            except Exception as exc:  # a failed OLED cannot be blanked
                if self._reopen is None or not _transient(exc):
                    raise
                log.warning("display: not blanked: %s", exc)

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


def _transient(exc: BaseException) -> bool:
    """An OLED transfer error that may go away (no answer on the bus, I/O error)."""
    from luma.core.error import DeviceNotFoundError

    return isinstance(exc, (OSError, DeviceNotFoundError))


def open_display(config: DisplayConfig, serial: Any = None, frame_seconds: float = 0.5,
                 bus: Any = None, clock: Callable[[], float] = time.monotonic) -> Display:
    """The display ``config.driver`` names.

    ``serial``: for ssd1306/sh1106, a luma serial interface to use instead of
    I2C (a :class:`FakeSerial` in tests); ``bus``: an smbus2-like bus for luma's I2C
    interface instead of ``/dev/i2c-N``. ``frame_seconds``: gifanim frame time.
    A missing I2C bus or output folder is an OSError naming it; an OLED that does not
    answer on a bus that is there is opened again with backoff (the box runs meanwhile).
    """
    driver = config.driver
    if driver in ("ssd1306", "sh1106"):
        from luma.oled import device as oled

        # A missing /dev/i2c-N is the settings' fault: said now. The bus stays open; the
        # OLED on it is initialised again after a fault (it may have lost power).
        port = serial if serial is not None else _i2c(config, bus)

        def make() -> Any:
            return getattr(oled, driver)(port, width=SIZE[0], height=SIZE[1],
                                         rotate=config.rotate)

        display = Display(None, driver, reopen=make, clock=clock)
        try:
            display.device = make()
        except Exception as exc:  # luma's errors are not OSErrors
            if not _transient(exc):
                raise
            log.warning("display: %s at I2C address %#04x does not answer (%s); retrying",
                        driver, config.i2c_address, exc)
            display._failed(exc)
        return display
    if driver == "dummy":
        from luma.core.device import dummy

        return Display(dummy(width=SIZE[0], height=SIZE[1], rotate=config.rotate, mode="1"), driver)
    if driver in ("capture", "gifanim"):
        return _emulator(config, frame_seconds)
    raise ValueError(f"display: unknown driver {driver!r}")


def _i2c(config: DisplayConfig, bus: Any = None) -> Any:
    from luma.core.error import Error as LumaError
    from luma.core.interface.serial import i2c

    try:
        if bus is not None:
            return i2c(bus=bus, address=config.i2c_address)
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
