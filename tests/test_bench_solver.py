"""Smoke test of bench/solver.py: it runs, agrees with DDS and prints one JSON object."""

from __future__ import annotations

from typing import Any

import pytest

from bench_run import run_bench

pytest.importorskip("endplay")


def quick_run(*args: str) -> dict[str, Any]:
    result, _ = run_bench(
        "solver.py", "--quick", *args, timeout=300
    )  # includes a compile if the numba cache is cold
    return result


def test_quick_run_reports_times() -> None:
    result = quick_run()
    assert result["params"]["quick"] is True
    assert result["compile"] is None  # --quick skips the cold-compile subprocess
    assert set(result["sizes"]) == {"5", "3"}
    for size in result["sizes"].values():
        assert size["positions"] == 3
        assert size["disagreements_with_dds"] == 0
        assert size["ours_most_median_s"] > 0 and size["dds_median_s"] > 0
        assert size["ratio_most"] > 0 and size["ratio_misere"] > 0
        blocked = size["blocked"]
        assert blocked["ours_misere_median_s"] > 0 and blocked["dds_median_s"] > 0
        assert blocked["ratio_misere"] == pytest.approx(
            blocked["ours_misere_median_s"] / blocked["dds_median_s"], rel=1e-2
        )
        no_trump = size["no_trump"]  # the first of every five positions is no trump
        assert no_trump["positions"] == 1
        assert no_trump["ratio_misere"] == pytest.approx(
            no_trump["ours_misere_median_s"] / no_trump["dds_median_s"], rel=1e-2
        )
    assert result["target_met"] in (True, False)
    assert result["target_met_blocked"] in (True, False)
    assert result["target_most_13_met"] is None  # --quick has no 13-trick size
    assert isinstance(result["params"]["seed"], int)  # a fresh one, printed to repeat it
    whole = result["whole_deal"]  # --quick: one 6-trick deal, misère, no trump
    assert whole["tricks"] == 6 and whole["deals"] == 1 and whole["stopped"] == 0
    assert whole["median_s"] == whole["times_s"][0] > 0
    assert whole["target_met"] is True and whole["median_is_lower_bound"] is False


def test_node_counts_repeat_with_the_seed() -> None:
    """The nodes are the figure that compares two versions of the search exactly: the same
    seed gives the same counts in a new process, and another seed other positions."""
    first, again = quick_run("--seed", "4242"), quick_run("--seed", "4242")
    other = quick_run("--seed", "4243")

    def counts(result: dict[str, Any]) -> list[int]:
        sizes = result["sizes"].values()
        return [size[f"ours_{mode}_nodes"] for size in sizes for mode in ("most", "misere")]

    assert all(n > 0 for n in counts(first))
    assert counts(first) == counts(again)
    assert counts(first) != counts(other)
