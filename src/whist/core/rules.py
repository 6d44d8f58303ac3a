"""Rule mechanics every variant shares: seats, sides, trick winners, scoring blocks."""

from __future__ import annotations

from whist.core.cards import Card, Suit


def left(seat: int, players: int) -> int:
    """The seat to the left, who acts next (seats are numbered clockwise)."""
    return (seat + 1) % players


def right(seat: int, players: int) -> int:
    return (seat - 1) % players


def side_of(seat: int) -> int:
    """Team in four-player games (seats 0 and 2 are team 0), the seat itself in two-player
    games: in both cases ``seat % 2``."""
    return seat % 2


def trick_winner(cards: list[Card], trump: Suit | None) -> int:
    """Index into ``cards`` (playing order) of the winning card: the highest trump if any
    trump was played, else the highest card of the led suit. Off-suit cards never win."""
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card // 13 == best_card // 13:
            if card > best_card:
                best, best_card = i, card
        elif card // 13 == trump:
            best, best_card = i, card
    return best


def over_six(tricks: int) -> int:
    """Points for the tricks beyond the six 'book' tricks, never negative."""
    return max(0, tricks - 6)


def under_seven(tricks: int) -> int:
    """Low and null games: one point per trick below seven."""
    return max(0, 7 - tricks)


def points_for(side: int, value: int) -> list[int]:
    """Points of a deal where only ``side`` scores ``value``."""
    points = [0, 0]
    points[side] = value
    return points
