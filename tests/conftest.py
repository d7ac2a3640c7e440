"""Suite-wide settings.

Hypothesis: no per-example deadline (the 2-core CI machine is shared, and a slow example is
not a failure: timings belong in bench/), and under CI the examples are derandomised so a
run can be repeated exactly.
"""

import os

from hypothesis import settings

settings.register_profile("farmbox", deadline=None, print_blob=True)
settings.register_profile("farmbox-ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("farmbox-ci" if os.environ.get("CI") else "farmbox")
