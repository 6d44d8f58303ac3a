"""bench/alphamu.py: the αμ search it measures MASTER's PIMC against is right where it can
be checked (one world: plain minimax, the solver's answer; several: never above PIMC, which
credits itself with knowing the world), and the benchmark prints its JSON."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from random import Random

import pytest

from bench_run import run_bench
from whist.bots.sampler import sample_worlds
from whist.core.actions import Play
from whist.master.bot import tricks_left
from whist.master.pimc import solved_margins
from whist.master.scoring import margins

BENCH = Path(__file__).resolve().parent.parent / "bench" / "alphamu.py"
_spec = importlib.util.spec_from_file_location("bench_alphamu", BENCH)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize("variant", ["classic", "minnesota"])
def test_alphamu_over_one_world_is_the_solvers_minimax(variant: str) -> None:
    for seed in range(4):
        view = bench.position(variant, 3, seed)
        (world,) = sample_worlds(view, Random(seed), 1)
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        table = margins(view, tricks_left(view))
        got = bench.alphamu(view.seat, [world], view.trump, view.leader, view.trick, cards, table)
        assert got == solved_margins(view, world, table)


@pytest.mark.parametrize("variant", ["classic", "minnesota"])
def test_alphamu_never_rates_a_card_above_pimc(variant: str) -> None:
    """One card for all worlds at our every turn can only do as well as, or worse than,
    the best card in each world separately."""
    for seed in range(3):
        view = bench.position(variant, 3, 10 + seed)
        worlds = sample_worlds(view, Random(seed), 6)
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        table = margins(view, tricks_left(view))
        got = bench.alphamu(view.seat, worlds, view.trump, view.leader, view.trick, cards, table)
        for card in cards:
            pimc = sum(solved_margins(view, w, table)[card] for w in worlds) / len(worlds)
            assert got[card] <= pimc + 1e-9
            assert got[card] >= min(table)


def test_the_benchmark_prints_its_json() -> None:
    report, _ = run_bench(
        "alphamu.py", "--variants", "classic", "--positions", "2", "--worlds", "4", timeout=300
    )
    row = report["variants"]["classic"]
    assert 0 <= row["differs"] <= 2 and row["median_s"] >= 0
