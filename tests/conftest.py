"""Shared pytest configuration: Hypothesis profiles, and the browser tests' fixtures.

``ci`` (the default) is derandomized so a run is reproducible and never flaky; ``dev``
explores new random examples on each run: ``HYPOTHESIS_PROFILE=dev pytest``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# The browser tests' fixtures (a server, Chromium, a signed-in person), for every
# tests/test_browser*.py file.
from browser import browser, new_player, playwright, start_server  # noqa: F401

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
