"""Stillness: settle once when the dice stop, and only after they moved."""

from __future__ import annotations

import numpy as np

from farmbox.vision.dice.motion import Stillness
from farmbox.vision.render.dice import render_scene


def test_still_after_motion(setup):
    a, _ = render_scene(81, setup=setup)
    b, _ = render_scene(82, setup=setup)
    blur, _ = render_scene(82, setup=setup, motion=True)
    still = Stillness(frames=3)
    frames = [a, a, a, blur, b, b, b, b, b, b]
    events = [still.update(f) for f in frames]
    # no settle before any motion; one settle on the third still frame after the dice stop
    assert events == [False] * 7 + [True] + [False] * 2
    assert not still.moving


def test_noise_is_not_motion(setup):
    a, _ = render_scene(83, setup=setup)
    rng = np.random.default_rng(0)
    still = Stillness(frames=2)
    noisy = [np.clip(a + rng.normal(0, 3, a.shape), 0, 255).astype(np.uint8) for _ in range(5)]
    assert not any(still.update(f) for f in noisy)
    assert still.change < still.threshold


def test_reset_waits_for_new_motion(setup):
    a, _ = render_scene(84, setup=setup)
    b, _ = render_scene(85, setup=setup)
    still = Stillness(frames=1)
    assert [still.update(f) for f in (a, b, b)] == [False, False, True]
    still.reset()
    assert [still.update(f) for f in (b, b, b)] == [False, False, False]


def test_dice_leaving_the_table_is_motion(setup):
    """Two dice are a few per cent of the frame: lifting them must still count as motion."""
    from farmbox.vision.render.dice import render_background

    scene, _ = render_scene(86, setup=setup)
    empty = render_background(setup=setup)
    still = Stillness(frames=1)
    still.update(scene)
    still.update(empty)
    assert still.change > still.threshold
    assert still.update(empty)  # and the still empty table after it is a fresh scene
