"""Enrollment from a SAMPLES folder and through the guided-enrollment API."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from farmbox.vision.dice.enroll import (
    DISC_BETTER,
    EXPOSURES,
    FEW_ACCEPTED,
    WRONG_LEAD_CEILING,
    WRONG_LEAD_FACTOR,
    DiceEnrollment,
    DiscTried,
    EnrollmentPlan,
    SampleCheck,
    build_model,
    chosen_disc,
    enroll_folder,
    face_margins,
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


def _cut_by_the_edge(img: np.ndarray, background: np.ndarray) -> np.ndarray:
    """The same photo with the die (its body's green or red, far from the wood's brown) moved
    against the right edge, half out of view; where it lay, the empty table shows (the
    background shot, brought to this photo's exposure)."""
    b, g, r = (img[..., i].astype(int) for i in range(3))
    body = ((g - np.maximum(r, b) > 20) | (r - np.maximum(g, b) > 90)).astype(np.uint8)
    body = cv2.dilate(body, np.ones((15, 15), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(body)
    x, y, w, h = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])), :4]
    x0, y0, x1, y1 = max(0, x - w // 3), max(0, y - h // 3), x + w + w // 3, y + h + h // 3
    crop = img[y0:y1, x0:x1].copy()
    gain = np.median(img.reshape(-1, 3), axis=0) / np.median(background.reshape(-1, 3), axis=0)
    out = img.copy()
    out[y0:y1, x0:x1] = np.clip(background[y0:y1, x0:x1] * gain, 0, 255).astype(np.uint8)
    left = img.shape[1] - (x + w - x0) + w // 2  # the die's right half beyond the edge
    out[y0:y1, left:] = crop[:, :img.shape[1] - left]
    return out


def test_a_photo_with_the_die_cut_by_the_edge_is_left_out(samples, tmp_path, capsys):
    from farmbox.firmware.cli import main as farmbox

    copy = tmp_path / "S"
    shutil.copytree(samples, copy)
    background = cv2.imread(str(copy / "background.png"))
    photo = copy / "pig" / "green-1.png"
    cv2.imwrite(str(photo), _cut_by_the_edge(cv2.imread(str(photo)), background))
    left_out: list[str] = []
    model = enroll_folder(copy, left_out=left_out)
    assert left_out == [str(photo)]
    assert len(model.templates) == 19 * VARIANTS
    code = farmbox(["vision", "enroll", "dice", str(copy), "--model", str(tmp_path / "m.npz")])
    err = capsys.readouterr().err
    assert code == 0 and f"left out {photo}: the die is cut by the frame's edge" in err


def test_a_face_whose_every_photo_is_cut_is_one_line_and_exit_2(samples, tmp_path, capsys):
    from farmbox.firmware.cli import main as farmbox

    copy = tmp_path / "S"
    shutil.copytree(samples, copy)
    background = cv2.imread(str(copy / "background.png"))
    for photo in sorted((copy / "wolf").iterdir()):
        cv2.imwrite(str(photo), _cut_by_the_edge(cv2.imread(str(photo)), background))
    out = tmp_path / "m.npz"
    assert farmbox(["vision", "enroll", "dice", str(copy), "--model", str(out)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "wolf" in line and "error" in line]
    assert len(err) == 1 and "cut by the frame's edge" in err[0] and "no other photo shows the wolf" in err[0]
    assert not out.exists()


def test_size_map_follows_the_lens_and_refuses_a_wild_fit():
    from farmbox.vision.dice.detect import Blob
    from farmbox.vision.dice.enroll import fit_elongation_map, fit_size_map
    from farmbox.vision.dice.model import NO_SIZE_MAP, size_factor, size_terms

    shape = (720, 960)
    rng = np.random.default_rng(3)
    truth = np.array([1.0, 0.05, -0.04, 0.22])  # a slope (a leaning camera) and a bowl (the lens)

    def blobs(law: np.ndarray, n: int) -> tuple[list[Blob], np.ndarray]:
        out = []
        for _ in range(n):
            c = (float(rng.uniform(60, 900)), float(rng.uniform(60, 660)))
            r = 50.0 * float(size_terms(shape, c) @ law) * float(rng.normal(1, 0.01))
            q = float(size_terms(shape, c)[3])
            out.append(Blob(centre=c, radius=r, area=np.pi * r * r, elongation=1.03 + 0.3 * q,
                            touches_border=False, hull=np.zeros((3, 2), np.float32)))
        return out, np.array([i % 2 for i in range(n)])

    found, die_of = blobs(truth, 30)
    fit = fit_size_map(found, die_of, shape)
    for point in [(480, 360), (40, 40), (920, 680), (900, 100)]:
        want = float(size_terms(shape, point) @ truth) / float(np.median([size_terms(shape, b.centre) @ truth
                                                                         for b in found]))
        assert abs(size_factor(fit, shape, point) - want) < 0.04, point
    a, b = fit_elongation_map(found, shape)
    assert abs(b - 0.3) < 0.08 and all(e <= a + b * size_terms(shape, f.centre)[3] + 1e-9
                                       for e, f in zip([f.elongation for f in found], found))
    few, few_die = blobs(truth, 6)
    assert fit_size_map(few, few_die, shape).tolist() == list(NO_SIZE_MAP)
    wild, wild_die = blobs(np.array([1.0, 0.0, 0.0, 1.5]), 30)  # 2.5x at the corners: no lens does that
    assert fit_size_map(wild, wild_die, shape).tolist() == list(NO_SIZE_MAP)


def _tried(rho: float, agreement: float, quality: float, accepted: int) -> DiscTried:
    from types import SimpleNamespace

    return DiscTried(SimpleNamespace(rho=rho), None, [], agreement, quality, accepted)  # type: ignore[arg-type]


def test_the_disc_kept_is_the_usual_one_unless_another_reads_the_photos_better_or_more():
    small, usual_a, usual_b = _tried(0.28, 0.1, 0.20, 30), _tried(0.40, 0.3, 0.18, 30), _tried(0.46, 0.2, 0.19, 30)
    # of the usual discs, the one whose photos agree best; a better read under DISC_BETTER
    # times is not enough to leave them
    assert chosen_disc([small, usual_a, usual_b]) is usual_a
    clearly = _tried(0.28, 0.1, DISC_BETTER * 0.18 + 0.01, 30)
    assert chosen_disc([clearly, usual_a, usual_b]) is clearly
    # a disc whose own thresholds accept under FEW_ACCEPTED of what another's accept is passed
    # over for the one accepting most
    few = _tried(0.40, 0.3, 0.18, int(FEW_ACCEPTED * 29) - 1)
    assert chosen_disc([small, few, usual_b]) is small
    assert chosen_disc([_tried(0.28, 0.1, 0.1, 29), few, usual_b]) is usual_b


def test_a_face_photos_were_read_as_asks_a_longer_lead_and_no_other_does():
    reads = [SampleCheck("a", "sheep", "red", "sheep", 0.8, 0.2),
             SampleCheck("b", "sheep", "red", "pig", 0.7, -0.05),     # read as the pig by 0.05
             SampleCheck("c", "fox", "red", "pig", 0.6, -0.02),
             SampleCheck("d", "wolf", "green", "cow", 0.5, -0.9),     # far off: held to the ceiling
             SampleCheck("e", "horse", "red", None, float("nan"), float("nan"))]  # not checked
    out = face_margins(reads)
    assert out[FACES.index("pig")] == pytest.approx(WRONG_LEAD_FACTOR * 0.05)
    assert out[FACES.index("cow")] == WRONG_LEAD_CEILING
    assert not np.delete(out, [FACES.index("pig"), FACES.index("cow")]).any()
