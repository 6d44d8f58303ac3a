"""Plockwhist [000]: six cards each, a spel/pass bid, seven more, then German Whist play
(no trump by default); only stage-2 tricks count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action, Bid
from whist.core.components import OPEN_BIDS, STOCK
from whist.core.errors import INVALID_BID, WhistError
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import bid_points, fewest_points, left
from whist.core.state import Contract, Deal, Phase
from whist.core.variant import Facts
from whist.variants.german import StockGame

if TYPE_CHECKING:
    from whist.core.match import Match


class Plockwhist(StockGame):
    key = "plockwhist"
    title = "Plockwhist"
    facts = Facts(2, (OPEN_BIDS, STOCK), ("spel", "pass"), contracts=("spel", "pass"), bid_hand=6)
    bid_words = facts.bid_words
    option_set = OptionSet(
        (
            OptionSpec("trump", "choice", "none", ("none", "upcard")),
            OptionSpec("target", "count", 13),
        )
    )

    def setup_deal(self, match: Match, deal: Deal) -> None:
        self.deal_round(deal, range(12))
        self.add_stock(match, deal)  # opened once the bids are in
        deal.phase = Phase.BID
        deal.turn = left(deal.dealer, 2)

    def decision_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        if deal.phase is Phase.BID and seat == deal.turn:
            return [Bid(seat, word) for word in self.bid_words]
        return super().decision_actions(match, deal, seat)

    def decide(self, match: Match, deal: Deal, action: Action) -> None:
        if not isinstance(action, Bid):
            super().decide(match, deal, action)
            return
        self.check_turn(deal, action, Phase.BID)
        if action.bid not in self.bid_words:
            raise WhistError(INVALID_BID, "the bid must be spel or pass")
        # Bids are made in the open (a button shown to both): reveal at once.
        deal.revealed.append((action.seat, action.bid))
        if action.bid == "spel":
            deal.contract = Contract("spel", action.seat, "bidder")
        elif action.seat == deal.dealer:
            deal.contract = Contract("pass")
        else:
            deal.turn = deal.dealer
            return
        self.deal_round(deal, range(12, 26))
        self.open_stock(match, deal, trump_from_upcard=match.options["trump"] == "upcard")

    def stage_one_rules(self, options: Mapping[str, Any]) -> tuple[bool, bool]:
        return True, False  # only stage-2 tricks count

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        assert contract is not None
        if contract.mode == "spel":
            assert contract.seat is not None
            return bid_points(won, contract.seat, set_factor=2)
        return fewest_points(won)
