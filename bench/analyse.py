"""``whist analyse`` on whole deals: how long grading every card takes.

Prints one JSON object on stdout (progress goes to stderr).

    .venv/bin/python bench/analyse.py                # 5 deals per kind, a fresh seed
    .venv/bin/python bench/analyse.py --deals 3 --seed 12345
    .venv/bin/python bench/analyse.py --quick        # smoke test: one deal per kind

Deals are played by MEDIUM bots from shuffled decks (a fresh seed per run unless ``--seed``
gives one; it is in the JSON), then analysed in this process with ``whist.analysis`` as
``whist analyse`` does, after one warm-up analysis (the solver and DDS loaded). Three kinds,
each with the issue's target for its median:

* ``minnesota_low``: a Minnesota deal played low (four-hand no-trump misère, every card
  solved exactly by our kernel): the whole deal, at most 10 s;
* ``classic``: a Classic Whist deal (four-hand, trumps, DDS): the whole deal, at most 2 s;
* ``german_stage_two``: the 26 plays of a German Whist deal's stage 2 (two hands, our
  kernel), graded alone (the record says grading starts there): at most 2 s; the whole
  deal, with its 26 estimated stock plays, is timed too.

Per kind: every deal's seconds (and CPU seconds, all threads together), the median and
maximum, how many plays were exact, and whether the median meets the target. Plays are
graded by as many threads as ``whist analyse`` uses by default (the cores this process may
use, at most 4; ``--threads 1`` for one core); the JSON gives the threads and cores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from random import Random
from typing import Any

from provenance import commit
from whist.analysis import analyse, default_threads
from whist.bots import make_bot
from whist.core.match import Match
from whist.core.views import view_for
from whist.records import parse, to_json
from whist.solver import solve
from whist.variants import new_match

TARGETS = {"minnesota_low": 10.0, "classic": 2.0, "german_stage_two": 2.0}


def progress(message: str) -> None:
    print(f"bench/analyse: {message}", file=sys.stderr, flush=True)


def played(variant: str, rng: Random, low: bool = False) -> Match:
    """One deal played by MEDIUM bots (Minnesota: dealt again until it is played low)."""
    bot = make_bot("medium")
    while True:
        match = new_match(variant)
        deck = list(range(52))
        rng.shuffle(deck)
        deal = match.start_deal(deck, dealer=rng.randrange(match.players))
        while not deal.complete:
            seat = match.next_seat()
            assert seat is not None
            match.apply(bot.choose(view_for(match, seat), rng, 0.0))
        if not low or (deal.contract is not None and deal.contract.mode == "low"):
            return match


def timed(match: Match, threads: int, graded_from: int = 0) -> tuple[float, float, int]:
    """Seconds to analyse the deal (from action ``graded_from`` on) with ``threads``
    grading threads, the CPU seconds of every thread, and the deal's exact plays."""
    document = to_json(match)
    if graded_from:  # the record says where grading starts, as a rebuilt deck does
        document["deals"][0]["reconstructed"] = {"known_from": graded_from}
    record = parse(document)
    started, cpu = time.perf_counter(), time.process_time()
    (deal,) = analyse(record, 0, threads=threads)
    elapsed = time.perf_counter() - started
    return elapsed, time.process_time() - cpu, sum(1 for g in deal.plays if g.exact)


def stage_two_from(match: Match) -> int:
    """The action at which a German Whist deal's stage 2 begins (the stock is gone)."""
    replica = Match(match.variant, match.options)
    deal = replica.start_deal(match.deals[0].deck, match.deals[0].dealer)
    for index, action in enumerate(match.log[0]):
        if deal.stage == 2:
            return index
        replica.apply(action)
    raise AssertionError("the deal never reached stage 2")


def summary(runs: list[tuple[float, float, int]], target: float | None) -> dict[str, Any]:
    """A kind's figures from its deals' ``timed`` results."""
    seconds = [run[0] for run in runs]
    median = statistics.median(seconds)
    result: dict[str, Any] = {
        "seconds": [round(s, 3) for s in seconds],
        "cpu_seconds": [round(run[1], 3) for run in runs],
        "exact_plays": [run[2] for run in runs],
        "median_s": round(median, 3),
        "max_s": round(max(seconds), 3),
    }
    if target is not None:
        result["target_s"] = target
        result["target_met"] = median <= target
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5, help="deals per kind (5)")
    parser.add_argument("--seed", type=int, default=None, help="repeat a run (default: fresh)")
    parser.add_argument("--quick", action="store_true", help="smoke test: one deal per kind")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="grading threads, as `whist analyse --threads` (default: as `whist analyse`)",
    )
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    deals = 1 if args.quick else args.deals
    if deals < 1:
        parser.error("--deals must be at least 1")
    threads = default_threads() if args.threads is None else args.threads
    if threads < 1:
        parser.error("--threads must be at least 1")
    progress(f"seed {seed}, {deals} deals per kind, {threads} grading thread(s)")
    rng = Random(seed)
    # Warm-up: DDS and our solver loaded (a changed kernel compiles here, not in a deal).
    timed(played("classic", Random(0)), threads)
    solve([1, 2, 4, 8], None, 0, [], False)
    kinds: dict[str, Any] = {}

    for kind, variant, low in (("minnesota_low", "minnesota", True), ("classic", "classic", False)):
        runs: list[tuple[float, float, int]] = []
        for i in range(deals):
            runs.append(timed(played(variant, rng, low), threads))
            total, cpu, count = runs[-1]
            progress(
                f"{kind} {i + 1}/{deals}: {total:.2f} s ({cpu:.2f} s CPU), "
                f"{count} of 52 plays exact"
            )
        kinds[kind] = summary(runs, TARGETS[kind])

    stage_two: list[tuple[float, float, int]] = []
    whole: list[tuple[float, float, int]] = []
    for i in range(deals):
        match = played("german", rng)
        whole.append(timed(match, threads))
        stage_two.append(timed(match, threads, stage_two_from(match)))
        progress(
            f"german {i + 1}/{deals}: stage 2 {stage_two[-1][0]:.2f} s "
            f"({stage_two[-1][2]} exact), whole {whole[-1][0]:.2f} s"
        )
    kinds["german_stage_two"] = summary(stage_two, TARGETS["german_stage_two"])
    # The whole deal: its 26 stock plays are estimated (sampled deals played on by HARD).
    kinds["german_whole_deal"] = summary(whole, None)

    print(
        json.dumps(
            {
                "params": {
                    "seed": seed,
                    "deals": deals,
                    "quick": args.quick,
                    "threads": threads,
                    "cores": len(os.sched_getaffinity(0)),
                },
                "commit": commit(),
                "kinds": kinds,
                "target_met": all(
                    kinds[k]["target_met"] for k in TARGETS if "target_met" in kinds[k]
                ),
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
