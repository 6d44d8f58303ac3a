"""Bot ladder: does each level beat the one below it, in every variant?

For every variant, two duplicate tournaments (``whist.tournament.run_tournament``):
MEDIUM vs EASY and HARD vs MEDIUM. A pair *holds* when the lower end of the 95% confidence
interval of A's mean points over B is above 0. Prints one JSON object on stdout (progress
bars on stderr).

    .venv/bin/python bench/ladder.py                       # 300 deals per pair, 2 workers
    .venv/bin/python bench/ladder.py --quick               # smoke test: 10 deals per pair
    .venv/bin/python bench/ladder.py --variants german,classic --deals 1000 --workers 4
    .venv/bin/python bench/ladder.py --pairs master:hard --deals 100 --budget 0.3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from whist.tournament import DEFAULT_BUDGET, TournamentResult, run_tournament
from whist.variants import VARIANTS

PAIRS = (("medium", "easy"), ("hard", "medium"))
QUICK_DEALS = 10


def pair_report(result: TournamentResult) -> dict[str, Any]:
    data = result.to_json(diffs=False)
    report: dict[str, Any] = {
        key: data[key]
        for key in ("a", "b", "mean", "sd", "ci_low", "ci_high", "won", "lost", "tied")
    }
    report["holds"] = result.summary.ci_low is not None and result.summary.ci_low > 0
    report["decision_ms"] = data["decision_ms"]
    for stats in data["decision_ms"].values():
        if stats["level"] == "hard":
            report["hard_median_ms"] = stats["median"]
    if "by_mode" in data:
        report["by_mode"] = data["by_mode"]
    report["elapsed_s"] = data["elapsed_s"]
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated keys")
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals per pair")
    parser.add_argument("--workers", type=int, default=2, help="processes per tournament")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds/decision")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DEALS} deals: smoke test")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument(
        "--pairs",
        default=",".join(f"{a}:{b}" for a, b in PAIRS),
        help="comma-separated A:B level pairs (default medium:easy,hard:medium)",
    )
    args = parser.parse_args(argv)
    pairs = [tuple(pair.split(":", 1)) for pair in args.pairs.split(",") if pair.strip()]
    if not pairs or any(len(pair) != 2 or not all(pair) for pair in pairs):
        parser.error("--pairs: give A:B level pairs, e.g. master:hard")
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants:
        parser.error(f"--variants: unknown {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    deals = QUICK_DEALS if args.quick else args.deals
    if deals < 1 or args.workers < 1:
        parser.error("--deals and --workers must be at least 1")

    start = time.perf_counter()
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
    per_variant: dict[str, dict[str, Any]] = {}
    for variant in variants:
        per_variant[variant] = {}
        for a, b in pairs:
            result = run_tournament(
                variant,
                {},
                a,
                b,
                deals,
                seed=args.seed,
                workers=args.workers,
                progress=not args.quiet,
                budget=args.budget,
            )
            per_variant[variant][f"{a}_vs_{b}"] = pair_report(result)
            pair = per_variant[variant][f"{a}_vs_{b}"]
            print(
                f"[ladder] {variant} {a} vs {b}: mean {pair['mean']:+.3f}, "
                f"95% CI [{pair['ci_low']}, {pair['ci_high']}], holds {pair['holds']}",
                file=sys.stderr,
                flush=True,
            )
    report = {
        "deals": deals,
        "workers": args.workers,
        "seed": args.seed,
        "budget": args.budget,
        "quick": args.quick,
        "variants": per_variant,
        "all_hold": all(pair["holds"] for pairs in per_variant.values() for pair in pairs.values()),
        "elapsed_s": round(time.perf_counter() - start, 3),
        "load_before": load_before,
        "load_after": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
