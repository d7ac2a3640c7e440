"""The OLED frames of a demo (``farmbox demo [GAME]``): to the terminal and to an animated GIF.

All three demos wrap the simulated display in :meth:`FrameStream.tap`: every frame the box
shows is kept, printed to the terminal as text art (unless quiet) and, at the end, saved as
an animated GIF with :func:`write_gif`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from PIL import Image

from farmbox.firmware.box.files import check_writable_target, write_atomically
from farmbox.hw.display import Display


class Tap(Display):
    """A display that also hands every frame it shows to ``on_frame``."""

    def __init__(self, display: Display, on_frame: Callable[[Image.Image], None]) -> None:
        self._display = display
        self._on_frame = on_frame

    def show(self, image: Image.Image) -> None:
        self._display.show(image)
        self._on_frame(image)

    def close(self) -> None:
        self._display.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._display, name)


class FrameStream:
    """Keeps every frame; prints it to ``out`` unless ``quiet``; waits ``pause`` s after it.

    On a terminal each frame is drawn over the last one; otherwise frames are listed, each
    followed by a rule.
    """

    def __init__(self, quiet: bool, pause: float = 0.0, out: TextIO | None = None) -> None:
        self.frames: list[Any] = []
        self.quiet = quiet
        self.pause = pause
        self.out = out or sys.stdout
        self.tty = self.out.isatty() and not quiet
        self._cleared = False

    def tap(self, display: Any) -> Tap:
        """``display`` wrapped so that its frames come here too."""
        return Tap(display, self)

    def __call__(self, image: Any) -> None:

        self.frames.append(image.copy())
        if not self.quiet:
            if self.tty and not self._cleared:
                self.out.write("\x1b[2J")
                self._cleared = True
            self.out.write(("\x1b[H" if self.tty else "") + frame_text(image) + "\n")
            if not self.tty:
                self.out.write("-" * 128 + "\n")
            self.out.flush()
        if self.pause:
            time.sleep(self.pause)

    def save_gif(self, path: Path) -> None:
        write_gif(self.frames, path)


def check_gif_path(path: Path | None) -> None:
    """ValueError (one line) when the GIF cannot be written there: its folder does not exist,
    or the path is a device, a directory or a symlink (checked before the demo runs)."""
    if path is not None:
        try:
            check_writable_target(path)
        except ValueError as exc:
            raise ValueError(f"--gif: {exc}") from None


def write_gif(frames: list[Any], path: Path) -> None:
    """Save the frames as an animated GIF (3x, white on black), atomically.

    The last frame stays 3 s; no partial file is left behind on error."""
    if not frames:
        raise ValueError("the demo showed no frames")
    big = [f.convert("L").resize((f.width * 3, f.height * 3), 0) for f in frames]
    durations = [120] * (len(big) - 1) + [3000]
    write_atomically(path, lambda fh: big[0].save(fh, format="GIF", save_all=True,
                                                  append_images=big[1:], duration=durations,
                                                  loop=0))


def frame_text(image: Image.Image) -> str:
    """A 1-bit frame as unicode half-blocks (two pixel rows per text line) for a terminal."""
    w, h = image.size
    px = image.load()
    assert px is not None
    lines = []
    for y in range(0, h, 2):
        row = []
        for x in range(w):
            top = px[x, y]
            bottom = px[x, y + 1] if y + 1 < h else 0
            row.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        lines.append("".join(row))
    return "\n".join(lines)
