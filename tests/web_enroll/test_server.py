"""The /enroll page's HTTP side: the state, the camera's picture behind the PIN, actions that
go through the box's own session; a wrong PIN is 403 and changes nothing."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import cv2
import numpy as np

from farmbox.firmware.games.enroll.shots import Phase

from .conftest import PIN


def call(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, bytes, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json",
                                                               **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def test_state_says_clear_the_table_first(tmp_path):
    from farmbox.hw.pins import simulated_pins

    from .conftest import Clock, Enrollment

    with simulated_pins():
        e = Enrollment(tmp_path, Clock())
        try:
            status, body, _ = call(e.url + "/api/state")
        finally:
            e.close()
    s = json.loads(body)
    assert status == 200 and s["kind"] == "cards" and s["phase"] == "clear" and s["clear"]
    assert s["step"] is None and (s["done"], s["total"]) == (0, 4) and s["actions"] == ["take", "quit"]


def test_state_says_which_card_to_lay_down(enrollment):
    status, body, _ = call(enrollment.url + "/api/state")
    s = json.loads(body)
    assert status == 200 and s["kind"] == "cards" and s["phase"] == "prompt"
    assert s["step"] == {"label": "sheep-1", "name": "SHEEP-1", "number": 1, "of": 2}
    # the empty table's photo can be undone (to take it again), the enrollment still left
    assert (s["done"], s["total"]) == (0, 4) and s["actions"] == ["take", "undo", "quit"]
    status, page, _ = call(enrollment.url)
    assert status == 200 and b"/enroll/static/enroll.js" in page


def test_the_camera_picture_needs_the_pin_and_outlines_the_card(enrollment, card_table):
    enrollment.hw.camera.push(card_table.card("sheep-1", 1))
    status, body, _ = call(enrollment.url + "/preview.jpg", headers={"X-Farmbox-Pin": "1111"})
    assert status == 403 and b"wrong PIN" in body
    deadline = time.monotonic() + 10
    while True:  # 503 until the box has read a frame for the watching phone, then the empty
        # table's last frame until it has read the card's (the page polls)
        status, body, headers = call(enrollment.url + "/preview.jpg", headers={"X-Farmbox-Pin": PIN})
        if status == 200 and headers["X-Found"] == "1" or status not in (200, 503) \
                or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert status == 200 and headers["Content-Type"] == "image/jpeg" and headers["X-Found"] == "1"
    picture = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (480, 640, 3)
    # the outline is drawn in green where the card lies
    green = (picture[..., 1] > 180) & (picture[..., 0] < 110) & (picture[..., 2] < 110)
    assert green.sum() > 200


def test_actions_go_through_the_session_and_a_wrong_pin_changes_nothing(enrollment, card_table):
    url = enrollment.url + "/api/action"
    enrollment.hw.camera.push(card_table.card("sheep-1", 1))
    assert call(url, {"pin": "0000", "action": "take"})[0] == 403
    assert call(url, {"action": "take"})[0] == 403
    assert call(url, {"pin": PIN, "action": "explode"})[0] == 400
    assert call(url, {"pin": PIN, "action": "keep"})[0] == 409  # nothing to keep yet
    assert call(url, [1, 2])[0] == 400
    with enrollment.box.lock:
        assert enrollment.session.phase is Phase.PROMPT and enrollment.session.progress()[0] == 0
    assert call(url, {"pin": PIN, "action": "take"})[0] == 202
    enrollment.wait(lambda s: s.phase is Phase.REVIEW)
    assert call(url, {"pin": PIN, "action": "keep"})[0] == 202
    enrollment.wait(lambda s: s.progress()[0] == 1 and s.phase is Phase.PROMPT)
    # the OLED follows the phone's actions: it shows the next photo of the first card
    assert enrollment.session.step.number == 2
    # five wrong PINs lock the address out, even with the right one
    for _ in range(5):
        assert call(url, {"pin": "9999", "action": "undo"})[0] == 403
    status, _, headers = call(url, {"pin": PIN, "action": "undo"})
    assert status == 429 and int(headers["Retry-After"]) >= 1
    with enrollment.box.lock:
        assert enrollment.session.progress()[0] == 1
    assert not (enrollment.session.samples_dir).exists()


def test_without_a_pin_the_page_is_read_only(tmp_path, card_table):
    from farmbox.hw.pins import simulated_pins

    from .conftest import Clock, Enrollment

    with simulated_pins():
        e = Enrollment(tmp_path, Clock(), pin="")
        try:
            status, body, _ = call(e.url + "/api/action", {"pin": "", "action": "take"})
            assert status == 403 and b"set [web] pin" in body
            assert json.loads(call(e.url + "/api/state")[1])["pin"] is False
            with e.box.lock:
                assert e.session.phase is Phase.CLEAR
        finally:
            e.close()


def test_the_table_view_sends_enrollment_to_farmbox_enroll(table):
    """While a game runs, /enroll on its table view says how to enroll (and changes nothing)."""
    status, body, _ = call(table.url + "enroll")
    assert status == 409 and b"farmbox enroll cards" in body
    assert table.box.journal.seq == 1
