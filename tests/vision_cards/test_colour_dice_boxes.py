"""The colour dice on three of the independent renderer's hardest boxes
(``bench/holdout_colour_dice.py``), read through the command line.

- A black die whose faces are painted to their edges, alone on a green felt: of its black body
  only a thin frame round the top face shows, broken where the lamp catches it.  Its pieces lie
  in one part of what differs from the table (the die with its sides and shadow), and there they
  are one die.
- The white die touching the black one on a navy felt under a dim lamp: the black die's top face
  found in part lies off its centre, and the white die was dropped as a pale ring round it.  On
  a table darker than halfway between the dice's bodies there is no such ring.
- The white die touching the black one on a near-white linen, found by its mark (its body is
  the cloth's colour): the black die's blob, a frame round painted faces whose hull reaches
  into the white die, lies off its top face, and the white die's mark was taken for one of its
  side faces.  Measured from the black die's mark it is as far as a die touching it.
- The dice touching on a near-white linen that clips round them: the light on their faces was
  taken from the cells of the dice and their shadows (they alone count where the cloth clips),
  and the black die's orange face was relit as yellow.  The light there is now the cloth's round
  them.
- Red pips on the black die touching the white one on a red felt: the pips' blurred rims are the
  felt's colour, thin rings of the table inside the die that the foreground's closing sealed, so
  they were filled as no hole; only the pips' cores were left, too small for a mark.
- The white die touching the black one across the grout of pale tiles: the black die's blob took
  in the white die's shadow, and the white die, measured from that blob's centre, lay as near as
  what is left of a pale ring round the black die.  Measured from the black die's top face it
  lies a side away.
- The black die not found, the white die's blob may hold it: its body a thin frame round a
  painted face, found as one with the white die, whose mark was then the black die's face (read
  right only where the two faces were of one colour), and the black die was not looked for by
  its mark.  A mark printed on a dark body is no white die's.
"""

import json

import numpy as np
import pytest

from farmbox.firmware.cli import main
from tests.bench_scripts import colour_dice_box


def _read_box(tmp_path, capsys, seed: int, style: str, kind: str, throws: int):
    """Render a box's set, enroll its dice and read its throws through the command line:
    (reading, truth, where the dice lie) per throw."""
    folder, labels = colour_dice_box(tmp_path, seed, style, kind, throws)
    where = json.loads((folder / "centres.json").read_text())
    model = tmp_path / "dice.json"
    assert main(["vision", "enroll", "colour-dice", str(folder / "enroll"), "--model", str(model)]) == 0
    capsys.readouterr()
    scenes = [str(folder / "scenes" / name) for name in sorted(labels)]
    assert main(["vision", "read", "colour-dice", "--model", str(model), *scenes, "--json"]) == 0
    read = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert len(read) == throws
    out = []
    for r in read:
        name = r["image"].rsplit("/", 1)[-1]
        out.append((r["dice"], labels[name], where[f"scenes/{name}"]))
    return out


def _apart(dice: dict) -> float:
    """How far apart the two dice's top faces are, in die sides."""
    side = max(dice["black"]["side_px"], dice["white"]["side_px"])
    return float(np.hypot(*np.subtract(dice["black"]["centre"], dice["white"]["centre"]))) / side


def test_a_lone_black_die_painted_to_its_edges_is_found_on_felt(tmp_path, capsys):
    wrong = lone = lone_read = read_all = 0
    for read, truth, dice in _read_box(tmp_path, capsys, 2, "painted", "felt", 100):
        wrong += sum(read[d] not in (None, c) for d, c in truth.items())
        read_all += sum(read[d] == c for d, c in truth.items())
        if _apart(dice) > 1.6:
            lone += 1
            lone_read += read["black"] == truth["black"]
    # 67 throws with the black die well apart from the white one: before its frame's pieces
    # were joined within the die's part, 4 of them were not read (2 "die not found")
    assert wrong == 0
    assert lone >= 60 and lone_read >= lone - 2, (lone_read, lone)
    # of all 200 dice, 8 were not read (192) before a die not found, or found without a mark
    # (its frame and its shadow one blob beside the top face), was looked for by its mark (198)
    assert read_all >= 196, read_all


def test_a_black_die_painted_to_its_edges_is_read_on_a_dark_felt(tmp_path, capsys):
    """On a charcoal felt the black die's painted top face is ringed by its own clipped rim,
    paler than the white die's body, and its mark was taken for one on the white die; and the
    blob found for it round the white die (the white die's shadow) was read, not the next one.
    Its enrollment marks also cover more than its body's blob: the model it wrote could not be
    loaded ("mark_share is 1.04, expected 0..1")."""
    wrong = read_all = 0
    for read, truth, _ in _read_box(tmp_path, capsys, 42, "painted", "felt", 60):
        wrong += sum(read[d] not in (None, c) for d, c in truth.items())
        read_all += sum(read[d] == c for d, c in truth.items())
    # 120 dice: all read (on the whole box of 240 dice, enrolled in memory: 188 read before,
    # 237 now)
    assert wrong == 0
    assert read_all >= 117, read_all


