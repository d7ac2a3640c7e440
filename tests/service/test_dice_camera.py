"""The real dice reader in the loop: rendered camera frames -> farmbox.vision.dice -> session -> journal."""

from __future__ import annotations

import time

import pytest

from farmbox.firmware.games.superfarmer.box import Service, dice_reader
from farmbox.firmware.games.superfarmer.session import Phase
from farmbox.firmware.rules.superfarmer.dice import Face
from farmbox.hw import open_hardware
from farmbox.hw.camera import FeedCamera
from farmbox.vision.dice import enroll_folder
from farmbox.vision.render.dice import render_background, render_scene, write_samples

from .conftest import NullNotifier


@pytest.fixture(scope="module")
def dice_model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("samples")
    write_samples(folder)
    path = folder / "dice.npz"
    enroll_folder(folder).save(path)
    return path


def test_rendered_roll_is_read_and_settled_once(config, pins, dice_model):
    config = config.with_overrides(camera={"source": "feed"},
                                   vision={"dice_model": str(dice_model)})
    feed = FeedCamera(timeout=0.5)
    feed.push(render_background())
    hw = open_hardware(config, camera=feed)
    service = Service(config, hardware=hw, notifier=NullNotifier(), watcher=dice_reader(config))
    try:
        session = service.start()
        scene, truth = render_scene(0, setup=0, faces=("sheep", "fox"))
        assert truth["faces"] == ("sheep", "fox")
        feed.push(scene)  # the dice land: motion, then the same still picture
        end = time.monotonic() + 20
        while sum(session.state.turns) == 0 or not service.inbox.empty():
            assert time.monotonic() < end, "the camera roll was never settled"
            service.step(timeout=0.05)
        assert session.state.last_roll.green is Face.SHEEP
        assert session.state.last_roll.red is Face.FOX
        assert session.phase is Phase.RESULT
        # The dice lie still: more frames of them never settle the roll again.
        settle_until = time.monotonic() + 1.0
        while time.monotonic() < settle_until:
            service.step(timeout=0.05)
        assert sum(session.state.turns) == 1 and service.journal.seq == 2
    finally:
        service.close()
        hw.close()
