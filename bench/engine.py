"""Engine benchmark: random deals per second for every variant, record replay speed, and the
same random-play loop on OpenSpiel's bridge as the named peer.

Prints one JSON object on stdout (progress goes to stderr). Single process, single thread.

    .venv/bin/python bench/engine.py                   # full run (~1 min)
    .venv/bin/python bench/engine.py --quick           # smoke test (~2 s)
    .venv/bin/python bench/engine.py --variants classic,german --seconds 5 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import whist
from whist import records
from whist.core.match import Match
from whist.variants import VARIANTS, new_match

SEED = 20240607
REPLAY_VARIANT = "swedish"
REPLAY_OPTIONS: dict[str, Any] = {"match": "rounds:10"}  # 4 players x 10 rounds = 40 deals
BRIDGE_GAME = "bridge(use_double_dummy_result=false)"
AUCTION = ("1NT", "Pass", "Pass", "Pass")
TARGET_RATIO = 1.0


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def best_of(repeats: int, run: Callable[[], dict[str, Any]], key: str) -> dict[str, Any]:
    """Run ``run`` ``repeats`` times; the best result (see ``pick_best``)."""
    return pick_best([run() for _ in range(repeats)], key)


def pick_best(results: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The result with the highest ``key``, with every result's ``key`` under ``repeats``."""
    best = max(results, key=lambda r: float(r[key]))
    return {**best, "repeats": [round(float(r[key]), 2) for r in results]}


# ------------------------------------------------------------------- 1. random deals
def random_deals(variant: str, seconds: float, seed: int) -> dict[str, Any]:
    """Play random complete deals of ``variant`` (default options) through the public API
    for about ``seconds``; a new match starts whenever one is over."""
    rng = random.Random(seed)
    choice = rng.choice
    deck = list(range(52))
    players = VARIANTS[variant].players
    deals = actions = matches = 0
    match: Match | None = None
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        if match is None or match.over:
            match = new_match(variant)
            matches += 1
            dealer: int | None = rng.randrange(players)  # the first deal needs a dealer
        else:
            dealer = None
        rng.shuffle(deck)
        match.start_deal(deck, dealer)
        deal = match.deal
        assert deal is not None
        apply = match.apply
        legal = match.legal_actions
        while not deal.complete:
            apply(choice(legal()))
            actions += 1
        deals += 1
        now = time.perf_counter()
    elapsed = now - start
    return {
        "deals_per_s": deals / elapsed,
        "actions_per_s": actions / elapsed,
        "actions_per_deal": actions / deals,
        "deals": deals,
        "actions": actions,
        "matches": matches,
        "seconds": elapsed,
    }


def bench_variants(
    names: Sequence[str],
    seconds: float,
    repeats: int,
    seed: int,
    peer: Callable[[], dict[str, Any]] | None = None,
) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Every variant's best repeat; and Classic's repeats with ``peer``'s, which run in
    turn with Classic's so that a slow spell of the machine hits both sides alike."""
    out: dict[str, dict[str, Any]] = {}
    classic: list[dict[str, Any]] = []
    peers: list[dict[str, Any]] = []
    for name in names:
        progress(f"random deals: {name}" + (" and the peer in turn" if name == "classic" else ""))
        runs = []
        for _ in range(repeats):
            runs.append(random_deals(name, seconds, seed))
            if name == "classic" and peer is not None:
                peers.append(peer())
                progress(f"  {runs[-1]['deals_per_s']:.0f} vs {peers[-1]['deals_per_s']:.0f}")
        if name == "classic":
            classic = runs
        out[name] = {
            "players": VARIANTS[name].players,
            "options": dict(new_match(name).options),
            **rounded(pick_best(runs, "deals_per_s")),
        }
        progress(f"  {out[name]['deals_per_s']:.0f} deals/s")
    return out, classic, peers


# ------------------------------------------------------------------------- 2. replay
def build_record(seed: int) -> tuple[str, Match]:
    """A long finished match of random play, deterministic for ``seed``."""
    rng = random.Random(seed)
    match = new_match(REPLAY_VARIANT, REPLAY_OPTIONS)
    deck = list(range(52))
    dealer: int | None = 0
    while not match.over:
        rng.shuffle(deck)
        match.start_deal(deck, dealer)
        dealer = None
        deal = match.deal
        assert deal is not None
        while not deal.complete:
            match.apply(rng.choice(match.legal_actions()))
    return records.dumps(match), match


