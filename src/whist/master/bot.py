"""MASTER: the strongest computer player. It compares its moves by simulating the hands it
cannot see, consistent with everything its seat has seen (``whist.bots.sampler``), and
solving each simulated deal exactly (``whist.solver``): Perfect Information Monte Carlo,
scored in the deal's points, ties broken by HARD's preference.

Where solving alone cannot reach, the choice is tried in every sampled world and the deal
played on from it by HARD to where solving can take over (``whist.master.playout``): the
card to play while the stock lasts in German Whist and Plockwhist (stage 2 solved), and in
four-hand misère before ``FEWEST_EXACT`` tricks are left; and the decisions before play —
bids, bottom cards, talon (only a sure gain departs from HARD's where playouts are noisy,
and none where they bid worse: ``SWITCH_LEAD``).

Japanese Whist early in its 26 tricks is not yet a position to solve in the budget: there
MASTER compares its cards as HARD does, by fast rollouts of the whole deal from sampled
unseen cards (``whist.bots.rollout``), but with as many as its budget pays for. Its trump
choice is HARD's: naming it by rollouts of every suit did not do better (150 duplicate
deals at 0.3 s: -0.21 [-0.56, 0.14] against HARD's trump).

``MasterBot(playout_search=False, hard_ties=False, playout_decisions=False)`` is plain PIMC,
the baseline MASTER is measured against (level ``pimc``): HARD's choice wherever it does
not solve, ties to the first best card.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Literal

from whist.bots.base import CardPlayer
from whist.bots.decisions import want_tricks_choice
from whist.bots.hard import HardBot
from whist.bots.rollout import best_by_rollouts
from whist.bots.sampler import World, world_count
from whist.core.actions import Action, Bid, Bottom, Play, Take
from whist.core.cards import Card
from whist.core.components import STOCK, TABLE_PILES
from whist.core.views import View
from whist.master.pimc import Tally, run, solved_margins, wants_fewest
from whist.master.playout import (
    FEWEST_EXACT,
    FEWEST_SOLVE,
    TWO_HAND_SOLVE,
    candidates,
    choice_margins,
    cost,
)
from whist.master.scoring import margins

SHARE = 0.5  # of the budget planned for solving: the estimate is a median, the tail runs over
JAPANESE_EXACT = 10  # Japanese Whist: solved exactly from this many tricks left
JAPANESE_SOLVE = 0.0015  # seconds: a Japanese position solved from JAPANESE_EXACT tricks left
ROLLOUT_COST = 45e-6  # seconds: one fast rollout of a Japanese deal (whist.bots.rollout)
ROLLOUTS_MOST = 2000  # rollouts per Japanese candidate at most (HARD: at most 40)
OVERHEAD = 0.0004  # seconds per world besides solving: sampling, weights, bookkeeping
OVERRUN = 0.9  # the search stops at this multiple of the budget: the rest is for the last step
# Worlds per playout search, whatever the budget: every choice is tried in each world, so
# even two compare the choices on common ground (a budget-starved search is still cheap).
PLAYOUT_LEAST = 2
# Stock-phase playouts (German Whist, Plockwhist) cost the same in every world and the
# deadline guards the rest, so they plan for most of the budget; and they solve stage 2
# exactly only when the budget pays for STOCK_SOLVED_LEAST worlds that way: many worlds with
# an estimated stage 2 beat a few solved ones (German, 80 duplicate deals at 0.3 s: +1.14
# [0.45, 1.82] over 0.5 of the budget and 6 solved worlds; at 1 s, solving from 40 worlds
# against never solving: +0.33 [-0.37, 1.04] in 60 deals).
STOCK_SHARE = 0.9
STOCK_SOLVED_LEAST = 40
# How sure the playouts must be before a decision before play departs from HARD's, in
# standard errors of their difference over the worlds, by the contracts the bids choose
# between (Minnesota: high or low; Swedish Whist: spel or noll); elsewhere (Plockwhist's
# open bid, the German talon) the better mean wins.
# Minnesota, MASTER against plain PIMC, 400 duplicate deals at 0.3 s (31 worlds a bid),
# seed 1: +0.40 [0.13, 0.67] at one standard error, +0.29 [0.02, 0.56] at none; on fresh
# seeds 2-4, 1,200 deals: +0.32 [0.17, 0.47]. Swedish Whist never (so it plays no playouts
# for them): bidding by playouts lost to HARD's bids, against plain PIMC at 0.3 s, seed 1,
# -0.45 [-0.81, -0.09] over 400 deals; HARD's bids 0.00 [-0.39, 0.39] over 200.
SWITCH_LEAD: dict[tuple[str, ...], float] = {("high", "low"): 1.0, ("spel", "noll"): math.inf}

# Whether MASTER weighs its worlds by inference (``whist.bots.inference``) unless told.
# Duplicate tournaments have found no variant or contract where it pays yet; level
# ``master-inference`` measures it.
INFERENCE_BY_DEFAULT = False


def solve_cost(view: View, tricks_left: int) -> float:
    """Rough seconds to evaluate one world on the 2-core machine (a fit to the solvers'
    times, each about 2.2 times dearer per trick more: DDS for four-hand most tricks, ours
    otherwise), to size the number of worlds to the budget."""
    if view.facts.has(TABLE_PILES):
        solving = JAPANESE_SOLVE * 2.5 ** (tricks_left - JAPANESE_EXACT)  # ours, with piles
    elif view.players == 2:
        solving = TWO_HAND_SOLVE * 2.2 ** (tricks_left - 13)  # ours, two hands
    elif wants_fewest(view):
        solving = FEWEST_SOLVE * 2.2 ** (tricks_left - FEWEST_EXACT)  # ours, four-hand misère
    else:
        solving = 0.02 * 2.2 ** (tricks_left - 13)  # DDS
    return OVERHEAD + solving


@dataclass(frozen=True)
class Estimate:
    """What MASTER's search gives the action it chose (``MasterBot.advise``, a hint at a
    practice table): ``margin``, the deal's points for the seat's side less the other
    side's, the mean over the sampled worlds (what PIMC and the playouts compare); or, where
    Japanese Whist is still played by rollouts, ``tricks``, the seat's mean tricks this deal."""

    value: float
    unit: Literal["margin", "tricks"]
    worlds: int  # sampled worlds (deals, for rollouts) behind the mean

    def to_json(self) -> dict[str, float | int | str]:
        return {"value": round(self.value, 2), "unit": self.unit, "worlds": self.worlds}


