"""What a seat may know, built by one function from an allow-list.

``view_for(match, seat)`` is the only way state leaves the core: clients, spectators
(``seat=None``), bots, replays and logs all get a ``View``. The shared fields are copied
here on purpose, each mechanic's fields come from its component's ``project``
(``whist.core.components``): a new field of the state stays hidden until one of them adds
it. Never shown: other hands, face-down cards, the stock below the upcard, the loser's
hidden draw, unrevealed bids and bottom cards (not the partner's, not after the deal, not
one's own once locked).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from whist.core.actions import Action, action_to_json
from whist.core.cards import Card, Hand, Suit, card_text, cards_in, sorted_texts, suit_text
from whist.core.components import ABSENT, Pile
from whist.core.match import Match
from whist.core.state import Contract, Deal, Phase, Trick
from whist.core.variant import Facts


@dataclass(frozen=True)
class DealSummary:
    index: int
    dealer: int
    contract: Contract | None
    trump: Suit | None
    won: tuple[int, int]
    points: tuple[int, int]
    complete: bool


@dataclass(frozen=True)
class View:
    variant: str
    facts: Facts  # what the variant is made of: ask these, never the variant's key
    options: dict[str, Any]
    players: int
    seat: int | None  # None: a spectator's public view
    scores: tuple[int, int]  # per side (seat in two-player games, team in four-player)
    over: bool
    winner: int | None
    resigned: int | None
    history: tuple[DealSummary, ...]  # every deal before the current one
    # The current deal (all empty/None before the first deal).
    deal_index: int | None
    dealer: int | None
    phase: str  # bid | trump | take | play | done | waiting (for the next deck)
    to_act: tuple[int, ...]
    legal: tuple[Action, ...]  # only for the viewing seat, only when it may act
    hand: Hand  # the seat's own hand (Japanese Whist: empty until trick 1 is complete)
    hand_sizes: tuple[int, ...]
    trump: Suit | None
    trump_card: Card | None  # Classic Whist's turned card while it lies face up
    contract: Contract | None
    decided: tuple[int, ...]  # seats that have locked a secret choice
    revealed: tuple[tuple[int, str | Card], ...]  # shown bids and bottom cards, in order
    shown: tuple[tuple[Card, ...], ...]  # per seat, cards everyone saw go into that hand
    leader: int | None
    trick: tuple[Card, ...]  # the trick in progress, from the leader
    tricks: tuple[Trick, ...]
    won: tuple[int, int]  # counted tricks per side
    stage: int  # German Whist and Plockwhist: 1 (stock) or 2; else 0
    stock_size: int
    upcard: Card | None  # the face-up stock card
    discards: tuple[Card, ...]
    offer: Card | None  # German talon: the unseen stock card the seat is deciding on
    table: tuple[tuple[Pile, ...], ...]  # Japanese Whist piles per seat (public)
    table_cards: Hand  # the seat's own face-up table cards (Japanese Whist)

    def same_decision(self, other: View) -> bool:
        """Is ``other`` (a later view of the same seat) the same decision as this one?  Equal
        but for the other seats that have locked a secret choice meanwhile, which tells
        nothing of what they chose: advice for this view still holds for that one."""
        return replace(self, decided=other.decided, to_act=other.to_act) == other

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "facts": self.facts.to_json(),
            "options": self.options,
            "seat": self.seat,
            "scores": list(self.scores),
            "over": self.over,
            "winner": self.winner,
            "resigned": self.resigned,
            "history": [
                {
                    "index": h.index,
                    "dealer": h.dealer,
                    "contract": _contract_json(h.contract),
                    "trump": None if h.trump is None else suit_text(h.trump),
                    "won": list(h.won),
                    "points": list(h.points),
                    "complete": h.complete,
                }
                for h in self.history
            ],
            "deal": self.deal_index,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": list(self.to_act),
            "legal": [action_to_json(a) for a in self.legal],
            "hand": [card_text(c) for c in cards_in(self.hand)],
            "hand_sizes": list(self.hand_sizes),
            "trump": None if self.trump is None else suit_text(self.trump),
            "trump_card": None if self.trump_card is None else card_text(self.trump_card),
            "contract": _contract_json(self.contract),
            "decided": list(self.decided),
            "revealed": [
                {"seat": s, "choice": c if isinstance(c, str) else card_text(c)}
                for s, c in self.revealed
            ],
            "shown": [sorted_texts(cards) for cards in self.shown],
            "leader": self.leader,
            "trick": [card_text(c) for c in self.trick],
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [card_text(c) for c in t.cards],
                    "winner": t.winner,
                    "stage": t.stage,
                }
                for t in self.tricks
            ],
            "won": list(self.won),
            "stage": self.stage,
            "stock_size": self.stock_size,
            "upcard": None if self.upcard is None else card_text(self.upcard),
            "discards": [card_text(c) for c in self.discards],
            "offer": None if self.offer is None else card_text(self.offer),
            "table": [
                [{"up": None if p.up is None else card_text(p.up), "down": p.down} for p in piles]
                for piles in self.table
            ],
        }


def seen_in_place(view: View) -> set[Card]:
    """The cards a view shows where they lie, besides its own hand: cards shown going into
    a hand, the stock's face-up card and the one offered to this seat, discards, face-up
    table cards. Played cards are not among them: where a played card came from (which
    deal position, which draw) is not shown by playing it."""
    seen: set[Card] = {card for cards in view.shown for card in cards}
    seen.update(view.discards)
    seen.update(card for card in (view.upcard, view.offer) if card is not None)
    seen.update(pile.up for piles in view.table for pile in piles if pile.up is not None)
    return seen


def _contract_json(contract: Contract | None) -> dict[str, Any] | None:
    return None if contract is None else contract.to_json()


def view_for(match: Match, seat: int | None) -> View:
    """What ``seat`` may know now; ``None`` gives the public (spectator) view."""
    deal = match.deal
    history = tuple(_summary(d) for d in match.deals[:-1])
    common: dict[str, Any] = {
        "variant": match.variant.key,
        "facts": match.variant.facts,
        "options": dict(match.options),
        "players": match.players,
        "seat": seat,
        "scores": (match.scores[0], match.scores[1]),
        "over": match.over,
        "winner": match.winner,
        "resigned": match.resigned,
        "history": history,
    }
    if deal is None:
        return View(**common, **_no_deal(match.players))
    to_act = match.to_act()
    mine = seat is not None and 0 <= seat < match.players
    legal = tuple(match.legal_actions(seat)) if mine and seat in to_act else ()
    parts = deal.parts.values()
    hand_hidden = any(part.hides_hand(deal) for part in parts)
    hand = deal.hands[seat] if mine and seat is not None and not hand_hidden else 0
    phase = deal.phase.value if not (deal.complete and match.needs_deal) else "waiting"
    mechanics = dict(ABSENT)
    for part in parts:
        mechanics.update(part.project(deal, seat))
    return View(
        **common,
        **mechanics,
        deal_index=deal.index,
        dealer=deal.dealer,
        phase=phase,
        to_act=to_act,
        legal=legal,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        trump=deal.trump,
        contract=deal.contract,
        revealed=tuple(deal.revealed),
        shown=tuple(tuple(cards) for cards in deal.shown),
        leader=deal.leader if deal.phase is Phase.PLAY or deal.trick else None,
        trick=tuple(deal.trick),
        tricks=tuple(deal.tricks),
        won=(deal.won[0], deal.won[1]),
        stage=deal.stage,
    )


def _summary(deal: Deal) -> DealSummary:
    return DealSummary(
        index=deal.index,
        dealer=deal.dealer,
        contract=deal.contract,
        trump=deal.trump,
        won=(deal.won[0], deal.won[1]),
        points=(deal.points[0], deal.points[1]),
        complete=deal.complete,
    )


def _no_deal(players: int) -> dict[str, Any]:
    return {
        **ABSENT,
        "deal_index": None,
        "dealer": None,
        "phase": "waiting",
        "to_act": (),
        "legal": (),
        "hand": 0,
        "hand_sizes": (0,) * players,
        "trump": None,
        "contract": None,
        "revealed": (),
        "shown": ((),) * players,
        "leader": None,
        "trick": (),
        "tricks": (),
        "won": (0, 0),
        "stage": 0,
    }
