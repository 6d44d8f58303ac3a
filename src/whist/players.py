"""Computer players.

A player is a function ``choose(view, rng) -> action``: it sees only the ``View`` of its own
seat (RULES.md §8, bots obey the same rule as people) and draws any randomness from ``rng``.
The only player so far picks uniformly among the legal actions; real bots will keep this
signature so that the terminal game (``whist.terminal``) can take them unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from whist.core.actions import Action
from whist.core.views import View

Player = Callable[[View, random.Random], Action]


def choose(view: View, rng: random.Random) -> Action:
    """A legal action of ``view.seat``, uniformly at random (never resigns)."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action now")
    return rng.choice(view.legal)
