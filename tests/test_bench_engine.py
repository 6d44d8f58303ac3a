"""Smoke test of bench/engine.py: it runs, and prints one JSON object with positive rates."""

from __future__ import annotations

from typing import Any

import pytest

from bench_run import run_bench

pytest.importorskip("whist.variants")


def run_quick(variants: str = "german") -> dict[str, Any]:
    result, _ = run_bench("engine.py", "--quick", "--variants", variants, timeout=60)
    return result


def test_quick_run_reports_positive_rates() -> None:
    result = run_quick()
    for key in (
        "params",
        "machine",
        "variants",
        "replay",
        "openspiel",
        "ratio_classic_vs_openspiel",
        "ratio_classic_vs_openspiel_play_only",
        "target",
        "target_met",
    ):
        assert key in result, key
    assert result["params"]["quick"] is True
    assert list(result["variants"]) == ["german"]
    german = result["variants"]["german"]
    assert german["deals_per_s"] > 0
    assert german["actions_per_s"] > german["deals_per_s"]

    replay = result["replay"]
    assert replay["record"]["deals"] == 40
    assert replay["record"]["actions"] > 1000
    assert replay["records_per_s"] > 0
    assert replay["actions_per_s"] > 0
    assert replay["cli"]["median_s"] > 0

    assert isinstance(result["core_compiled"], bool)
    # Classic was not measured, so OpenSpiel is not run and there is no headline ratio.
    assert result["openspiel"]["available"] is None and result["openspiel"]["note"]
    assert result["ratio_classic_vs_openspiel"] is None
    assert result["target_met"] is None


def test_classic_and_openspiel_alternate() -> None:
    result = run_quick("classic")
    peer = result["openspiel"]
    if peer["available"]:
        assert peer["deals_per_s"] > 0
        assert peer["play_only_deals_per_s"] >= peer["deals_per_s"]
        classic = result["variants"]["classic"]
        repeats = result["params"]["repeats"]
        assert len(peer["pair_ratios"]) == len(peer["repeats"]) == repeats
        assert len(classic["repeats"]) == repeats
        assert result["ratio_classic_vs_openspiel"] == round(
            classic["deals_per_s"] / peer["deals_per_s"], 3
        )
    else:  # open_spiel is an optional benchmark dependency
        assert peer["deals_per_s"] is None and peer["note"]
        assert result["ratio_classic_vs_openspiel"] is None
