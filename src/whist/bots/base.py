"""The one interface every computer player has: a view in, one legal action out.

A bot gets the seat's ``View`` (what that seat may know: docs/rules.md, "What each seat may
see"), a random generator and a time budget in seconds. It can reach nothing else — no match, no
deal state, no other seat's view — because nothing else is passed to it and this package never
imports the match driver or the state (tests/test_layers.py checks that).
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Play, Take
from whist.core.cards import Card
from whist.core.views import View


class Bot(Protocol):
    level: str

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        """One of ``view.legal`` (never a resignation)."""
        ...


class CardPlayer:
    """The shape MEDIUM and HARD share: a forced action is taken at once; otherwise a
    bid/bottom/trump/talon decision or the card to play."""

    level = "?"

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Bid | Bottom | ChooseTrump | Take):
            return self.decide(view, legal, rng)
        cards = [a.card for a in legal if isinstance(a, Play)]
        return Play(legal[0].seat, self.play(view, cards, rng))

    def decide(self, view: View, legal: tuple[Action, ...], rng: Random) -> Action:
        raise NotImplementedError

    def play(self, view: View, cards: list[Card], rng: Random) -> Card:
        raise NotImplementedError
