"""Enrollment from a SAMPLES folder and through the guided-enrollment API."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from farmbox.vision.dice.enroll import (
    EXPOSURES,
    DiceEnrollment,
    EnrollmentPlan,
    build_model,
    enroll_folder,
    read_samples,
)
from farmbox.vision.dice.faces import DICE, FACES

VARIANTS = 1 + len(EXPOSURES)  # each photo is remembered at several exposures


def test_enrolled_model_knows_which_die_is_which(model):
    # 2 photos x (4 one-die faces + 2 x 3 shared faces)
    assert len(model.templates) == 20 * VARIANTS
    die_of = {FACES[f]: set() for f in model.template_face}
    for f, d in zip(model.template_face, model.template_die):
        die_of[FACES[f]].add(DICE[d])
    assert die_of["wolf"] == {"green"} and die_of["cow"] == {"green"}
    assert die_of["fox"] == {"red"} and die_of["horse"] == {"red"}
    assert die_of["rabbit"] == {"green", "red"}
    assert 0.0 < model.min_score < 1.0 and 0.0 < model.min_margin < 0.5
    assert model.die_area.min() > 2000  # a die covers thousands of pixels in a 960x720 frame


def test_plan_and_guided_enrollment(samples, model):
    plan = EnrollmentPlan(per_face=2)
    assert len(plan) == 20 and plan.count("wolf") == 2 and plan.count("pig") == 4
    enrollment = DiceEnrollment(plan)
    assert enrollment.progress() == (0, 20)
    files, background = read_samples(samples)
    by_name = {name: img for _, img, name in files}
    steps = 0
    while (step := enrollment.next_step()) is not None:
        name = next(n for n in by_name if f"/{step.face}/{step.die}-{step.number}" in n)
        enrollment.add_sample(step.face, by_name[name], name)
        steps += 1
        if steps == 3:  # a blurred shot: retake it
            enrollment.retake(step.face)
            enrollment.add_sample(step.face, by_name[name], name)
    assert steps == 20 and enrollment.progress() == (20, 20)
    enrollment.set_background(background)
    built = enrollment.build_model()
    assert len(built.templates) == 20 * VARIANTS
    assert sorted(built.template_die.tolist()) == sorted(model.template_die.tolist())


def test_retake_without_sample_is_an_error():
    with pytest.raises(ValueError, match="no cow sample"):
        DiceEnrollment().retake("cow")


def test_unknown_face_is_an_error():
    with pytest.raises(ValueError, match="unknown face 'duck'"):
        DiceEnrollment().add_sample("duck", np.zeros((10, 10, 3), np.uint8))


def test_enrollment_without_background(samples, tmp_path):
    copy = tmp_path / "S"
    shutil.copytree(samples, copy)
    (copy / "background.png").unlink()
    model = enroll_folder(copy)
    assert set(model.template_die.tolist()) == {0, 1}


def test_missing_face_folder(samples, tmp_path):
    copy = tmp_path / "S"
    shutil.copytree(samples, copy)
    shutil.rmtree(copy / "horse")
    with pytest.raises(ValueError, match="horse"):
        enroll_folder(copy)


def test_unknown_folder_and_unreadable_image(samples, tmp_path):
    copy = tmp_path / "S"
    shutil.copytree(samples, copy)
    (copy / "duck").mkdir()
    with pytest.raises(ValueError, match="unknown face folder 'duck'"):
        enroll_folder(copy)
    (copy / "duck").rmdir()
    (copy / "cow" / "broken.png").write_bytes(b"not a png")
    with pytest.raises(ValueError, match="cannot read image .*broken.png"):
        enroll_folder(copy)


def test_empty_table_photo_is_rejected(samples):
    files, background = read_samples(samples)
    files[0] = (files[0][0], background.copy(), "empty.png")
    with pytest.raises(ValueError, match="empty.png"):
        build_model(files, background)


def test_mixed_sizes_are_rejected(samples):
    files, background = read_samples(samples)
    face, img, name = files[1]
    files[1] = (face, cv2.resize(img, (480, 360)), name)
    with pytest.raises(ValueError, match="one camera, one size"):
        build_model(files, background)
