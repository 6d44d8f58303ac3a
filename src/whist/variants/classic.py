"""Classic Whist [001]: four players, the dealer's last card turned for trump, target 5."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import over_six
from whist.core.state import Contract, Deal
from whist.core.variant import Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class Classic(Variant):
    key = "classic"
    title = "Classic Whist"
    players = 4
    option_set = OptionSet((OptionSpec("target", "count", 5, help="first team to N points"),))

    def setup_deal(self, match: Match, deal: Deal) -> None:
        super().setup_deal(match, deal)
        # Card 51 goes to the dealer, face up: its suit is trump for the whole deal.
        deal.trump_card = deal.deck[51]
        deal.trump = deal.trump_card // 13
        deal.trump_card_up = True
        deal.shown[deal.dealer].append(deal.trump_card)

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        return [over_six(won[0]), over_six(won[1])]
