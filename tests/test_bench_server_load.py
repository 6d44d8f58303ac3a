"""Smoke test of bench/server_load.py: a real ``whist serve`` with 5 tables of 4 WebSocket
clients for 3 s; it prints one JSON object, and the server acknowledged actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench_run import run_bench

pytest.importorskip("websockets")
pytest.importorskip("whist.server.app")

if not Path("/proc/self/status").exists():
    pytest.skip("the load benchmark reads /proc (Linux only)", allow_module_level=True)


def run_quick() -> dict[str, Any]:
    result, _ = run_bench(
        "server_load.py", "--quick", "--tables", "5", "--seconds", "3", timeout=90
    )
    return result


def test_quick_run_acknowledges_actions() -> None:
    result = run_quick()
    for key in (
        "params",
        "machine",
        "source",
        "tables_ready",
        "clients",
        "actions",
        "latency_ms",
        "errors",
        "server",
        "load_generator",
        "target",
        "target_met",
    ):
        assert key in result, key
    params = result["params"]
    assert params["quick"] is True
    assert (params["tables"], params["seconds"], params["variant"]) == (5, 3.0, "minnesota")
    assert result["tables_ready"] == 5
    assert result["clients"] == 20

    actions = result["actions"]
    assert actions["acked"] > 0
    assert actions["per_s"] > 0

    latency = result["latency_ms"]
    assert latency["count"] > 0
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]

    errors = result["errors"]
    assert errors["total"] == 0, errors

    server = result["server"]
    assert server["rss_kib_before"] > 0
    assert server["rss_kib_end"] > 0
    assert "rss_kib_per_table" in server
    assert server["cpu_s"] > 0
    generator = result["load_generator"]
    assert generator["cpu_s"] >= 0
    # The clients' collector is frozen after set-up: no pause of theirs counts as latency.
    assert params["client_gc"] == generator["gc"]["mode"] == "frozen"
    assert generator["gc"]["pauses_ms"]["count"] == 0
    # Five tables are not the target size.
    assert result["target_met"] is False
