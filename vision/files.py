"""Files the readers use: model files written whole or not at all (a power cut never leaves half
a model), images checked for size before they are decoded, and the readers' own error type."""

from __future__ import annotations

import contextlib
import os
import struct
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a synced temp file in the same folder, then rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent if str(path.parent) else ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class VisionInputError(ValueError):
    """Bad input to a reader (a model file, an image): one line naming the file and the problem.

    The ``farmbox`` command prints it as one line and exits with status 2.
    """


#: Largest image side and pixel count a reader decodes (a bigger one is refused before decoding).
MAX_SIDE = 12000
MAX_PIXELS = 50_000_000
#: Most elongated image accepted (long side over short side).
MAX_ASPECT = 8.0
#: Smallest image side that can hold a die or a card.
MIN_SIDE = 16
#: Largest image file read (a 50 Mpx BMP is 150 MB; the file is read whole before decoding,
#: and a Pi Zero 2 W has 512 MB).
MAX_FILE_BYTES = 200_000_000


def image_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) read from a PNG, JPEG, BMP or WebP file's header, without decoding; None
    when the header is not one of those."""
    return header_size(Path(path).read_bytes())


#: JPEG markers that stand alone (no length follows): SOI, TEM and the restart markers.
_STANDALONE = {0xD8, 0x01, *range(0xD0, 0xD8)}
#: JPEG start-of-frame markers (they hold the image's size).
_START_OF_FRAME = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int, int]]:
    """(marker code, position of the marker, length of its segment) of each marker segment of
    a JPEG file's ``data``, from the first after its SOI marker, up to and with the first scan's
    start (SOS; what follows it is coded data) or the end marker; the walk stops where the data
    ends or no marker stands where one belongs (the decoder says what is wrong there)."""
    at = 2
    while at + 2 <= len(data) and data[at] == 0xFF:
        code = data[at + 1]
        if code == 0xFF:            # fill byte
            at += 1
            continue
        if code in _STANDALONE:
            at += 2
            continue
        if code == 0xD9:
            yield code, at, 0
            return
        if at + 4 > len(data):
            return
        length = int.from_bytes(data[at + 2:at + 4], "big")
        yield code, at, length
        if code == 0xDA:
            return
        at += 2 + length


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from the header of a PNG, JPEG, BMP or WebP file's ``data``; None
    when the header is not one of those (WebP: the decoder says)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(int(w)), abs(int(h))
    if data[:2] == b"\xff\xd8":
        for code, at, _ in _jpeg_segments(data):
            if code in _START_OF_FRAME and at + 9 <= len(data):
                h, w = struct.unpack(">HH", data[at + 5:at + 9])
                return int(w), int(h)
    return None


def jpeg_cut_short(data: bytes) -> bool:
    """Whether ``data``, a JPEG file (starting with its SOI marker), ends before its image does:
    no end-of-image marker after the first scan.  The marker segments before the scan (an
    EXIF thumbnail, itself a whole JPEG, among them) are stepped over by their lengths; inside
    the scan's coded data a 0xFF byte is always followed by 0x00 or a restart marker, so the
    first 0xFF 0xD9 after it is the image's end (data after it, a phone's appended video, does
    not count).  A file cut off before its first scan is one the decoder refuses itself."""
    for code, at, length in _jpeg_segments(data):
        if code == 0xDA:
            return data.find(b"\xff\xd9", at + 2 + length) < 0
    return False


def check_image_size(path: str | Path, width: int, height: int) -> None:
    """Refuse an image too large, too small or too elongated for a reader (one line)."""
    if width <= 0 or height <= 0:
        raise VisionInputError(f"cannot read image {path}: it claims a size of {width}x{height}")
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        raise VisionInputError(f"cannot read image {path}: {width}x{height} is too large "
                               f"(at most {MAX_SIDE} px a side, {MAX_PIXELS // 1_000_000} Mpx)")
    if min(width, height) < MIN_SIDE:
        raise VisionInputError(f"cannot read image {path}: {width}x{height} is too small")
    if max(width, height) / min(width, height) > MAX_ASPECT:
        raise VisionInputError(f"cannot read image {path}: {width}x{height} is too elongated "
                               f"for a camera frame (at most {MAX_ASPECT:g}:1)")


@contextlib.contextmanager
def quiet_decoders() -> Iterator[None]:
    """Keep libpng's and libjpeg's own warnings ("libpng warning: iCCP: ...") off stderr:
    they write straight to file descriptor 2, past Python, and a command's contract is one
    line. Anything else written meanwhile is passed on."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # no real stderr (a test's capture)
        yield
        return
    sys.stderr.flush()
    saved = os.dup(fd)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), fd)
        try:
            yield
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            sink.seek(0)
            for line in sink.read().decode(errors="replace").splitlines():
                if line and not line.startswith(("libpng warning", "Corrupt JPEG data",
                                                 "Premature end of JPEG")):
                    sys.stderr.write(line + "\n")


def load_colour_image(path: str | Path) -> np.ndarray:
    """A BGR image from a file, its size checked from the header before decoding.

    A missing file is an :class:`OSError`; an unreadable, oversized or odd-shaped one a
    :class:`VisionInputError`; both name the file.
    """
    if Path(path).is_dir():
        raise OSError(f"cannot read image {path}: a folder, not an image file")
    if not Path(path).is_file():
        raise OSError(f"cannot read image {path}: no such file")
    n_bytes = Path(path).stat().st_size
    if n_bytes > MAX_FILE_BYTES:
        raise VisionInputError(f"cannot read image {path}: a file of {n_bytes / 1e6:.0f} MB is too large "
                               f"(at most {MAX_FILE_BYTES // 1_000_000} MB)")
    data = Path(path).read_bytes()
    if not data:
        raise VisionInputError(f"cannot read image {path}: an empty file")
    size = header_size(data)
    if size is not None:
        check_image_size(path, *size)
    if data[:2] == b"\xff\xd8" and jpeg_cut_short(data):
        # libjpeg decodes what is there and paints the rest grey: half a table, read as a table
        raise VisionInputError(f"cannot read image {path}: the JPEG file is cut short (its end is missing)")
    with quiet_decoders():
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise VisionInputError(f"cannot read image {path}: not an image")
    check_image_size(path, img.shape[1], img.shape[0])
    if grey(img):
        raise VisionInputError(f"cannot read image {path}: it has no colour (a grey-scale image), and the "
                               f"readers tell cards and dice apart by their colours")
    return img


def grey(img: np.ndarray) -> bool:
    """Whether a BGR image has no colour: its three channels the same at every pixel (a grey-scale
    file, or a monochrome camera's), and it is not one flat shade (a blank frame is read as one
    with nothing on it).  Read in such an image, a card or a die would be named by its shape alone,
    confidently: a SET card's colour, a Fun Farm card's dice marks and the two dice's bodies
    are what tell them apart."""
    every_eighth = img[::8, ::8]
    if not (np.array_equal(every_eighth[..., 0], every_eighth[..., 1])
            and np.array_equal(every_eighth[..., 1], every_eighth[..., 2])):
        return False        # (a colour photo, at once)
    b, g, r = cv2.split(img)
    return cv2.countNonZero(cv2.absdiff(b, g)) == 0 and cv2.countNonZero(cv2.absdiff(g, r)) == 0 \
        and int(b.max()) != int(b.min())
