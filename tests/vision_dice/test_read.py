"""Reading rendered rolls, and saying "unsure" (with a reason) whenever it cannot be sure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farmbox.vision.dice.faces import DIE_FACES
from farmbox.vision.dice.features import (
    ANGLES,
    DETAIL,
    DETAIL_SIGMA,
    DISC,
    RINGS,
    best_rotation_scores,
    drawn_out,
    normalise,
    polar_patches,
    spectra,
)
from farmbox.vision.dice.reader import DiceReading
from farmbox.vision.render.dice import render_background, render_scene

SCENES = range(900, 908)


def test_reads_rendered_rolls(reader, setup):
    confident = 0
    for seed in SCENES:
        image, truth = render_scene(seed, setup=setup)
        reading = reader.read(image)
        if reading.faces is not None:
            confident += 1
            assert reading.faces == truth["faces"], f"seed {seed}"
            assert reading.confidence >= 0.5 and reading.reason == "ok"
        else:
            assert reading.confidence < 0.5 and reading.reason
    assert confident >= len(SCENES) - 1


def test_reads_the_rare_faces(reader, setup):
    for seed, faces in ((31, ("wolf", "fox")), (32, ("cow", "horse")), (33, ("pig", "pig"))):
        image, truth = render_scene(seed, setup=setup, faces=faces)
        assert reader.read(image).faces == faces


def test_touching_dice(reader, setup):
    image, truth = render_scene(41, setup=setup, touching=True)
    reading = reader.read(image)
    assert reading.faces in (truth["faces"], None)
    assert reading.faces is not None or reading.reason == "one die hidden"


@pytest.mark.parametrize("hidden", ["green", "red"])
def test_one_die_hidden(reader, setup, hidden):
    image, _ = render_scene(51, setup=setup, hidden=hidden)
    reading = reader.read(image)
    assert reading.faces is None and reading.reason == "one die hidden"


def test_no_dice(reader, setup):
    reading = reader.read(render_background(3, setup=setup))
    assert reading == DiceReading(None, 0.0, "no dice")


@pytest.mark.parametrize("seed,die", [(61, "green"), (62, "red"), (63, "green")])
def test_tilted_die(reader, setup, seed, die):
    image, _ = render_scene(seed, setup=setup, tilted=die)
    reading = reader.read(image)
    assert reading.faces is None and reading.reason == "die tilted"


@pytest.mark.parametrize("seed", [71, 72])
def test_motion_blur_in_one_still_is_unsure_never_motion(reader, setup, seed):
    """Only the stillness detector, comparing frames, may say "motion"."""
    image, _ = render_scene(seed, setup=setup, motion=True)
    reading = reader.read(image)
    assert reading.faces is None and reading.reason == "unsure"


@pytest.mark.parametrize("seed,die", [(81, "green"), (82, "red"), (83, "green"), (84, "red")])
def test_die_near_the_edge_but_wholly_in_view_is_read(reader, setup, seed, die):
    image, truth = render_scene(seed, setup=setup, near_edge=die)
    assert reader.read(image).faces == truth["faces"]


# 90/red, 92/green and 104/both show too little of the cut die to be found as a die: they were
# "one die hidden" before version 3 and are "die out of view" now
@pytest.mark.parametrize("seed,die", [(91, "green"), (92, "red"), (93, "red"), (90, "red"), (92, "green"),
                                      (104, "green"), (104, "red")])
def test_die_partly_out_of_view(reader, setup, seed, die):
    image, truth = render_scene(seed, setup=setup, out_of_view=die)
    assert truth["faces"] is None
    reading = reader.read(image)
    assert reading.faces is None and reading.reason == "die out of view"


def test_a_die_cut_by_the_edge_is_read_only_with_its_top_face_in_view():
    """A die cut by the frame's edge is read only when its top face's centre lies
    FACE_IN_VIEW of the die's radius inside every edge (its picture in view)."""
    from farmbox.vision.dice.reader import FACE_IN_VIEW, _face_in_view

    shape, area = (720, 960, 3), np.pi * 40.0 ** 2        # a die of radius 40 pixels
    reach = FACE_IN_VIEW * 40.0
    for inside in ((reach, 360.0), (959 - reach, 360.0), (480.0, reach), (480.0, 719 - reach)):
        assert _face_in_view(shape, inside, area)
    for cut in ((reach - 1, 360.0), (960 - reach, 360.0), (480.0, reach - 1), (480.0, 720 - reach)):
        assert not _face_in_view(shape, cut, area)


