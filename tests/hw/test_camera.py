"""Camera sources: image folders and video files written here with OpenCV, the feed, errors."""

from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest

from farmbox.hw.camera import CameraGone, FeedCamera, FolderCamera, open_camera
from farmbox.hw.config import CameraConfig


def scene(i: int, size=(120, 160)) -> np.ndarray:
    """A BGR frame that says which one it is: a colour per index and a bar at x = 10*i."""
    frame = np.zeros((*size, 3), np.uint8)
    frame[:, :] = ((40 * i) % 256, 255 - (30 * i) % 256, 100)
    frame[20:60, 10 * i:10 * i + 8] = (255, 255, 255)
    return frame


def test_folder_reads_images_in_name_order(tmp_path):
    for i in (2, 0, 1):
        assert cv2.imwrite(str(tmp_path / f"shot_{i:02}.png"), scene(i))
    (tmp_path / "notes.txt").write_text("not an image")
    camera = open_camera(CameraConfig(source=f"folder:{tmp_path}"))
    for i in range(3):
        assert np.array_equal(camera.read(), scene(i))
    with pytest.raises(CameraGone, match="no more images"):
        camera.read()


def test_folder_loops_when_asked(tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), scene(i))
    camera = open_camera(CameraConfig(source=f"folder:{tmp_path}", loop=True))
    got = [camera.read() for _ in range(5)]
    assert all(np.array_equal(g, scene(i % 2)) for i, g in enumerate(got))


def test_folder_jpeg_is_close_to_what_was_written(tmp_path):
    cv2.imwrite(str(tmp_path / "a.jpg"), scene(3))
    frame = FolderCamera(tmp_path).read()
    assert frame.shape == (120, 160, 3) and frame.dtype == np.uint8
    assert np.abs(frame.astype(int) - scene(3)).mean() < 4


def test_unreadable_image_names_the_file(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), scene(0))
    (tmp_path / "b.png").write_bytes(b"\x89PNG but truncated")
    camera = open_camera(CameraConfig(source=f"folder:{tmp_path}"))
    camera.read()
    with pytest.raises(CameraGone, match="cannot read image b.png"):
        camera.read()


def test_missing_or_empty_folder(tmp_path):
    with pytest.raises(CameraGone, match="no such folder"):
        open_camera(CameraConfig(source=f"folder:{tmp_path / 'nope'}"))
    with pytest.raises(CameraGone, match="no images"):
        open_camera(CameraConfig(source=f"folder:{tmp_path}"))


def write_video(path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert writer.isOpened()
    for i in range(count):
        writer.write(scene(i))
    writer.release()


def nearest_scene(frame: np.ndarray, count: int) -> int:
    errors = [np.abs(frame.astype(int) - scene(i)).mean() for i in range(count)]
    return int(np.argmin(errors))


def test_video_file_frames_in_order_then_gone(tmp_path):
    video = tmp_path / "table.avi"
    write_video(video, 5)
    camera = open_camera(CameraConfig(source=f"video:{video}"))
    seen = [nearest_scene(camera.read(), 5) for _ in range(5)]
    assert seen == [0, 1, 2, 3, 4]
    with pytest.raises(CameraGone, match="no more frames"):
        camera.read()
    camera.close()
    with pytest.raises(CameraGone, match="closed"):
        camera.read()


def test_video_file_loops_when_asked(tmp_path):
    video = tmp_path / "table.avi"
    write_video(video, 3)
    camera = open_camera(CameraConfig(source=f"video:{video}", loop=True))
    assert [nearest_scene(camera.read(), 3) for _ in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    camera.close()


def test_missing_or_broken_video_file(tmp_path):
    with pytest.raises(CameraGone, match="no such file"):
        open_camera(CameraConfig(source=f"video:{tmp_path / 'none.avi'}"))
    broken = tmp_path / "broken.avi"
    broken.write_bytes(b"RIFF nonsense")
    with pytest.raises(CameraGone, match="broken.avi"):
        camera = open_camera(CameraConfig(source=f"video:{broken}"))
        camera.read()


def test_missing_usb_camera():
    with pytest.raises(CameraGone, match=r"usb:63: no /dev/video63"):
        open_camera(CameraConfig(source="usb:63"))


def test_none_is_no_camera():
    assert open_camera(CameraConfig(source="none")) is None


def test_importing_the_camera_module_leaves_picamera2_alone():
    code = "import sys, farmbox.hw.camera, farmbox.hw; print('picamera2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_picamera2_off_a_pi_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a machine without it
    with pytest.raises(CameraGone, match="picamera2 module is not installed.*python3-picamera2"):
        open_camera(CameraConfig(source="picamera2"))


def test_feed_camera_unplug_and_replug():
    camera = open_camera(CameraConfig(source="feed"))
    assert isinstance(camera, FeedCamera)
    camera.timeout = 0.01
    with pytest.raises(CameraGone, match="no frame"):
        camera.read()
    camera.push(scene(0))
    camera.push(scene(1))
    assert np.array_equal(camera.read(), scene(0))
    assert np.array_equal(camera.read(), scene(1))
    assert np.array_equal(camera.read(), scene(1))  # a still table looks the same
    camera.unplug()
    with pytest.raises(CameraGone, match="unplugged"):
        camera.read()
    camera.push(scene(2))
    camera.replug()
    assert np.array_equal(camera.read(), scene(2))


def test_feed_camera_refuses_non_frames():
    camera = FeedCamera()
    with pytest.raises(ValueError, match="BGR uint8"):
        camera.push(np.zeros((4, 4), np.uint8))
    with pytest.raises(ValueError, match="BGR uint8"):
        camera.push(np.zeros((4, 4, 3), np.float32))
