"""αμ search (Cazenave and Ventos, 2020) for the last tricks of a four-hand deal, measured
against MASTER's PIMC: how often would it change MASTER's card, and at what cost?

    .venv/bin/python bench/alphamu.py                          # 3 tricks left, 12 worlds
    .venv/bin/python bench/alphamu.py --tricks 3 --worlds 24 --positions 40

PIMC solves every world on its own, as if this seat would know the world when it plays its
next card: it credits itself with guessing right later ("strategy fusion"). αμ does not. It
searches the worlds together: this seat must play the same card in every world it cannot
tell apart, i.e. at every node of the tree of public play, while the other three seats play
each world perfectly (partner for us, opponents against us), as PIMC assumes of them too.
A node's value is a Pareto front of vectors, one margin per world: at our nodes the union of
the children's fronts (one card for all worlds), at the others every combination of the
children's vectors, each world taking its best (partner) or worst (opponent) card among
those its holder has there. The search goes to the end of the deal, so it is exact for that
model. This benchmark plays deals with HARD to a position with ``--tricks`` left and a
real choice, samples ``--worlds`` worlds as MASTER does, and compares αμ's best card with
PIMC's (the same worlds, solved exactly). It prints JSON: positions, how often the best
cards differ and by how much PIMC overrates its card, αμ's time per decision.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from random import Random
from typing import Any

from whist.bots.hard import HardBot
from whist.bots.knowledge import winning
from whist.bots.sampler import World, sample_worlds
from whist.core.actions import Play
from whist.core.cards import SUIT_MASK, Card, Hand, cards_in
from whist.core.views import View, view_for
from whist.master.bot import tricks_left
from whist.master.pimc import solved_margins
from whist.master.scoring import margins
from whist.variants import new_match

Vector = tuple[int, ...]


class Search:
    """One αμ search: the worlds, our seat and the margin table are fixed."""

    def __init__(
        self,
        seat: int,
        hands: Sequence[Sequence[Hand]],
        trump: int | None,
        table: Sequence[int],
    ) -> None:
        self.seat = seat
        self.hands = hands  # per world, per seat: the cards held at the root
        self.trump = trump
        self.table = table  # margin for our side by its tricks from the root on
        self.seen: dict[tuple[int, tuple[Card, ...], int, int, int], list[Vector]] = {}

    def legal(self, world: int, seat: int, played: int, trick: tuple[Card, ...]) -> Hand:
        held = self.hands[world][seat] & ~played
        if trick:
            follow = held & SUIT_MASK[trick[0] // 13]
            if follow:
                return follow
        return held

    def front(
        self, trick: tuple[Card, ...], leader: int, played: int, won: int, alive: int
    ) -> list[Vector]:
        """The Pareto front of what our strategies achieve from here, over ``alive`` worlds
        (a bit per world; entries of other worlds are 0 and never compared)."""
        if len(trick) == 4:
            winner, _ = winning(trick, leader, 4, self.trump)
            won += winner % 2 == self.seat % 2
            trick, leader = (), winner
        key = (played, trick, leader, won, alive)
        if key in self.seen:
            return self.seen[key]
        turn = (leader + len(trick)) % 4
        world = _lowest(alive)
        if not self.hands[world][turn] & ~played:  # every card is played
            value = self.table[won]
            result = [tuple(value if alive >> w & 1 else 0 for w in range(len(self.hands)))]
        elif turn == self.seat:
            moves = self.legal(world, turn, played, trick)  # our hand: the same in every world
            result = _pareto(
                [
                    vector
                    for card in cards_in(moves)
                    for vector in self.front((*trick, card), leader, played | 1 << card, won, alive)
                ],
                alive,
            )
        else:
            result = self.per_world(trick, leader, played, won, alive, turn)
        self.seen[key] = result
        return result

    def per_world(
        self, trick: tuple[Card, ...], leader: int, played: int, won: int, alive: int, turn: int
    ) -> list[Vector]:
        """A seat that plays each world perfectly: each world takes the best (partner) or
        worst (opponent) of the cards its holder may play there."""
        holders: dict[Card, int] = {}
        for w in _bits(alive):
            for card in cards_in(self.legal(w, turn, played, trick)):
                holders[card] = holders.get(card, 0) | 1 << w
        ours = turn % 2 == self.seat % 2
        result: list[Vector] = []
        covered = 0
        for card, where in holders.items():
            child = self.front((*trick, card), leader, played | 1 << card, won, where)
            if not covered:
                result, covered = child, where
                continue
            combined = []
            for a in result:
                for b in child:
                    v = list(a)
                    for w in _bits(where):
                        if covered >> w & 1:
                            v[w] = max(a[w], b[w]) if ours else min(a[w], b[w])
                        else:
                            v[w] = b[w]
                    combined.append(tuple(v))
            covered |= where
            result = _pareto(combined, covered)
        return result


def alphamu(
    seat: int,
    worlds: Sequence[World],
    trump: int | None,
    leader: int,
    trick: Sequence[Card],
    cards: Sequence[Card],
    table: Sequence[int],
) -> dict[Card, float]:
    """For each of ``cards`` (this seat to play): the best weighted mean margin one strategy
    of ours reaches over ``worlds``, the other seats playing each world perfectly.
    ``table[t]``: our side's margin if it takes ``t`` of the tricks from the current one on."""
    hands = [world.hands for world in worlds]
    weights = [world.weight for world in worlds]
    search = Search(seat, hands, trump, table)
    alive = (1 << len(worlds)) - 1
    played = 0
    for card in trick:
        played |= 1 << card
    total = sum(weights)
    values: dict[Card, float] = {}
    for card in cards:
        front = search.front((*trick, card), leader, played | 1 << card, 0, alive)
        values[card] = (
            max(sum(w * v for w, v in zip(weights, vector, strict=True)) for vector in front)
            / total
        )
    return values


