"""bench/misere_headroom.py and the search trace it reads (``whist.solver.search_trace``)."""

from __future__ import annotations

import random

import pytest

from bench_run import run_bench
from whist.solver import search_trace, solve, solve_value


def random_position(rng: random.Random, tricks: int) -> tuple[list[int], int | None, int]:
    deck = rng.sample(range(52), 4 * tricks)
    hands = [sum(1 << c for c in deck[seat * tricks : (seat + 1) * tricks]) for seat in range(4)]
    return hands, rng.choice([None, 0, 1, 2, 3]), rng.randrange(4)


@pytest.mark.parametrize("most", [True, False], ids=["most", "misere"])
def test_a_trace_holds_the_tests_the_search_answered_and_their_true_answers(most: bool) -> None:
    rng = random.Random(20261205)
    traced = 0
    tried_first = 0
    for _ in range(12):
        hands, trump, leader = random_position(rng, 6)
        trace = search_trace(hands, trump, leader, [], most)
        assert trace.values == solve(hands, trump, leader, [], most)  # the same solve
        starts = trace.starts
        traced += len(starts)
        # cards tried before the one that settled a test: part of the nodes, never more
        assert 0 <= trace.tried_first < trace.nodes
        tried_first += trace.tried_first
        end_of: list[int] = []
        for start in starts:
            assert 1 <= start.tricks <= start.tricks_left < 6
            assert sum(bin(h).count("1") for h in start.hands) == 4 * start.tricks_left
            own = solve_value(list(start.hands), trump, start.leader, [], most)
            side_tricks = own if start.leader % 2 == start.side else start.tricks_left - own
            assert start.reached == (side_tricks >= start.tricks)
            # every card a start's answer depends on is still in play there
            assert (
                start.winning_ranks
                & ~(start.hands[0] | start.hands[1] | start.hands[2] | start.hands[3])
                == 0
            )
            # subtrees nest: one starts after another's first node and inside it, or after it
            while end_of and start.first_node > end_of[-1]:
                end_of.pop()
            if end_of:
                assert start.first_node + start.nodes <= end_of[-1]
            end_of.append(start.first_node + start.nodes)
        assert all(start.first_node + start.nodes <= trace.nodes for start in starts)
    assert traced > 100 and tried_first > 0


def test_a_trace_keeps_at_most_its_capacity_and_refuses_none() -> None:
    hands, trump, leader = random_position(random.Random(3), 7)
    every = search_trace(hands, trump, leader, [], False).starts
    first = search_trace(hands, trump, leader, [], False, capacity=5).starts
    assert len(every) > 5 and first == every[:5]
    with pytest.raises(ValueError, match="capacity"):
        search_trace(hands, trump, leader, [], False, capacity=0)


def test_the_bench_prints_the_headroom_as_json() -> None:
    result, _ = run_bench(
        "misere_headroom.py", "--seed", "11", "--tricks", "6", "--positions", "10", timeout=600
    )
    assert result["params"]["seed"] == 11 and result["params"]["objective"] == "misere"
    for part in ("no_trump", "trumps"):
        study = result[part]
        assert sum(study["margins"].values()) == study["searched_trick_starts"] > 0
        within = [study["bound_within"][k]["nodes"] for k in ("1", "2", "3")]
        assert study["nodes"] >= within[0] >= within[1] >= within[2]
        assert 0 <= study["ordering"]["nodes"] < study["nodes"]
        # the table finds again every position searched before (nothing is evicted at
        # this size), so an entry of today's kind decides no searched trick start
        assert study["entries"]["today"]["trick_starts"] == 0
        finer = study["entries"]["cards_that_decided"]
        assert 0 <= finer["nodes"] <= study["nodes"]
        # a solve tests positions again (each root card twice or more): the new positions
        # searched inside those repeats are part of them
        again = study["re_searched"]
        assert 0 < again["trick_starts"] <= study["searched_trick_starts"]
        assert 0 < again["new_positions_inside"]["nodes"] < again["nodes"] < study["nodes"]
