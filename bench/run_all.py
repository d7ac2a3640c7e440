"""Run every benchmark in bench/ in turn and print its figures (`make bench`).

Each script prints its own figures; pass --quick for shorter runs (fewer games/scenes).
Benchmarks never run in the test suite: timings belong here, not in assertions.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: script -> extra arguments for a quick run
QUICK = {
    "bench_rules.py": ["--games", "2000", "--greedy-games", "300"],
    "bench_service.py": ["--turns", "2000", "--starts", "3", "--kills", "5"],
    "bench_hw.py": ["--quick"],
    "bench_dice.py": ["--scenes", "120", "--odd", "12"],
    "bench_cards.py": ["--scenes", "10", "--dice-scenes", "60"],
    "bench_enroll_box.py": ["--kind", "dice"],
    "bench_cardgame.py": ["--games", "50"],
    "bench_cardgame_box.py": ["--games", "1"],
}


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    failed = []
    for script, quick_args in QUICK.items():
        args = quick_args if quick else []
        print(f"\n=== {script} {' '.join(args)}", flush=True)
        started = time.monotonic()
        rc = subprocess.call([sys.executable, str(HERE / script), *args])
        print(f"=== {script}: exit {rc}, {time.monotonic() - started:.0f} s", flush=True)
        if rc:
            failed.append(script)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
