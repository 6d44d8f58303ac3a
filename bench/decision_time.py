"""How long a bot level takes per decision at a given budget, in every variant.

Plays ``--deals`` deals per variant with the level in the even seats (seat 0 alone in
two-player games) against HARD, and times the level's decisions that had a real choice
(more than one legal action). Prints one JSON object: per variant
the count, mean, median, p95 and max in seconds. The target for MASTER: p95 ≤ the budget
(default 1 s) on this 2-core machine.

    .venv/bin/python bench/decision_time.py                     # MASTER, 1 s, 3 deals each
    .venv/bin/python bench/decision_time.py --variants minnesota --deals 10 --budget 0.5
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
from typing import Any

from whist.bots import make_bot
from whist.core.views import view_for
from whist.variants import VARIANTS, new_match


def timings(variant: str, level: str, deals: int, budget: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    match = new_match(variant)
    bots = [make_bot(level if seat % 2 == 0 else "hard") for seat in range(match.players)]
    spent: list[float] = []
    while not match.over:
        if match.needs_deal:
            if len(match.deals) >= deals:
                break
            deck = list(range(52))
            rng.shuffle(deck)
            match.start_deal(deck, 0 if match.deal is None else None)
            continue
        seat = rng.choice(match.to_act())
        view = view_for(match, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view, bot_rng, budget)
        elapsed = time.perf_counter() - start
        if seat % 2 == 0 and len(view.legal) > 1:
            spent.append(elapsed)
        match.apply(action)
    return spent


def summary(spent: list[float]) -> dict[str, Any]:
    ordered = sorted(spent)
    return {
        "decisions": len(ordered),
        "mean_s": round(statistics.fmean(ordered), 4),
        "median_s": round(statistics.median(ordered), 4),
        "p95_s": round(ordered[max(0, int(0.95 * len(ordered)) - 1)], 4),
        "max_s": round(ordered[-1], 4),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated keys")
    parser.add_argument("--level", default="master")
    parser.add_argument("--deals", type=int, default=3, help="deals per variant (3)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per decision (1.0)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants or args.deals < 1 or args.budget <= 0:
        parser.error(f"known variants: {', '.join(VARIANTS)}; --deals >= 1, --budget > 0")
    load_before = os.getloadavg()
    per_variant = {
        variant: summary(timings(variant, args.level, args.deals, args.budget, args.seed))
        for variant in variants
    }
    report = {
        "level": args.level,
        "budget_s": args.budget,
        "deals": args.deals,
        "variants": per_variant,
        "p95_within_budget": all(v["p95_s"] <= args.budget for v in per_variant.values()),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
