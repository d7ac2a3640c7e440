"""A whole guided enrollment on mock buttons with rendered frames: the files it writes are the
CLI's, and the model reads rendered rolls."""

from __future__ import annotations

import threading

import cv2
import numpy as np

import farmbox.firmware.games.enroll.screens as screens
from farmbox.firmware.cli import vision_dice
from farmbox.firmware.games.enroll.box import EnrollmentBox
from farmbox.firmware.games.enroll.session import Phase
from farmbox.vision.dice import DiceModel, DiceReader
from farmbox.vision.render.dice import render_scene, write_samples

from .conftest import PER_FACE, wait_for


def test_whole_guided_enrollment_writes_the_cli_layout_and_a_model_that_reads(
        hardware, frames, tmp_path):
    samples, model_path = tmp_path / "SAMPLES", tmp_path / "dice.npz"
    box = EnrollmentBox(hardware, samples, model_path, per_face=PER_FACE)
    session, buttons, camera = box.session, hardware.buttons, hardware.camera
    shown = []  # every frame sent to the OLED, in order
    show = hardware.display.show
    hardware.display.show = lambda image: (shown.append(image.tobytes()), show(image))
    result: list = []
    runner = threading.Thread(target=lambda: result.append(box.run()), daemon=True)
    runner.start()

    def settled(*phases):
        wait_for(lambda: session.phase in phases and not buttons.events.qsize())

    def take(frame, first_try=None):
        if first_try is not None:  # a wrong first try, thrown away at the review (BACK)
            camera.push(first_try)
            buttons.tap("ok")
            settled(Phase.REVIEW)
            buttons.tap("back")
            settled(Phase.PROMPT)
        camera.push(frame)
        buttons.tap("ok")
        settled(Phase.REVIEW)
        buttons.tap("ok")
        wait_for(lambda: session.phase is not Phase.REVIEW and not buttons.events.qsize())

    settled(Phase.CLEAR)
    take(frames.background())
    settled(Phase.PROMPT)
    kept = {}
    while session.phase is Phase.PROMPT:
        step = session.step
        frame = frames.sample(step.die, step.face, step.number)
        kept[(step.face, step.die, step.number)] = frame
        # the first red horse is first taken with the fox up, and retaken
        wrong = frames.sample("red", "fox", 2) if (step.face, step.number) == ("horse", 1) else None
        take(frame, first_try=wrong)
        wait_for(lambda: session.phase in (Phase.PROMPT, Phase.DONE, Phase.ERROR), timeout=60)
    assert session.phase is Phase.DONE, session.error
    en = screens.translator("en")
    learned = session.learned
    assert learned.photos == 10 * PER_FACE
    wait_for(lambda: hardware.display.last_image.tobytes() == screens.done(
        en, learned.photos, learned.min_score, learned.min_margin).tobytes())
    # the learning progress was on the screen, from 0 % up, before the done screen
    building = [shown.index(screens.building(en, f).tobytes()) for f in (0.0, 0.25, 0.5)]
    assert building == sorted(building) and building[-1] < len(shown) - 1
    buttons.tap("ok")  # leave the done screen
    runner.join(10)
    assert result == [model_path]

    # the same layout as the CLI's SAMPLES (the renderer writes the CLI's layout too)
    cli_layout = write_samples(tmp_path / "CLI", per_face=PER_FACE, setup=frames.setup)
    def layout(folder):
        return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert layout(samples) == layout(cli_layout)
    for (face, die, n), frame in kept.items():
        assert np.array_equal(cv2.imread(str(samples / face / f"{die}-{n}.png")), frame)
    assert np.array_equal(cv2.imread(str(samples / "background.png")), frames.background())

    # the CLI learns the same model from the folder the box wrote
    model = DiceModel.load(model_path)
    assert vision_dice.enroll(samples, tmp_path / "cli.npz") == 0
    again = DiceModel.load(tmp_path / "cli.npz")
    assert np.allclose(model.templates, again.templates) and model.min_score == again.min_score

    # and it reads rendered rolls on the same table
    reader = DiceReader(model)
    right = 0
    for seed in range(8):
        image, truth = render_scene(5000 + seed, setup=frames.setup)
        reading = reader.read(image)
        assert reading.faces is None or tuple(reading.faces) == tuple(truth["faces"])
        right += reading.faces is not None
    assert right >= 7
