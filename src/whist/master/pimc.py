"""Perfect Information Monte Carlo card play: sample worlds consistent with the view, solve
each exactly for every candidate card, convert the trick counts to the deal's margin and
average (weighted by inference when it is on). Every candidate is judged on the same worlds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random

from whist.bots.inference import weighed
from whist.bots.knowledge import LOW_MODES
from whist.bots.sampler import World, sample_worlds
from whist.core.cards import Card, Hand
from whist.core.views import View
from whist.solver import solve
from whist.solver.dds import dds_solve

BATCH = 8  # worlds drawn at a time (inference weighs a batch at once)


@dataclass
class Tally:
    """Each world's candidate margins and weight, as they come in: the means, and how sure
    a difference between two candidates is, are read from them."""

    cards: Sequence[Card]
    seen: list[tuple[dict[Card, float], float]] = field(default_factory=list)

    @property
    def worlds(self) -> int:
        return len(self.seen)

    @property
    def weight(self) -> float:
        return sum(w for _, w in self.seen)

    def add(self, values: dict[Card, float], weight: float) -> None:
        self.seen.append((values, weight))

    def mean(self, card: Card) -> float:
        weight = self.weight
        return sum(w * v[card] for v, w in self.seen) / weight if weight else 0.0

    def lead(self, a: Card, b: Card) -> float:
        """By how many standard errors ``a``'s mean is above ``b``'s, the two compared
        world by world (the worlds are common ground); 0 if it is not above."""
        gain = self.mean(a) - self.mean(b)
        if gain <= 0:
            return 0.0
        weight = self.weight
        squares = sum(w * (v[a] - v[b] - gain) ** 2 for v, w in self.seen)
        effective = weight**2 / sum(w * w for _, w in self.seen)  # worlds, for their weights
        if effective <= 1 or squares == 0:
            return math.inf
        return gain / math.sqrt(squares / weight / (effective - 1))

    def best(self, tolerance: float = 1e-9) -> list[Card]:
        """The candidates whose mean is the best (within ``tolerance``), in given order."""
        means = [self.mean(c) for c in self.cards]
        top = max(means)
        return [c for c, m in zip(self.cards, means, strict=True) if m >= top - tolerance]


def wants_fewest(view: View) -> bool:
    return view.contract is not None and view.contract.mode in LOW_MODES


def position(world: World) -> tuple[list[Hand], dict[Card, Card]]:
    """The solver's input from one world: hands, and Japanese piles as blockers."""
    blockers = {down: up for piles in world.below for up, down in piles.items()}
    return list(world.hands), blockers


def solved_margins(view: View, world: World, table: list[int]) -> dict[Card, float]:
    """Every legal card's deal margin in this world, all hands known."""
    hands, blockers = position(world)
    assert view.leader is not None
    most = not wants_fewest(view)
    if most and view.players == 4:
        tricks = dds_solve(hands, view.trump, view.leader, view.trick)  # DDS is faster here
    else:
        tricks = solve(hands, view.trump, view.leader, view.trick, most, blockers or None)
    return {card: float(table[count]) for card, count in tricks.items()}


def run(
    view: View,
    cards: Sequence[Card],
    rng: Random,
    deadline: float,
    evaluate: Callable[[World, float | None], dict[Card, float] | None],
    *,
    least: int,
    most: int,
    inference: bool,
) -> Tally:
    """Draw worlds in batches and evaluate each: ``most`` worlds, fewer only if the deadline
    passes first (never fewer than ``least``). Callers size ``most`` to their budget, so a
    seed gives the same choice on any machine that keeps to the budget.

    ``evaluate(world, by)`` gives every candidate's value in the world; once ``least`` worlds
    are in, it gets the deadline as ``by`` and may give up on a long world at it (``None``):
    that world is dropped, so every candidate is still judged on the same worlds."""
    tally = Tally(cards)
    while tally.worlds < most:
        worlds = sample_worlds(view, rng, min(BATCH, most - tally.worlds))
        for world in weighed(view, worlds) if inference else worlds:
            spare = tally.worlds >= least
            if spare and time.perf_counter() >= deadline:
                return tally
            values = evaluate(world, deadline if spare else None)
            if values is None:
                return tally
            tally.add(values, world.weight)
    return tally
