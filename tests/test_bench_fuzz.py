"""Smoke test of bench/fuzz.py: 2,000 hostile frames against a real ``whist serve``; it
prints one JSON object, every frame was answered, and no refused frame changed a table."""

from __future__ import annotations

from typing import Any

import pytest

from bench_run import run_bench

pytest.importorskip("websockets")
pytest.importorskip("hypothesis_jsonschema")
pytest.importorskip("psutil")


def run(*flags: str) -> dict[str, Any]:
    result, _ = run_bench("fuzz.py", *flags, timeout=180)
    return result


def test_a_short_run_answers_every_frame() -> None:
    result = run("--frames", "2000", "--tables", "2", "--round-frames", "256")
    for key in (
        "params",
        "machine",
        "source",
        "frames",
        "seconds",
        "crashes",
        "errors_by_code",
        "state_changes_by_refused_input",
        "silent_drops",
        "missing_ids",
        "clean",
    ):
        assert key in result, key
    assert result["frames"] >= 2000
    assert result["frames_per_s"] > 0
    assert result["crashes"]["server_down"] == 0
    assert result["state_changes_by_refused_input"] == 0
    assert result["acked"] == 0  # no hostile frame may be a legal act
    assert result["silent_drops"] == 0
    assert result["missing_ids"] == 0
    assert result["stalled_windows"] == 0
    assert result["broadcast_failures"] == 0
    assert sum(result["answers_by_type"].values()) > 0
    assert set(result["errors_by_code"]) >= {"bad_message"}
