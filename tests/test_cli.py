"""The ``whist`` command itself, as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version


def test_version_names_the_installed_package() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "whist.cli", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"whist {version('whist-club')}\n"
