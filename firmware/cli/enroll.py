"""``farmbox enroll dice|cards|colour-dice``: the guided enrollment on the box's own buttons,
camera and OLED (and, with ``[web] port`` and ``pin`` set, from a phone at ``http://BOX:PORT/enroll``).

Stop the service first (``systemctl stop farmbox``): both want the same buttons and camera.
That is also why the phone's page is served by this command and not by ``farmbox run``: the
enrollment owns the camera while it runs, on the same ``[web]`` port and PIN as the table view,
so the phone that follows the games opens the same address.

Each writes the same SAMPLES layout and model as ``farmbox vision enroll KIND``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from farmbox.firmware.box.config import find_config_path, load_config
from farmbox.firmware.box.files import check_writable_target

KINDS = ("dice", "cards", "colour-dice")
#: Where each kind's model goes by default: ([vision] setting, file in [journal] dir).
MODELS = {"dice": ("dice_model", "dice.npz"), "cards": ("cards_model", "cards.npz"),
          "colour-dice": ("colour_dice_model", "colour-dice.json")}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("enroll", help="enroll your dice, cards or colour dice on the box "
                                      "(buttons, camera, OLED; a phone with [web] pin)")
    p.add_argument("kind", choices=KINDS, help="what to enroll")
    p.add_argument("--config", metavar="PATH",
                   help="settings (default: /etc/farmbox/farmbox.toml if it exists, "
                        "else the packaged default)")
    p.add_argument("--samples", type=Path, metavar="DIR",
                   help="where the photos go (default: [journal] dir/<kind>-samples)")
    p.add_argument("--model", type=Path, metavar="PATH",
                   help="the model to write (default: [vision] <kind>_model, else a file in "
                        "[journal] dir)")
    p.add_argument("--per-face", "--per-card", "--per-colour", dest="per_face", type=int,
                   default=3, metavar="N",
                   help="photos of each die face, card or colour (default 3)")
    p.add_argument("--deck", metavar="FILE",
                   help="cards: a Fun Farm deck file (.toml), or a text file with one card id "
                        "a line for another deck (default: [funfarm] deck, else the packaged deck)")
    p.add_argument("--web", action=argparse.BooleanOptionalAction, default=None,
                   help="serve /enroll for a phone (default: when [web] port and pin are set)")
    p.set_defaults(func=cmd_enroll)


def _writable_folder(path: Path, what: str) -> None:
    folder = path if path.is_dir() else path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {path}: folder {folder} is not writable")


def cmd_enroll(args: argparse.Namespace) -> int:
    if not 1 <= args.per_face <= 10:
        raise ValueError(f"--per-face must be 1-10, got {args.per_face}")
    if args.deck is not None and args.kind != "cards":
        raise ValueError("--deck is for enrolling cards")
    config = load_config(find_config_path(args.config))
    if config.camera.source == "none":
        raise ValueError(f"{args.kind} enrollment needs a camera: set [camera] source in "
                         f"{config.source}")
    state = Path(config.journal.dir)
    setting, default_name = MODELS[args.kind]
    configured = getattr(config.vision, setting)
    samples = args.samples or state / f"{args.kind}-samples"
    model = args.model or (Path(configured) if configured else state / default_name)
    if args.kind == "dice":
        return _dice(args, config, samples, model)
    session = _session(args, config, samples, model)
    # refuse an unwritable place before the first photo, not after the last
    if model.parent.is_dir():
        check_writable_target(model)
    _writable_folder(model, "model")
    _writable_folder(samples, "samples")
    return _shots(args, config, session, configured)


def _dice(args: argparse.Namespace, config: Any, samples: Path, model: Path) -> int:
    from farmbox.firmware.games.enroll.box import EnrollmentBox, EnrollmentCancelled
    from farmbox.hw import open_hardware

    hardware = open_hardware(config, strict_camera=True)
    try:
        with _served(args, config, EnrollmentBox(hardware, samples, model, args.per_face)) as box:
            written = box.run()
    except EnrollmentCancelled:
        print("farmbox enroll: cancelled on the box; nothing written", file=sys.stderr)
        return 1
    finally:
        hardware.close()
    print(f"model written to {written}; photos in {samples}")
    if not config.vision.dice_model or Path(config.vision.dice_model) != written:
        print(f"set [vision] dice_model = \"{written}\" in {config.source} to use it",
              file=sys.stderr)
    return 0


@contextlib.contextmanager
def _served(args: argparse.Namespace, config: Any, box: Any) -> Iterator[Any]:
    """``box`` with its /enroll page served while it runs (when asked, or [web] port and pin
    are set); the address is printed."""
    web = args.web if args.web is not None else bool(config.web.port and config.web.pin)
    if not web:
        yield box
        return
    from farmbox.firmware.web.enroll import EnrollServer

    try:
        server = EnrollServer(box, port=config.web.port, bind=config.web.bind,
                              pin=config.web.pin).start()
    except OSError as exc:
        raise ValueError(f"cannot serve /enroll on [web] port {config.web.port} ({exc.strerror or exc}): "
                         "is farmbox running? stop it first (systemctl stop farmbox), or --no-web") from None
    where = server.url
    if config.web.bind in ("0.0.0.0", "", "::"):  # a phone on the same network uses the box's name
        where = f"http://{socket.gethostname()}:{server.port}/enroll (here: {server.url})"
    print(f"enroll from a phone: {where}", flush=True)
    try:
        yield box
    finally:
        server.stop()


def _session(args: argparse.Namespace, config: Any, samples: Path, model: Path) -> Any:
    """The shot session for cards or colour dice (the deck read first: a bad one is one line)."""
    from farmbox.firmware.games.enroll.shots import ShotSession

    if args.kind == "cards":
        from farmbox.firmware.games.enroll.cards import Cards, card_subjects

        subjects = card_subjects(*deck_cards(args.deck if args.deck is not None
                                              else config.funfarm.deck))
        return ShotSession(subjects, Cards(), samples, model, args.per_face)
    from farmbox.firmware.games.enroll.colour_dice import ColourDice, colour_subjects
    from farmbox.firmware.games.funfarm.deck_file import read_deck

    deck = read_deck(config.funfarm.deck or None)
    faces = {"white": deck.white_faces, "black": deck.black_faces}
    return ShotSession(colour_subjects(faces, die_picture), ColourDice(), samples, model,
                       args.per_face)


def deck_cards(path: str | None) -> tuple[list[str], Any, Any]:
    """(card ids, picture(id), name(id)) of a Fun Farm deck file or a text list of card ids."""
    from farmbox.firmware.games.funfarm.deck_file import read_deck

    if path and Path(path).suffix.lower() == ".txt":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ValueError(f"deck file {path}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"deck file {path}: cannot read it ({exc})") from None
        ids = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        bad = [i for i in ids if "/" in i or i.startswith(".")]
        if not ids or bad or len(set(ids)) != len(ids):
            raise ValueError(f"deck file {path}: expected one distinct card id a line "
                             f"(no '/', not starting with '.')")
        return ids, None, None
    deck = read_deck(path or None)
    cards = {c.id: c for c in deck.cards}

    def picture(card_id: str) -> Any:
        return card_picture(cards[card_id])

    return [c.id for c in deck.cards], picture, str.upper


def card_picture(card: Any) -> Any:
    """A Fun Farm card drawn with the game's own icons: its animal, its two small dice."""
    from PIL import Image, ImageDraw

    from farmbox.firmware.games.funfarm.icons import animal_mask, draw_die

    image = Image.new("1", (38, 38), 0)
    draw = ImageDraw.Draw(image)
    draw.bitmap((7, 0), animal_mask(card.animal.value, 2), fill=1)
    draw_die(draw, (4, 25), card.black, True)
    draw_die(draw, (22, 25), card.white, False)
    return image


