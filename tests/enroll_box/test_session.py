"""The guided enrollment step by step on mock buttons: errors, retakes, undo, stillness."""

from __future__ import annotations

import numpy as np
import pytest

import farmbox.firmware.games.enroll.screens as screens
from farmbox.firmware.games.enroll.box import EnrollmentBox, EnrollmentCancelled, run_enrollment
from farmbox.firmware.games.enroll.session import (
    STALE_FRAMES,
    STILL_TIMEOUT,
    EnrollSession,
    Phase,
    write_samples,
)

from .conftest import PER_FACE, press, take


def shows(box: EnrollmentBox):
    """What the OLED shows now is the session's screen."""
    assert box.hw.display.last_image.tobytes() == screens.render(box.session, box.tr).tobytes()
    return box.hw.display.last_image


def test_first_screen_asks_to_clear_the_table_and_photographs_it(box, frames):
    box.show()
    en = screens.translator("en")
    assert shows(box).tobytes() == screens.clear_table(en, 0, 10 * PER_FACE).tobytes()
    take(box, frames.background(), keep=False)
    assert box.session.capture.die is None  # the empty table: no die looked for
    shows(box)
    press(box, "ok")
    assert box.session.phase is Phase.PROMPT
    assert np.array_equal(box.session.background, frames.background())
    step = box.session.step
    assert (step.face, step.die, step.number) == ("rabbit", "green", 1)
    assert shows(box).tobytes() == screens.prompt(en, "rabbit", "green", 1, PER_FACE, 0,
                                                 10 * PER_FACE).tobytes()


def test_no_die_in_the_frame_is_shown_and_the_step_retaken(box, frames):
    take(box, frames.background())
    box.hw.camera.push(frames.background(1))  # the die was not put down
    press(box, "ok")
    assert box.session.phase is Phase.ERROR
    en = screens.translator("en")
    assert shows(box).tobytes() == screens.error(en, "NO DIE FOUND IN THE FRAME").tobytes()
    press(box, "next")  # any button: back to the same step
    assert box.session.phase is Phase.PROMPT and box.session.progress()[0] == 0
    sample = frames.sample("green", "rabbit", 1)
    take(box, sample, keep=False)
    die = box.session.capture.die
    assert die is not None and 40 < die.radius < 100
    shows(box)
    press(box, "ok")
    assert box.session.progress() == (1, 10 * PER_FACE)
    assert box.session.step.number == 2


def test_camera_gone_shows_the_error_and_resumes(box, frames):
    take(box, frames.background())
    box.hw.camera.unplug()
    press(box, "ok")
    assert box.session.phase is Phase.ERROR
    message, _, detail = box.session.error.partition("|")
    assert message == "CAMERA GONE" and "unplugged" in detail
    en = screens.translator("en")
    assert shows(box).tobytes() == screens.error(en, "CAMERA GONE", detail).tobytes()
    box.hw.camera.replug()
    press(box, "back")
    assert box.session.phase is Phase.PROMPT
    take(box, frames.sample("green", "rabbit", 1))
    assert box.session.progress()[0] == 1


def test_back_at_review_retakes_and_hold_undoes(box, frames):
    take(box, frames.background())
    first, second = frames.sample("green", "rabbit", 1), frames.sample("green", "rabbit", 2)
    take(box, first, keep=False)
    press(box, "back")  # retake
    assert box.session.phase is Phase.PROMPT and box.session.progress()[0] == 0
    take(box, second)
    assert box.session.progress()[0] == 1
    assert np.array_equal(box.session.enrollment.samples[0][1], second)
    take(box, first)
    assert box.session.progress()[0] == 2 and box.session.step.die == "red"
    press(box, "prev", hold=True)  # undo the last photo
    assert box.session.progress()[0] == 1
    assert (box.session.step.die, box.session.step.number) == ("green", 2)
    assert np.array_equal(box.session.enrollment.samples[0][1], second)
    press(box, "ok", hold=True)
    press(box, "ok", hold=True)  # then the empty table
    assert box.session.phase is Phase.CLEAR and box.session.background is None
    box.session.hold("back")  # nothing left to undo
    assert box.session.take_alerts() == ["mistake"] and box.session.phase is Phase.CLEAR


