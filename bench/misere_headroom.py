"""How much of the solver's misère search could better bounds, table entries or move
ordering spare?

Prints one JSON object on stdout (progress goes to stderr).

    .venv/bin/python bench/misere_headroom.py                 # 40 positions of 8 tricks
    .venv/bin/python bench/misere_headroom.py --seed 1842357336 --tricks 8
    .venv/bin/python bench/misere_headroom.py --most          # the same for most tricks

The positions are ``bench/solver.py``'s (the same seed gives the same positions), solved
with every card valued, as there, through ``whist.solver.search_trace``: the solve, the
nodes it searched, and each trick start it had to search because no bound and no table
entry decided its test ("does side S take at least t of the tricks left?"), with the nodes
its search took.  Each one's exact value (``solve_value``) then gives its **margin**, S's
tricks minus t.  Per part (``no_trump``: every fifth position, the only four-hand misère
the variants have; ``trumps``: the others):

* ``margins``: how many searched trick starts had each margin.  A test that held with a
  margin of k or more would have been decided by any lower bound on S's tricks at most k
  below the truth; one that failed with a margin of -1-k or less, by an upper bound at
  most k above it.
* ``bound_within.<k>``: the nodes inside the outermost trick starts that such a bound
  decides: the most a bound never more than k tricks off the exact value could spare.
* ``entries``: the trick starts that a trick start searched earlier in the same solve
  decides (its answer settles this test) under three kinds of table entry, with the nodes
  inside the outermost of them.  ``today``: the solver's own entry (owners fixed from each
  suit's top down to the lowest card whose rank decided a trick); a count above 0 is a
  position the table failed to find again.  ``suits_swapped``: this very position (every
  owner fixed) with its suits in another order (any two in no trump, the plain suits with
  trumps).  ``cards_that_decided``: only the owners of the cards that decided tricks, and
  between two of them how many cards each hand holds.  These counts are optimistic: an
  answer's winning ranks from a bound mean "this card and every card above it".
* ``ordering``: the nodes spent on cards tried before the card that settled their node's
  test (outside other such cards): what perfect move ordering would spare at most, had
  the subtrees been the same.
* ``re_searched``: the trick starts whose very position the same solve had searched before
  for another test (its table entry's bounds did not settle this one), with the nodes
  inside the outermost of them; ``new_positions_inside``: the nodes inside the positions
  first searched within those, new work that no memory of earlier tests could spare.

The first run compiles a traced copy of the search (a few minutes); then a run of 40
positions of 8 tricks takes seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from provenance import commit
from solver import positions
from whist.solver import SearchedStart, search_trace, solve_value

# A suit's cards in play, from its top: their owners, and the places of those whose
# ranks decided a trick.
Suit = tuple[tuple[int, ...], tuple[int, ...]]


def suits_of(start: SearchedStart) -> list[Suit]:
    out = []
    for suit in range(4):
        owners: list[int] = []
        decided: list[int] = []
        for rank in range(12, -1, -1):
            card = 13 * suit + rank
            for seat, hand in enumerate(start.hands):
                if (hand >> card) & 1:
                    if (start.winning_ranks >> card) & 1:
                        decided.append(len(owners))
                    owners.append(seat)
        out.append((tuple(owners), tuple(decided)))
    return out


def same_today(earlier: list[Suit], now: list[Suit]) -> bool:
    """The solver's entry: every owner from the top down to the lowest deciding card."""
    for (owners, decided), (now_owners, _) in zip(earlier, now, strict=True):
        if decided and owners[: decided[-1] + 1] != now_owners[: decided[-1] + 1]:
            return False
    return True


def same_deciding_cards(earlier: list[Suit], now: list[Suit]) -> bool:
    """The deciding cards' owners, and between two of them the cards each hand holds."""
    for (owners, decided), (now_owners, _) in zip(earlier, now, strict=True):
        gap_start = 0
        for place in decided:
            if owners[place] != now_owners[place]:
                return False
            if sorted(owners[gap_start:place]) != sorted(now_owners[gap_start:place]):
                return False
            gap_start = place + 1
    return True


def canonical(suits: list[Suit], trump: int | None) -> tuple[object, ...]:
    """The owners of every suit's cards, the suits in a fixed order (the trump suit kept
    in its place): positions that differ only in which suit is which look the same."""
    owners = [owners for owners, _ in suits]
    if trump is None:
        return tuple(sorted(owners))
    plain = sorted(owners[s] for s in range(4) if s != trump)
    return (owners[trump], *plain)


def decides(earlier: SearchedStart, now: SearchedStart) -> bool:
    """Does ``earlier``'s answer settle ``now``'s test (both about the same side)?"""
    if earlier.side != now.side:
        return False
    return earlier.tricks >= now.tricks if earlier.reached else earlier.tricks <= now.tricks


