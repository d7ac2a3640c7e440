"""An smbus2-like I2C bus that fails on chosen transfers, for luma's real i2c interface.

It answers like an OLED that is there (every transfer succeeds) except the transfers it was
told to fail, which raise OSError errno 121 (EREMOTEIO: no acknowledge, a loose cable) or 5
(EIO: a brown-out). It keeps what reached the OLED so a test can check the frames.
"""

from __future__ import annotations

import errno
import os
from typing import Any


class FlakyBus:
    """``fail``: numbers of the transfers (1, 2, ...) that fail; ``code``: their errno.
    ``down``: every transfer fails while it is True (the cable is out)."""

    def __init__(self, fail: set[int] | None = None, code: int = errno.EREMOTEIO) -> None:
        self.fail = set(fail or ())
        self.code = code
        self.down = False
        self.transfers = 0
        self.failed = 0
        #: Data bytes that reached the OLED (control byte 0x40), in order.
        self.data: list[int] = []
        self.commands: list[int] = []

    def _transfer(self) -> None:
        self.transfers += 1
        if self.down or self.transfers in self.fail:
            self.failed += 1
            raise OSError(self.code, os.strerror(self.code))

    # smbus2.SMBus's methods that luma's i2c interface calls
    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._transfer()
        (self.data if register == 0x40 else self.commands).extend(data)

    def i2c_rdwr(self, *messages: Any) -> None:
        self._transfer()
        for message in messages:
            payload = list(message)
            (self.data if payload[0] == 0x40 else self.commands).extend(payload[1:])

    def close(self) -> None:
        """Nothing to close."""

    def frames(self, size: int = 1024) -> list[bytes]:
        """The whole frames (``size`` data bytes each) that reached the OLED."""
        return [bytes(self.data[i:i + size]) for i in range(0, len(self.data) - size + 1, size)]
