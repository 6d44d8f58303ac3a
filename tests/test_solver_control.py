"""Stopping a solve from another thread, its progress, and the bounds it returns
(:class:`whist.solver.Control`, :func:`whist.solver.solve_bounds`)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from test_solver import SEED, brute_cases, deal_position
from whist.solver import Control, Stopped, solve, solve_bounds, solve_value


def _deal(seed: int, tricks: int) -> list[int]:
    """Four random hands of ``tricks`` cards."""
    hands, _, _ = deal_position(random.Random(seed), tricks, played=0)
    return hands


def test_bounds_run_to_the_end_are_solve() -> None:
    """Unstopped, every card's bounds are equal and are solve()'s value: misère and most,
    two and four hands, blockers, tricks in progress."""
    cases = (
        brute_cases(SEED + 50, 40, 4, 6)
        + brute_cases(SEED + 51, 40, 2, 7)
        + brute_cases(SEED + 52, 40, 2, 7, blockers=True)
    )
    for hands, trump, leader, trick, most, piles in cases:
        assert isinstance(hands, list) and isinstance(trick, list) and isinstance(piles, dict)
        assert isinstance(leader, int) and isinstance(most, bool)
        assert trump is None or isinstance(trump, int)
        for objective in (most, not most):
            exact = solve(hands, trump, leader, trick, objective, piles)
            bounds = solve_bounds(hands, trump, leader, trick, objective, piles, control=Control())
            assert bounds == {card: (v, v) for card, v in exact.items()}


def _stop_after(control: Control, seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, control.stop)
    timer.start()
    return timer


def test_stop_returns_at_once_from_a_whole_deal() -> None:
    """A 13-trick misère deal (minutes to solve) stopped after 20 ms: the solve returns
    within a short time (the search runs without the GIL, so the timer thread runs)."""
    hands = _deal(SEED + 60, 13)
    control = Control()
    out: dict[int, tuple[int, int]] = {}
    worker = threading.Thread(
        target=lambda: out.update(solve_bounds(hands, None, 0, [], False, control=control))
    )
    worker.start()
    time.sleep(0.02)
    assert worker.is_alive()
    assert control.cards_total == 13  # set as the solve starts
    stopped_at = time.perf_counter()
    control.stop()
    worker.join(timeout=5)
    latency = time.perf_counter() - stopped_at
    assert not worker.is_alive()
    assert control.stopped
    assert latency < 0.25  # polled every ~1,000 nodes: well under a millisecond unloaded
    assert set(out) == {c for c in range(52) if hands[0] >> c & 1}
    assert all(0 <= lo <= hi <= 13 for lo, hi in out.values())
    assert any(lo < hi for lo, hi in out.values())  # it was stopped, not finished


@pytest.mark.parametrize("most", [False, True])
def test_stopped_bounds_hold_the_true_values(most: bool) -> None:
    """Positions small enough to finish, stopped at different moments: each card's bounds
    contain its exact value, and some runs are stopped before every card is exact."""
    stopped_short = 0
    for i in range(12):
        hands = _deal(SEED + 70 + i, 8)
        trump = None if i % 2 == 0 else i % 4
        exact = solve(hands, trump, i % 4, [], most)
        for delay in (0.0, 0.002, 0.01, 0.03):
            control = Control()
            timer = _stop_after(control, delay)
            bounds = solve_bounds(hands, trump, i % 4, [], most, control=control)
            timer.join()
            assert set(bounds) == set(exact)
            for card, (lo, hi) in bounds.items():
                assert lo <= exact[card] <= hi
            stopped_short += any(lo < hi for lo, hi in bounds.values())
    assert stopped_short > 0


def test_a_stopped_control_stops_at_once() -> None:
    """Stopped before it starts: nothing is searched, every card has the trivial bounds, and
    solve() and solve_value() say they were stopped."""
    hands = _deal(SEED + 80, 9)
    control = Control()
    control.stop()
    bounds = solve_bounds(hands, None, 2, [], False, control=control)
    assert bounds == {c: (0, 9) for c in range(52) if hands[2] >> c & 1}
    assert control.nodes == 0 and control.cards_done == 0
    with pytest.raises(Stopped):
        solve(hands, None, 2, [], False, control=control)
    with pytest.raises(Stopped):
        solve_value(hands, None, 2, [], False, control=control)


def test_progress_counts_cards_and_nodes() -> None:
    hands = _deal(SEED + 90, 9)
    control = Control()
    values = solve(hands, None, 1, [], False, control=control)
    assert control.cards_total == control.cards_done == len(values) == 9
    assert control.nodes > 0 and not control.stopped
    # Unstopped, a control changes nothing.
    assert values == solve(hands, None, 1, [], False)
    assert solve_value(hands, None, 1, [], False, control=Control()) == min(values.values())
