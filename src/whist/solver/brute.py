"""Reference solver: memoised plain minimax over single card plays, no pruning, no tricks.

Written to be obviously right rather than fast; it shares only :class:`Position` (input
checking and the legal-card rule) with the real solver.  Fine for a handful of tricks."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from whist.solver.position import Position


def trick_winner(trick: Sequence[int], leader: int, trump: int | None, players: int) -> int:
    """The seat that wins a full ``trick`` led by ``leader``."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if (c // 13 == b // 13 and c > b) or (c // 13 != b // 13 and c // 13 == trump):
            best = i
    return (leader + best) % players


def brute(position: Position, most: bool) -> dict[int, int]:
    """``{card: tricks of the side to act}`` for every legal card of ``position``."""
    players = position.players
    trump = position.trump

    def side(seat: int) -> int:
        return seat % 2 if players == 4 else seat

    @cache
    def value(hands: tuple[int, ...], leader: int, trick: tuple[int, ...]) -> int:
        """Tricks side 0 takes from here on; side 0 maximises them when ``most`` (else
        minimises), the other side does the opposite."""
        if len(trick) == players:
            w = trick_winner(trick, leader, trump, players)
            won = 1 if side(w) == 0 else 0
            if not any(hands):
                return won
            return won + value(hands, w, ())
        here = Position(hands, trump, leader, trick, position.blockers)
        seat = here.to_act
        results = []
        for card in here.legal():
            rest = list(hands)
            rest[seat] &= ~(1 << card)
            results.append(value(tuple(rest), leader, (*trick, card)))
        wants_more = (side(seat) == 0) == most
        return max(results) if wants_more else min(results)

    seat = position.to_act
    left = position.tricks_left
    out: dict[int, int] = {}
    for card in position.legal():
        rest = list(position.hands)
        rest[seat] &= ~(1 << card)
        v = value(tuple(rest), position.leader, (*position.trick, card))
        out[card] = v if side(seat) == 0 else left - v
    return out
