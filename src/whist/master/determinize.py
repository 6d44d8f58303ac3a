"""A playable match from a seat's view and one sampled world of what the seat cannot see.

MASTER's stock-phase search and the OpenSpiel adapter play positions on with the real rules
engine. They get a ``Match`` whose current deal holds the view's public facts and the
world's hidden cards, and nothing else: everything here comes from the two arguments, so a
determinized match can tell its user no more than the view plus the guess. Built right, the
seat's view of it equals the view it came from (tests/test_determinize.py checks that for
every variant at every kind of decision).

The earlier deals of the match are not rebuilt (their totals are in ``scores``): a
determinized match answers "how does this deal go on", not "what happened before".
"""

from __future__ import annotations

from random import Random

from whist.bots.sampler import World
from whist.core.cards import Card, cards_in
from whist.core.components import Hidden
from whist.core.match import Match
from whist.core.state import Deal, Phase
from whist.core.views import View
from whist.variants import new_match

__all__ = ["Hidden", "determinize", "hidden_of"]


def hidden_of(view: View, world: World, rng: Random) -> Hidden:
    """The sampler's world in the shape ``determinize`` takes. Japanese Whist: a face-down
    card about to turn up (its face-up card was played in the trick in progress) is one of
    the world's cards of that seat not placed elsewhere; for the other seat, whose hand is
    unseen too, one of those at random. Unrevealed secret choices are left unset."""
    downs: list[tuple[Card | None, ...]] = []
    for seat, piles in enumerate(view.table):
        below = world.below[seat]
        loose = world.hands[seat]
        for pile in piles:
            if pile.up is not None:
                loose &= ~(1 << pile.up)
        for card in below.values():
            loose &= ~(1 << card)
        if seat == view.seat:
            loose &= ~view.hand
        pending = sorted(cards_in(loose))
        row: list[Card | None] = []
        for pile in piles:
            if pile.up is not None:
                row.append(below.get(pile.up))
            elif pile.down:
                card = rng.choice(pending)
                pending.remove(card)
                row.append(card)
            else:
                row.append(None)
        downs.append(tuple(row))
    return Hidden(world.hands, world.stock, tuple(downs))


def determinize(view: View, hidden: Hidden) -> Match:
    """The shared state from the view, then each component of the deal restores itself
    from its fragment of the view and the guess (``Component.restore``)."""
    assert view.deal_index is not None and view.dealer is not None
    match = new_match(view.variant, view.options)
    match.scores = list(view.scores)
    deal = _template(match, view)
    deal.phase = Phase(view.phase) if view.phase != "waiting" else Phase.DONE
    deal.turn = view.to_act[0] if view.to_act else (view.leader or 0)
    deal.trump = view.trump
    deal.contract = view.contract
    deal.revealed = list(view.revealed)
    deal.shown = [list(cards) for cards in view.shown]
    deal.leader = view.leader if view.leader is not None else deal.turn
    deal.trick = list(view.trick)
    deal.tricks = list(view.tricks)
    deal.won = list(view.won)
    deal.stage = view.stage
    deal.hands = list(hidden.hands)
    for part in deal.parts.values():
        part.restore(deal, {name: getattr(view, name) for name in part.FIELDS}, hidden)
    match.deal = deal
    match.deals = [deal]
    match.log = [[]]
    match._actions = match.log[0]
    assert len(deal.hands) == view.players
    return match


def _template(match: Match, view: View) -> Deal:
    """A deal of this variant set up by its own rules (so its components and the rule
    switches a variant sets at the start are right), to be overwritten with the view and
    the world."""
    assert view.dealer is not None
    deal = match.start_deal(tuple(range(52)), view.dealer)
    deal.index = view.deal_index or 0
    return deal