def test_not_a_colour_frame(reader):
    with pytest.raises(ValueError, match="BGR colour frame"):
        reader.read(np.zeros((100, 100), np.uint8))


def test_reading_as_dict():
    assert DiceReading(("rabbit", "fox"), 0.912345, "ok").as_dict() == {
        "faces": ["rabbit", "fox"], "confidence": 0.9123, "reason": "ok"}
    assert DiceReading(None, 0.1, "motion").as_dict()["faces"] is None


def test_faces_are_data():
    assert len(DIE_FACES["green"]) == len(DIE_FACES["red"]) == 12


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), shift=st.integers(0, ANGLES - 1))
def test_matching_ignores_rotation(seed, shift):
    rng = np.random.default_rng(seed)
    desc = normalise(rng.normal(size=(2, ANGLES, RINGS, 3)).astype(np.float32))
    rotated = np.roll(desc[:1], shift, axis=1)  # the same face, turned
    scores = best_rotation_scores(spectra(rotated), spectra(desc))
    assert scores[0, 0] == pytest.approx(1.0, abs=1e-4)
    assert -1.0 - 1e-4 <= scores[0, 1] <= 1.0 + 1e-4


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), stretched=st.booleans())
def test_discs_sampled_together_are_each_disc_sampled_alone(seed, stretched):
    """Every spot's disc is sampled in one remap (in parts past what one remap's map holds):
    each is the disc a call for that spot alone gives, and the spectrum is numpy's FFT."""
    rng = np.random.default_rng(seed)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 1.5)
    centre = (float(rng.uniform(60, 260)), float(rng.uniform(60, 180)))
    stretch = drawn_out(float(rng.uniform(0, np.pi)), float(rng.uniform(1.05, 1.3))) if stretched else None
    gains = rng.uniform(0.8, 1.25, 3).astype(np.float32)
    offsets = rng.uniform(-0.3, 0.3, (700, 2)).astype(np.float32)   # more than 32000 map rows
    offsets[-1] = 0.3          # the farthest spot, in every call: the same patch round them
    together = polar_patches(frame, gains, centre, 30.0, offsets, 22.0, stretch)
    for k in (0, 1, 333, 666, 667, 698):
        alone = polar_patches(frame, gains, centre, 30.0, offsets[[k, -1]], 22.0, stretch)[0]
        assert np.abs(together[k] - alone).max() < 1e-4
    assert np.abs(spectra(together) - np.fft.rfft(together.reshape(700, ANGLES, -1), axis=1)).max() < 1e-4


