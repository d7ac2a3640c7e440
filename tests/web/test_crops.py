"""Issue 14, left open 3: the last roll on the page shows the camera's picture of each die
with what the reader saw and how sure it was: real rendered camera frames, the real dice
reader, the crops served as small JPEG endpoints (not base64 in the event stream)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import cv2
import numpy as np
import pytest
from selenium.webdriver.support.ui import WebDriverWait

from farmbox.firmware.box.config import load_config
from farmbox.firmware.games.superfarmer.box import CROP_SIZE, Service, dice_reader
from farmbox.hw import open_hardware
from farmbox.hw.camera import FeedCamera
from farmbox.hw.pins import simulated_pins
from farmbox.vision.dice import enroll_folder
from farmbox.vision.render.dice import render_background, render_scene, write_samples
from tests.box_service import wait_for

from .test_browser import screenshot
from .test_server import get

PIN = "2468"


@pytest.fixture(scope="module")
def dice_model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("samples")
    write_samples(folder)
    path = folder / "dice.npz"
    enroll_folder(folder).save(path)
    return path


def view(url: str) -> dict:
    with urllib.request.urlopen(url + "api/view", timeout=10) as r:
        return json.loads(r.read())


def test_the_page_shows_each_die_as_the_camera_saw_it(tmp_path, dice_model, browser):
    from farmbox.firmware.web.server import TableServer

    with simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "feed"},
            journal={"dir": str(tmp_path / "journal")}, vision={"dice_model": str(dice_model)})
        feed = FeedCamera(timeout=0.5)
        feed.push(render_background())
        hw = open_hardware(config, camera=feed)
        service = Service(config, hardware=hw, watcher=dice_reader(config))
        server = None
        try:
            session = service.start()
            server = TableServer(service, "superfarmer", port=0, bind="127.0.0.1", pin=PIN).start()
            scene, truth = render_scene(0, setup=0, faces=("sheep", "fox"))
            feed.push(scene)  # the dice land: motion, then the same still picture
            end = time.monotonic() + 20
            while sum(session.state.turns) == 0 or not service.inbox.empty():
                assert time.monotonic() < end, "the camera roll was never settled"
                service.step(timeout=0.05)
            assert wait_for(lambda: view(server.url)["seq"] == 2)
            assert wait_for(lambda: (view(server.url)["last_roll"] or {}).get("read") is not None)
            roll = view(server.url)["last_roll"]
            assert roll["faces"] == ["sheep", "fox"] and roll["source"] == "camera"
            read = roll["read"]
            assert read["faces"] == ["sheep", "fox"] and 0.9 <= read["confidence"] <= 1.0
            assert [d["die"] for d in read["dice"]] == ["green", "red"]
            assert [d["face"] for d in read["dice"]] == ["sheep", "fox"]
            colour = {}
            for d in read["dice"]:
                status, body, kind = get(server.url + d["crop"].lstrip("/"))
                assert status == 200 and kind == "image/jpeg" and body[:2] == b"\xff\xd8"
                picture = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
                assert picture.shape == (CROP_SIZE, CROP_SIZE, 3)
                colour[d["die"]] = picture.reshape(-1, 3).mean(axis=0)  # B, G, R
            # Each crop is its own die: the green one greener, the red one redder.
            assert colour["green"][1] - colour["green"][2] > colour["red"][1] - colour["red"][2]
            assert b"\xff\xd8" not in server.text.encode() and "base64" not in server.text

            # The page: both crops loaded, each with the face read and the confidence.
            browser.set_window_size(390, 844)
            browser.get(server.url)
            WebDriverWait(browser, 15).until(lambda d: d.execute_script(
                "return [...document.querySelectorAll('#roll figure.crop img')]"
                ".filter(i => i.complete && i.naturalWidth > 0).length") == 2)
            shown = browser.execute_script(
                "return [...document.querySelectorAll('#roll figure.crop')].map(f => ["
                "f.dataset.die, f.dataset.face, f.querySelector('img').naturalWidth,"
                " f.querySelector('figcaption').textContent])")
            pct = f"{round(100 * read['confidence'])}%"
            assert shown == [["green", "sheep", CROP_SIZE, f"sheep \u00b7 {pct}"],
                             ["red", "fox", CROP_SIZE, f"fox \u00b7 {pct}"]]
            assert "read by the camera" in browser.execute_script(
                "return document.getElementById('roll-source').textContent")
            screenshot(browser, "table-crops")
        finally:
            if server is not None:
                server.stop()
            service.close()
            hw.close()


def test_no_crop_before_a_camera_roll(table):
    try:
        get(table.url + "api/crop/green.jpg")
        raise AssertionError("a crop was served before any roll")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404