def die_picture(die: str, colour: str) -> Any:
    """One colour die showing ``colour``, drawn with Fun Farm's own die icon."""
    from PIL import Image, ImageDraw

    from farmbox.firmware.games.funfarm.icons import draw_die

    image = Image.new("1", (36, 36), 0)
    draw_die(ImageDraw.Draw(image), (0, 0), colour, die == "black", 3)
    return image


def _shots(args: argparse.Namespace, config: Any, session: Any, configured: str) -> int:
    from farmbox.firmware.games.enroll.box import EnrollmentCancelled
    from farmbox.firmware.games.enroll.shot_box import ShotBox
    from farmbox.hw import open_hardware

    hardware = open_hardware(config, strict_camera=True)
    try:
        with _served(args, config, ShotBox(hardware, session)) as box:
            box.run()
    except EnrollmentCancelled:
        print("farmbox enroll: cancelled on the box; nothing written", file=sys.stderr)
        return 1
    finally:
        hardware.close()
    learned = session.learned
    weak = f"; still weak: {', '.join(learned.weak)}" if learned.weak else ""
    print(f"model written to {learned.model_path}; {learned.photos} photos in "
          f"{learned.samples_dir}; learned in {learned.seconds:.1f} s{weak}")
    setting = MODELS[args.kind][0]
    if not configured or Path(configured) != learned.model_path:
        print(f"set [vision] {setting} = \"{learned.model_path}\" in {config.source} to use it",
              file=sys.stderr)
    return 0
