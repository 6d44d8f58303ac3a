"""MEDIUM: plays each trick on its own merits and takes its partner into account.

What it knows: its hand, the trick on the table and who is winning it, the trump suit.
What it does: never overtakes a partner who is winning the trick with a sure card (an ace,
or when nobody plays after it) and then discards its lowest card; otherwise wins as
cheaply as it can; ducks with its lowest card when it cannot win. It leads the highest
card of its longest plain suit. It plays every contract the same way (it does not turn
round for low or null games). Bids come from high-card points (A=4, K=3, Q=2, J=1).
It counts no cards and remembers no voids.
"""

from __future__ import annotations

from random import Random

from whist.bots.base import CardPlayer
from whist.bots.decisions import (
    hcp,
    offered_card,
    suit_length,
    take_choice,
    trump_choice,
    want_tricks_choice,
)
from whist.bots.knowledge import beats, winning
from whist.bots.tactics import cheapest
from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Take
from whist.core.cards import Card
from whist.core.views import View

# High-card points of a 13-card hand from which MEDIUM plays for tricks (an average hand has
# 10); a bid on fewer cards (Plockwhist's six) asks for the same share of them.
HIGH_FROM = 12


class MediumBot(CardPlayer):
    level = "medium"

    def decide(self, view: View, legal: tuple[Action, ...], rng: Random) -> Action:
        first = legal[0]
        if isinstance(first, Bid | Bottom):
            strength = hcp(view.hand)
            high = strength >= HIGH_FROM * view.facts.bid_hand / 13
            return want_tricks_choice(view, legal, high)
        if isinstance(first, ChooseTrump):
            mine = view.table_cards
            return trump_choice(view, legal, lambda suit: suit_length(mine, suit))
        assert isinstance(first, Take)
        card = offered_card(view)
        keep = card is None or card % 13 >= 7 or card // 13 == view.trump  # nine or better
        return take_choice(legal, keep)

    def play(self, view: View, cards: list[Card], rng: Random) -> Card:
        trump = view.trump
        if not view.trick:
            plain = [c for c in cards if c // 13 != trump] or cards
            longest = max(range(4), key=lambda s: (sum(1 for c in plain if c // 13 == s), -s))
            return max(c for c in plain if c // 13 == longest)
        assert view.leader is not None and view.seat is not None
        winner, best = winning(view.trick, view.leader, view.players, trump)
        last = len(view.trick) == view.players - 1
        partner = (view.seat + 2) % 4 if view.players == 4 else None
        if winner == partner and (last or best % 13 == 12):
            return cheapest(cards, trump)
        winners = [c for c in cards if beats(c, best, trump)]
        if winners:
            return cheapest(winners, trump)
        return cheapest(cards, trump)
