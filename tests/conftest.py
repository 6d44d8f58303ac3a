"""Shared pytest configuration: Hypothesis profiles.

``ci`` (the default) is derandomized so a run is reproducible and never flaky; ``dev``
explores new random examples on each run: ``HYPOTHESIS_PROFILE=dev pytest``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
