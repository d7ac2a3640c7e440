"""The dice enrollment's check of its own photos, measured on rendered enrollment sets.

For each mounted set-up (renderer seed) and art style: a good set, then the same set with one
photo spoiled (another face put down than the one asked for; a blurred shot). Prints which
photos the check names weak, whether the spoiled one is among them, the good photos named
with it, and the learning time (the check included).

    .venv/bin/python bench/bench_dice_check.py --setups 0,1,2 --arts badge,plain --per-face 3
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from farmbox.vision.dice import DiceEnrollment, EnrollmentPlan
from farmbox.vision.dice.enroll import Step
from farmbox.vision.render.dice import Setup, render_background, render_enrollment_sample

#: The spoiled photo: which step, and what is put down / done instead.
SPOILS = {"good": None, "sheep-for-rabbit": Step("rabbit", "green", 1),
          "pig-for-sheep": Step("sheep", "red", 2), "blurred": Step("pig", "green", 1)}


def photo(setup: Setup, seed: int, step: Step, spoil: str) -> np.ndarray:
    face = step.face
    if SPOILS[spoil] == step and spoil.endswith("-for-" + step.face):
        face = spoil.split("-")[0]
    image = render_enrollment_sample(seed * 7919 + sum(map(ord, f"{step.die}{face}{step.number}")),
                                     step.die, face, setup=setup)
    if spoil == "blurred" and SPOILS[spoil] == step:
        image = cv2.GaussianBlur(image, (0, 0), 6)
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default="0,1,2")
    parser.add_argument("--arts", default="badge,plain")
    parser.add_argument("--per-face", type=int, default=3)
    args = parser.parse_args()
    totals = {name: [0, 0, 0] for name in SPOILS}  # sets, spoiled one named, good ones named
    for art in args.arts.split(","):
        for seed in map(int, args.setups.split(",")):
            setup = Setup.from_seed(seed, art=art)
            for spoil, spoiled in SPOILS.items():
                enrollment = DiceEnrollment(EnrollmentPlan(per_face=args.per_face))
                enrollment.set_background(render_background(seed, setup=setup))
                while (step := enrollment.next_step()) is not None:
                    enrollment.add_sample(step.face, photo(setup, seed, step, spoil),
                                          f"{step.face}/{step.die}-{step.number}", step)
                started = time.perf_counter()
                try:
                    enrollment.build_model()
                except ValueError as exc:
                    print(f"{art:7s} setup {seed} {spoil:17s} refused: {exc}")
                    continue
                seconds = time.perf_counter() - started
                weak = enrollment.weak
                others = [s for s in weak if s != spoiled]
                totals[spoil][0] += 1
                totals[spoil][1] += spoiled in weak
                totals[spoil][2] += len(others)
                named = ", ".join(f"{s.face}/{s.die}-{s.number}" for s in weak) or "none"
                print(f"{art:7s} setup {seed} {spoil:17s} {seconds:4.1f} s  weak: {named}", flush=True)
    print()
    for spoil, (sets, found, others) in totals.items():
        caught = f"spoiled photo named in {found}/{sets}, " if SPOILS[spoil] else ""
        print(f"{spoil:17s} {caught}good photos named weak: {others} in {sets} sets")


if __name__ == "__main__":
    main()
