"""Minnesota Whist [002]: no trump, secret simultaneous high/low bids, target 13.

Preset ``south_dakota`` [004] adds penalties (option ``scoring: south_dakota``), the only
scoring where totals go negative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action
from whist.core.cards import Card
from whist.core.components import SECRET_CHOICES
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import bid_points, fewest_points, left, right
from whist.core.state import Contract, Deal
from whist.core.variant import Facts, Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class Minnesota(Variant):
    key = "minnesota"
    title = "Minnesota Whist"
    players = 4
    facts = Facts(players, (SECRET_CHOICES,), ("high", "low"), contracts=("high", "low"))
    bid_words = facts.bid_words
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
        self.open_secret_choices(deal)

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
            factor = 2 if options["fail_double"] else 1
            return bid_points(
                won, contract.seat % 2, set_factor=factor, lose_under_seven=south_dakota
            )
        return fewest_points(won, lose_over_six=south_dakota)
