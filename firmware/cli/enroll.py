"""``farmbox enroll dice``: the guided enrollment on the box's own buttons, camera and OLED.

Stop the service first (``systemctl stop farmbox``): both want the same buttons and camera.
It writes the same SAMPLES layout and model as ``farmbox vision enroll dice``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from farmbox.firmware.box.config import find_config_path, load_config


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("enroll", help="enroll your dice on the box (buttons, camera, OLED)")
    p.add_argument("kind", choices=("dice",), help="what to enroll (dice)")
    p.add_argument("--config", metavar="PATH",
                   help="settings (default: /etc/farmbox/farmbox.toml if it exists, "
                        "else the packaged default)")
    p.add_argument("--samples", type=Path, metavar="DIR",
                   help="where the photos go (default: [journal] dir/dice-samples)")
    p.add_argument("--model", type=Path, metavar="PATH",
                   help="the model to write (default: [vision] dice_model, "
                        "else [journal] dir/dice.npz)")
    p.add_argument("--per-face", type=int, default=3, metavar="N",
                   help="photos of each face of each die (2-5, default 3)")
    p.set_defaults(func=cmd_enroll)


def cmd_enroll(args: argparse.Namespace) -> int:
    from farmbox.firmware.games.enroll.box import EnrollmentCancelled, run_enrollment
    from farmbox.hw import open_hardware

    if not 1 <= args.per_face <= 10:
        raise ValueError(f"--per-face must be 1-10, got {args.per_face}")
    config = load_config(find_config_path(args.config))
    if config.camera.source == "none":
        raise ValueError("dice enrollment needs a camera: set [camera] source in "
                         f"{config.source}")
    state = Path(config.journal.dir)
    samples = args.samples or state / "dice-samples"
    model = args.model or (Path(config.vision.dice_model) if config.vision.dice_model
                           else state / "dice.npz")
    hardware = open_hardware(config, strict_camera=True)
    try:
        written = run_enrollment(hardware, samples, model, args.per_face)
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