def test_the_photo_is_taken_once_the_table_is_still(box, frames):
    take(box, frames.background())
    still = frames.sample("green", "rabbit", 1)
    stale = [frames.background()] * STALE_FRAMES  # buffered before OK: dropped
    hand = [np.full_like(still, 60), np.full_like(still, 190), still // 2]  # a hand, moving
    for frame in stale + hand + [still]:
        box.hw.camera.push(frame)
    press(box, "ok")
    assert box.session.phase is Phase.REVIEW
    assert np.array_equal(box.session.capture.frame, still)


def test_a_table_that_never_stops_moving_is_an_error(frames, tmp_path):
    session = EnrollSession(tmp_path / "S", tmp_path / "m.npz", per_face=1, now=0.0)
    session.press("ok", now=0.0)
    a, b = frames.background(), frames.sample("red", "pig", 1)
    t = 0.0
    while session.phase is Phase.CAPTURE:
        session.frame(a if int(t * 2) % 2 else b, t)
        t += 0.5
        assert t < 100
    assert session.phase is Phase.ERROR and session.error == "THE TABLE KEEPS MOVING"
    assert STILL_TIMEOUT < t <= STILL_TIMEOUT + 1.0


def test_back_on_the_first_screen_quits_and_writes_nothing(hardware, tmp_path):
    hardware.buttons.tap("back")
    with pytest.raises(EnrollmentCancelled):
        run_enrollment(hardware, tmp_path / "SAMPLES", tmp_path / "dice.npz", per_face=1)
    assert list(tmp_path.iterdir()) == []


def test_no_camera_is_a_clear_error(hardware, tmp_path):
    hardware.camera = None
    with pytest.raises(ValueError, match="needs a camera"):
        run_enrollment(hardware, tmp_path / "SAMPLES", tmp_path / "dice.npz")


def test_polish_screens_follow_the_configured_language(hardware, tmp_path):
    box = EnrollmentBox(hardware, tmp_path / "S", tmp_path / "m.npz", per_face=1, language="pl")
    box.show()
    pl = screens.translator("pl")
    assert hardware.display.last_image.tobytes() == screens.clear_table(pl, 0, 10).tobytes()
    assert pl("CLEAR THE TABLE") == "UPRZĄTNIJ STÓŁ"


def test_samples_folder_is_replaced_whole_or_not_at_all(tmp_path, frames):
    folder = tmp_path / "SAMPLES"
    (folder / "wolf").mkdir(parents=True)
    (folder / "wolf" / "stale.png").write_bytes(b"old")
    sample = frames.sample("green", "wolf", 1)
    write_samples(folder, [("wolf", "green", sample), ("wolf", "green", sample)], frames.background())
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png")) == [
        "background.png", "wolf/green-1.png", "wolf/green-2.png"]
    with pytest.raises(Exception):
        write_samples(folder, [("cow", "green", np.zeros((4, 4), np.float64))], None)
    assert (folder / "wolf" / "green-2.png").is_file()  # the old folder stays
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SAMPLES"]  # no temp folders left


def test_a_learning_error_is_shown_nothing_is_written_and_the_last_photo_retaken(
        hardware, frames, tmp_path):
    box = EnrollmentBox(hardware, tmp_path / "SAMPLES", tmp_path / "dice.npz", per_face=1)
    take(box, frames.background())
    green_for = {"fox": "wolf", "horse": "cow"}  # the green die shown for every photo
    while box.session.phase is Phase.PROMPT:
        step = box.session.step
        take(box, frames.sample("green", green_for.get(step.face, step.face), 1))
    assert box.session.phase is Phase.ERROR
    message, _, detail = box.session.error.partition("|")
    assert message == "CANNOT LEARN THE DICE" and "green die from the red one" in detail
    en = screens.translator("en")
    assert shows(box).tobytes() == screens.error(en, message, detail).tobytes()
    assert list(tmp_path.iterdir()) == []  # neither SAMPLES nor the model
    assert box.session.progress() == (9, 10)
    press(box, "ok")
    assert box.session.phase is Phase.PROMPT and box.session.step.face == "wolf"
