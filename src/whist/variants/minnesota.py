"""Minnesota Whist [002]: no trump, secret simultaneous high/low bids, target 13.

Preset ``south_dakota`` [004] adds penalties (option ``scoring: south_dakota``), the only
scoring where totals go negative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action
from whist.core.cards import Card
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import left, over_six, points_for, right, under_seven
from whist.core.state import Contract, Deal, Phase
from whist.core.variant import Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class Minnesota(Variant):
    key = "minnesota"
    title = "Minnesota Whist"
    players = 4
    bid_words = ("high", "low")
    secret_simultaneous = True
    option_set = OptionSet(
        (
            OptionSpec(
                "fail_double", "bool", False, help="opponents of failed granders score double"
            ),
            OptionSpec("colours", "choice", "european", ("european", "american")),
            OptionSpec("target", "count", 13),
            OptionSpec("scoring", "choice", "standard", ("standard", "south_dakota")),
        ),
        presets={"south_dakota": {"target": 11, "scoring": "south_dakota"}},
    )
    aliases = {"south_dakota": "south_dakota"}

    def setup_deal(self, match: Match, deal: Deal) -> None:
        self.deal_round(deal, range(52))
        deal.phase = Phase.BID

    def decision_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        return self.secret_actions(match, deal, seat)

    def decide(self, match: Match, deal: Deal, action: Action) -> None:
        self.decide_secret(match, deal, action)

    def stops_reveal(self, choice: str | Card) -> bool:
        return choice == "high"

    def on_revealed(self, match: Match, deal: Deal, stopper: int | None) -> None:
        if stopper is None:
            deal.contract = Contract("low")
            self.start_play(deal, left(deal.dealer, 4))
        else:
            deal.contract = Contract("high", stopper, "grander")
            self.start_play(deal, right(stopper, 4))

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        assert contract is not None
        south_dakota = options["scoring"] == "south_dakota"
        if contract.mode == "high":
            assert contract.seat is not None
            granders = contract.seat % 2
            if won[granders] >= 7:
                return points_for(granders, over_six(won[granders]))
            if south_dakota:
                return points_for(granders, -under_seven(won[granders]))
            factor = 2 if options["fail_double"] else 1
            return points_for(1 - granders, factor * over_six(won[1 - granders]))
        fewer = 0 if won[0] < won[1] else 1
        if south_dakota:
            return points_for(1 - fewer, -over_six(won[1 - fewer]))
        return points_for(fewer, under_seven(won[fewer]))
