"""Smoke test of bench/soak.py: a few tables for 20 s at a quick pace, with the SIGKILL and
restart halfway; it prints one JSON object, no acknowledged action is lost and no process of
the server is left after its stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_run import run_bench

pytest.importorskip("websockets")
pytest.importorskip("psutil")

if not Path("/proc/self/status").exists():
    pytest.skip("the soak follows the server's processes (Linux only)", allow_module_level=True)


def test_a_short_soak_loses_no_acked_action() -> None:
    flags = [
        "--tables",
        "4",
        "--minutes",
        "0.35",
        "--warmup",
        "5",
        "--think-ms",
        "100-400",
        "--bot-workers",
        "1",
        "--drops-per-minute",
        "20",
    ]
    result, _ = run_bench("soak.py", *flags, timeout=240)
    for key in (
        "params",
        "machine",
        "source",
        "tables_ready",
        "actions",
        "latency_ms",
        "errors",
        "acked_actions",
        "disturbances",
        "rss",
        "server",
        "goals_met",
    ):
        assert key in result, key
    assert result["tables_ready"] == 4
    assert result["actions"]["acked"] > 0
    assert result["latency_ms"]["count"] > 0
    assert result["acked_actions"]["checked"] > 0
    assert result["acked_actions"]["lost"] == 0, result["acked_actions"]
    assert result["disturbances"]["restart"]["down_s"] > 0
    assert len(result["rss"]["samples"]) >= 2
    assert result["server"]["processes_left_after_stop"] == 0
