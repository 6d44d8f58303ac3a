"""Swedish Whist / Fyrmanswhist [004]: no trump, a secret bottom card (red = spel, black =
pass), revealed from the dealer's left until the first red; four black is nollspel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.actions import Action, Bottom
from whist.core.cards import Card, cards_in, is_red
from whist.core.components import BOTTOM_CARDS, SECRET_CHOICES
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import bid_points, fewest_points, left, right
from whist.core.state import Contract, Deal
from whist.core.variant import Facts, Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class Swedish(Variant):
    key = "swedish"
    title = "Swedish Whist"
    players = 4
    facts = Facts(
        players, (SECRET_CHOICES, BOTTOM_CARDS), ("spel", "pass"), contracts=("spel", "noll")
    )
    bid_words = facts.bid_words
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
        self.open_secret_choices(deal)

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
            return bid_points(won, contract.seat % 2, set_factor=2)
        return fewest_points(won)
