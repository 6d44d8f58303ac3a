"""A seventh variant made of existing mechanics needs nothing but its own module.

The variant below exists only here: Minnesota's secret high/low bids on top of Classic's
turned trump card, two mechanics no shipped variant combines. Registered at run time, it
must play to the end with every bot level, give every seat views that hide what they must,
survive a seat's record download and MASTER's determinized worlds, and replay from its
record, without a line changed anywhere else. It runs in a child process on the pure
Python core: a compiled ``Variant`` cannot be subclassed by a class defined in a test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import random
    from dataclasses import replace

    from whist import records
    from whist.bots import LEVELS, make_bot
    from whist.bots.sampler import sample_worlds
    from whist.core.components import SECRET_CHOICES, TURNED_CARD, TurnedCard
    from whist.core.options import OptionSet, OptionSpec
    from whist.core.variant import Facts
    from whist.core.views import view_for
    from whist.master.determinize import determinize, hidden_of
    from whist.seat_record import seat_record
    from whist.variants import VARIANTS, new_match
    from whist.variants.minnesota import Minnesota


    class Seventh(Minnesota):
        key = "seventh"
        title = "Seventh Whist"
        facts = Facts(4, (TURNED_CARD, SECRET_CHOICES), ("high", "low"), ("high", "low"))
        option_set = OptionSet(
            (
                OptionSpec("fail_double", "bool", False),
                OptionSpec("scoring", "choice", "standard", ("standard", "south_dakota")),
                OptionSpec("target", "count", 3),
            )
        )
        aliases = {}

        def setup_deal(self, match, deal):
            super().setup_deal(match, deal)
            card = deal.deck[51]  # the dealer's last card, turned: its suit is trump
            deal.parts[TURNED_CARD] = TurnedCard(card)
            deal.trump = card // 13
            deal.shown[deal.dealer].append(card)


    VARIANTS["seventh"] = Seventh()
    rng = random.Random(7)
    levels = ["easy", "medium", "hard", "master"]
    assert set(levels) == set(LEVELS)
    bots = [make_bot(level) for level in levels]
    match = new_match("seventh")
    decisions = 0
    while not match.over:
        if match.needs_deal:
            deck = list(range(52))
            rng.shuffle(deck)
            match.start_deal(deck, 0 if match.deal is None else None)
            view = view_for(match, 1)
            assert view.trump_card == match.deal.deck[51], "the turned card is public"
            assert view.facts.components == (TURNED_CARD, SECRET_CHOICES)
        seat = match.to_act()[0]
        view = view_for(match, seat)
        if decisions % 13 == 5 and view.phase == "play":
            # MASTER's worlds of this view rebuild a match that shows the seat this view
            # (of the current deal: earlier deals are not rebuilt, only their scores).
            for world in sample_worlds(view, rng, 3):
                rebuilt = determinize(view, hidden_of(view, world, rng))
                again = replace(view_for(rebuilt, seat), history=view.history)
                assert again == view, "restore is the inverse of project"
        budget = 0.05 if levels[seat] == "master" else 0.0
        action = bots[seat].choose(view, rng, budget)
        assert action in view.legal
        match.apply(action)
        decisions += 1
        if match.deal.phase.value == "bid":
            # While seats choose, no view shows a choice, not even the chooser's own.
            assert all(not view_for(match, s).revealed for s in range(4))
    for seat in range(4):
        mine, error = records.replay(records.parse(seat_record(match, seat)))
        assert error is None, error
        assert view_for(mine, seat) == view_for(match, seat)
    again, error = records.replay(records.parse(records.to_json(match)))
    assert error is None and again.scores == match.scores
    print("ok", len(match.deals), match.scores)
    """
)


def test_a_variant_of_existing_mechanics_plays_everywhere_from_its_module_alone() -> None:
    env = {**os.environ, "WHIST_PURE": "1"}
    run = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", CHILD],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith("ok "), run.stdout
