"""``farmbox vision enroll|read KIND``: one handler module per KIND.

A handler module exposes ``enroll(samples: Path, model: Path) -> int`` and
``read(model: Path, images: list[Path], as_json: bool) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from farmbox.firmware.cli import CommandError

#: KIND -> handler module.
KINDS = {
    "dice": "farmbox.firmware.cli.vision_dice",
    "cards": "farmbox.firmware.cli.vision_cards",
    "colour-dice": "farmbox.firmware.cli.vision_colour_dice",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("vision", help="enroll and read dice and cards from camera images")
    vsub = p.add_subparsers(dest="action", metavar="ACTION")
    vsub.required = True
    enroll = vsub.add_parser("enroll", help="learn a model from SAMPLES/<label>/*.jpg")
    enroll.add_argument("kind", choices=sorted(KINDS))
    enroll.add_argument("samples", type=Path, metavar="SAMPLES")
    enroll.add_argument("--model", type=Path, required=True, metavar="PATH")
    enroll.set_defaults(func=cmd_enroll)
    read = vsub.add_parser("read", help="read dice or cards in images")
    read.add_argument("kind", choices=sorted(KINDS))
    read.add_argument("--model", type=Path, required=True, metavar="PATH")
    read.add_argument("images", type=Path, nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true")
    read.add_argument("--cards", type=Path, metavar="CARDS_MODEL",
                      help="colour-dice only: the card model; the cards its reader reads in each "
                           "image are left out of the dice search, as the box does in Fun Farm")
    read.set_defaults(func=cmd_read)


def _handler(kind: str):
    return importlib.import_module(KINDS[kind])


def model_target(path: Path) -> Path:
    """``path``, where an enrolled model may be written: not a folder, in a folder that exists
    (checked before the enrollment's work, not after it)."""
    if path.is_dir():
        raise CommandError(f"cannot write the model to {path}: it is a folder")
    if not path.parent.is_dir():
        raise CommandError(f"cannot write the model to {path}: no folder {path.parent}")
    return path


def cmd_enroll(args: argparse.Namespace) -> int:
    return _handler(args.kind).enroll(args.samples, model_target(args.model))


def cmd_read(args: argparse.Namespace) -> int:
    if args.cards is None:
        return _handler(args.kind).read(args.model, args.images, args.json)
    if args.kind != "colour-dice":
        raise CommandError(f"--cards is for colour-dice only, not {args.kind}")
    return _handler(args.kind).read(args.model, args.images, args.json, cards=args.cards)