def inside_outermost(starts: Sequence[SearchedStart], chosen: Sequence[bool]) -> int:
    """The nodes inside the chosen trick starts that no other chosen one holds."""
    total = 0
    end = -1
    for start, pick in zip(starts, chosen, strict=True):
        if pick and start.first_node > end:
            total += start.nodes
            end = start.first_node + start.nodes
    return total


def re_searched(starts: Sequence[SearchedStart]) -> tuple[list[bool], list[bool]]:
    """Which trick starts repeat a position searched before in the solve, and which are
    first searches inside such a repeat."""
    seen: set[tuple[tuple[int, ...], int]] = set()
    again = []
    first_inside = []
    end = -1  # the end of the outermost repeat under way
    for start in starts:
        key = (start.hands, start.leader)
        repeat = key in seen
        seen.add(key)
        inside = start.first_node <= end
        if repeat and not inside:
            end = start.first_node + start.nodes
        again.append(repeat)
        first_inside.append(inside and not repeat)
    return again, first_inside


def study(cases: list[tuple[list[int], int | None, int]], most: bool, label: str) -> dict[str, Any]:
    """The headroom over ``cases`` (see the module's documentation), one JSON part."""
    nodes = 0
    tried_first = 0
    searched = 0
    margins: Counter[int] = Counter()
    within: Counter[int] = Counter()
    kinds: dict[str, Callable[[list[Suit], list[Suit]], bool] | None] = {
        "today": same_today,
        "suits_swapped": None,  # compared through ``canonical``
        "cards_that_decided": same_deciding_cards,
    }
    entry_starts: Counter[str] = Counter()
    entry_nodes: Counter[str] = Counter()
    repeats = repeat_nodes = new_inside = 0
    for number, (hands, trump, leader) in enumerate(cases, 1):
        trace = search_trace(hands, trump, leader, [], most)
        starts = trace.starts
        nodes += trace.nodes
        tried_first += trace.tried_first
        searched += len(starts)
        margin_of = []
        for start in starts:
            own = solve_value(list(start.hands), trump, start.leader, [], most)
            side_tricks = own if start.leader % 2 == start.side else start.tricks_left - own
            margin_of.append(side_tricks - start.tricks)
        margins.update(margin_of)
        for k in (1, 2, 3):
            within[k] += inside_outermost(starts, [m >= k or m <= -1 - k for m in margin_of])
        again, first_inside = re_searched(starts)
        repeats += sum(again)
        repeat_nodes += inside_outermost(starts, again)
        new_inside += inside_outermost(starts, first_inside)
        suits = [suits_of(start) for start in starts]
        for kind, same in kinds.items():
            seen: defaultdict[object, list[int]] = defaultdict(list)
            chosen = []
            for i, start in enumerate(starts):
                shape = tuple(tuple(sorted(owners)) for owners, _ in suits[i])
                if same is None:
                    key: object = (start.leader, start.side, canonical(suits[i], trump))
                else:
                    key = (start.leader, start.side, shape)
                found = any(
                    decides(starts[j], start) and (same is None or same(suits[j], suits[i]))
                    for j in seen[key]
                )
                chosen.append(found)
                seen[key].append(i)
            entry_starts[kind] += sum(chosen)
            entry_nodes[kind] += inside_outermost(starts, chosen)
        print(
            f"[headroom] {label} {number}/{len(cases)}: {len(starts)} trick starts searched",
            file=sys.stderr,
            flush=True,
        )
    return {
        "positions": len(cases),
        "nodes": nodes,
        "searched_trick_starts": searched,
        "ordering": {"nodes": tried_first, "share": round(tried_first / max(nodes, 1), 4)},
        "margins": {str(m): margins[m] for m in sorted(margins)},
        "bound_within": {
            str(k): {"nodes": within[k], "share": round(within[k] / max(nodes, 1), 4)}
            for k in (1, 2, 3)
        },
        "entries": {
            kind: {
                "trick_starts": entry_starts[kind],
                "nodes": entry_nodes[kind],
                "share": round(entry_nodes[kind] / max(nodes, 1), 4),
            }
            for kind in kinds
        },
        "re_searched": {
            "trick_starts": repeats,
            "nodes": repeat_nodes,
            "share": round(repeat_nodes / max(nodes, 1), 4),
            "new_positions_inside": {
                "nodes": new_inside,
                "share": round(new_inside / max(nodes, 1), 4),
            },
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=None, help="a fresh one by default")
    parser.add_argument("--tricks", type=int, default=8, choices=range(3, 11))
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--most", action="store_true", help="most tricks instead of misère")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    print(f"[headroom] seed {seed}", file=sys.stderr, flush=True)
    cases = positions(args.tricks, args.positions, seed)
    t0 = time.perf_counter()
    out: dict[str, Any] = {
        "params": {
            "seed": seed,
            "tricks": args.tricks,
            "positions": args.positions,
            "objective": "most" if args.most else "misere",
            "commit": commit(),
        },
        "no_trump": study([c for c in cases if c[1] is None], args.most, "no trump"),
        "trumps": study([c for c in cases if c[1] is not None], args.most, "trumps"),
    }
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
