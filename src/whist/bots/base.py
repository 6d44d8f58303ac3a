"""The one interface every computer player has: a view in, one legal action out.

A bot gets the seat's ``View`` (what that seat may know, RULES.md §8), a random generator
and a time budget in seconds. It can reach nothing else — no match, no deal state, no other
seat's view — because nothing else is passed to it and this package never imports the
match driver or the state (tests/test_layers.py checks that).
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from whist.core.actions import Action
from whist.core.views import View


class Bot(Protocol):
    level: str

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        """One of ``view.legal`` (never a resignation)."""
        ...
