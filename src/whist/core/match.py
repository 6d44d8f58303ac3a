"""A match: deals to the target, driven one action at a time.

A match is a deterministic function of (variant, options, decks, dealers, actions): that
is exactly a ``whist-record/1`` document, which is why replay, saved games and crash
recovery all work by applying actions again. ``apply`` validates an action completely
before changing anything, so a refused action leaves the match unchanged.

Card play is the hot path of every simulation (bots, benchmarks, conformance tests), so
``legal_actions`` and ``apply`` handle it inline and leave the rest to the variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from whist.core.actions import Action, Play, Resign
from whist.core.cards import SUIT_MASK, Card, Hand
from whist.core.errors import (
    BAD_DEALER,
    BAD_DECK,
    CARD_NOT_AVAILABLE,
    DEAL_IN_PROGRESS,
    INVALID_SEAT,
    MATCH_OVER,
    MUST_FOLLOW_SUIT,
    NO_DEAL_IN_PROGRESS,
    NOT_YOUR_TURN,
    WRONG_PHASE,
    WhistError,
)
from whist.core.options import Options
from whist.core.rules import side_of, trick_winner
from whist.core.state import Deal, Phase, Trick
from whist.core.variant import SUIT_PLAYS, Variant, plays_of, suit_plays

_PLAY: Final = Phase.PLAY


class Match:
    def __init__(self, variant: Variant, options: Options) -> None:
        self.variant = variant
        self.options = options
        self.players = variant.players
        self._plain = variant.plays_from_hand
        self.scores = [0, 0]  # per side: seat in two-player games, team in four-player ones
        self.deals: list[Deal] = []
        self.deal: Deal | None = None  # the last deal, finished or not
        self.log: list[list[Action]] = []  # the actions of each deal, in order
        self.over = False
        self.winner: int | None = None  # side, None while not over or for a draw
        self.resigned: int | None = None  # seat that resigned

    def copy(self) -> Match:
        """This match to go on with without changing it (a refused action's trial run,
        simulations): the current deal and every list are copied, finished deals shared."""
        twin = Match(self.variant, self.options)
        twin.scores = list(self.scores)
        twin.deals = list(self.deals)
        if self.deal is not None:
            twin.deal = self.deal if self.deal.complete else self.deal.copy()
            twin.deals[-1] = twin.deal
        twin.log = [list(actions) for actions in self.log]
        if twin.log:
            twin._actions = twin.log[-1]
        twin.over = self.over
        twin.winner = self.winner
        twin.resigned = self.resigned
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Match:
        # The variant is stateless and shared, actions and finished deals never change.
        return self.copy()

    # ------------------------------------------------------------ queries
    @property
    def needs_deal(self) -> bool:
        """True when the next deal's deck is wanted: no deal yet or the last one complete."""
        return not self.over and (self.deal is None or self.deal.complete)

    def next_dealer(self) -> int | None:
        """The dealer of the next deal (the rotation in docs/rules.md, "Common rules"), None
        before the first."""
        if self.deal is None:
            return None
        return (self.deal.dealer + 1) % self.players

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, or for secret simultaneous choices every seat
        still to choose (clockwise from the dealer's left)."""
        deal = self.deal
        if self.over or deal is None or deal.complete:
            return ()
        return self.variant.to_act(deal)

    def next_seat(self) -> int | None:
        seats = self.to_act()
        return seats[0] if seats else None

    def legal_mask(self, deal: Deal, seat: int) -> Hand:
        """Cards ``seat`` may play, following suit where required (its turn assumed)."""
        avail = deal.hands[seat] if self._plain else self.variant.available(deal, seat)
        if deal.trick and deal.must_follow:
            follow = avail & SUIT_MASK[deal.trick[0] // 13]
            if follow:
                return follow
        return avail

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """Legal actions of ``seat`` (default: the next seat to act); resigning is always
        allowed and never listed."""
        deal = self.deal
        if deal is not None and deal.phase is _PLAY:
            turn = deal.turn
            if seat is not None and seat != turn:
                return ()
            avail = deal.hands[turn] if self._plain else self.variant.available(deal, turn)
            trick = deal.trick
            if trick and deal.must_follow:
                led = trick[0] // 13
                pattern = (avail >> (13 * led)) & 8191
                if pattern:
                    plays = SUIT_PLAYS[turn << 15 | led << 13 | pattern]
                    return plays if plays is not None else suit_plays(turn, led, pattern)
            return plays_of(turn, avail)
        if self.over or deal is None or deal.complete:
            return ()
        if seat is None:
            seat = self.variant.to_act(deal)[0]
        return self.variant.decision_actions(self, deal, seat)

    # ----------------------------------------------------------- commands
    def start_deal(self, deck: Sequence[Card], dealer: int | None = None) -> Deal:
        """Begin the next deal with ``deck`` (top first). The first deal needs its dealer;
        later ones follow the rotation, and a ``dealer`` given must match it."""
        if self.over:
            raise WhistError(MATCH_OVER, "the match is over")
        if self.deal is not None and not self.deal.complete:
            raise WhistError(DEAL_IN_PROGRESS, "the current deal is not finished")
        expected = self.next_dealer()
        if dealer is None:
            if expected is None:
                raise WhistError(BAD_DEALER, "the first deal needs a dealer")
            dealer = expected
        if not (type(dealer) is int and 0 <= dealer < self.players):
            raise WhistError(BAD_DEALER, f"dealer must be a seat 0..{self.players - 1}")
        if expected is not None and dealer != expected:
            raise WhistError(BAD_DEALER, f"the dealer of this deal is seat {expected}")
        cards = tuple(deck)
        if len(cards) != 52 or _DECK_SET.difference(cards):
            raise WhistError(BAD_DECK, "a deck is 52 distinct cards")
        deal = Deal(len(self.deals), dealer, cards, self.players)
        self.variant.setup_deal(self, deal)
        self.deals.append(deal)
        self.deal = deal
        self._actions: list[Action] = []
        self.log.append(self._actions)
        return deal

    def apply(self, action: Action) -> None:
        """Apply one action or raise ``WhistError``; a refused action changes nothing."""
        deal = self.deal
        if type(action) is Play and deal is not None and deal.phase is _PLAY:
            self._play(deal, action)
            return
        if self.over:
            raise WhistError(MATCH_OVER, "the match is over")
        seat = _int_field(action, "seat")
        if not 0 <= seat < self.players:
            raise WhistError(INVALID_SEAT, f"seat must be 0..{self.players - 1}")
        if deal is None:
            # A record holds actions inside deals; before the first deal there is no match
            # to resign yet (leaving a table then is the table's business, not the rules').
            raise WhistError(NO_DEAL_IN_PROGRESS, "no deal has started")
        if isinstance(action, Resign):
            self._resign(seat)
            self._actions.append(action)
            return
        if deal.complete:
            raise WhistError(NO_DEAL_IN_PROGRESS, "no deal is in progress")
        if isinstance(action, Play):
            raise WhistError(WRONG_PHASE, "cards are not played in this phase")
        self.variant.decide(self, deal, action)
        self._actions.append(action)

    # ------------------------------------------------------------ internals
    def _resign(self, seat: int) -> None:
        self.over = True
        self.resigned = seat
        self.winner = 1 - side_of(seat)
        deal = self.deal
        if deal is not None and not deal.complete:
            deal.phase = Phase.DONE

    def _play(self, deal: Deal, action: Play) -> None:
        seat = _int_field(action, "seat")
        if seat != deal.turn:
            if not 0 <= seat < self.players:
                raise WhistError(INVALID_SEAT, f"seat must be 0..{self.players - 1}")
            raise WhistError(NOT_YOUR_TURN, f"it is seat {deal.turn}'s turn, not {seat}'s")
        card = _int_field(action, "card")
        plain = self._plain
        avail = deal.hands[seat] if plain else self.variant.available(deal, seat)
        if not (0 <= card < 52 and (avail >> card) & 1):
            raise WhistError(CARD_NOT_AVAILABLE, "that card is not yours to play")
        trick = deal.trick
        if trick and deal.must_follow:
            follow = avail & SUIT_MASK[trick[0] // 13]
            if follow and not (follow >> card) & 1:
                raise WhistError(MUST_FOLLOW_SUIT, "you must follow suit")
        if plain:
            deal.hands[seat] = avail ^ (1 << card)
        else:
            self.variant.remove_card(self, deal, seat, card)
        trick.append(card)
        self._actions.append(action)
        players = self.players
        if len(trick) < players:
            deal.turn = (seat + 1) % players
        else:
            self._complete_trick(deal, trick)

    def _complete_trick(self, deal: Deal, trick: list[Card]) -> None:
        winner = (deal.leader + trick_winner(trick, deal.trump)) % self.players
        done = Trick(deal.leader, tuple(trick), winner, deal.stage)
        deal.tricks.append(done)
        if deal.tricks_count:
            deal.won[winner % 2] += 1
        deal.trick = []
        deal.leader = deal.turn = winner
        self.variant.after_trick(self, deal, done)
        if deal.phase is _PLAY and len(deal.tricks) >= deal.tricks_total:
            self.finish_deal(deal)

    def finish_deal(self, deal: Deal) -> None:
        deal.points = self.variant.score(self, deal)
        self.scores = [self.scores[0] + deal.points[0], self.scores[1] + deal.points[1]]
        deal.complete = True
        deal.phase = Phase.DONE
        self.over, self.winner = self.variant.match_result(self)


_DECK_SET: Final = frozenset(range(52))


def _int_field(action: Action, name: str) -> int:
    """The action's field ``name`` if it is an ``int`` proper (not a bool), else -1.

    Read untyped on purpose: compiled, a typed read converts, turning True into 1 and
    anything else into a TypeError, where a wrong seat or card must get its error code."""
    value: object = getattr(action, name)
    return value if type(value) is int else -1
