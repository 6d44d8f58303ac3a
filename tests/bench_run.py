"""Running a bench script the way a person does, for the tests of bench/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent.parent / "bench"


def run_bench(script: str, *args: str, timeout: float) -> tuple[dict[str, Any], str]:
    """Run ``bench/<script>`` with ``args`` in a new Python process; it must succeed and
    print exactly one JSON document on stdout.  Returns that document and the stderr."""
    done = subprocess.run(
        [sys.executable, str(BENCH_DIR / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report, done.stderr
