"""The stage-2 estimate of the stock games (``whist.master.stage_two``) against exact solving:
fits its weights and measures them on positions the fit did not see.

    .venv/bin/python bench/stage_two.py                 # 4000 positions per game, about 20 s
    .venv/bin/python bench/stage_two.py --quick         # smoke test

Positions are where stage 2 starts after HARD played stage 1 for both seats (German Whist
with trump, Plockwhist spel without: the two weight sets), each solved exactly for the
leader's tricks. The fit is least squares over ``stage_two.differences`` and a constant, on
every other position; the other half measures it. JSON on stdout: per game the fitted
weights (on the fitting half and on all positions), and the mean absolute error in tricks
on the held-out half of the weights in the code, of the fitted ones, and of the best
constant (the estimate that knows nothing of the hands).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from random import Random
from typing import Any

import numpy as np

from whist.bots.hard import HardBot
from whist.bots.knowledge import LOW_MODES
from whist.core.views import view_for
from whist.master import stage_two
from whist.solver import solve_value
from whist.variants import new_match

GAMES = {"german": stage_two.TRUMP_WEIGHTS, "plockwhist": stage_two.NO_TRUMP_WEIGHTS}
Position = tuple[list[int], int | None, int]


def positions(variant: str, count: int, seed: int) -> list[tuple[Position, int]]:
    """``count`` stage-2 starts of most-tricks deals played by HARD, each with its value."""
    hard = HardBot()
    found: list[tuple[Position, int]] = []
    deal_seed = seed
    while len(found) < count:
        rng = Random(deal_seed)
        match = new_match(variant, {})
        deck = list(range(52))
        rng.shuffle(deck)
        match.start_deal(deck, deal_seed % 2)
        deal_seed += 1
        deal = match.deal
        assert deal is not None
        while deal.stage != 2 and not deal.complete:  # bidding (Plockwhist), stage 1
            seat = match.next_seat()
            assert seat is not None
            match.apply(hard.choose(view_for(match, seat), rng, 0.0))
        if deal.complete or (deal.contract is not None and deal.contract.mode in LOW_MODES):
            continue  # the weights are fitted for playing for tricks
        hands = list(deal.hands)
        value = solve_value(hands, deal.trump, deal.leader, [], True)
        found.append(((hands, deal.trump, deal.leader), value))
    return found


def mean_error(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    """Mean absolute error of the rounded, clipped estimate (as ``stage_two.estimate``)."""
    guess = np.clip(np.rint(x @ weights), 0, 13)
    return float(np.mean(np.abs(guess - y)))


def measure(variant: str, count: int, seed: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    found = positions(variant, count, seed)
    x = np.array([[*stage_two.differences(*p), 1.0] for p, _ in found])
    y = np.array([v for _, v in found], dtype=float)
    fit, test = slice(0, None, 2), slice(1, None, 2)
    fitted = np.linalg.lstsq(x[fit], y[fit], rcond=None)[0]
    constant = np.zeros(x.shape[1])
    constant[-1] = float(np.median(y[fit]))
    return {
        "positions": len(found),
        "seconds": round(time.perf_counter() - t0, 1),
        "weights_in_code": list(GAMES[variant]),
        "weights_fitted_half": [round(float(w), 3) for w in fitted],
        "weights_fitted_all": [round(float(w), 3) for w in np.linalg.lstsq(x, y, rcond=None)[0]],
        "held_out_mae": {
            "in_code": round(mean_error(x[test], y[test], np.array(GAMES[variant])), 3),
            "fitted_half": round(mean_error(x[test], y[test], fitted), 3),
            "constant": round(mean_error(x[test], y[test], constant), 3),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=4000, help="per game")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="smoke test: 60 positions")
    args = parser.parse_args(argv)
    count = 60 if args.quick else args.positions
    games = {}
    for variant in GAMES:
        print(f"[bench] {variant}: {count} positions", file=sys.stderr, flush=True)
        games[variant] = measure(variant, count, args.seed)
    print(json.dumps({"params": {"positions": count, "seed": args.seed}, "games": games}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