# (seed, mark style, table, throws rendered, least touching throws, touching dice not read at most)
# navy felt under a dim lamp: 22 touching throws, 39 of their 44 dice read before, 3 white dice
# dropped as a ring round the black die; near-white linen: 29 touching throws, 52 of their 58
# dice read before, 3 white dice taken for the black die's side faces
# red felt, red pips: 17 touching throws, 32 of their 34 dice read before (the black die's red
# pips not seen twice); pale tiles: 9 touching throws, 16 of 18 read before (the white die not
# found twice); green felt, painted faces: 33 touching throws, all read before, and with the
# pips' rims filled alone (the black die's painted face then lay in the white die's blob) 65
TOUCHING_BOXES = {"navy-felt": (24, "pips", "felt", 70, 20, 2),
                  "near-white-linen": (6, "painted", "linen", 100, 25, 3),
                  "red-felt": (56, "pips", "felt", 45, 15, 0),
                  "pale-tiles": (52, "pips", "tiles", 30, 8, 0),
                  "green-felt": (2, "painted", "felt", 100, 30, 0)}


@pytest.mark.parametrize("box", list(TOUCHING_BOXES))
def test_dice_that_touch_are_both_read(tmp_path, capsys, box):
    seed, style, kind, throws, least, unread = TOUCHING_BOXES[box]
    wrong = touching = touching_read = 0
    for read, truth, dice in _read_box(tmp_path, capsys, seed, style, kind, throws):
        wrong += sum(read[d] not in (None, c) for d, c in truth.items())
        if _apart(dice) < 1.3:
            touching += 1
            touching_read += sum(read[d] == c for d, c in truth.items())
    assert wrong == 0
    assert touching >= least and touching_read >= 2 * touching - unread, (touching_read, touching)


def test_an_orange_face_beside_a_clipped_linen_is_read_in_the_cloths_light(tmp_path, capsys):
    wrong = orange = orange_read = read_all = 0
    for read, truth, _ in _read_box(tmp_path, capsys, 54, "painted", "linen", 80):
        wrong += sum(read[d] not in (None, c) for d, c in truth.items())
        read_all += sum(read[d] == c for d, c in truth.items())
        if truth["black"] == "orange":
            orange += 1
            orange_read += read["black"] == "orange"
    # the black die's orange in these 80 throws: before, 13 of 20 read, 3 read as yellow
    # (the whole box of 240 dice: 229 read, 3 wrong; then 238, 0 wrong, and 240 since a white
    # die's mark printed on a dark body is no white die's)
    assert wrong == 0
    assert orange >= 10 and orange_read >= orange - 1, (orange_read, orange)
    # and of all 160 dice, 159 were read (the black die of throw 65 not found: the white die's
    # blob took in its painted face, and the white die was read from it); all now
    assert read_all == 160, read_all


def test_a_yellow_face_in_the_shade_and_small_green_pips_are_read(tmp_path, capsys):
    """A face turned from the lamp is darker, its colour much the same: the black die's yellow
    in the shade (Lab L 40 under its enrolled shots) lay as near the enrolled orange as the
    yellow while lightness counted a third as much as the colour, and was refused "yellow?".
    And the green pips' rims are paler in the chroma than the other colours': a green face's
    mark covers 0.06-0.12 of the die in its enrolled shots, the others 0.09-0.24, and a green
    top face was "not seen" under the least share asked of any mark (0.45 of the die's
    median).  Each colour now asks 0.45 of its own largest enrolled mark where that is less."""
    wrong = 0
    faces = {"yellow": 0, "green": 0}
    right = {"yellow": 0, "green": 0}
    for read, truth, _ in _read_box(tmp_path, capsys, 24, "pips", "felt", 70):
        wrong += sum(read[d] not in (None, c) for d, c in truth.items())
        for die, colour in truth.items():
            if colour in faces:
                faces[colour] += 1
                right[colour] += read[die] == colour
    assert wrong == 0
    # 26 yellow faces in these 70 throws: 25 read before (throw 52's black die "yellow?")
    assert faces["yellow"] >= 20 and right["yellow"] == faces["yellow"], (right, faces)
    # 19 green faces: 16 read before, 18 now (throw 15's white die, its five pips 0.038 of the
    # die, under the least share of any mark: 0.05)
    assert faces["green"] >= 15 and right["green"] >= faces["green"] - 1, (right, faces)
