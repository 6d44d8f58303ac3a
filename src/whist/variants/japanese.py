"""Japanese Whist — "svensk tvåmanswhist" [000]: ten face-down cards under ten face-up
ones per player, six in hand; 26 tricks from hand and table; the non-dealer names trump
after seeing both layouts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action, ChooseTrump
from whist.core.cards import Card, Hand
from whist.core.components import TABLE_PILES, TRUMP_CHOICE, TablePiles
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import left, points_for
from whist.core.state import Contract, Deal, Phase, Trick
from whist.core.variant import Facts, Variant

if TYPE_CHECKING:
    from whist.core.match import Match

PILES = 10


class Japanese(Variant):
    key = "japanese"
    title = "Japanese Whist"
    players = 2
    facts = Facts(players, (TABLE_PILES, TRUMP_CHOICE))
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
        down: list[list[Card | None]] = [[], []]
        up: list[list[Card | None]] = [[], []]
        down[forehand] = list(deck[0:10])
        down[deal.dealer] = list(deck[10:20])
        up[forehand] = list(deck[20:30])
        up[deal.dealer] = list(deck[30:40])
        deal.parts[TABLE_PILES] = TablePiles(up, down)
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
            return deal.hands[seat] | piles_of(deal).mask[seat]
        return piles_of(deal).mask[seat]

    def remove_card(self, match: Match, deal: Deal, seat: int, card: Card) -> None:
        bit = 1 << card
        if deal.hands[seat] & bit:
            deal.hands[seat] &= ~bit
            return
        piles = piles_of(deal)
        piles.mask[seat] &= ~bit
        pile = piles.up[seat].index(card)
        piles.up[seat][pile] = None
        if match.options["reveal"] == "immediate":
            self._turn_up(piles, seat, pile)
        else:
            piles.reveals_owed.append((seat, pile))

    def after_trick(self, match: Match, deal: Deal, trick: Trick) -> None:
        piles = piles_of(deal)
        for seat, pile in piles.reveals_owed:
            self._turn_up(piles, seat, pile)
        piles.reveals_owed.clear()

    @staticmethod
    def _turn_up(piles: TablePiles, seat: int, pile: int) -> None:
        card = piles.down[seat][pile]
        if card is not None:
            piles.down[seat][pile] = None
            piles.up[seat][pile] = card
            piles.mask[seat] |= 1 << card

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        if won[0] == won[1]:
            if options["tie"] == "dealer_one":
                return points_for(dealer, 1)
            return [0, 0]
        winner = 0 if won[0] > won[1] else 1
        return points_for(winner, won[winner] - 13)


def piles_of(deal: Deal) -> TablePiles:
    part = deal.parts[TABLE_PILES]
    assert isinstance(part, TablePiles)
    return part