def _pareto(vectors: list[Vector], alive: int) -> list[Vector]:
    """The vectors no other one beats or equals in every live world (duplicates once)."""
    live = list(_bits(alive))
    kept: list[Vector] = []
    for v in sorted(set(vectors), key=lambda x: -sum(x[w] for w in live)):
        if not any(all(k[w] >= v[w] for w in live) for k in kept):
            kept.append(v)
    return kept


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


# ----------------------------------------------------------------------- the benchmark
def position(variant: str, tricks: int, seed: int) -> View:
    """A view with ``tricks`` tricks left and more than one card to choose from, reached by
    HARD playing a random deal."""
    rng = Random(seed)
    hard = HardBot()
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        match = new_match(variant, {})
        deal = match.start_deal(deck, seed % 4)
        while not deal.complete:
            seat = match.next_seat()
            assert seat is not None
            view = view_for(match, seat)
            if view.hand.bit_count() < tricks:
                break
            if view.hand.bit_count() == tricks and len(view.legal) > 1:
                return view
            match.apply(hard.choose(view, rng, 0.0))


def compare(view: View, worlds: int, seed: int) -> dict[str, Any]:
    """αμ against PIMC on the same worlds."""
    assert view.seat is not None and view.leader is not None
    sampled = sample_worlds(view, Random(seed), worlds)
    cards = sorted(a.card for a in view.legal if isinstance(a, Play))
    table = margins(view, tricks_left(view))
    pimc = dict.fromkeys(cards, 0.0)
    for world in sampled:
        for card, value in solved_margins(view, world, table).items():
            pimc[card] += value / len(sampled)
    start = time.perf_counter()
    am = alphamu(view.seat, sampled, view.trump, view.leader, view.trick, cards, table)
    spent = time.perf_counter() - start
    pimc_card = max(cards, key=lambda c: (pimc[c], -c))
    am_card = max(cards, key=lambda c: (am[c], -c))
    return {
        "seconds": spent,
        "differs": am[am_card] > am[pimc_card] + 1e-9,
        "gain": am[am_card] - am[pimc_card],  # what αμ's card is worth over PIMC's, by αμ
        "overrated": pimc[pimc_card] - am[pimc_card],  # PIMC's strategy fusion on its card
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variants", default="classic,minnesota")
    parser.add_argument("--tricks", type=int, default=3, help="tricks left (3)")
    parser.add_argument("--worlds", type=int, default=12, help="worlds per position (12)")
    parser.add_argument("--positions", type=int, default=30, help="positions per variant (30)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not 2 <= args.tricks <= 4 or args.worlds < 1 or args.positions < 1:
        parser.error(
            "--tricks 2..4 (αμ in Python is only cheap at the very end), --worlds and"
            " --positions >= 1"
        )
    report: dict[str, Any] = {
        "tricks_left": args.tricks,
        "worlds": args.worlds,
        "positions": args.positions,
        "load_before": os.getloadavg(),
        "variants": {},
    }
    for variant in args.variants.split(","):
        rows = [
            compare(position(variant, args.tricks, args.seed + i), args.worlds, args.seed + i)
            for i in range(args.positions)
        ]
        seconds = sorted(r["seconds"] for r in rows)
        report["variants"][variant] = {
            "differs": sum(r["differs"] for r in rows),
            "mean_gain": round(statistics.fmean(r["gain"] for r in rows), 4),
            "fusion_seen": sum(r["overrated"] > 1e-9 for r in rows),
            "mean_overrated": round(statistics.fmean(r["overrated"] for r in rows), 4),
            "median_s": round(seconds[len(seconds) // 2], 4),
            "max_s": round(seconds[-1], 4),
        }
    report["load_after"] = os.getloadavg()
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
