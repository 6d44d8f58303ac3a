"""MASTER: the strongest computer player. It compares its moves by simulating the hands it
cannot see, consistent with everything its seat has seen (``whist.bots.sampler``), and
solving each simulated deal exactly (``whist.solver``): Perfect Information Monte Carlo,
scored in the deal's points, ties broken by HARD's preference.

Where a position is not yet one the solver can take (German Whist and Plockwhist while the
stock lasts, Japanese Whist early in its 26 tricks) and for the decisions before play,
MASTER simulates with the rules engine and its own play (``whist.master.decisions``).
"""

from __future__ import annotations

import time
from random import Random

from whist.bots.base import CardPlayer
from whist.bots.hard import HardBot
from whist.bots.sampler import INFERENCE, World
from whist.core.actions import Action
from whist.core.cards import Card
from whist.core.views import View
from whist.master.pimc import Tally, run, solved_margins
from whist.master.scoring import margins

SHARE = 0.85  # of the budget spent searching; the rest covers sampling and overheads
JAPANESE_EXACT = 10  # Japanese Whist: solve exactly once each seat holds at most this many


class MasterBot(CardPlayer):
    level = "master"

    def __init__(self, least: int = 6, most: int = 256, inference: bool | None = None) -> None:
        self.least = least  # worlds per decision, whatever the clock says
        self.most = most  # worlds per decision at most
        self.inference = inference  # None: the calibrated table (sampler.INFERENCE)
        self.hard = HardBot()
        self.deadline = 0.0

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        self.deadline = time.perf_counter() + SHARE * budget
        return super().choose(view, rng, budget)

    def decide(self, view: View, legal: tuple[Action, ...], rng: Random) -> Action:
        return self.hard.decide(view, legal, rng)

    def play(self, view: View, cards: list[Card], rng: Random) -> Card:
        if not solvable(view):
            return self.hard.play(view, cards, rng)
        tally = self.tally(view, cards, rng)
        best = tally.best()
        if len(best) == 1:
            return best[0]
        return self.hard.play(view, best, rng)

    def tally(self, view: View, cards: list[Card], rng: Random) -> Tally:
        tables: list[list[int]] = []

        def evaluate(world: World) -> dict[Card, float]:
            if not tables:
                assert view.seat is not None
                tables.append(margins(view, world.hands[view.seat].bit_count()))
            return solved_margins(view, world, tables[0])

        return run(
            view,
            cards,
            rng,
            self.deadline,
            evaluate,
            least=self.least,
            most=self.most,
            inference=self.uses_inference(view),
        )

    def uses_inference(self, view: View) -> bool:
        if self.inference is not None:
            return self.inference
        mode = view.contract.mode if view.contract is not None else None
        return INFERENCE.get((view.variant, mode), False)


def solvable(view: View) -> bool:
    """Whether the solver can take this card-play position once the hidden cards are
    guessed: every four-player deal; two-player deals once the stock is gone; Japanese
    Whist after trick 1 (hands unseen until then) and late enough to be quick."""
    if view.players == 4:
        return True
    if view.variant == "japanese":
        return bool(view.tricks) and 26 - len(view.tricks) <= JAPANESE_EXACT
    return view.stage == 2
