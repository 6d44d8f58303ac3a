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

from dataclasses import dataclass, field
from random import Random

from whist.bots.sampler import World
from whist.core.cards import Card, Hand, cards_in
from whist.core.match import Match
from whist.core.state import Deal, Phase
from whist.core.views import View
from whist.variants import new_match
from whist.variants.german import StockGame


@dataclass(frozen=True)
class Hidden:
    """Where the cards a seat cannot see lie, in one guess."""

    hands: tuple[Hand, ...]  # per seat, every unplayed card it holds (Japanese: table too)
    stock: tuple[Card, ...] = ()  # top first, the face-up card first when there is one
    # Japanese Whist: per seat, the face-down card under each pile (None: no card).
    downs: tuple[tuple[Card | None, ...], ...] = ()
    # Locked secret choices not revealed (Minnesota bids, Swedish bottom cards).
    secret: dict[int, str | Card] = field(default_factory=dict)


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
    assert view.deal_index is not None and view.dealer is not None
    match = new_match(view.variant, view.options)
    match.scores = list(view.scores)
    deal = _template(match, view)
    players = view.players
    deal.phase = Phase(view.phase) if view.phase != "waiting" else Phase.DONE
    deal.turn = view.to_act[0] if view.to_act else (view.leader or 0)
    deal.trump = view.trump
    deal.contract = view.contract
    deal.secret = dict(hidden.secret)
    deal.revealed = list(view.revealed)
    deal.shown = [list(cards) for cards in view.shown]
    deal.trump_card = view.trump_card
    deal.trump_card_up = view.trump_card is not None
    deal.leader = view.leader if view.leader is not None else deal.turn
    deal.trick = list(view.trick)
    deal.tricks = list(view.tricks)
    deal.won = list(view.won)
    deal.stage = view.stage
    deal.stock = list(hidden.stock) if view.stage else []
    deal.upcard_up = view.upcard is not None
    deal.discards = list(view.discards)
    if view.stage == 1:
        assert isinstance(match.variant, StockGame)
        deal.must_follow, deal.tricks_count = match.variant.stage_one_rules(match.options)
    elif view.stage == 2:
        # The stock is gone: the hands are played out like any deal (StockGame._refill).
        deal.must_follow = True
        deal.tricks_count = True
        deal.tricks_total = len(view.tricks) + max(view.hand_sizes)
    if view.table:
        _lay_table(deal, view, hidden)
    else:
        deal.hands = list(hidden.hands)
    if deal.phase is Phase.TAKE:
        # The refill after a trick: the winner takes first, then the loser.
        winner = view.tricks[-1].winner
        deal.takes_owed = [winner, 1 - winner] if deal.turn == winner else [deal.turn]
    if view.stage == 0 and hidden.stock:
        # Plockwhist's bidding: the rest of the deck is dealt once the bids are in.
        deal.deck = _deck(view, hidden)
    match.deal = deal
    match.deals = [deal]
    match.log = [[]]
    match._actions = match.log[0]
    assert len(deal.hands) == players
    return match


def _template(match: Match, view: View) -> Deal:
    """A deal of this variant set up by its own rules (so the rule switches a variant sets
    at the start are right), to be overwritten with the view and the world."""
    assert view.dealer is not None
    deal = match.start_deal(tuple(range(52)), view.dealer)
    deal.index = view.deal_index or 0
    return deal


def _deck(view: View, hidden: Hidden) -> tuple[Card, ...]:
    """A deck that deals the hands held now (card ``i`` to seat ``dealer + 1 + i``, as
    ``Variant.deal_round``) followed by the undealt cards in ``hidden.stock``."""
    assert view.dealer is not None
    players = view.players
    held = [sorted(cards_in(mask)) for mask in hidden.hands]
    dealt = sum(len(cards) for cards in held)
    first = [held[(view.dealer + 1 + i) % players][i // players] for i in range(dealt)]
    return (*first, *hidden.stock)


def _lay_table(deal: Deal, view: View, hidden: Hidden) -> None:
    """Japanese Whist: hands, face-up cards and face-down cards per pile."""
    deal.table_up = [[pile.up for pile in piles] for piles in view.table]
    deal.table_down = [list(downs) for downs in hidden.downs]
    deal.table_mask = [0] * len(view.table)
    for seat, piles in enumerate(view.table):
        for pile in piles:
            if pile.up is not None:
                deal.table_mask[seat] |= 1 << pile.up
    hands = []
    for seat, mask in enumerate(hidden.hands):
        on_table = deal.table_mask[seat]
        for card in deal.table_down[seat]:
            if card is not None:
                on_table |= 1 << card
        hands.append(mask & ~on_table)
    deal.hands = hands
    # With reveal after_trick, a pile whose face-up card was played in the trick in progress
    # turns its face-down card up when the trick is complete.
    deal.reveals_owed = [
        (seat, index)
        for seat, piles in enumerate(view.table)
        for index, pile in enumerate(piles)
        if pile.up is None and pile.down
    ]