def _discs_one_by_one(frame, gains, centre, radius, offsets, disc):
    """Each spot's disc as cv2.warpPolar samples it, one call a spot (how the descriptors were
    sampled before stop 59), for a face seen without stretch."""
    reach = disc + float(np.abs(offsets).max()) * radius + 3
    x0, y0 = int(np.floor(centre[0] - reach)), int(np.floor(centre[1] - reach))
    x1, y1 = int(np.ceil(centre[0] + reach)), int(np.ceil(centre[1] + reach))
    size = (int(round((x1 - x0) * DISC / disc)), int(round((y1 - y0) * DISC / disc)))
    small = cv2.resize(frame[y0:y1, x0:x1], size, interpolation=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(np.clip(small.astype(np.float32) * gains / 255.0, 0, 1), cv2.COLOR_BGR2Lab)
    lab = lab - DETAIL * cv2.GaussianBlur(lab, (0, 0), DETAIL_SIGMA)
    lab = np.concatenate([lab, cv2.GaussianBlur(lab, (0, 0), 1.0)], axis=2)
    out = [cv2.warpPolar(lab, (RINGS, ANGLES), ((centre[0] + dx * radius - x0) * size[0] / (x1 - x0),
                                                (centre[1] + dy * radius - y0) * size[1] / (y1 - y0)),
                         DISC, cv2.INTER_LINEAR | cv2.WARP_POLAR_LINEAR | cv2.WARP_FILL_OUTLIERS)
           for dx, dy in offsets]
    return normalise(np.stack(out))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_discs_sampled_in_one_remap_are_the_discs_warp_polar_samples(seed):
    rng = np.random.default_rng(seed)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 1.5)
    centre = (float(rng.uniform(80, 240)), float(rng.uniform(80, 160)))
    gains = rng.uniform(0.8, 1.25, 3).astype(np.float32)
    offsets = rng.uniform(-0.3, 0.3, (40, 2)).astype(np.float32)
    got = polar_patches(frame, gains, centre, 30.0, offsets, 20.0)
    assert np.abs(got - _discs_one_by_one(frame, gains, centre, 30.0, offsets, 20.0)).max() < 1e-4


def test_line_art_on_stickers_is_read(sticker_reader, sticker_setup):
    """Thin ink drawings on cream stickers: the smoothed scale of the descriptor keeps the lines."""
    right = unsure = 0
    for seed in range(900, 912):
        image, truth = render_scene(seed, setup=sticker_setup)
        reading = sticker_reader.read(image)
        assert reading.faces in (truth["faces"], None), f"seed {seed}: {reading}"
        right += reading.faces is not None
        unsure += reading.faces is None
    assert right >= 11 and unsure <= 1


@pytest.mark.parametrize("die", ["green", "red"])
def test_line_art_hidden_and_cut_dice_have_their_reasons(sticker_reader, sticker_setup, die):
    """The cream sticker of the die in view is not a smear of the missing one."""
    for seed in range(50, 54):
        image, _ = render_scene(seed, setup=sticker_setup, hidden=die)
        assert sticker_reader.read(image).reason == "one die hidden", f"seed {seed}"
    for seed in (90, 92, 104):
        image, _ = render_scene(seed, setup=sticker_setup, out_of_view=die)
        assert sticker_reader.read(image).reason == "die out of view", f"seed {seed}"


@pytest.mark.parametrize("seed,die", [(86, "red"), (110, "green"), (81, "green"), (82, "red")])
def test_a_die_cut_a_little_by_the_frames_edge_is_out_of_view_never_tilted(reader, setup, seed, die):
    """A die near the frame's edge, the frame moved so that the edge cuts a sliver of it off
    (its centre 0.8 of its radius from the edge): nearly all of it in view, it passes for a
    whole die's size, and its silhouette cut straight is drawn out against a flat die's.  It is
    read as its own face or is out of view, never "die tilted" (86/red and 110/green were; of
    80 such dice 9 were, and on six boxes of the second dice renderer 5 of 72 cut dice)."""
    image, truth = render_scene(seed, setup=setup, near_edge=die)
    x, y = truth["dice"][die]["top"]
    h, w = image.shape[:2]
    r = 1.38 * setup.edge * setup.camera.focal / setup.camera.height    # the silhouette's radius
    room = {"left": x, "right": w - 1 - x, "top": y, "bottom": h - 1 - y}
    side = min(room, key=lambda k: room[k])
    shift = room[side] - 0.8 * r
    dx, dy = {"left": (-shift, 0), "right": (shift, 0), "top": (0, -shift), "bottom": (0, shift)}[side]
    cut = cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
    reading = reader.read(cut)
    assert reading.reason == "die out of view" or reading.faces == truth["faces"], (reading.reason, reading.faces)
