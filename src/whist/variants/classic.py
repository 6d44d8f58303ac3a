"""Classic Whist [001]: four players, the dealer's last card turned for trump, target 5."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from whist.core.components import TURNED_CARD, TurnedCard
from whist.core.options import OptionSet, OptionSpec
from whist.core.rules import over_six
from whist.core.state import Contract, Deal
from whist.core.variant import Facts, Variant

if TYPE_CHECKING:
    from whist.core.match import Match


class Classic(Variant):
    key = "classic"
    title = "Classic Whist"
    players = 4
    facts = Facts(players, (TURNED_CARD,))
    option_set = OptionSet((OptionSpec("target", "count", 5, help="first team to N points"),))

    def setup_deal(self, match: Match, deal: Deal) -> None:
        super().setup_deal(match, deal)
        # Card 51 goes to the dealer, face up: its suit is trump for the whole deal.
        card = deal.deck[51]
        deal.parts[TURNED_CARD] = TurnedCard(card)
        deal.trump = card // 13
        deal.shown[deal.dealer].append(card)

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        return [over_six(won[0]), over_six(won[1])]
