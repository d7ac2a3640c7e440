"""The synthetic dice scenes: seeded, truthful, and laid out as enrollment expects."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from farmbox.vision.dice.faces import DIE_FACES, FACES
from farmbox.vision.render.dice import ARTS, LAYOUT, face_texture, render_background, render_scene


def test_same_seed_same_frame(setup):
    a, ta = render_scene(11, setup=setup)
    b, tb = render_scene(11, setup=setup)
    assert a.shape == (720, 960, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b) and ta == tb
    c, _ = render_scene(12, setup=setup)
    assert not np.array_equal(a, c)


def test_truth_faces_are_on_their_dice(setup):
    for seed in range(3):
        _, truth = render_scene(seed, setup=setup)
        green, red = truth["faces"]
        assert green in DIE_FACES["green"] and red in DIE_FACES["red"]


def test_requested_faces_and_options(setup):
    _, truth = render_scene(5, setup=setup, faces=("wolf", "fox"))
    assert truth["faces"] == ("wolf", "fox")
    _, hidden = render_scene(5, setup=setup, hidden="red")
    assert hidden["faces"] is None and set(hidden["dice"]) == {"green"}
    _, tilted = render_scene(5, setup=setup, tilted="green")
    assert tilted["faces"] is None and tilted["dice"]["green"]["tilted"]


def test_layout_matches_the_dice():
    for die, faces in LAYOUT.items():
        assert sorted(faces) == sorted(DIE_FACES[die])


@pytest.mark.parametrize("art", ARTS)
def test_icons_differ(art):
    for die in ("green", "red"):
        textures = [face_texture(die, f, art).astype(np.int32) for f in FACES]
        for i in range(len(textures)):
            for j in range(i + 1, len(textures)):
                assert np.abs(textures[i] - textures[j]).mean() > 1.0, (art, FACES[i], FACES[j])


def test_held_out_styles_have_their_own_die_colours():
    for art in ("cartoon", "engraved"):
        for die in ("green", "red"):
            assert (np.median(face_texture(die, "rabbit", art).reshape(-1, 3), axis=0)
                    != np.median(face_texture(die, "rabbit", "badge").reshape(-1, 3), axis=0)).any()


def test_background_has_no_dice(setup):
    bg = render_background(1, setup=setup)
    hsv = cv2.cvtColor(bg, cv2.COLOR_BGR2HSV)
    assert np.percentile(hsv[..., 1], 99.9) < 200


def test_samples_folder_layout(samples):
    assert (samples / "background.png").is_file()
    for face in FACES:
        files = sorted((samples / face).glob("*.png"))
        dice = sum(face in DIE_FACES[d] for d in DIE_FACES)
        assert len(files) == 2 * dice
