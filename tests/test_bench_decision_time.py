"""bench/decision_time.py runs and reports MASTER's decision times as JSON."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench_run import run_bench

BENCH = Path(__file__).resolve().parent.parent / "bench" / "decision_time.py"


def test_a_small_run_reports_times_within_the_budget_guard() -> None:
    report, _ = run_bench(
        "decision_time.py",
        "--variants",
        "classic,german",
        "--deals",
        "1",
        "--budget",
        "0.05",
        timeout=600,
    )
    assert set(report["variants"]) == {"classic", "german"}
    for stats in report["variants"].values():
        assert stats["decisions"] >= 10
        assert 0 <= stats["median_s"] <= stats["p95_s"] <= stats["max_s"]


def test_a_bad_command_line_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--variants", "bridge"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "known variants" in done.stderr
