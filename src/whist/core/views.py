"""What a seat may know (RULES.md §8), built by one function from an allow-list.

``view_for(match, seat)`` is the only way state leaves the core: clients, spectators
(``seat=None``), bots, replays and logs all get a ``View``. Every field below is copied on
purpose; a new field of the state stays hidden until it is added here. Never shown: other
hands, face-down cards, the stock below the upcard, the loser's hidden draw, unrevealed
bids and bottom cards (not the partner's, not after the deal, not one's own once locked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whist.core.actions import Action, action_to_json
from whist.core.cards import Card, Hand, Suit, card_text, cards_in, sorted_texts, suit_text
from whist.core.match import Match
from whist.core.state import Contract, Deal, Phase, Trick


@dataclass(frozen=True)
class Pile:
    """A Japanese Whist table pile: the face-up card (if any) and whether a face-down card
    lies under it."""

    up: Card | None
    down: bool


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

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
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


def _contract_json(contract: Contract | None) -> dict[str, Any] | None:
    return None if contract is None else contract.to_json()


def view_for(match: Match, seat: int | None) -> View:
    """What ``seat`` may know now; ``None`` gives the public (spectator) view."""
    deal = match.deal
    history = tuple(_summary(d) for d in match.deals[:-1])
    common: dict[str, Any] = {
        "variant": match.variant.key,
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
    japanese_trick1 = bool(deal.table_up) and not deal.tricks
    hand = deal.hands[seat] if mine and seat is not None and not japanese_trick1 else 0
    phase = deal.phase.value if not (deal.complete and match.needs_deal) else "waiting"
    return View(
        **common,
        deal_index=deal.index,
        dealer=deal.dealer,
        phase=phase,
        to_act=to_act,
        legal=legal,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        trump=deal.trump,
        trump_card=deal.trump_card if deal.trump_card_up else None,
        contract=deal.contract,
        decided=tuple(sorted(deal.secret)) if deal.phase is Phase.BID else (),
        revealed=tuple(deal.revealed),
        shown=tuple(tuple(cards) for cards in deal.shown),
        leader=deal.leader if deal.phase is Phase.PLAY or deal.trick else None,
        trick=tuple(deal.trick),
        tricks=tuple(deal.tricks),
        won=(deal.won[0], deal.won[1]),
        stage=deal.stage,
        stock_size=len(deal.stock),
        upcard=deal.stock[0] if deal.upcard_up and deal.stock else None,
        discards=tuple(deal.discards),
        offer=_offer(deal, seat),
        table=tuple(
            tuple(Pile(up, down is not None) for up, down in zip(ups, downs, strict=True))
            for ups, downs in zip(deal.table_up, deal.table_down, strict=True)
        ),
        table_cards=deal.table_mask[seat] if mine and seat is not None and deal.table_mask else 0,
    )


def _offer(deal: Deal, seat: int | None) -> Card | None:
    """The stock card a seat decides on unseen by the other: only in its own view."""
    if deal.phase is Phase.TAKE and seat == deal.turn and not deal.upcard_up and deal.stock:
        return deal.stock[0]
    return None


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
        "deal_index": None,
        "dealer": None,
        "phase": "waiting",
        "to_act": (),
        "legal": (),
        "hand": 0,
        "hand_sizes": (0,) * players,
        "trump": None,
        "trump_card": None,
        "contract": None,
        "decided": (),
        "revealed": (),
        "shown": ((),) * players,
        "leader": None,
        "trick": (),
        "tricks": (),
        "won": (0, 0),
        "stage": 0,
        "stock_size": 0,
        "upcard": None,
        "discards": (),
        "offer": None,
        "table": (),
        "table_cards": 0,
    }
