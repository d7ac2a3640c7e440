"""Figures for the device's guided dice enrollment: finding the die in a photo, learning.

    .venv/bin/python bench/bench_enroll_box.py [--per-face 3] [--setup 3]
"""

from __future__ import annotations

import argparse
import time

from farmbox.firmware.games.enroll.session import find_die
from farmbox.vision.dice import DiceEnrollment, EnrollmentPlan
from farmbox.vision.render.dice import Setup, render_background, render_enrollment_sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-face", type=int, default=3)
    parser.add_argument("--setup", type=int, default=3)
    args = parser.parse_args()
    setup = Setup.from_seed(args.setup)
    background = render_background(0, setup=setup)
    enrollment = DiceEnrollment(EnrollmentPlan(per_face=args.per_face))
    enrollment.set_background(background)
    times = []
    n = 0
    while (step := enrollment.next_step()) is not None:
        n += 1
        frame = render_enrollment_sample(n, step.die, step.face, setup=setup)
        t = time.perf_counter()
        if find_die(frame, background) is None:
            raise SystemExit(f"no die found in photo {n} ({step.face} on the {step.die} die)")
        times.append(time.perf_counter() - t)
        enrollment.add_sample(step.face, frame)
    t = time.perf_counter()
    model = enrollment.build_model()
    build = time.perf_counter() - t
    times.sort()
    h, w = background.shape[:2]
    print(f"{n} photos {w}x{h}: find the die {1000 * times[len(times) // 2]:.0f} ms median "
          f"({1000 * times[0]:.0f}-{1000 * times[-1]:.0f}); learn {build:.1f} s; "
          f"accept at score >= {model.min_score:.2f}, lead >= {model.min_margin:.2f}")


if __name__ == "__main__":
    main()