class MasterBot(CardPlayer):
    level = "master"

    def __init__(
        self,
        least: int = 6,
        most: int = 200,
        inference: bool | None = None,
        level: str = "master",
        playout_search: bool = True,
        hard_ties: bool = True,
        playout_decisions: bool = True,
    ) -> None:
        self.level = level
        self.least = least  # worlds per decision, whatever the budget
        self.most = most  # worlds per decision at most
        self.inference = inference  # None: INFERENCE_BY_DEFAULT
        # False: HARD plays where solving cannot reach yet (the stock phase, early misère)
        self.playout_search = playout_search
        self.hard_ties = hard_ties  # False: the first of the best cards
        self.playout_decisions = playout_decisions  # False: HARD bids, bottoms, talon
        self.hard = HardBot()
        self.budget = 1.0
        self.deadline = 0.0
        # The last choice's estimate, where a search of MASTER's own made it (``advise``).
        self.estimate: Estimate | None = None

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        # The number of worlds is planned from the budget, so that a seed gives the same
        # choice; the deadline only guards against a plan gone badly wrong.
        self.budget = budget
        self.deadline = time.perf_counter() + OVERRUN * budget
        self.estimate = None
        return super().choose(view, rng, budget)

    def advise(self, view: View, rng: Random, budget: float) -> tuple[Action, Estimate | None]:
        """The action ``choose`` gives, with what MASTER's search expects of it; None where
        no search of MASTER's own chose it (a forced action, HARD's choice where solving
        and playouts do not reach). The same view, seed and budget give the same action as
        ``choose``: a hint is what MASTER would play in the seat."""
        action = self.choose(view, rng, budget)
        return action, self.estimate

    def _estimated(self, tally: Tally, key: Card) -> None:
        if tally.worlds:
            self.estimate = Estimate(tally.mean(key), "margin", tally.worlds)

    def worlds(self, view: View, tricks_left: int) -> int:
        """Worlds to solve: as many as the budget pays for, within [least, most]."""
        planned = int(SHARE * self.budget / solve_cost(view, tricks_left))
        return max(self.least, min(self.most, planned))

    def decide(self, view: View, legal: tuple[Action, ...], rng: Random) -> Action:
        preferred = self.hard.decide(view, legal, rng)
        sure = SWITCH_LEAD.get(view.facts.contracts, 0.0)
        playouts = self.playout_decisions and sure < math.inf
        choices = decision_choices(view, legal) if playouts else []
        if len(choices) < 2:
            return preferred
        tally = self.playout_tally(view, choices, rng)
        tied = tally.best()
        if preferred not in choices:
            chosen = tied[0]
        else:
            hard = choices.index(preferred)
            if hard in tied:
                chosen = hard if self.hard_ties else tied[0]
            else:
                chosen = tied[0] if tally.lead(tied[0], hard) > sure else hard
        self._estimated(tally, chosen)
        return choices[chosen]

    def play(self, view: View, cards: list[Card], rng: Random) -> Card:
        if self.playout_search and (view.stage == 1 or view.players == 4) and not solvable(view):
            # While the stock lasts, and in four-hand misère before it can be solved: each
            # candidate played on to where solving can take over.
            assert view.seat is not None
            kept = candidates(view, cards)
            plays = [Play(view.seat, card) for card in kept]
            by_index = self.playout_tally(view, plays, rng)
            # The same tally by card rather than by index (Card is an int: read it as one).
            by_card = [({kept[i]: v for i, v in values.items()}, w) for values, w in by_index.seen]
            tally = Tally(kept, by_card)
            best = tally.best()
        elif solvable(view):
            tally = self.tally(view, cards, rng)
            best = tally.best()
        elif self.playout_search and view.facts.has(TABLE_PILES):
            # HARD's rollouts, as many as the budget pays for
            samples = self.rollouts(len(cards))
            card, averages = best_by_rollouts(view, cards, rng, samples)
            assert view.seat is not None
            mine = view.won[view.seat % 2] + averages[card]  # tricks won so far, and to come
            self.estimate = Estimate(mine, "tricks", samples)
            return card
        else:
            return self.hard.play(view, cards, rng)
        if len(best) == 1 or not self.hard_ties:
            chosen = best[0]
        else:
            preferred = self.hard.play(view, best, rng)
            # HARD's exact stage-2 endings choose from the whole hand: keep to the tied cards.
            chosen = preferred if preferred in best else best[0]
        self._estimated(tally, chosen)
        return chosen

    def rollouts(self, choices: int) -> int:
        """Japanese rollouts per choice (every choice is rolled out on the same deals)."""
        planned = int(SHARE * self.budget / (ROLLOUT_COST * choices))
        return max(self.least, min(ROLLOUTS_MOST, planned))

    def playout_tally(self, view: View, choices: Sequence[Action], rng: Random) -> Tally:
        """The ``choices`` (by index) compared by playouts in sampled worlds."""
        solving, planned = self.playouts(view, len(choices))

        def evaluate(world: World, by: float | None) -> dict[int, float] | None:
            return choice_margins(view, world, choices, rng, self.hard, solving, by)

        keys = list(range(len(choices)))
        return self.search(view, keys, rng, evaluate, planned, PLAYOUT_LEAST)

    def playouts(self, view: View, choices: int) -> tuple[bool, int]:
        """Whether playouts end in an exact solve (when the budget pays for ``least`` worlds
        that way, in a stock game STOCK_SOLVED_LEAST or as many as there are, the case of
        the last stock trick; else a stock game's stage 2 is estimated and four hands are
        played out), and how many worlds to play out."""
        stock = view.facts.has(STOCK)
        share = STOCK_SHARE if stock else SHARE
        exact = share * self.budget / (choices * cost(view, True) + OVERHEAD)
        rough = share * self.budget / (choices * cost(view, False) + OVERHEAD)
        least = min(STOCK_SOLVED_LEAST, world_count(view)) if stock else self.least
        solving = exact >= least
        return solving, max(PLAYOUT_LEAST, min(self.most, int(exact if solving else rough)))

    def search(
        self,
        view: View,
        keys: list[int],
        rng: Random,
        evaluate: Callable[[World, float | None], dict[int, float] | None],
        planned: int,
        least: int | None = None,
    ) -> Tally:
        return run(
            view,
            keys,
            rng,
            self.deadline,
            evaluate,
            least=min(planned, self.least if least is None else least),
            most=planned,
            inference=self.uses_inference(view),
        )

    def tally(self, view: View, cards: list[Card], rng: Random) -> Tally:
        left = tricks_left(view)
        table = margins(view, left)

        def evaluate(world: World, by: float | None) -> dict[Card, float]:
            return solved_margins(view, world, table)  # one solve: not worth giving up

        return self.search(view, cards, rng, evaluate, self.worlds(view, left))

    def uses_inference(self, view: View) -> bool:
        return self.inference if self.inference is not None else INFERENCE_BY_DEFAULT


