"""The guided card and colour-dice enrollments on mock buttons, a dummy OLED and rendered
photos: the OLED shows which card or colour to lay down, OK takes and keeps, BACK retakes,
a hold undoes; learning writes the CLI's layout and a model that reads; the leave-one-out
check's weak subjects are offered for a redo."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import farmbox.firmware.games.enroll.shot_screens as shot_screens
from farmbox.firmware.games.enroll.box import EnrollmentCancelled
from farmbox.firmware.games.enroll.cards import Cards, card_subjects
from farmbox.firmware.games.enroll.colour_dice import ColourDice, colour_subjects
from farmbox.firmware.games.enroll.screens import clear_table
from farmbox.firmware.games.enroll.shot_box import ShotBox
from farmbox.firmware.games.enroll.shots import Lesson, Phase, ShotSession, Subject
from farmbox.vision import colour_dice
from farmbox.vision.cards import CardReader, enroll, load_model
from farmbox.vision.cards.table import table_shot
from farmbox.vision.render.cards import scene

from .conftest import shoot, tap

CARDS = ["sheep-1", "goat-2", "pig-3", "cow-4"]
COLOURS = ("red", "green", "blue")


def cards_box(hardware, tmp_path, ids=CARDS, per_card=2) -> ShotBox:
    session = ShotSession(card_subjects(ids), Cards(jitter=3), tmp_path / "SAMPLES",
                          tmp_path / "cards.npz", per_card)
    return ShotBox(hardware, session)


def shows(box: ShotBox):
    """What the OLED shows now is the session's screen."""
    image = box.hw.display.last_image
    assert image.tobytes() == shot_screens.render(box.session, box.tr).tobytes()
    return image


def test_the_oled_names_each_card_and_the_photos_become_a_deck_that_reads(
        hardware, card_table, tmp_path):
    box = cards_box(hardware, tmp_path)
    box.show()
    en = box.tr
    # first the empty table, as for the colour dice (the card reader's table)
    assert box.session.phase is Phase.CLEAR
    assert shows(box).tobytes() == clear_table(en, 0, 8, shot_screens.TITLES["cards"][0]).tobytes()
    shoot(box, card_table.empty())
    assert box.session.phase is Phase.PROMPT and box.session.progress() == (0, 8)
    subject = box.session.step.subject
    assert shows(box).tobytes() == shot_screens.prompt(en, "cards", subject, 1, 2, 0, 8).tobytes()
    # a first try of the first card is thrown away at the review (BACK), then retaken
    shoot(box, card_table.card("cow-4", 1), keep=False)
    shows(box)
    tap(box, "back")
    assert box.session.phase is Phase.PROMPT and box.session.progress() == (0, 8)
    shown = []
    show = hardware.display.show
    hardware.display.show = lambda image: (shown.append(image.tobytes()), show(image))
    for step in list(box.session.plan):
        assert box.session.step == step
        shoot(box, card_table.card(step.subject.label, step.number))
    session = box.session
    assert session.phase in (Phase.DONE, Phase.CHECK), session.error
    learned = session.learned
    assert learned.photos == 8 and learned.model_path.is_file()
    # the progress bar was on the OLED, from 0 % up, before the last screen
    bars = {shot_screens.learning(en, "cards", p / 100).tobytes(): p for p in range(101)}
    percents = [bars[image] for image in shown if image in bars]
    assert percents[0] == 0 and percents == sorted(percents) and len(set(percents)) >= 2
    assert shown[-1] not in bars
    shows(box)
    # the photos in the CLI's layout: SAMPLES/<card>/<n>.png and the empty table as
    # SAMPLES/background.png, exactly the frames taken
    files = sorted(p.relative_to(learned.samples_dir).as_posix()
                   for p in learned.samples_dir.rglob("*.png"))
    assert files == sorted([f"{c}/{n}.png" for c in CARDS for n in (1, 2)] + ["background.png"])
    assert np.array_equal(cv2.imread(str(learned.samples_dir / "pig-3" / "2.png")),
                          card_table.card("pig-3", 2))
    assert np.array_equal(cv2.imread(str(learned.samples_dir / "background.png")), card_table.empty())
    model = load_model(learned.model_path)
    # the model keeps the table photographed (not the median of the cards' photos)
    assert model.table.size and model.table.tobytes() == table_shot([card_table.empty()]).tobytes()
    # enrolling the written folder (as the command line does) takes the same table
    assert enroll(learned.samples_dir, jitter=3).table.tobytes() == model.table.tobytes()
    # the model reads these cards on a table it never saw
    reader = CardReader(model)
    image = scene(4242, ids=CARDS).image
    read = sorted(r.id for r in reader.read(image) if r.id)
    assert set(read) <= set(CARDS) and len(read) >= 3


