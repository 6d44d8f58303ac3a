"""MASTER's pieces that the bots tests do not reach: the deal margin it averages is what the
deal really scores (RULES.md, by tests/helpers' own implementation)."""

from __future__ import annotations

import pytest

from helpers import OPTION_SETS, Case, counted_tricks, drive, expected_points
from whist.core.state import Phase
from whist.core.views import View, view_for
from whist.master.bot import tricks_left
from whist.master.scoring import margins


@pytest.mark.parametrize("case", OPTION_SETS, ids=lambda c: c.id)
def test_the_margin_table_gives_what_the_deal_scores(case: Case) -> None:
    checked = 0
    for seed in range(3):
        pending: list[tuple[View, list[int]]] = []
        for step in drive(case, seed, max_deals=1):
            match = step.match
            deal = match.deal
            if deal is None:
                continue
            if deal.phase is Phase.PLAY and deal.stage != 1 and not deal.trick:
                view = view_for(match, deal.turn)
                pending.append((view, margins(view, tricks_left(view))))
            if deal.complete:
                points = expected_points(match, deal)
                won = counted_tricks(match, deal)
                for view, table in pending:
                    assert view.seat is not None
                    mine = view.seat % 2
                    future = won[mine] - view.won[mine]
                    assert table[future] == points[mine] - points[1 - mine]
                    checked += 1
                break
    assert checked >= 10
