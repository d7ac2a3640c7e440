"""Camera sources: frames in, as OpenCV BGR arrays (H x W x 3, uint8).

``open_camera`` picks one from ``[camera] source``: ``picamera2`` (the Pi
camera; the module is imported only here, on demand), ``usb:N`` and
``video:PATH`` (OpenCV VideoCapture), ``folder:PATH`` (image files in name
order), ``feed`` (a :class:`FeedCamera` the code pushes frames into) or
``none``. A source that is missing, unplugged, finished or unreadable raises
:class:`CameraGone`; callers keep calling ``read()`` and reads resume when the
camera returns (USB cameras are reopened, a FeedCamera is replugged).

OpenCV and numpy are imported only where a frame is read or checked, so importing ``hw``
(the service's start, before READY) does not pay for them.
"""

from __future__ import annotations

import threading
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:  # OpenCV and numpy are slow to import: only where a frame is handled
    import cv2
    import numpy as np
    import numpy.typing as npt

from farmbox.hw.config import CameraConfig

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class CameraGone(OSError):
    """The camera is missing, unplugged, out of frames, or sent something unreadable."""


class Camera(Protocol):
    def read(self) -> npt.NDArray[np.uint8]:
        """The next frame (BGR, H x W x 3); raises CameraGone."""
        ...

    def close(self) -> None:
        ...