def test_weak_cards_are_named_and_only_they_are_shot_again(hardware, card_table, tmp_path):
    """A reader whose check calls goat-2 weak: the check screen names it, OK redoes only
    its photos, and the second round learns again."""
    rounds = []

    class Checked(Cards):
        def learn(self, photos, on_progress, background=None):
            assert background is not None  # the empty table, photographed first
            lesson = super().learn(photos, on_progress, background)
            rounds.append([label for label, _ in photos])
            return Lesson(lesson.model, ("goat-2",) if len(rounds) == 1 else ())

    session = ShotSession(card_subjects(CARDS[:2]), Checked(jitter=2), tmp_path / "S",
                          tmp_path / "m.npz", 2)
    box = ShotBox(hardware, session)
    shoot(box, card_table.empty())
    for step in list(session.plan):
        shoot(box, card_table.card(step.subject.label, step.number))
    assert session.phase is Phase.CHECK and [s.label for s in session.weak] == ["goat-2"]
    assert shows(box).tobytes() == shot_screens.weak(box.tr, ["GOAT-2"]).tobytes()
    first = (tmp_path / "m.npz").read_bytes()
    tap(box, "ok")  # redo the weak ones
    assert session.phase is Phase.PROMPT
    assert session.step.subject.label == "goat-2" and session.progress() == (2, 4)
    shoot(box, card_table.card("goat-2", 3))
    shoot(box, card_table.card("goat-2", 4))
    assert session.phase is Phase.DONE and len(rounds) == 2 and session.learned.weak == ()
    assert (tmp_path / "m.npz").read_bytes() != first
    assert np.array_equal(cv2.imread(str(tmp_path / "S" / "goat-2" / "1.png")),
                          card_table.card("goat-2", 3))
    assert shows(box).tobytes() == shot_screens.done(box.tr, "cards", 2, 4, 0).tobytes()
    tap(box, "next")
    assert session.finished


def test_no_card_on_the_table_is_an_error_and_a_hold_undoes(hardware, card_table, tmp_path):
    box = cards_box(hardware, tmp_path)
    shoot(box, card_table.empty())
    box.hw.camera.push(card_table.empty(1))
    tap(box, "ok")
    assert box.session.phase is Phase.ERROR and box.session.error == "NO CARD FOUND"
    shows(box)
    tap(box, "prev")  # any button: back to the same card
    assert box.session.phase is Phase.PROMPT
    shoot(box, card_table.card("sheep-1", 1))
    assert box.session.progress() == (1, 8)
    tap(box, "ok", hold=True)
    assert box.session.progress() == (0, 8) and box.session.phase is Phase.PROMPT
    tap(box, "ok", hold=True)  # a second hold undoes the empty table's photo
    assert box.session.phase is Phase.CLEAR and box.session.background is None


def test_back_before_the_first_photo_cancels_and_writes_nothing(hardware, tmp_path):
    box = cards_box(hardware, tmp_path)
    hardware.buttons.tap("back")
    with pytest.raises(EnrollmentCancelled):
        box.run()
    assert not (tmp_path / "cards.npz").exists() and not (tmp_path / "SAMPLES").exists()


def test_colour_dice_start_with_the_empty_table_and_learn_each_colour(
        hardware, colour_table, tmp_path):
    faces = {"white": COLOURS, "black": COLOURS}
    session = ShotSession(colour_subjects(faces), ColourDice(), tmp_path / "SAMPLES",
                          tmp_path / "colour.json", 2)
    box = ShotBox(hardware, session)
    box.show()
    assert session.phase is Phase.CLEAR
    shows(box)
    shoot(box, colour_table.empty())
    assert session.phase is Phase.PROMPT and session.background is not None
    assert session.step.subject == Subject("white/red", "RED ON WHITE")
    # nothing put down: no die found
    box.hw.camera.push(colour_table.empty(1))
    tap(box, "ok")
    assert session.phase is Phase.ERROR and session.error == "NO DIE FOUND IN THE FRAME"
    tap(box, "ok")
    for step in list(session.plan):
        die, colour = step.subject.label.split("/")
        shoot(box, colour_table.die(die, colour, step.number), keep=False)
        x0, y0 = session.capture.outline.min(axis=0)
        x1, y1 = session.capture.outline.max(axis=0)
        assert 40 < x1 - x0 < 200 and 40 < y1 - y0 < 200  # one die, about 80 px wide
        tap(box, "ok")
    assert session.phase in (Phase.DONE, Phase.CHECK), session.error
    samples = tmp_path / "SAMPLES"
    assert (samples / "background.png").is_file()
    assert sorted(p.relative_to(samples).as_posix() for p in samples.rglob("*.png")) == sorted(
        ["background.png"] + [f"{d}/{c}/{n}.png" for d in ("white", "black") for c in COLOURS
                              for n in (1, 2)])
    model = colour_dice.load_model(tmp_path / "colour.json")
    assert sorted(model.dice["white"].samples) == sorted(COLOURS)
    assert model.table is not None  # the box's model holds the empty table it photographed
    # the CLI learns the same model from the folder the box wrote
    again = colour_dice.enroll(samples)
    assert again.to_json() == model.to_json()
    # and it reads a new photo of each die on the same table
    for die in ("white", "black"):
        reading = colour_dice.read_frame(model, colour_table.die(die, "green", 9))
        assert reading.dice.get(die) in ("green", None)
    assert sum(colour_dice.read_frame(model, colour_table.die(d, c, 7)).dice.get(d) == c
               for d in ("white", "black") for c in COLOURS) >= 5


@pytest.mark.parametrize("kind", ["white", "striped", "cloth"])
def test_a_colour_die_is_found_against_the_empty_table_on_any_cloth(kind):
    """A white die on a near-white cloth, a black die on stripes: what differs from the empty
    table (its light matched) is the die; the empty table again is nothing."""
    from farmbox.firmware.games.enroll.colour_dice import find_die

    from .conftest import ColourTable

    table = ColourTable(kind, seed=5)
    empty = table.empty()
    assert find_die(table.empty(1), empty) is None
    for die in ("white", "black"):
        for colour in ("red", "yellow", "purple"):
            outline = find_die(table.die(die, colour, 1), empty)
            assert outline is not None, (kind, die, colour)
            width, height = outline.max(axis=0) - outline.min(axis=0)
            assert 60 < width < 180 and 60 < height < 180
