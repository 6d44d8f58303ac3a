"""Small card-play building blocks shared by MEDIUM and HARD."""

from __future__ import annotations

from collections.abc import Sequence

from whist.core.cards import Card, Suit


def cost(card: Card, trump: Suit | None) -> int:
    """How much a card is worth keeping: its rank, trumps above every plain card."""
    return card % 13 + (13 if card // 13 == trump else 0)


def cheapest(cards: Sequence[Card], trump: Suit | None) -> Card:
    return min(cards, key=lambda c: (cost(c, trump), c))


def dearest(cards: Sequence[Card], trump: Suit | None) -> Card:
    return max(cards, key=lambda c: (cost(c, trump), c))


def highest_rank(cards: Sequence[Card]) -> Card:
    return max(cards, key=lambda c: (c % 13, c))


def lowest_rank(cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: (c % 13, c))
