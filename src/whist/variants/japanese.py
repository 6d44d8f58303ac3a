"""Japanese Whist — "svensk tvåmanswhist" [000]: ten face-down cards under ten face-up
ones per player, six in hand; 26 tricks from hand and table; the non-dealer names trump
after seeing both layouts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action, ChooseTrump
from whist.core.cards import Card, Hand
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import left, points_for
from whist.core.state import Contract, Deal, Phase, Trick
from whist.core.variant import Variant

if TYPE_CHECKING:
    from whist.core.match import Match

PILES = 10


class Japanese(Variant):
    key = "japanese"
    title = "Japanese Whist"
    players = 2
    plays_from_hand = False
    option_set = OptionSet(
        (
            OptionSpec("reveal", "choice", "after_trick", ("after_trick", "immediate")),
            OptionSpec("tie", "choice", "none", ("none", "dealer_one")),
            OptionSpec("target", "count", 13),
        )
    )

    def setup_deal(self, match: Match, deal: Deal) -> None:
        deck = deal.deck
        forehand = left(deal.dealer, 2)
        deal.table_down = [[], []]
        deal.table_up = [[], []]
        deal.table_down[forehand] = list(deck[0:10])
        deal.table_down[deal.dealer] = list(deck[10:20])
        deal.table_up[forehand] = list(deck[20:30])
        deal.table_up[deal.dealer] = list(deck[30:40])
        deal.table_mask = [_mask(deal.table_up[0]), _mask(deal.table_up[1])]
        self.deal_round(deal, range(40, 52))
        deal.tricks_total = 26
        deal.phase = Phase.TRUMP
        deal.turn = forehand

    def decision_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        if deal.phase is Phase.TRUMP and seat == deal.turn:
            return [ChooseTrump(seat, suit) for suit in range(4)]
        return []

    def decide(self, match: Match, deal: Deal, action: Action) -> None:
        if not isinstance(action, ChooseTrump):
            super().decide(match, deal, action)
            return
        self.check_turn(deal, action, Phase.TRUMP)
        self.check_listed(match, deal, action)
        deal.trump = action.suit
        self.start_play(deal, action.seat)

    def available(self, deal: Deal, seat: int) -> Hand:
        # Trick 1 is played from the table only: nobody has looked at their hand yet.
        if deal.tricks:
            return deal.hands[seat] | deal.table_mask[seat]
        return deal.table_mask[seat]

    def remove_card(self, match: Match, deal: Deal, seat: int, card: Card) -> None:
        bit = 1 << card
        if deal.hands[seat] & bit:
            deal.hands[seat] &= ~bit
            return
        deal.table_mask[seat] &= ~bit
        pile = deal.table_up[seat].index(card)
        deal.table_up[seat][pile] = None
        if match.options["reveal"] == "immediate":
            self._turn_up(deal, seat, pile)
        else:
            deal.reveals_owed.append((seat, pile))

    def after_trick(self, match: Match, deal: Deal, trick: Trick) -> None:
        for seat, pile in deal.reveals_owed:
            self._turn_up(deal, seat, pile)
        deal.reveals_owed.clear()

    @staticmethod
    def _turn_up(deal: Deal, seat: int, pile: int) -> None:
        card = deal.table_down[seat][pile]
        if card is not None:
            deal.table_down[seat][pile] = None
            deal.table_up[seat][pile] = card
            deal.table_mask[seat] |= 1 << card

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        if won[0] == won[1]:
            if options["tie"] == "dealer_one":
                return points_for(dealer, 1)
            return [0, 0]
        winner = 0 if won[0] > won[1] else 1
        return points_for(winner, won[winner] - 13)


def _mask(cards: list[Card | None]) -> Hand:
    mask = 0
    for card in cards:
        if card is not None:
            mask |= 1 << card
    return mask
