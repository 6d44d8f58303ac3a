"""The full state of a deal: every field, secret or public.

Only the core and a table's actor hold these objects; everyone else gets a view
(``whist.core.views``). Fields are plain and mutable because the match driver applies
actions in place after validating them completely (an illegal action changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from whist.core.cards import Card, Hand, Suit


class Phase(StrEnum):
    BID = "bid"  # Minnesota / Swedish (secret, simultaneous) and Plockwhist (in turn)
    TRUMP = "trump"  # Japanese Whist: the non-dealer names trump
    TAKE = "take"  # German Whist with talon_discard: keep or discard a stock card
    PLAY = "play"
    DONE = "done"  # all tricks played (or the match was resigned during the deal)


class Trick(NamedTuple):
    leader: int
    cards: tuple[Card, ...]  # in playing order from the leader
    winner: int
    stage: int = 0  # German Whist and Plockwhist: 1 or 2; otherwise 0


@dataclass(frozen=True, slots=True)
class Contract:
    """What the deal is played for. ``role`` names the seat in RECORD.md's output
    (``grander``, ``declarer``, ``bidder``); ``seat`` is ``None`` for low/noll/pass."""

    mode: str  # high | low | spel | noll | pass
    seat: int | None = None
    role: str | None = None

    def to_json(self) -> dict[str, str | int | None]:
        """RECORD.md's shape: ``{"mode": "high", "grander": 2}``, ``{"mode": "low"}``."""
        if self.role is None:
            return {"mode": self.mode}
        return {"mode": self.mode, self.role: self.seat}


@dataclass(slots=True)
class Deal:
    index: int
    dealer: int
    deck: tuple[Card, ...]
    players: int
    hands: list[Hand]
    phase: Phase = Phase.PLAY
    turn: int = 0
    trump: Suit | None = None
    # Rule switches that change during a deal (German Whist and Plockwhist stage 1):
    # whether a follower must follow suit, and whether a trick counts for the deal.
    must_follow: bool = True
    tricks_count: bool = True
    # The trick in progress.
    leader: int = 0
    trick: list[Card] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    won: list[int] = field(default_factory=list)  # counted tricks per side
    tricks_total: int = 13  # tricks in the deal (German: decided as the stock runs out)
    contract: Contract | None = None
    # Secret decisions (bids, bottom cards): seat -> choice, never shown until revealed.
    secret: dict[int, str | Card] = field(default_factory=dict)
    revealed: list[tuple[int, str | Card]] = field(default_factory=list)
    # Cards every seat has seen go into a seat's hand: seat -> cards (German upcards,
    # Classic's turned trump card, Swedish bottom cards shown).
    shown: list[list[Card]] = field(default_factory=list)
    # Classic Whist: the dealer's turned card, face up until the dealer plays to trick 1.
    trump_card: Card | None = None
    trump_card_up: bool = False
    # German Whist and Plockwhist.
    stage: int = 0
    stock: list[Card] = field(default_factory=list)  # top first
    upcard_up: bool = False  # stock[0] lies face up
    discards: list[Card] = field(default_factory=list)  # public, out of play
    takes_owed: list[int] = field(default_factory=list)  # seats still to take in this refill
    # Japanese Whist: ten piles per seat, face-down card under a face-up card.
    table_up: list[list[Card | None]] = field(default_factory=list)
    table_down: list[list[Card | None]] = field(default_factory=list)
    table_mask: list[Hand] = field(default_factory=list)  # face-up cards per seat
    reveals_owed: list[tuple[int, int]] = field(default_factory=list)  # (seat, pile)
    # Result.
    points: list[int] = field(default_factory=lambda: [0, 0])
    complete: bool = False
