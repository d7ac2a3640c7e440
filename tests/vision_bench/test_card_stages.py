"""bench/card_stages.py times the card reader's steps as it reads, and changes no reading."""

import pytest

from farmbox.vision.cards import CardReader, enroll
from farmbox.vision.cards import read as reading
from farmbox.vision.render import cards as card_scenes
from tests.bench_scripts import bench_script

stages_bench = bench_script("card_stages")


def test_the_steps_are_timed_as_the_reader_reads_and_put_back_after(tmp_path):
    """Read inside the timers, two frames of 12 cards read as outside them; every card read is
    described at least once, finding takes time in each frame, the shares are of the frame's
    time (none over it); after, the reader's own functions are back."""
    card_scenes.enrollment_samples(tmp_path / "enroll", "funfarm", per_card=2, seed=424242)
    reader = CardReader(enroll(tmp_path / "enroll"))
    images = [card_scenes.scene(53_000_000 + k, "funfarm", count=12).image for k in range(2)]
    outside = [[(r.id, r.corners.tolist()) for r in reader.read(image)] for image in images]
    own = [getattr(owner, attr) for _, owner, attr in stages_bench.STEPS]
    with stages_bench.Stages() as stages:
        inside = [[(r.id, r.corners.tolist()) for r in reader.read(image)] for image in images]
        assert reading.find_cards is not own[0]
    assert inside == outside
    assert [getattr(owner, attr) for _, owner, attr in stages_bench.STEPS] == own
    assert stages.calls["find"] == 2 and stages.seconds["find"] > 0
    assert stages.calls["describe"] >= sum(r[0] is not None for frame in inside for r in frame) >= 20
    assert stages.calls["rectify"] >= stages.calls["describe"]          # each described as rectified


@pytest.mark.parametrize("argv", [["--rendered", "1", "--frames", "0"], ["--rendered", "-1"], ["NOFOLDER"]])
def test_bad_arguments_are_one_line_and_exit_status_2(argv, tmp_path, capsys):
    if argv == ["NOFOLDER"]:
        argv = [str(tmp_path)]                     # a folder without enroll/
    with pytest.raises(SystemExit) as stop:
        stages_bench.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    expect = f"argument {argv[-2]}: {argv[-1]} is less than" if len(argv) > 1 else "no enroll/ folder"
    assert len(err) == 1 and expect in err[0], err
