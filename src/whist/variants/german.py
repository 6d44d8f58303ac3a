"""German Whist — Tvåmanswhist [000], Tomannswhist [003]: two players, 13 tricks played
for the stock (the winner takes the face-up card, the loser the next one unseen), then 13
tricks that count.

Plockwhist builds on the same stock machinery (``whist.variants.plockwhist``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action, Take
from whist.core.components import STOCK, TALON, Stock
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import left, points_for
from whist.core.state import Contract, Deal, Phase, Trick
from whist.core.variant import Facts, Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class StockGame(Variant):
    """Two-handed play against a stock: stage 1 refills the hands after every trick, stage
    2 plays the hands out. Subclasses decide which tricks count and how deals score."""

    players = 2

    def add_stock(self, match: Match, deal: Deal) -> Stock:
        stock = Stock(self.stage_one_rules(match.options))
        deal.parts[STOCK] = stock
        return stock

    def open_stock(self, match: Match, deal: Deal, trump_from_upcard: bool) -> None:
        """Cards 26..51 form the stock, card 26 face up; the non-dealer leads trick 1."""
        stock = stock_of(deal)
        stock.cards = list(deal.deck[26:])
        stock.upcard_up = True
        if trump_from_upcard:
            deal.trump = deal.deck[26] // 13
        deal.stage = 1
        deal.must_follow, deal.tricks_count = stock.stage_one
        deal.tricks_total = 26
        self.start_play(deal, left(deal.dealer, 2))

    def stage_one_rules(self, options: Mapping[str, Any]) -> tuple[bool, bool]:
        """While the stock lasts: (whether a follower must follow suit, whether tricks
        count for the deal)."""
        raise NotImplementedError

    def talon_discard(self, match: Match) -> bool:
        return False

    # ------------------------------------------------------------ the refill
    def after_trick(self, match: Match, deal: Deal, trick: Trick) -> None:
        if deal.stage != 1:
            return
        stock = stock_of(deal)
        stock.takes_owed = [trick.winner, 1 - trick.winner]
        self._refill(match, deal, stock)

    def _refill(self, match: Match, deal: Deal, stock: Stock) -> None:
        """Hand out the stock cards owed, stopping where a seat has a keep/discard choice."""
        talon = self.talon_discard(match)
        while stock.takes_owed:
            seat = stock.takes_owed[0]
            # A discard is allowed only if enough cards remain for every take still owed.
            if talon and len(stock.cards) >= len(stock.takes_owed) + 1:
                deal.phase = Phase.TAKE
                deal.turn = seat
                return
            self._take(deal, stock, seat, keep=True)
        if len(stock.cards) == 1:
            stock.discards.append(stock.cards.pop())
        if stock.cards:
            stock.upcard_up = True
        else:
            deal.stage = 2
            deal.must_follow = True
            deal.tricks_count = True
            deal.tricks_total = len(deal.tricks) + 13
        deal.phase = Phase.PLAY
        deal.turn = deal.leader

    @staticmethod
    def _take(deal: Deal, stock: Stock, seat: int, keep: bool) -> None:
        card = stock.cards.pop(0)
        face_up = stock.upcard_up
        stock.upcard_up = False
        if keep:
            deal.hands[seat] |= 1 << card
            if face_up:
                deal.shown[seat].append(card)
        else:
            stock.discards.append(card)
            deal.hands[seat] |= 1 << stock.cards.pop(0)  # the next card, kept unseen
        stock.takes_owed.pop(0)

    def decision_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        if deal.phase is Phase.TAKE and seat == deal.turn:
            return [Take(seat, True), Take(seat, False)]
        return []

    def decide(self, match: Match, deal: Deal, action: Action) -> None:
        if not isinstance(action, Take):
            super().decide(match, deal, action)
            return
        self.check_turn(deal, action, Phase.TAKE)
        self.check_listed(match, deal, action)
        stock = stock_of(deal)
        self._take(deal, stock, action.seat, action.keep)
        self._refill(match, deal, stock)


def stock_of(deal: Deal) -> Stock:
    part = deal.parts[STOCK]
    assert isinstance(part, Stock)
    return part


class German(StockGame):
    key = "german"
    title = "German Whist"
    facts = Facts(2, (STOCK, TALON))
    option_set = OptionSet(
        (
            OptionSpec("counted", "choice", "last13", ("last13", "all26")),
            OptionSpec("stage1_follow", "bool", True, help="follow suit while the stock lasts"),
            OptionSpec("scoring", "choice", "over_six", ("over_six", "difference", "deals")),
            OptionSpec("match", "match", "target:13", ("target:N", "single", "deals:N")),
            OptionSpec("talon_discard", "bool", False, help="a stock card may be discarded"),
        ),
        presets={
            "tvamanswhist": {},
            "tomannswhist": {"scoring": "difference", "match": "deals:4"},
        },
    )
    aliases = {"tvamanswhist": "tvamanswhist", "tomannswhist": "tomannswhist"}

    def setup_deal(self, match: Match, deal: Deal) -> None:
        self.deal_round(deal, range(26))
        self.add_stock(match, deal)
        self.open_stock(match, deal, trump_from_upcard=True)

    def stage_one_rules(self, options: Mapping[str, Any]) -> tuple[bool, bool]:
        return bool(options["stage1_follow"]), options["counted"] == "all26"

    def talon_discard(self, match: Match) -> bool:
        return bool(match.options["talon_discard"])

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        if won[0] == won[1]:
            return [0, 0]  # only with all26: a drawn deal
        winner = 0 if won[0] > won[1] else 1
        scoring = options["scoring"]
        if scoring == "deals":
            return points_for(winner, 1)
        if scoring == "difference":
            return points_for(winner, won[winner] - won[1 - winner])
        book = 13 if options["counted"] == "all26" else 6
        return points_for(winner, max(0, won[winner] - book))

    def match_result(self, match: Match) -> tuple[bool, int | None]:
        if match.options["match"] != "single":
            return super().match_result(match)
        # One deal: its winner wins, even where the deal scored no point.
        won = match.deals[-1].won
        return True, None if won[0] == won[1] else (0 if won[0] > won[1] else 1)
