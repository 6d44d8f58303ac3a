"""Searching where solving alone cannot reach: a choice is tried in every sampled world by
playing the deal on from it with the real rules engine, HARD acting for every seat, to where
the rest can be solved exactly — in German Whist and Plockwhist the start of stage 2, whose
hands are all known by then; with four hands ``FEWEST_EXACT`` tricks left — or to the end.
The choice with the best average margin in the deal's points wins. This is one step of
policy improvement over HARD (a rollout algorithm): HARD's rule of thumb for this one choice
is replaced by what each choice leads to when play goes on as HARD would play it.

MASTER uses it for the card to play while the stock lasts and in four-hand misère before
it can be solved, and for the decisions before play: bids, bottom cards, talon choices.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from random import Random

from whist.bots.base import CardPlayer
from whist.bots.knowledge import LOW_MODES
from whist.bots.sampler import World, played_mask
from whist.core.actions import Action
from whist.core.cards import SUIT_MASK, Card
from whist.core.match import Match
from whist.core.state import Contract, Deal, Phase
from whist.core.views import View, view_for
from whist.master.determinize import determinize, hidden_of
from whist.master.scoring import margin
from whist.master.stage_two import estimate
from whist.solver import solve_value

FEWEST_EXACT = 8  # four hands: solved exactly from this many tricks left (misère's limit)
# Rough seconds on the 2-core machine under load, about the means (every card's value):
STAGE_ONE_COST = 0.0005  # per world and choice: HARD through the rest of stage 1
TWO_HAND_SOLVE = 0.005  # two hands solved from 13 tricks (stage 2 of a stock game)
# Four hands (Minnesota deals from their bids, at 0.087 ms a trick, 0.57 and 3.56 ms a solve,
# on the quiet machine; load makes them about 1.4 times dearer):
HARD_TRICK = 0.00012  # one trick played by HARD
MOST_SOLVE = 0.0008  # solved for most tricks from FEWEST_EXACT tricks left, after HARD's play
FEWEST_SOLVE = 0.005  # the same in misère
# A playout needs only the value (solve_value), not every card's: about half the cost (mean
# of two processes side by side: two hands from stage 2 after HARD's stage 1, 1.3 against
# 2.2 ms; four-hand no-trump misère from 8 tricks, 2.2 against 4.4 ms).
VALUE_SHARE = 0.55

# What the end of a deal is worth to the view's side: its margin (MASTER) or its tricks.
Outcome = Callable[[View, Sequence[int], Contract | None], float]


def candidates(view: View, cards: Sequence[Card]) -> list[Card]:
    """One card of each run of touching cards: two cards of a suit with no card between
    them that is still out of this hand (in the other hand, the stock or the upcard) do the
    same in every trick to come. The lowest of a run stands for it."""
    outside = ~(view.hand | played_mask(view))
    kept: list[Card] = []
    for card in sorted(cards):
        if kept and kept[-1] // 13 == card // 13:
            between = ((1 << card) - (1 << (kept[-1] + 1))) & SUIT_MASK[card // 13]
            if not between & outside:
                continue
        kept.append(card)
    return kept


def cost(view: View, solving: bool) -> float:
    """Rough seconds to try one choice in one world (the 2-core machine, under load). Four
    hands: HARD's tricks, and when ``solving`` the last FEWEST_EXACT solved for the deal's
    objective (before the bids settle it, either may come: the mean of the two)."""
    if view.players == 4:
        left = view.hand.bit_count()
        if not solving:
            return HARD_TRICK * left
        if view.contract is None:
            solve = (MOST_SOLVE + FEWEST_SOLVE) / 2
        else:
            solve = FEWEST_SOLVE if view.contract.mode in LOW_MODES else MOST_SOLVE
        return HARD_TRICK * max(0, left - FEWEST_EXACT) + VALUE_SHARE * solve
    return STAGE_ONE_COST + (VALUE_SHARE * TWO_HAND_SOLVE if solving else 0.0)


def choice_margins(
    view: View,
    world: World,
    choices: Sequence[Action],
    rng: Random,
    player: CardPlayer,
    solving: bool,
    by: float | None = None,
    outcome: Outcome = margin,
) -> dict[int, float] | None:
    """Each choice's margin in this world (keyed by its index): taken now, the deal played
    on by ``player``; stage 2 of a stock game solved exactly (``solving``) or estimated.
    ``None`` if the clock passes ``by`` before every choice is tried. ``outcome`` values
    the end of the deal (the analysis counts the side's tricks instead of the margin)."""
    values: dict[int, float] = {}
    for index, action in enumerate(choices):
        if by is not None and time.perf_counter() >= by:
            return None
        match = determinize(view, hidden_of(view, world, rng))
        match.apply(action)
        values[index] = float(play_on(view, match, rng, player, solving, outcome))
    return values


def play_on(
    view: View,
    match: Match,
    rng: Random,
    player: CardPlayer,
    solving: bool,
    outcome: Outcome = margin,
) -> float:
    """The margin of the view's side at the end of the match's current deal, ``player``
    acting for every seat until the rest can be solved: stage 2 of a stock game (solved, or
    estimated when not ``solving``), four hands from ``FEWEST_EXACT`` tricks left (when
    ``solving``; else played out)."""
    deal = match.deal
    assert deal is not None
    while not deal.complete:
        if deal.stage == 2 or (
            solving
            and deal.phase is Phase.PLAY
            and match.players == 4
            and not deal.trick
            and deal.hands[deal.leader].bit_count() <= FEWEST_EXACT
        ):
            return _rest(view, deal, solving, outcome)
        seat = match.next_seat()
        assert seat is not None
        match.apply(player.choose(view_for(match, seat), rng, 0.0))
    return outcome(view, deal.won, deal.contract)


def _rest(view: View, deal: Deal, solving: bool, outcome: Outcome) -> float:
    """The margin once the tricks left, from a trick's start with every hand known, are
    solved exactly (or, two hands not ``solving``, estimated: ``whist.master.stage_two``)."""
    leader = deal.leader
    if solving:
        # The objective is the deal's contract in the world (a bid may have set it there).
        most = deal.contract is None or deal.contract.mode not in LOW_MODES
        # two hands: the estimate is where the search starts (fewer tests when it is close)
        guess = estimate(deal.hands, deal.trump, leader) if len(deal.hands) == 2 else None
        taken = solve_value(deal.hands, deal.trump, leader, [], most, guess=guess)
    else:
        taken = estimate(deal.hands, deal.trump, leader)
    side = leader % 2
    won = list(deal.won)
    won[side] += taken
    won[1 - side] += deal.hands[leader].bit_count() - taken
    return outcome(view, won, deal.contract)
