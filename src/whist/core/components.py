"""The mechanics a deal may have, one component each: its state, its copy, what a seat may
see of it, and how that fragment plus a guess of the unseen becomes state again.

A deal is shared state (hands, trick, tricks won, trump, contract, phase, turn; see
``whist.core.state``) plus the components its variant puts in ``Deal.parts`` when the deal
is set up. Each visibility rule is written once, in a component's ``project``:
``view_for`` builds every view from it, a seat's record download asks it which cards the
seat saw, and ``restore`` is its inverse for MASTER's and the sampler's guessed deals.

A new mechanic is a new component here (plus its name in ``whist.core.variant``); a variant
made of existing mechanics only names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final

from whist.core.cards import Card, Hand
from whist.core.state import Phase

if TYPE_CHECKING:
    from whist.core.state import Deal

# The mechanics a variant may be made of (``Facts.components``); the first four have state
# of their own, a component class below.
TURNED_CARD: Final = "turned_card"  # Classic: the dealer's last card turned for trump
STOCK: Final = "stock"  # German Whist, Plockwhist: a stock with a face-up card, two stages
TABLE_PILES: Final = "piles"  # Japanese Whist: ten piles per seat, face-down under face-up
SECRET_CHOICES: Final = "secret_choices"  # Minnesota, Swedish: locked, revealed in order
TALON: Final = "talon"  # German Whist with talon_discard: keep or discard a stock card
TRUMP_CHOICE: Final = "trump_choice"  # Japanese Whist: a seat names trump
BOTTOM_CARDS: Final = "bottom_cards"  # Swedish: the secret choice is a card of the hand
OPEN_BIDS: Final = "open_bids"  # Plockwhist: spel or pass, in turn, in the open


@dataclass(frozen=True)
class Hidden:
    """One guess of what a seat cannot see, in the shape ``restore`` takes."""

    hands: tuple[Hand, ...]  # per seat, every unplayed card it holds (Japanese: table too)
    stock: tuple[Card, ...] = ()  # top first, the face-up card first when there is one
    # Japanese Whist: per seat, the face-down card under each pile (None: no card).
    downs: tuple[tuple[Card | None, ...], ...] = ()
    # Locked secret choices not revealed (Minnesota bids, Swedish bottom cards).
    secret: dict[int, str | Card] = field(default_factory=dict)


class Component:
    """One mechanic's part of a deal. ``FIELDS``: the view fields it owns, with the values
    a view has when the deal has no such component."""

    name: ClassVar[str]
    FIELDS: ClassVar[dict[str, Any]]

    def copy(self) -> Component:
        raise NotImplementedError

    def fields(self) -> tuple[object, ...]:
        """The state, for comparing two deals."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Component)
            and (other.fields() == self.fields())
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def project(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        """The fragment of a view ``seat`` may see (None: a spectator), keyed by FIELDS."""
        raise NotImplementedError

    def restore(self, deal: Deal, fragment: Mapping[str, Any], hidden: Hidden) -> None:
        """This component's state again from a view's fragment and a guess of the unseen
        (``deal``'s shared fields are already restored)."""
        raise NotImplementedError

    def hides_hand(self, deal: Deal) -> bool:
        """True while nobody may look at their own hand (Japanese trick 1)."""
        return False


class TurnedCard(Component):
    """Classic Whist: the dealer's last card, turned for trump, lies face up until the
    dealer plays to trick 1."""

    name = TURNED_CARD
    FIELDS = {"trump_card": None}

    def __init__(self, card: Card | None) -> None:
        self.card = card

    def copy(self) -> Component:
        return self  # never changes: whether it lies face up follows from the play

    def fields(self) -> tuple[object, ...]:
        return (self.card,)

    def face_up(self, deal: Deal) -> bool:
        """The dealer has not played to trick 1 yet."""
        if deal.tricks:
            return False
        return (deal.dealer - deal.leader) % deal.players >= len(deal.trick)

    def project(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        return {"trump_card": self.card if self.face_up(deal) else None}

    def restore(self, deal: Deal, fragment: Mapping[str, Any], hidden: Hidden) -> None:
        self.card = fragment["trump_card"]


class Stock(Component):
    """German Whist and Plockwhist: the stock, top first; its top card lies face up between
    tricks (the winner takes it, the loser the next one unseen), taken cards may be
    discarded (the talon option), the last single card is discarded."""

    name = STOCK
    FIELDS = {"stock_size": 0, "upcard": None, "discards": (), "offer": None}

    def __init__(self, stage_one: tuple[bool, bool]) -> None:
        # While the stock lasts: (a follower must follow suit, tricks count for the deal).
        self.stage_one = stage_one
        self.cards: list[Card] = []
        self.upcard_up = False  # cards[0] lies face up
        self.discards: list[Card] = []  # public, out of play
        self.takes_owed: list[int] = []  # seats still to take in this refill

    def copy(self) -> Component:
        twin = Stock(self.stage_one)
        twin.cards = list(self.cards)
        twin.upcard_up = self.upcard_up
        twin.discards = list(self.discards)
        twin.takes_owed = list(self.takes_owed)
        return twin

    def fields(self) -> tuple[object, ...]:
        return self.stage_one, self.cards, self.upcard_up, self.discards, self.takes_owed

    def offer(self, deal: Deal, seat: int | None) -> Card | None:
        """The stock card a seat decides on unseen by the other: only it sees it."""
        if deal.phase is Phase.TAKE and seat == deal.turn and not self.upcard_up and self.cards:
            return self.cards[0]
        return None

    def project(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        return {
            "stock_size": len(self.cards),
            "upcard": self.cards[0] if self.upcard_up and self.cards else None,
            "discards": tuple(self.discards),
            "offer": self.offer(deal, seat),
        }

    def restore(self, deal: Deal, fragment: Mapping[str, Any], hidden: Hidden) -> None:
        self.cards = list(hidden.stock) if deal.stage else []
        self.upcard_up = fragment["upcard"] is not None
        self.discards = list(fragment["discards"])
        self.takes_owed = []
        if deal.stage == 1:
            deal.must_follow, deal.tricks_count = self.stage_one
        elif deal.stage == 2:
            # The stock is gone: the hands are played out like any deal.
            deal.must_follow = deal.tricks_count = True
            deal.tricks_total = len(deal.tricks) + max(h.bit_count() for h in hidden.hands)
        if deal.phase is Phase.TAKE:
            # The refill after a trick: the winner takes first, then the loser.
            winner = deal.tricks[-1].winner
            self.takes_owed = [winner, 1 - winner] if deal.turn == winner else [deal.turn]
        if deal.stage == 0 and hidden.stock:
            # Plockwhist's bidding: the rest of the deck is dealt once the bids are in.
            deal.deck = _deck(deal, hidden)


def _deck(deal: Deal, hidden: Hidden) -> tuple[Card, ...]:
    """A deck that deals the hands held now (card ``i`` to seat ``dealer + 1 + i``, as
    ``Variant.deal_round``) followed by the undealt cards in ``hidden.stock``."""
    players = deal.players
    held = [sorted(_cards(mask)) for mask in hidden.hands]
    dealt = sum(len(cards) for cards in held)
    first = [held[(deal.dealer + 1 + i) % players][i // players] for i in range(dealt)]
    return (*first, *hidden.stock)


def _cards(mask: Hand) -> list[Card]:
    return [card for card in range(52) if mask >> card & 1]


@dataclass(frozen=True)
class Pile:
    """A Japanese Whist table pile as everyone sees it: the face-up card (if any) and
    whether a face-down card lies under it."""

    up: Card | None
    down: bool

    def __reduce__(self) -> tuple[type[Pile], tuple[Card | None, bool]]:
        # Pickled with views for bot worker processes; see ``Contract.__reduce__``.
        return Pile, (self.up, self.down)


class TablePiles(Component):
    """Japanese Whist: ten piles per seat, a face-down card under a face-up one. Face-up
    cards are public and playable; a face-down card turns up when the card on it has been
    played (at once, or after the trick). Nobody looks at their hand before trick 1 is
    complete, which is played from the table only."""

    name = TABLE_PILES
    FIELDS = {"table": (), "table_cards": 0}

    def __init__(self, up: list[list[Card | None]], down: list[list[Card | None]]) -> None:
        self.up = up
        self.down = down
        self.mask: list[Hand] = [_mask(piles) for piles in up]  # face-up cards per seat
        self.reveals_owed: list[tuple[int, int]] = []  # (seat, pile)

    def copy(self) -> Component:
        twin = TablePiles([list(piles) for piles in self.up], [list(p) for p in self.down])
        twin.mask = list(self.mask)
        twin.reveals_owed = list(self.reveals_owed)
        return twin

    def fields(self) -> tuple[object, ...]:
        return self.up, self.down, self.mask, self.reveals_owed

    def hides_hand(self, deal: Deal) -> bool:
        return not deal.tricks

    def project(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        own = seat is not None and 0 <= seat < len(self.mask)
        return {
            "table": tuple(
                tuple(Pile(up, down is not None) for up, down in zip(ups, downs, strict=True))
                for ups, downs in zip(self.up, self.down, strict=True)
            ),
            "table_cards": self.mask[seat] if own and seat is not None else 0,
        }

    def restore(self, deal: Deal, fragment: Mapping[str, Any], hidden: Hidden) -> None:
        table: tuple[tuple[Pile, ...], ...] = fragment["table"]
        self.up = [[pile.up for pile in piles] for piles in table]
        self.down = [list(downs) for downs in hidden.downs]
        self.mask = [_mask(piles) for piles in self.up]
        # The guess's hands hold table cards too: a hand is what lies on no pile.
        hands = []
        for seat, held in enumerate(hidden.hands):
            on_table = self.mask[seat] | _mask(self.down[seat])
            hands.append(held & ~on_table)
        deal.hands = hands
        # With reveal after_trick, a pile whose face-up card was played in the trick in
        # progress turns its face-down card up when the trick is complete.
        self.reveals_owed = [
            (seat, index)
            for seat, piles in enumerate(table)
            for index, pile in enumerate(piles)
            if pile.up is None and pile.down
        ]


def _mask(cards: list[Card | None]) -> Hand:
    mask = 0
    for card in cards:
        if card is not None:
            mask |= 1 << card
    return mask


class SecretChoices(Component):
    """Minnesota bids and Swedish bottom cards: every seat locks a choice in any order;
    while they choose, a view shows who has locked, never what (not even one's own).
    The reveal itself goes to the deal's public ``revealed`` list."""

    name = SECRET_CHOICES
    FIELDS = {"decided": ()}

    def __init__(self) -> None:
        self.locked: dict[int, str | Card] = {}

    def copy(self) -> Component:
        twin = SecretChoices()
        twin.locked = dict(self.locked)
        return twin

    def fields(self) -> tuple[object, ...]:
        return (self.locked,)

    def project(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        return {"decided": tuple(sorted(self.locked)) if deal.phase is Phase.BID else ()}

    def restore(self, deal: Deal, fragment: Mapping[str, Any], hidden: Hidden) -> None:
        self.locked = dict(hidden.secret)


# The view fields of every component, as a deal without that component shows them.
ABSENT: Final[dict[str, Any]] = {
    name: value
    for kind in (TurnedCard, Stock, TablePiles, SecretChoices)
    for name, value in kind.FIELDS.items()
}
