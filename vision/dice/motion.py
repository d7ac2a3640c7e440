"""Wait for the dice to stop: a frame-difference stillness detector.

>>> import numpy as np
>>> still = Stillness(frames=2)
>>> [still.update(f) for f in [np.zeros((8, 8, 3), np.uint8)] * 2 + [np.full((8, 8, 3), 200, np.uint8)] * 3]
[False, False, False, False, True]
"""

from __future__ import annotations

import cv2
import numpy as np


class Stillness:
    """Feed camera frames; :meth:`update` is True once, when the scene has been still for
    ``frames`` frames after some motion (the moment to read a fresh roll)."""

    #: The frame is cut into about BLOCKS x BLOCKS blocks for the change measure.
    BLOCKS = 16

    def __init__(self, frames: int = 3, threshold: float = 8.0, width: int = 160) -> None:
        self.frames = frames
        self.threshold = threshold  # mean absolute grey change (0..255) of a block that counts as motion
        self.width = width
        self._last: np.ndarray | None = None
        self._still = 0
        self._armed = False  # motion seen since the last settle
        self.change = 0.0

    def _small(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(grey, (self.width, max(1, h * self.width // w)), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)

    @property
    def moving(self) -> bool:
        return self._still == 0 and self._last is not None

    def update(self, frame: np.ndarray) -> bool:
        small = self._small(frame)
        if self._last is None or self._last.shape != small.shape:
            self._last = small
            return False
        # The largest change of any small block, not the frame's mean: two dice are a few
        # per cent of the picture, so a roll barely moves the mean of the whole frame.
        diff = np.abs(small - self._last)
        bh, bw = max(1, diff.shape[0] // self.BLOCKS), max(1, diff.shape[1] // self.BLOCKS)
        h, w = diff.shape[0] // bh * bh, diff.shape[1] // bw * bw
        blocks = diff[:h, :w].reshape(h // bh, bh, w // bw, bw).mean(axis=(1, 3))
        self.change = float(blocks.max())
        self._last = small
        if self.change > self.threshold:
            self._still = 0
            self._armed = True
            return False
        self._still += 1
        if self._armed and self._still >= self.frames:
            self._armed = False
            return True
        return False

    def reset(self) -> None:
        """Wait for fresh motion before the next settle."""
        self._armed = False
        self._still = 0