def bench_replay(seconds: float, repeats: int, seed: int, cli_runs: int) -> dict[str, Any]:
    progress(f"replay: building {REPLAY_VARIANT} {REPLAY_OPTIONS}")
    text, original = build_record(seed)
    action_count = sum(len(actions) for actions in original.log)
    deal_count = len(original.deals)
    record = records.loads(text)
    replayed, error = records.replay(record)
    if error is not None or replayed.scores != original.scores:
        raise SystemExit(f"bench: the record does not replay to the same match ({error})")

    def run() -> dict[str, Any]:
        count = 0
        parse_time = replay_time = 0.0
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        now = start
        while now < deadline:
            before = now
            record = records.loads(text)
            mid = clock()
            records.replay(record)
            now = clock()
            parse_time += mid - before
            replay_time += now - mid
            count += 1
        elapsed = now - start
        return {
            "records_per_s": count / elapsed,
            "actions_per_s": count * action_count / elapsed,
            "deals_per_s": count * deal_count / elapsed,
            "loads_ms_per_record": 1000 * parse_time / count,
            "replay_ms_per_record": 1000 * replay_time / count,
            "records": count,
            "seconds": elapsed,
        }

    progress("replay: loads + replay in process")
    result = rounded(best_of(repeats, run, "records_per_s"))
    progress(f"  {result['records_per_s']:.1f} records/s")
    progress(f"replay: `whist replay FILE` x {cli_runs}")
    cli = bench_cli(text, cli_runs)
    progress(f"  median {cli['median_s'] * 1000:.1f} ms")
    return {
        "record": {
            "variant": REPLAY_VARIANT,
            "options": dict(original.options),
            "deals": deal_count,
            "actions": action_count,
            "bytes": len(text.encode("utf-8")),
        },
        **result,
        "cli": cli,
    }


def whist_command() -> list[str]:
    script = Path(sys.executable).parent / "whist"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "whist.cli"]


def wall_times(command: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"bench: {command} exited {done.returncode}: {done.stderr!r}")
    return times


