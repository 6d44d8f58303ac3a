"""A determinized match (view + one world of hidden cards) shows its seat exactly the view it
came from, and plays on under the real rules, for every variant at every kind of decision."""

from __future__ import annotations

import dataclasses
import random

import pytest

from helpers import OPTION_SETS, Case, drive, piles_of, secret_choices, stock_of
from whist.bots.sampler import sample_worlds
from whist.core.match import Match
from whist.core.state import Phase
from whist.core.views import View, view_for
from whist.master.determinize import Hidden, determinize, hidden_of


def true_hidden(match: Match) -> Hidden:
    """The real hidden state, in the shape a sampler produces."""
    deal = match.deal
    assert deal is not None
    hands = list(deal.hands)
    downs: tuple[tuple[int | None, ...], ...] = ()
    if piles_of(deal).up:
        for seat in range(2):
            for card in (*piles_of(deal).up[seat], *piles_of(deal).down[seat]):
                if card is not None:
                    hands[seat] |= 1 << card
        downs = tuple(tuple(piles) for piles in piles_of(deal).down)
    stock = tuple(stock_of(deal).cards)
    if deal.phase is Phase.BID and deal.stage == 0 and match.variant.key == "plockwhist":
        dealt = sum(h.bit_count() for h in deal.hands)
        stock = deal.deck[dealt:]
    secret = dict(secret_choices(deal).locked) if deal.phase is Phase.BID else {}
    return Hidden(tuple(hands), stock, downs, secret)


def comparable(view: View) -> View:
    return dataclasses.replace(view, history=())


@pytest.mark.parametrize("case", OPTION_SETS, ids=lambda c: c.id)
def test_the_seat_to_act_sees_its_own_view_in_the_determinized_match(case: Case) -> None:
    checked = 0
    for step in drive(case, seed=7, max_deals=2):
        match = step.match
        if match.over or match.needs_deal or match.deal is None:
            continue
        for seat in match.to_act():
            view = view_for(match, seat)
            copy = determinize(view, true_hidden(match))
            assert comparable(view_for(copy, seat)) == comparable(view)
            checked += 1
        # Both play on identically: the next action the real match takes is accepted.
    assert checked > 20


@pytest.mark.parametrize("case", OPTION_SETS, ids=lambda c: c.id)
def test_a_determinized_match_plays_on_like_the_real_one(case: Case) -> None:
    copies: list[Match] = []
    for step in drive(case, seed=11, max_deals=1):
        match = step.match
        if step.action is not None:
            for copy in copies:
                copy.apply(step.action)
                seat = match.to_act()[0] if match.to_act() else None
                assert comparable(view_for(copy, seat)) == comparable(view_for(match, seat))
        if len(copies) < 3 and match.deal is not None and match.to_act() and step.number % 7 == 0:
            view = view_for(match, match.to_act()[0])
            copies.append(determinize(view, true_hidden(match)))
    assert copies


@pytest.mark.parametrize("case", OPTION_SETS, ids=lambda c: c.id)
def test_sampled_worlds_determinize_to_the_seats_view(case: Case) -> None:
    """The sampler's worlds (not the true hidden state) fit too: any guess it makes plays
    on from exactly what the seat sees. Secret choices still unrevealed are the caller's to
    guess, so bidding with a choice locked is left out."""
    rng = random.Random(3)
    checked = 0
    for step in drive(case, seed=5, max_deals=1):
        match = step.match
        if match.over or match.deal is None or match.deal.complete or step.number % 3:
            continue
        for seat in match.to_act():
            view = view_for(match, seat)
            if view.decided:
                continue
            for world in sample_worlds(view, rng, 2):
                copy = determinize(view, hidden_of(view, world, rng))
                assert comparable(view_for(copy, seat)) == comparable(view)
                checked += 1
    assert checked > 10
