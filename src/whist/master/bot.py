"""MASTER: the strongest computer player. It compares its moves by simulating the hands it
cannot see, consistent with everything its seat has seen (``whist.bots.sampler``), and
solving each simulated deal exactly (``whist.solver``): Perfect Information Monte Carlo,
scored in the deal's points, ties broken by HARD's preference.

Where a position is not yet one to solve exactly (German Whist and Plockwhist while the
stock lasts, Japanese Whist early in its 26 tricks, four-hand misère early in the deal), and
for the decisions before play (bids, bottom cards, trump, talon), HARD's choice stands in
for now.
"""

from __future__ import annotations

import time
from random import Random

from whist.bots.base import CardPlayer
from whist.bots.hard import HardBot
from whist.bots.sampler import World, inference_default
from whist.core.actions import Action
from whist.core.cards import Card
from whist.core.views import View
from whist.master.pimc import Tally, run, solved_margins, wants_fewest
from whist.master.scoring import margins

SHARE = 0.5  # of the budget planned for solving: the estimate is a median, the tail runs over
FEWEST_EXACT = 8  # four-hand misère: solved exactly from this many tricks left
JAPANESE_EXACT = 10  # Japanese Whist: solved exactly from this many tricks left
OVERHEAD = 0.0004  # seconds per world besides solving: sampling, weights, bookkeeping
OVERRUN = 1.0  # the search stops at this multiple of the budget (the server waits 0.5 s more)


def solve_cost(view: View, tricks_left: int) -> float:
    """Rough seconds to evaluate one world on the 2-core machine (a fit to the solvers'
    medians: DDS for four-hand most tricks, ours otherwise), to size the number of worlds
    to the budget."""
    if view.players == 2:
        solving = 0.015 * 2.2 ** (tricks_left - 13)  # ours, two hands
    elif wants_fewest(view):
        solving = 0.015 * 2.2 ** (tricks_left - FEWEST_EXACT)  # ours, four-hand misère
    else:
        solving = 0.02 * 2.2 ** (tricks_left - 13)  # DDS
    return OVERHEAD + solving


class MasterBot(CardPlayer):
    level = "master"

    def __init__(
        self,
        least: int = 6,
        most: int = 200,
        inference: bool | None = None,
        level: str = "master",
    ) -> None:
        self.level = level
        self.least = least  # worlds per decision, whatever the budget
        self.most = most  # worlds per decision at most
        self.inference = inference  # None: as calibrated (sampler.INFERENCE)
        self.hard = HardBot()
        self.budget = 1.0
        self.deadline = 0.0

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        # The number of worlds is planned from the budget, so that a seed gives the same
        # choice; the deadline only guards against a plan gone badly wrong.
        self.budget = budget
        self.deadline = time.perf_counter() + OVERRUN * budget
        return super().choose(view, rng, budget)

    def worlds(self, view: View, tricks_left: int) -> int:
        """Worlds to solve: as many as the budget pays for, within [least, most]."""
        planned = int(SHARE * self.budget / solve_cost(view, tricks_left))
        return max(self.least, min(self.most, planned))

    def decide(self, view: View, legal: tuple[Action, ...], rng: Random) -> Action:
        return self.hard.decide(view, legal, rng)

    def play(self, view: View, cards: list[Card], rng: Random) -> Card:
        if not solvable(view):
            return self.hard.play(view, cards, rng)
        tally = self.tally(view, cards, rng)
        best = tally.best()
        if len(best) == 1:
            return best[0]
        preferred = self.hard.play(view, best, rng)
        # HARD's exact stage-2 endings choose from the whole hand: keep to the tied cards.
        return preferred if preferred in best else best[0]

    def tally(self, view: View, cards: list[Card], rng: Random) -> Tally:
        left = tricks_left(view)
        table = margins(view, left)

        def evaluate(world: World) -> dict[Card, float]:
            return solved_margins(view, world, table)

        return run(
            view,
            cards,
            rng,
            self.deadline,
            evaluate,
            least=self.least,
            most=self.worlds(view, left),
            inference=self.uses_inference(view),
        )

    def uses_inference(self, view: View) -> bool:
        return self.inference if self.inference is not None else inference_default(view)


def tricks_left(view: View) -> int:
    """Tricks still to be won, the one in progress included (the seat to act still holds a
    card for each)."""
    if view.variant == "japanese":
        return 26 - len(view.tricks)
    return view.hand.bit_count()


def solvable(view: View) -> bool:
    """Whether to solve this card-play position exactly once the hidden cards are guessed:
    four-player deals (misère ones from ``FEWEST_EXACT`` tricks left); two-player deals
    once the stock is gone; Japanese Whist after trick 1 (hands unseen until then) from
    ``JAPANESE_EXACT`` tricks left. Elsewhere HARD's play stands in."""
    if view.players == 4:
        return not wants_fewest(view) or tricks_left(view) <= FEWEST_EXACT
    if view.variant == "japanese":
        return bool(view.tricks) and tricks_left(view) <= JAPANESE_EXACT
    return view.stage == 2
