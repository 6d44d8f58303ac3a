"""Swedish Whist / Fyrmanswhist [004]: no trump, a secret bottom card (red = spel, black =
pass), revealed from the dealer's left until the first red; four black is nollspel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action, Bottom
from whist.core.cards import Card, cards_in, is_red
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import left, over_six, points_for, right, under_seven
from whist.core.state import Contract, Deal, Phase
from whist.core.variant import Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class Swedish(Variant):
    key = "swedish"
    title = "Swedish Whist"
    players = 4
    bid_words = ("spel", "pass")
    secret_simultaneous = True
    option_set = OptionSet(
        (
            OptionSpec("bid_input", "choice", "card", ("card", "button")),
            OptionSpec("spel_lead", "choice", "right", ("right", "left")),
            OptionSpec("reveal", "choice", "sequential", ("sequential", "simultaneous")),
            OptionSpec("match", "match", "target:13", ("target:N", "rounds:N")),
        )
    )
    aliases = {"fyrmanswhist": None}

    def setup_deal(self, match: Match, deal: Deal) -> None:
        self.deal_round(deal, range(52))
        deal.phase = Phase.BID

    def secret_choices(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        if match.options["bid_input"] == "button":
            return super().secret_choices(match, deal, seat)
        return [Bottom(seat, card) for card in cards_in(deal.hands[seat])]

    def decision_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        return self.secret_actions(match, deal, seat)

    def decide(self, match: Match, deal: Deal, action: Action) -> None:
        self.decide_secret(match, deal, action)

    def stops_reveal(self, choice: str | Card) -> bool:
        return choice == "spel" if isinstance(choice, str) else is_red(choice)

    def reveal_everything(self, match: Match) -> bool:
        return match.options["reveal"] == "simultaneous"

    def on_revealed(self, match: Match, deal: Deal, stopper: int | None) -> None:
        if stopper is None:
            deal.contract = Contract("noll")
            self.start_play(deal, left(deal.dealer, 4))
            return
        deal.contract = Contract("spel", stopper, "declarer")
        lead = right if match.options["spel_lead"] == "right" else left
        self.start_play(deal, lead(stopper, 4))

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        assert contract is not None
        if contract.mode == "spel":
            assert contract.seat is not None
            bidders = contract.seat % 2
            if won[bidders] >= 7:
                return points_for(bidders, over_six(won[bidders]))
            return points_for(1 - bidders, 2 * over_six(won[1 - bidders]))
        fewer = 0 if won[0] <= 6 else 1
        return points_for(fewer, under_seven(won[fewer]))