def decision_choices(view: View, legal: tuple[Action, ...]) -> list[Action]:
    """The choices worth playing out: for a bid or a bottom card, playing for tricks or not
    (the card shown for it as HARD picks it); keep or discard. (A Japanese trump is HARD's
    choice: HARD's Japanese play is itself a rollout search, too slow to play deals out
    with, and rolling out every suit did no better.)"""
    first = legal[0]
    if isinstance(first, Bid | Bottom):
        options = [want_tricks_choice(view, legal, wants) for wants in (True, False)]
        return list(dict.fromkeys(options))
    if isinstance(first, Take):
        return list(legal)
    return []


def tricks_left(view: View) -> int:
    """Tricks still to be won, the one in progress included (the seat to act still holds a
    card for each)."""
    if view.facts.has(TABLE_PILES):
        return 26 - len(view.tricks)
    return view.hand.bit_count()


def solvable(view: View) -> bool:
    """Whether to solve this card-play position exactly once the hidden cards are guessed:
    four-player deals (misère ones from ``FEWEST_EXACT`` tricks left); two-player deals
    once the stock is gone; Japanese Whist after trick 1 (hands unseen until then) from
    ``JAPANESE_EXACT`` tricks left. Elsewhere HARD's play stands in."""
    if view.players == 4:
        return not wants_fewest(view) or tricks_left(view) <= FEWEST_EXACT
    if view.facts.has(TABLE_PILES):
        return bool(view.tricks) and tricks_left(view) <= JAPANESE_EXACT
    return view.stage == 2
