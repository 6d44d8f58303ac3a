"""bench/analyse.py: whole deals analysed as `whist analyse` does, timed per kind against
the issue's targets, on a seed printed in the JSON."""

from __future__ import annotations

from bench_run import run_bench


def test_quick_run_times_each_kind_of_deal() -> None:
    result, log = run_bench("analyse.py", "--quick", "--seed", "5", timeout=600)
    assert "seed 5" in log
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
