"""Rule mechanics every variant shares: seats, sides, trick winners, scoring blocks."""

from __future__ import annotations

from collections.abc import Sequence

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


def bid_points(
    won: Sequence[int], makers: int, *, set_factor: int = 1, lose_under_seven: bool = False
) -> list[int]:
    """A deal where ``makers`` (a seat or a side) undertook to take seven tricks or more.
    Made: they score their tricks over six.  Set: the other side scores its tricks over six,
    times ``set_factor``; or, with ``lose_under_seven`` (South Dakota), the makers lose a
    point per trick they were short of seven."""
    if won[makers] >= 7:
        return points_for(makers, over_six(won[makers]))
    if lose_under_seven:
        return points_for(makers, -under_seven(won[makers]))
    return points_for(1 - makers, set_factor * over_six(won[1 - makers]))


def fewest_points(won: Sequence[int], *, lose_over_six: bool = False) -> list[int]:
    """A deal for the fewest tricks (two sides, thirteen tricks, so never a tie): the side
    with fewer scores a point per trick under seven; or, with ``lose_over_six`` (South
    Dakota), the side with more loses a point per trick over six."""
    fewer = 0 if won[0] < won[1] else 1
    if lose_over_six:
        return points_for(1 - fewer, -over_six(won[1 - fewer]))
    return points_for(fewer, under_seven(won[fewer]))
