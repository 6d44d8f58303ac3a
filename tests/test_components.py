"""Each deal's components are the mechanics its variant declares, and a copy is a twin."""

from __future__ import annotations

import pytest

from helpers import OPTION_SETS, Case, drive
from whist.core.components import Component


@pytest.mark.parametrize("case", OPTION_SETS, ids=[c.id for c in OPTION_SETS])
def test_a_deal_holds_only_the_components_its_variant_declares(case: Case) -> None:
    for step in drive(case, 3, max_deals=2):
        deal = step.match.deal
        if deal is None:
            continue
        facts = step.match.variant.facts
        for name, part in deal.parts.items():
            assert isinstance(part, Component)
            assert name == part.name and facts.has(name), (name, facts.components)
        twin = deal.copy()
        assert twin.parts == deal.parts
        for name, part in twin.parts.items():
            # A copy shares no container: playing on it leaves the deal as it was.
            pairs = zip(part.fields(), deal.parts[name].fields(), strict=True)
            shared = [m for m, t in pairs if isinstance(m, list | dict) and m is t]
            assert not shared, name
