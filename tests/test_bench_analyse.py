"""bench/analyse.py: whole deals analysed as `whist analyse` does, timed per kind against
the issue's targets, on a seed printed in the JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench" / "analyse.py"


def test_quick_run_times_each_kind_of_deal() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--seed", "5"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "seed 5" in done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["params"]["seed"] == 5
    assert 1 <= result["params"]["threads"] <= max(1, result["params"]["cores"])
    kinds = result["kinds"]
    assert set(kinds) == {"minnesota_low", "classic", "german_stage_two", "german_whole_deal"}
    for name in ("minnesota_low", "classic", "german_stage_two"):
        assert kinds[name]["target_met"] in (True, False)
        assert len(kinds[name]["seconds"]) == 1 and kinds[name]["median_s"] > 0
        assert len(kinds[name]["cpu_seconds"]) == 1
    assert kinds["classic"]["exact_plays"] == [52]  # DDS answers every four-hand position
    assert kinds["german_stage_two"]["exact_plays"] == [26]
    assert isinstance(result["target_met"], bool)
