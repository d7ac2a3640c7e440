"""A black die whose faces are painted to their edges, alone on a dark green felt: of its black
body only a thin frame round the top face shows, broken where the lamp catches it.  Its pieces
lie in one part of what differs from the table (the die with its sides and shadow), and there
they are one die.  Frames from the independent renderer (``bench/holdout_colour_dice.py``),
read through the command line."""

import json

import numpy as np

from farmbox.firmware.cli import main
from tests.bench_scripts import bench_script


def test_a_lone_black_die_painted_to_its_edges_is_found_on_felt(tmp_path, capsys):
    hold = bench_script("holdout_colour_dice")
    folder = tmp_path / "painted-felt-2"
    labels = hold.write_set(folder, 2, "painted", "felt", 100, progress=False)
    where = json.loads((folder / "centres.json").read_text())
    model = tmp_path / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(model)]) == 0
    capsys.readouterr()
    scenes = sorted(str(p) for p in (folder / "scenes").iterdir())
    assert main(["vision", "read", "colour-dice", "--model", str(model), *scenes, "--json"]) == 0
    read = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert len(read) == 100
    wrong = lone = lone_read = 0
    for r in read:
        name = r["image"].rsplit("/", 1)[-1]
        truth, dice = labels[name], where[f"scenes/{name}"]
        wrong += sum(r["dice"][d] not in (None, c) for d, c in truth.items())
        side = max(dice["black"]["side_px"], dice["white"]["side_px"])
        if np.hypot(*np.subtract(dice["black"]["centre"], dice["white"]["centre"])) > 1.6 * side:
            lone += 1
            lone_read += r["dice"]["black"] == truth["black"]
    # 67 throws with the black die well apart from the white one: before its frame's pieces
    # were joined within the die's part, 4 of them were not read (2 "die not found")
    assert wrong == 0
    assert lone >= 60 and lone_read >= lone - 2, (lone_read, lone)
