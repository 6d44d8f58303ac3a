"""The shared machinery of every variant; a variant module overrides only what differs.

A ``Variant`` is stateless and shared by every match of its key; the match and its deal
are passed to each hook. Hooks that apply a decision validate it completely before they
change anything, so a refused action leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from whist.core.actions import Action, Bid, Bottom, Play
from whist.core.cards import Card, Hand, Suit
from whist.core.components import SECRET_CHOICES, SecretChoices
from whist.core.errors import (
    ALREADY_DECIDED,
    BAD_ACTION,
    CARD_NOT_AVAILABLE,
    INVALID_BID,
    NOT_YOUR_TURN,
    WRONG_PHASE,
    WhistError,
)
from whist.core.options import OptionSet
from whist.core.rules import left
from whist.core.state import Contract, Deal, Phase, Trick

if TYPE_CHECKING:
    from whist.core.match import Match

PLAYS: Final[tuple[tuple[Play, ...], ...]] = tuple(
    tuple(Play(s, c) for c in range(52)) for s in range(4)
)


# The Play actions of one seat for the 13-bit pattern of one suit, ascending, built on first
# use: entry ``seat << 15 | suit << 13 | pattern``. Random play spends much of its time
# here, and indexing a flat list is the cheapest lookup there is (1 MB of pointers); the
# callers index it themselves and call ``suit_plays`` only for an entry not built yet.
SUIT_PLAYS: Final[list[tuple[Play, ...] | None]] = [None] * (4 << 15)


def suit_plays(seat: int, suit: Suit, pattern: int) -> tuple[Play, ...]:
    """The Play actions of ``seat`` for the cards of ``suit`` in ``pattern`` (bit r: the
    card of rank index r), ascending."""
    index = seat << 15 | suit << 13 | pattern
    plays = SUIT_PLAYS[index]
    if plays is None:
        cards = PLAYS[seat][13 * suit : 13 * suit + 13]
        plays = tuple(cards[r] for r in range(13) if pattern >> r & 1)
        SUIT_PLAYS[index] = plays
    return plays


def plays_of(seat: int, mask: Hand) -> tuple[Play, ...]:
    """The Play actions of ``seat`` for every card of ``mask``, ascending."""
    base = seat << 15
    spades = SUIT_PLAYS[base | mask & 8191]
    hearts = SUIT_PLAYS[base | 8192 | mask >> 13 & 8191]
    diamonds = SUIT_PLAYS[base | 16384 | mask >> 26 & 8191]
    clubs = SUIT_PLAYS[base | 24576 | mask >> 39]
    if spades is None or hearts is None or diamonds is None or clubs is None:
        return tuple(
            play for suit in range(4) for play in suit_plays(seat, suit, mask >> 13 * suit & 8191)
        )
    return spades + hearts + diamonds + clubs


@dataclass(frozen=True)
class Facts:
    """What a variant is made of, as data: views carry it, so bots, records, the terminal
    and the browser ask these instead of testing variant keys."""

    players: int
    components: tuple[str, ...]
    bid_words: tuple[str, ...] = ()
    # Contract modes a deal may be played in; empty: no contract (Classic, German, Japanese).
    contracts: tuple[str, ...] = ()
    # Cards in each hand when the bids are made (Plockwhist bids on its first six).
    bid_hand: int = 13

    def has(self, component: str) -> bool:
        return component in self.components

    def __reduce__(self) -> tuple[type[Facts], tuple[Any, ...]]:
        # Pickled with views for bot worker processes; see ``Contract.__reduce__``.
        fields = (self.players, self.components, self.bid_words, self.contracts, self.bid_hand)
        return Facts, fields

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "components": list(self.components),
            "bid_words": list(self.bid_words),
            "contracts": list(self.contracts),
            "bid_hand": self.bid_hand,
        }


class Variant:
    key: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[int]
    option_set: ClassVar[OptionSet]
    # Record aliases of this variant: alias -> preset it selects (None: no preset).
    aliases: ClassVar[dict[str, str | None]] = {}
    # Bid words accepted by a Bid action, and which bottom/bid choice stops a secret reveal.
    bid_words: ClassVar[tuple[str, ...]] = ()
    facts: ClassVar[Facts]

    # ----------------------------------------------------------------- the deal
    def setup_deal(self, match: Match, deal: Deal) -> None:
        """Distribute ``deal.deck`` and set the first phase. Default: Classic's plan."""
        self.deal_round(deal, range(52))
        self.start_play(deal, left(deal.dealer, deal.players))

    @staticmethod
    def deal_round(deal: Deal, positions: range) -> None:
        """One card at a time, clockwise from the dealer's left: card ``i`` of ``positions``
        goes to seat ``(dealer + 1 + i) mod players``."""
        players = deal.players
        for i in range(positions.start, min(positions.start + players, positions.stop)):
            seat = (deal.dealer + 1 + i) % players
            hand = 0
            for card in deal.deck[i : positions.stop : players]:
                hand |= 1 << card
            deal.hands[seat] |= hand

    @staticmethod
    def start_play(deal: Deal, leader: int) -> None:
        deal.phase = Phase.PLAY
        deal.leader = deal.turn = leader

    # ------------------------------------------------------------ decisions
    def decision_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        """Legal non-play actions of ``seat`` in the current phase."""
        return []

    def decide(self, match: Match, deal: Deal, action: Action) -> None:
        """Validate and apply a non-play action."""
        raise WhistError(WRONG_PHASE, f"a {action.kind} action is not taken in this phase")

    def to_act(self, deal: Deal) -> tuple[int, ...]:
        if deal.phase is Phase.BID and self.secret_simultaneous:
            locked = secret_choices(deal).locked
            order = [(deal.dealer + 1 + i) % deal.players for i in range(deal.players)]
            return tuple(seat for seat in order if seat not in locked)
        return (deal.turn,)

    # ------------------------------------------------------------ card play
    # Cards are played from the hand only. A variant that also plays from elsewhere (the
    # Japanese table) sets this False and overrides ``available`` and ``remove_card``.
    plays_from_hand: ClassVar[bool] = True

    def available(self, deal: Deal, seat: int) -> Hand:
        """Cards ``seat`` may play from (before following suit)."""
        return deal.hands[seat]

    def remove_card(self, match: Match, deal: Deal, seat: int, card: Card) -> None:
        deal.hands[seat] &= ~(1 << card)

    def after_trick(self, match: Match, deal: Deal, trick: Trick) -> None:
        """Called with the winner already leading the next trick."""

    # -------------------------------------------------------------- scoring
    def score(self, match: Match, deal: Deal) -> list[int]:
        return self.points(match.options, deal.contract, deal.dealer, deal.won)

    def points(
        self, options: Mapping[str, Any], contract: Contract | None, dealer: int, won: Sequence[int]
    ) -> list[int]:
        """A complete deal's points per side from its counted tricks per side: one function
        for the match and for players weighing how a deal might end."""
        raise NotImplementedError

    def match_result(self, match: Match) -> tuple[bool, int | None]:
        """(over, winning side or None for a draw), asked after every complete deal.

        Variants have either ``target: N`` or ``match: target:N | single | deals:N |
        rounds:N`` (``rounds``: every player deals N times)."""
        if "match" not in match.options:
            return first_to(match.scores, int(match.options["target"]))
        kind, _, number = str(match.options["match"]).partition(":")
        if kind == "target":
            return first_to(match.scores, int(number))
        deals = 1 if kind == "single" else int(number)
        if kind == "rounds":
            deals *= match.players
        if sum(deal.complete for deal in match.deals) < deals:
            return False, None
        return True, highest(match.scores)

    # ------------------------------------------- secret simultaneous choices
    # Minnesota bids and Swedish bottom cards: every seat locks a choice in any order; when
    # all are locked they are revealed one by one from the dealer's left until the first
    # choice that stops the reveal. Choices never revealed stay secret forever.
    @property
    def secret_simultaneous(self) -> bool:
        return self.facts.has(SECRET_CHOICES)

    def open_secret_choices(self, deal: Deal) -> None:
        """Deal every card, then every seat chooses."""
        self.deal_round(deal, range(52))
        deal.parts[SECRET_CHOICES] = SecretChoices()
        deal.phase = Phase.BID

    def secret_choices(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        return [Bid(seat, word) for word in self.bid_words]

    def stops_reveal(self, choice: str | Card) -> bool:
        raise NotImplementedError

    def reveal_everything(self, match: Match) -> bool:
        return False

    def on_revealed(self, match: Match, deal: Deal, stopper: int | None) -> None:
        """Set the contract and the first lead once the reveal is over."""
        raise NotImplementedError

    def secret_actions(self, match: Match, deal: Deal, seat: int) -> list[Action]:
        if deal.phase is not Phase.BID or seat in secret_choices(deal).locked:
            return []
        return self.secret_choices(match, deal, seat)

    def decide_secret(self, match: Match, deal: Deal, action: Action) -> None:
        if deal.phase is not Phase.BID or not isinstance(action, Bid | Bottom):
            raise WhistError(WRONG_PHASE, f"a {action.kind} is not taken in this phase")
        seat = action.seat
        locked = secret_choices(deal).locked
        if seat in locked:
            raise WhistError(ALREADY_DECIDED, f"seat {seat} has already chosen")
        choices = self.secret_choices(match, deal, seat)
        if action not in choices:
            if isinstance(action, Bottom) and isinstance(choices[0], Bottom):
                raise WhistError(
                    CARD_NOT_AVAILABLE, "the bottom card must be a card of your own hand"
                )
            raise WhistError(INVALID_BID, self.choice_error(choices[0]))
        choice: str | Card
        if isinstance(action, Bid):
            choice = action.bid
        else:
            assert isinstance(action, Bottom)
            choice = action.card
        locked[seat] = choice
        if len(locked) == deal.players:
            self._reveal(match, deal)

    def choice_error(self, example: Action) -> str:
        if isinstance(example, Bottom):
            return "choose a card of your hand as bottom card"
        return "the bid must be " + " or ".join(self.bid_words)

    def _reveal(self, match: Match, deal: Deal) -> None:
        stopper: int | None = None
        reveal_all = self.reveal_everything(match)
        locked = secret_choices(deal).locked
        for i in range(deal.players):
            seat = (deal.dealer + 1 + i) % deal.players
            choice = locked[seat]
            if stopper is None or reveal_all:
                deal.revealed.append((seat, choice))
                if isinstance(choice, int):
                    deal.shown[seat].append(choice)
            if stopper is None and self.stops_reveal(choice):
                stopper = seat
                if not reveal_all:
                    break
        self.on_revealed(match, deal, stopper)

    # ------------------------------------------ in-turn decision helpers
    @staticmethod
    def check_turn(deal: Deal, action: Action, phase: Phase) -> None:
        if deal.phase is not phase:
            raise WhistError(WRONG_PHASE, f"a {action.kind} is not taken in this phase")
        if action.seat != deal.turn:
            raise WhistError(NOT_YOUR_TURN, f"it is seat {deal.turn}'s turn, not {action.seat}'s")

    def check_listed(self, match: Match, deal: Deal, action: Action) -> None:
        """Refuse a choice that is not one of the seat's listed choices (a trump that is no
        suit, a take that is neither keep nor discard)."""
        if action not in self.decision_actions(match, deal, action.seat):
            raise WhistError(BAD_ACTION, f"{action!r} is not one of the choices")


def secret_choices(deal: Deal) -> SecretChoices:
    part = deal.parts[SECRET_CHOICES]
    assert isinstance(part, SecretChoices)
    return part


def first_to(scores: list[int], target: int) -> tuple[bool, int | None]:
    """Match end for ``target`` matches: over once a side reaches the target after a deal;
    the higher total wins, equal totals are a draw."""
    if max(scores) < target:
        return False, None
    return True, highest(scores)


def highest(scores: list[int]) -> int | None:
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1
