"""EASY: random legal moves and unreliable bids.

What it knows: only its legal actions and, for bids, a rough look at its hand.
What it does: plays a random legal card; bids at random with a slight lean to its hand
(about 60/40 for a strong or weak hand); chooses trump, bottom card and talon at random.
"""

from __future__ import annotations

from random import Random

from whist.bots.decisions import hcp, want_tricks_choice
from whist.core.actions import Action, Bid, Bottom
from whist.core.views import View


class EasyBot:
    level = "easy"

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        legal = view.legal
        if isinstance(legal[0], Bid | Bottom):
            size = max(1, view.hand.bit_count())
            average = 10 * size / 13  # high-card points of an average hand of this size
            lean = max(-0.1, min(0.1, (hcp(view.hand) - average) / 40))
            wants = rng.random() < 0.5 + lean
            return want_tricks_choice(view, legal, wants, rng)
        return rng.choice(legal)