class CaptureCamera:
    """A USB camera (``usb:N``) or a video file (``video:PATH``) through cv2.VideoCapture."""

    def __init__(self, source: str, loop: bool = False, width: int = 0, height: int = 0) -> None:
        self.source = source
        self.loop = loop
        self.width, self.height = width, height
        kind, _, argument = source.partition(":")
        self._device: int | str = int(argument) if kind == "usb" else argument
        self._capture: cv2.VideoCapture | None = None
        self._closed = False
        self._open()

    def read(self) -> npt.NDArray[np.uint8]:
        if self._closed:
            raise CameraGone(f"camera {self.source}: closed")
        if self._capture is None:
            self._open()  # a USB camera plugged back in
        assert self._capture is not None
        ok, frame = self._capture.read()
        if not ok and self.loop and isinstance(self._device, str):
            import cv2

            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        if not ok or frame is None:
            if isinstance(self._device, int):
                self._release()
                raise CameraGone(f"camera {self.source}: no frame (unplugged?)")
            raise CameraGone(f"camera {self.source}: no more frames")
        return _bgr(frame)

    def close(self) -> None:
        self._closed = True
        self._release()

    def _open(self) -> None:
        if isinstance(self._device, int):
            node = Path(f"/dev/video{self._device}")
            if not node.exists():
                raise CameraGone(f"camera {self.source}: no {node}")
            import cv2

            capture = cv2.VideoCapture(self._device)
            if self.width and self.height:
                capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
                capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        else:
            path = Path(self._device)
            if not path.is_file():
                raise CameraGone(f"camera {self.source}: no such file")
            import cv2

            capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            capture.release()
            raise CameraGone(f"camera {self.source}: cannot open it")
        self._capture = capture

    def _release(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderCamera:
    """Image files in a folder, read in name order (``folder:PATH``)."""

    def __init__(self, folder: Path | str, loop: bool = False) -> None:
        self.folder = Path(folder)
        self.loop = loop
        self.source = f"folder:{self.folder}"
        if not self.folder.is_dir():
            raise CameraGone(f"camera {self.source}: no such folder")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraGone(f"camera {self.source}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self.position = 0

    def read(self) -> npt.NDArray[np.uint8]:
        if self.position >= len(self.files):
            if not self.loop:
                raise CameraGone(f"camera {self.source}: no more images")
            self.position = 0
        import cv2

        path = self.files[self.position]
        self.position += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraGone(f"camera {self.source}: cannot read image {path.name}")
        return cast("npt.NDArray[np.uint8]", frame)  # IMREAD_COLOR: always H x W x 3 uint8

    def close(self) -> None:
        self.position = len(self.files)
        self.loop = False


class FeedCamera:
    """Frames pushed by code (the demo, tests); can be unplugged and plugged back in.

    ``read`` returns the oldest frame not yet read, else the last one again (a
    still table looks the same), waiting up to ``timeout`` s for a first frame.
    """

    def __init__(self, timeout: float = 1.0) -> None:
        self.timeout = timeout
        self.source = "feed"
        self._frames: deque[npt.NDArray[np.uint8]] = deque()
        self._last: npt.NDArray[np.uint8] | None = None
        self._plugged = True
        self._closed = False
        self._changed = threading.Condition()

    def push(self, frame: npt.NDArray[np.uint8]) -> None:
        """Queue ``frame`` (BGR uint8, H x W x 3) for reading."""
        with self._changed:
            self._frames.append(_bgr(frame))
            self._changed.notify_all()

    def unplug(self) -> None:
        """From now on reads raise CameraGone, as if the cable was pulled."""
        with self._changed:
            self._plugged = False
            self._changed.notify_all()

    def replug(self) -> None:
        """Reads work again."""
        with self._changed:
            self._plugged = True
            self._changed.notify_all()

    @property
    def plugged(self) -> bool:
        return self._plugged

    def read(self) -> npt.NDArray[np.uint8]:
        with self._changed:
            self._changed.wait_for(lambda: self._frames or self._last is not None
                                   or not self._plugged or self._closed, self.timeout)
            if self._closed:
                raise CameraGone("camera feed: closed")
            if not self._plugged:
                raise CameraGone("camera feed: unplugged")
            if self._frames:
                self._last = self._frames.popleft()
            if self._last is None:
                raise CameraGone(f"camera feed: no frame within {self.timeout} s")
            return self._last

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()


class PiCamera:
    """The Raspberry Pi camera through picamera2 (format RGB888 is B, G, R in memory)."""

    def __init__(self, width: int, height: int) -> None:
        try:
            from picamera2 import Picamera2  # only on a Pi: apt's python3-picamera2
        except ImportError:
            raise CameraGone("camera picamera2: the picamera2 module is not installed (on a Pi: "
                             "apt install python3-picamera2, venv with --system-site-packages)") from None
        self.source = "picamera2"
        try:
            self._camera: Any = Picamera2()
            config = self._camera.create_preview_configuration(
                main={"size": (width, height), "format": "RGB888"})
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:  # no camera on the ribbon: IndexError, RuntimeError ...
            raise CameraGone(f"camera picamera2: cannot start it: {exc or type(exc).__name__}") from None

    def read(self) -> npt.NDArray[np.uint8]:
        try:
            return _bgr(self._camera.capture_array("main"))
        except Exception as exc:
            raise CameraGone(f"camera picamera2: no frame: {exc or type(exc).__name__}") from None

    def close(self) -> None:
        try:
            self._camera.stop()
            self._camera.close()
        except Exception:  # already gone; closing must not fail shutdown
            pass


class ReopeningCamera:
    """A camera that was not there at start: every ``read`` tries to open it again.

    Until it opens, reads raise CameraGone, so the box runs on buttons alone.
    """

    def __init__(self, config: CameraConfig, reason: CameraGone | None = None) -> None:
        self.config = config
        self.source = config.source
        self.reason = reason
        self._camera: Camera | None = None

    def read(self) -> npt.NDArray[np.uint8]:
        if self._camera is None:
            self._camera = open_camera(self.config)  # raises CameraGone while still missing
        return self._camera.read()  # type: ignore[union-attr]

    def close(self) -> None:
        if self._camera is not None:
            self._camera.close()


def open_camera(config: CameraConfig) -> Camera | None:
    """The camera ``config.source`` names, or None for ``none``; CameraGone if it is not there."""
    kind, argument = config.kind, config.argument
    if kind == "none":
        return None
    if kind == "feed":
        return FeedCamera()
    if kind == "picamera2":
        return PiCamera(config.width, config.height)
    if kind in ("usb", "video"):
        return CaptureCamera(config.source, loop=config.loop, width=config.width, height=config.height)
    if kind == "folder":
        return FolderCamera(argument, loop=config.loop)
    raise ValueError(f"camera: unknown source {config.source!r}")


def _bgr(frame: Any) -> npt.NDArray[np.uint8]:
    import numpy as np

    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 \
            or frame.shape[2] not in (3, 4):
        shape = getattr(frame, "shape", type(frame).__name__)
        raise ValueError(f"camera: a frame must be a BGR uint8 H x W x 3 array, got {shape}")
    return frame[:, :, :3] if frame.shape[2] == 4 else frame
