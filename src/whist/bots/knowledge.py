"""Facts a player works out from its view: cards gone, cards still out, voids shown, who is
winning the trick. Pure functions of a ``View``; nothing here can see more than the view.
"""

from __future__ import annotations

from dataclasses import dataclass

from whist.core.cards import SUIT_MASK, Card, Hand, Suit, cards_in
from whist.core.views import View

LOW_MODES = frozenset({"low", "noll", "pass"})


@dataclass(frozen=True)
class Knowledge:
    seat: int
    players: int
    trump: Suit | None
    mine: Hand  # cards this seat may play from (hand, and Japanese face-up table cards)
    table: Hand  # Japanese Whist: this seat's face-up table cards (playing one turns up another)
    played: Hand  # every card played this deal, the trick in progress included
    out: Hand  # cards that may still be in another seat's hand or unseen (not mine, not gone)
    known: tuple[Hand, ...]  # per seat: cards known to be held by that seat (not yet played)
    voids: tuple[int, ...]  # per seat: bit s set <=> that seat has shown it holds no suit s
    wants_tricks: bool  # the deal's goal for this seat: most tricks (True) or fewest
    trick: tuple[Card, ...]
    leader: int

    @property
    def partner(self) -> int | None:
        return (self.seat + 2) % 4 if self.players == 4 else None

    def is_teammate(self, seat: int) -> bool:
        return seat == self.seat or seat == self.partner

    def to_play_after_me(self) -> list[int]:
        """Seats that still play to the current trick after this seat."""
        count = self.players - len(self.trick) - 1
        return [(self.seat + k) % self.players for k in range(1, count + 1)]

    def higher_out(self, card: Card) -> Hand:
        """Cards of the same suit above ``card`` that another seat may still hold."""
        suit_mask = SUIT_MASK[card // 13]
        above = suit_mask & ~((1 << (card + 1)) - 1)
        return above & self.out

    def is_master(self, card: Card) -> bool:
        """No card of its suit that could beat it is still out."""
        return not self.higher_out(card)

    def may_hold(self, seat: int, suit: Suit) -> bool:
        return not (self.voids[seat] >> suit) & 1


def winning(
    trick: tuple[Card, ...], leader: int, players: int, trump: Suit | None
) -> tuple[int, Card]:
    """(seat, card) currently winning a trick in progress."""
    best = trick[0]
    best_index = 0
    for i, card in enumerate(trick[1:], start=1):
        if card // 13 == best // 13:
            if card > best:
                best, best_index = card, i
        elif card // 13 == trump:
            best, best_index = card, i
    return (leader + best_index) % players, best


def beats(card: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``card`` played now would beat the trick's current best card."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def know(view: View) -> Knowledge:
    assert view.seat is not None
    seat = view.seat
    players = view.players
    mine = view.hand | view.table_cards
    played = 0
    voids = [0] * players
    # A player who does not follow suit has none left. German stage 1 refills the hands
    # (and may be played freely), so its tricks show no lasting void.
    for trick in view.tricks:
        _note(trick.cards, trick.leader, trick.stage, players, voids)
        for card in trick.cards:
            played |= 1 << card
    if view.trick:
        assert view.leader is not None
        _note(view.trick, view.leader, view.stage, players, voids)
        for card in view.trick:
            played |= 1 << card
    gone = played
    for card in view.discards:
        gone |= 1 << card
    known = [0] * players
    for other in range(players):
        if other == seat:
            continue
        for card in view.shown[other]:
            known[other] |= 1 << card
        for pile in view.table[other] if view.table else ():
            if pile.up is not None:
                known[other] |= 1 << pile.up
        known[other] &= ~gone
    out = ((1 << 52) - 1) & ~mine & ~gone
    if view.upcard is not None:
        out &= ~(1 << view.upcard)  # on the stock, not in a hand
    if players == 2 and view.stage == 2:
        # Stage 2 of German Whist and Plockwhist: the other hand is everything still out.
        known[1 - seat] = out
    mode = view.contract.mode if view.contract is not None else None
    return Knowledge(
        seat=seat,
        players=players,
        trump=view.trump,
        mine=mine,
        table=view.table_cards,
        played=played,
        out=out,
        known=tuple(known),
        voids=tuple(voids),
        wants_tricks=mode not in LOW_MODES,
        trick=view.trick,
        leader=view.leader if view.leader is not None else seat,
    )


def suit_cards(mask: Hand, suit: Suit) -> list[Card]:
    return list(cards_in(mask & SUIT_MASK[suit]))


def _note(cards: tuple[Card, ...], leader: int, stage: int, players: int, voids: list[int]) -> None:
    if stage == 1:
        return
    lead_suit = cards[0] // 13
    for i, card in enumerate(cards[1:], start=1):
        if card // 13 != lead_suit:
            voids[(leader + i) % players] |= 1 << lead_suit