def bench_cli(text: str, runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.whist.json"
        path.write_text(text, encoding="utf-8")
        command = [*whist_command(), "replay", str(path)]
        wall_times(command, 1)  # warm the file cache and the .pyc files
        times = wall_times(command, runs)
        baseline = wall_times([sys.executable, "-c", "pass"], max(3, runs // 2))
    return {
        "command": ["whist", "replay", "FILE"],
        "runs": runs,
        "median_s": round(statistics.median(times), 4),
        "min_s": round(min(times), 4),
        "max_s": round(max(times), 4),
        "python_startup_median_s": round(statistics.median(baseline), 4),
        "budget_s": 0.2,
        "within_budget": statistics.median(times) < 0.2,
    }


# ------------------------------------------------------------------ 3. OpenSpiel peer
def openspiel_runner(seconds: float, seed: int) -> Callable[[], dict[str, Any]] | str:
    """One timed repeat of OpenSpiel's random deals, or why OpenSpiel cannot run."""
    try:
        import pyspiel
    except ImportError as exc:
        return f"open_spiel not importable ({exc}); pip install -e '.[bench]'"
    game = pyspiel.load_game(BRIDGE_GAME)

    # Find the auction's action ids by their names rather than trusting constants.
    probe = game.new_initial_state()
    for card in range(52):
        probe.apply_action(card)
    names = {probe.action_to_string(a): a for a in probe.legal_actions()}
    auction = [names[AUCTION[0]], names["Pass"], names["Pass"], names["Pass"]]

    def run() -> dict[str, Any]:
        rng = random.Random(seed)
        choice = rng.choice
        cards = list(range(52))
        deals = actions = play_actions = 0
        play_time = 0.0
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        now = start
        while now < deadline:
            state = game.new_initial_state()
            apply = state.apply_action
            rng.shuffle(cards)
            for card in cards:  # chance nodes: any card still undealt
                apply(card)
            for bid in auction:
                apply(bid)
            legal = state.legal_actions
            terminal = state.is_terminal
            played = 0
            play_start = clock()
            while not terminal():
                apply(choice(legal()))
                played += 1
            now = clock()
            play_time += now - play_start
            play_actions += played
            actions += 52 + len(auction) + played
            deals += 1
        elapsed = now - start
        return {
            "deals_per_s": deals / elapsed,
            "play_only_deals_per_s": deals / play_time,
            "actions_per_s": actions / elapsed,
            "play_actions_per_s": play_actions / play_time,
            "deals": deals,
            "seconds": elapsed,
            "play_seconds": play_time,
        }

    return run


def peer_summary(
    runner: Callable[[], dict[str, Any]] | str,
    classic: list[dict[str, Any]],
    peers: list[dict[str, Any]],
) -> dict[str, Any]:
    """OpenSpiel's best repeat, and each repeat's ratio to the Classic repeat before it."""
    if isinstance(runner, str):
        return {
            "available": False,
            "note": runner,
            "deals_per_s": None,
            "play_only_deals_per_s": None,
            "actions_per_s": None,
            "play_actions_per_s": None,
            "pair_ratios": [],
        }
    from importlib.metadata import PackageNotFoundError, version

    try:
        spiel_version: str | None = version("open_spiel")
    except PackageNotFoundError:
        spiel_version = None
    pairs = [ratio(a["deals_per_s"], b["deals_per_s"]) for a, b in zip(classic, peers, strict=True)]
    return {
        "available": True,
        "version": spiel_version,
        "game": BRIDGE_GAME,
        "auction": list(AUCTION),
        "note": "deal = new_initial_state + 52 chance actions + auction + random play; "
        "actions_per_s counts all of them, play_actions_per_s only card play; run in turn "
        "with Classic's repeats (variants.classic)",
        **rounded(pick_best(peers, "deals_per_s")),
        "pair_ratios": pairs,
    }


# ------------------------------------------------------------------------- plumbing
def rounded(result: dict[str, Any]) -> dict[str, Any]:
    return {
        k: round(v, 4 if v < 10 else 2) if isinstance(v, float) else v for k, v in result.items()
    }


def ratio(ours: float | None, theirs: float | None) -> float | None:
    if ours is None or theirs is None or theirs <= 0:
        return None
    return round(ours / theirs, 3)


def machine_info() -> dict[str, Any]:
    try:
        affinity: int | None = len(os.sched_getaffinity(0))
    except AttributeError:
        affinity = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
    }


def source_state() -> dict[str, Any]:
    """The commit measured, and whether tracked files under src/ had uncommitted changes
    (None without git)."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", *args], cwd=root, capture_output=True, text=True, check=True
            )
        except (OSError, subprocess.CalledProcessError):
            return None
        return done.stdout.strip()

    status = git("status", "--porcelain", "--untracked-files=no", "--", "src")
    return {
        "commit": git("rev-parse", "--short", "HEAD"),
        "src_dirty": None if status is None else bool(status),
    }


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per repeat")
    parser.add_argument("--repeats", type=int, default=3, help="repeats; the best is kept")
    parser.add_argument("--cli-runs", type=int, default=10, help="runs of `whist replay`")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--variants",
        default=",".join(VARIANTS),
        help="comma-separated subset of " + ", ".join(VARIANTS),
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny budget for smoke tests (not a measurement)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.repeats, args.cli_runs = 0.1, 1, 3
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {', '.join(VARIANTS)}")
    if args.seconds <= 0 or args.repeats < 1 or args.cli_runs < 1:
        parser.error("--seconds must be > 0, --repeats and --cli-runs >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = load_average()
    source = source_state()  # before measuring: others may commit meanwhile
    started = time.perf_counter()
    measured = "classic" in args.variants
    runner = openspiel_runner(args.seconds, args.seed) if measured else "not run"
    peer_run = None if isinstance(runner, str) else runner
    variants, classic_runs, peer_runs = bench_variants(
        args.variants, args.seconds, args.repeats, args.seed, peer_run
    )
    replay = bench_replay(args.seconds, args.repeats, args.seed, args.cli_runs)
    if measured:
        peer = peer_summary(runner, classic_runs, peer_runs)
    else:
        peer = {"available": None, "note": "classic was not measured (--variants)"}
    classic = variants.get("classic", {}).get("deals_per_s")
    headline = ratio(classic, peer.get("deals_per_s"))
    notes = []
    if not measured:
        notes.append("classic was not measured (--variants): no ratios, OpenSpiel not run")
    if peer["available"] is False:
        notes.append("open_spiel is not installed: no ratios")
    machine = {**machine_info(), "load_avg_before": load_before}
    result: dict[str, Any] = {
        "benchmark": "whist-engine",
        "params": {
            "seconds": args.seconds,
            "repeats": args.repeats,
            "cli_runs": args.cli_runs,
            "seed": args.seed,
            "quick": args.quick,
            "variants": args.variants,
            "best_of": "highest rate of the repeats; every repeat listed under repeats",
        },
        "machine": machine,
        "source": source,
        "core_compiled": whist.CORE_COMPILED,
        "variants": variants,
        "replay": replay,
        "openspiel": peer,
        "ratio_classic_vs_openspiel": headline,
        "ratio_classic_vs_openspiel_play_only": ratio(classic, peer.get("play_only_deals_per_s")),
        "ratio_per_pair_median": (
            statistics.median(r for r in peer["pair_ratios"] if r is not None)
            if peer.get("pair_ratios")
            else None
        ),
        "target": TARGET_RATIO,
        "target_met": None if headline is None else headline >= TARGET_RATIO,
        "notes": notes,
        "total_seconds": round(time.perf_counter() - started, 2),
    }
    machine["load_avg_after"] = load_average()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
