"""The full state of a deal: every field, secret or public.

Only the core and a table's actor hold these objects; everyone else gets a view
(``whist.core.views``). Fields are plain and mutable because the match driver applies
actions in place after validating them completely (an illegal action changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from whist.core.cards import Card, Hand, Suit

if TYPE_CHECKING:
    from whist.core.components import Component


class Phase(StrEnum):
    BID = "bid"  # Minnesota / Swedish (secret, simultaneous) and Plockwhist (in turn)
    TRUMP = "trump"  # Japanese Whist: the non-dealer names trump
    TAKE = "take"  # German Whist with talon_discard: keep or discard a stock card
    PLAY = "play"
    DONE = "done"  # all tricks played (or the match was resigned during the deal)


class Trick:
    """A finished trick: immutable, compared and hashed by its fields.

    A plain class rather than a NamedTuple: compiled, building one is a C call, while a
    NamedTuple's ``__new__`` is Python code and was the dearest step of finishing a trick."""

    def __init__(self, leader: int, cards: tuple[Card, ...], winner: int, stage: int = 0) -> None:
        self.leader: Final = leader
        self.cards: Final = cards  # in playing order from the leader
        self.winner: Final = winner
        self.stage: Final = stage  # German Whist and Plockwhist: 1 or 2; otherwise 0

    def fields(self) -> tuple[int, tuple[Card, ...], int, int]:
        return self.leader, self.cards, self.winner, self.stage

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trick) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return "Trick(leader={}, cards={}, winner={}, stage={})".format(*self.fields())

    def __reduce__(self) -> tuple[type[Trick], tuple[int, tuple[Card, ...], int, int]]:
        return Trick, self.fields()


@dataclass(frozen=True, slots=True)
class Contract:
    """What the deal is played for. ``role`` names the seat in docs/record-format.md's output
    (``grander``, ``declarer``, ``bidder``); ``seat`` is ``None`` for low/noll/pass."""

    mode: str  # high | low | spel | noll | pass
    seat: int | None = None
    role: str | None = None

    def to_json(self) -> dict[str, str | int | None]:
        """As in docs/record-format.md: ``{"mode": "high", "grander": 2}``,
        ``{"mode": "low"}``."""
        if self.role is None:
            return {"mode": self.mode}
        return {"mode": self.mode, self.role: self.seat}

    def __reduce__(self) -> tuple[type[Contract], tuple[str, int | None, str | None]]:
        # Pickled for bot worker processes. Compiled, a frozen dataclass is otherwise
        # restored by setting its fields one by one, which it refuses.
        return Contract, (self.mode, self.seat, self.role)


class Deal:
    """One deal, built by ``Match.start_deal`` with empty hands for the variant to fill:
    the state every variant shares, plus the components of the variant's mechanics in
    ``parts`` (``whist.core.components``), keyed by name.

    A plain class rather than a dataclass: compiled, a dataclass's generated ``__init__``
    stays interpreted Python, and a deal is built for every deal of every simulation."""

    def __init__(self, index: int, dealer: int, deck: tuple[Card, ...], players: int) -> None:
        self.index = index
        self.dealer = dealer
        self.deck = deck
        self.players = players
        self.hands: list[Hand] = [0] * players
        self.phase = Phase.PLAY
        self.turn = 0
        self.trump: Suit | None = None
        # Rule switches that change during a deal (German Whist and Plockwhist stage 1):
        # whether a follower must follow suit, and whether a trick counts for the deal.
        self.must_follow = True
        self.tricks_count = True
        self.stage = 0  # German Whist and Plockwhist: 1 while the stock lasts, then 2
        # The trick in progress.
        self.leader = 0
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.won = [0, 0]  # counted tricks per side
        self.tricks_total = 13  # tricks in the deal (German: decided as the stock runs out)
        self.contract: Contract | None = None
        # Bids and bottom cards as everyone saw them, in order (open bids at once, secret
        # choices when revealed).
        self.revealed: list[tuple[int, str | Card]] = []
        # Cards every seat has seen go into a seat's hand: seat -> cards (German upcards,
        # Classic's turned trump card, Swedish bottom cards shown).
        self.shown: list[list[Card]] = [[] for _ in range(players)]
        self.parts: dict[str, Component] = {}
        # Result.
        self.points = [0, 0]
        self.complete = False

    def copy(self) -> Deal:
        """This deal to play on without changing it: every container and component is
        copied; cards, tricks and the contract are immutable and shared."""
        twin = Deal(self.index, self.dealer, self.deck, self.players)
        twin.hands = list(self.hands)
        twin.phase = self.phase
        twin.turn = self.turn
        twin.trump = self.trump
        twin.must_follow = self.must_follow
        twin.tricks_count = self.tricks_count
        twin.stage = self.stage
        twin.leader = self.leader
        twin.trick = list(self.trick)
        twin.tricks = list(self.tricks)
        twin.won = list(self.won)
        twin.tricks_total = self.tricks_total
        twin.contract = self.contract
        twin.revealed = list(self.revealed)
        twin.shown = [list(cards) for cards in self.shown]
        if self.parts:
            twin.parts = {name: part.copy() for name, part in self.parts.items()}
        twin.points = list(self.points)
        twin.complete = self.complete
        return twin
