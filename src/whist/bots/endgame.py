"""Exact play of small two-hand endings where both hands are known (German Whist and
Plockwhist stage 2, where the other hand follows by elimination). Plain minimax with a
memo: fine for the last few tricks; the real solver arrives with MASTER."""

from __future__ import annotations

from whist.core.cards import SUIT_MASK, Card, Hand, Suit, cards_in


def best_card(
    mine: Hand, theirs: Hand, trump: Suit | None, led: Card | None, most: bool
) -> tuple[Card, int]:
    """The card to play (leading, or following ``led``) and the tricks it then takes from
    here on, for a seat playing for the most tricks (``most``) or the fewest, against an
    opponent playing for the opposite."""
    memo: dict[tuple[Hand, Hand, bool], int] = {}

    def better(a: int, b: int, for_me: bool) -> bool:
        return (a > b) == (most == for_me)

    def solve(lead: Hand, follow: Hand, leader_is_me: bool) -> int:
        """My tricks from here, ``lead`` to lead."""
        if not lead:
            return 0
        key = (lead, follow, leader_is_me)
        cached = memo.get(key)
        if cached is not None:
            return cached
        best: int | None = None
        for card in cards_in(lead):
            value = reply(lead ^ (1 << card), follow, card, leader_is_me)
            if best is None or better(value, best, leader_is_me):
                best = value
        assert best is not None
        memo[key] = best
        return best

    def reply(lead_rest: Hand, follow: Hand, card: Card, leader_is_me: bool) -> int:
        """My tricks once ``card`` is led and the follower answers as well as it can."""
        best: int | None = None
        for answer in _playable(follow, card):
            value = outcome(lead_rest, follow ^ (1 << answer), card, answer, leader_is_me)
            if best is None or better(value, best, not leader_is_me):
                best = value
        assert best is not None
        return best

    def outcome(
        lead_rest: Hand, follow_rest: Hand, card: Card, answer: Card, leader_is_me: bool
    ) -> int:
        if _wins(answer, card, trump):
            follower_is_me = not leader_is_me
            return int(follower_is_me) + solve(follow_rest, lead_rest, follower_is_me)
        return int(leader_is_me) + solve(lead_rest, follow_rest, leader_is_me)

    choices: list[tuple[int, Card]] = []
    for card in _playable(mine, led):
        if led is None:
            value = reply(mine ^ (1 << card), theirs, card, True)
        else:
            value = outcome(theirs, mine ^ (1 << card), led, card, False)
        choices.append((value, card))
    if most:
        value, card = max(choices, key=lambda vc: (vc[0], -vc[1]))
    else:
        value, card = min(choices)
    return card, value


def _playable(hand: Hand, lead: Card | None) -> list[Card]:
    if lead is not None:
        follow = hand & SUIT_MASK[lead // 13]
        if follow:
            return list(cards_in(follow))
    return list(cards_in(hand))


def _wins(card: Card, lead: Card, trump: Suit | None) -> bool:
    """Whether the follower's ``card`` beats the led card."""
    if card // 13 == lead // 13:
        return card > lead
    return card // 13 == trump
