"""Decisions other than card play, shared by every level: each level supplies how much it
thinks a hand is worth, these functions turn that into a bid, a bottom card, a trump suit
or a talon choice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Take
from whist.core.cards import SUIT_MASK, Card, Hand, cards_in, is_red
from whist.core.views import View

HCP = (0,) * 9 + (1, 2, 3, 4)  # high-card points by rank index 0..12 (J=1 .. A=4)


def hcp(hand: Hand) -> int:
    return sum(HCP[card % 13] for card in cards_in(hand))


def suit_length(hand: Hand, suit: int) -> int:
    return (hand & SUIT_MASK[suit]).bit_count()


def want_tricks_choice(
    view: View, legal: Sequence[Action], wants: bool, rng: Random | None = None
) -> Action:
    """Turn "I want to play for tricks" into this variant's bid or bottom card."""
    first = legal[0]
    if isinstance(first, Bid):
        word = {"high": wants, "low": not wants, "spel": wants, "pass": not wants}
        return next(a for a in legal if isinstance(a, Bid) and word[a.bid])
    if isinstance(first, Bottom):
        bottoms = [a for a in legal if isinstance(a, Bottom)]
        colour = [a for a in bottoms if is_red(a.card) == wants] or bottoms
        if rng is not None:
            return rng.choice(colour)
        # The card shown is public once revealed: give away the least, the lowest one.
        return min(colour, key=lambda a: (a.card % 13, a.card))
    raise ValueError(f"not a bid decision: {first!r}")


def trump_choice(view: View, legal: Sequence[Action], suit_value: Callable[[int], float]) -> Action:
    trumps = [a for a in legal if isinstance(a, ChooseTrump)]
    return max(trumps, key=lambda a: (suit_value(a.suit), -a.suit))


def take_choice(legal: Sequence[Action], keep: bool) -> Action:
    return next(a for a in legal if isinstance(a, Take) and a.keep == keep)


def offered_card(view: View) -> Card | None:
    """The stock card a talon decision is about: the face-up card, or the unseen card only
    this seat was shown."""
    return view.offer if view.offer is not None else view.upcard
