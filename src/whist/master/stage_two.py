"""A fast estimate of stage 2 of a stock game (German Whist, Plockwhist): two hands of 13
cards, every card known, the leader's tricks under best play. A playout of the stock phase
ends here when the budget does not pay for solving stage 2 exactly, so MASTER's stock-phase
play rests on it.

The estimate is linear in what tells the two hands apart (the leader's count minus the
other hand's): trump length, top trumps, side-suit top cards, side-suit length beyond the
other hand's, voids, and side cards the other hand can ruff. Its weights are a least-squares
fit to exact solutions of stage-2 positions reached by HARD's play, one set for a trump game
(German Whist) and one for no trump (Plockwhist): ``bench/stage_two.py`` makes the fit and
measures it. In a pass game (playing to lose) it is only where the exact search starts.
"""

from __future__ import annotations

from collections.abc import Sequence

from whist.core.cards import SUIT_MASK, Hand

# (trump length, top trumps, side top cards, side length edge, voids, ruffable, constant)
TRUMP_WEIGHTS = (0.30, 0.365, 0.30, -0.30, -0.365, -0.338, 6.558)
NO_TRUMP_WEIGHTS = (0.0, 0.0, 0.50, 0.0, 0.363, -0.123, 7.195)


def top_run(mine: int, both: int) -> int:
    """How many of a suit's highest cards still out (``both``: the two hands' cards of the
    suit) are in ``mine``, counted from the top down to the first that is not."""
    run = 0
    while both:
        top = 1 << (both.bit_length() - 1)
        if not mine & top:
            break
        run += 1
        both ^= top
    return run


def features(mine: Hand, theirs: Hand, trump: int | None) -> tuple[int, ...]:
    """One hand's counts against the other: trump length, top trumps, side-suit top cards,
    side-suit length beyond the other hand's, side-suit voids, side cards the other hand
    is void in (so can ruff)."""
    trumps = top_trumps = side_tops = edge = voids = ruffable = 0
    for suit in range(4):
        x = mine & SUIT_MASK[suit]
        y = theirs & SUIT_MASK[suit]
        run = top_run(x, x | y)
        if suit == trump:
            trumps, top_trumps = x.bit_count(), run
            continue
        side_tops += run
        edge += max(0, x.bit_count() - y.bit_count())
        voids += not x
        if x and not y:
            ruffable += x.bit_count()
    return trumps, top_trumps, side_tops, edge, voids, ruffable


def differences(hands: Sequence[Hand], trump: int | None, leader: int) -> tuple[int, ...]:
    """The leader's features minus the other hand's (what the weights multiply)."""
    lead = features(hands[leader], hands[1 - leader], trump)
    other = features(hands[1 - leader], hands[leader], trump)
    return tuple(a - b for a, b in zip(lead, other, strict=True))


def estimate(hands: Sequence[Hand], trump: int | None, leader: int) -> int:
    """The leader's stage-2 tricks, estimated (0 to the tricks left)."""
    *weights, constant = NO_TRUMP_WEIGHTS if trump is None else TRUMP_WEIGHTS
    diffs = differences(hands, trump, leader)
    value = constant + sum(w * d for w, d in zip(weights, diffs, strict=True))
    return min(max(round(value), 0), hands[leader].bit_count())
