"""A ``whist-record/1`` of a match as one seat may see it (RULES.md §8).

A record needs full decks, but a player's download must not carry what that player never
saw: other hands, the loser's hidden draws, face-down cards, unrevealed bids and bottom
cards. So every deck is rebuilt from the seat's own knowledge: each card the seat saw at a
known place stays there; every other card is placed by a deterministic matching that uses
only what the seat knows (who played which card when, voids shown, when each hand received
a card) — never where the card really was. Unrevealed secret choices are replaced by a fixed
stand-in (they never influence play). Replaying the result gives the seat the same views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whist.core.actions import Action, Bid, Bottom, Play, action_to_json
from whist.core.cards import Card, card_text, cards_in
from whist.core.match import Match
from whist.core.state import Deal, Phase
from whist.records import FORMAT


@dataclass
class Slot:
    """A deck position: which seat's hand it reaches (None: it never reaches a hand, e.g. a
    face-down Japanese card or a stock card never drawn) and at which action (time)."""

    position: int
    owner: int | None
    time: int
    known: bool  # the seat that downloads knows the card at this position


def seat_record(
    match: Match,
    seat: int,
    players: Sequence[str] | None = None,
    until: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The record of ``match`` with only what ``seat`` may know. ``until``: the player left
    the seat (or a bot took it over) after that many actions of that deal; from then on it
    knows only what everyone knows, its own earlier hands stay known."""
    deals = []
    for index, deal in enumerate(match.deals):
        actions = match.log[index]
        sees_until = 10**6 if until is None or index < until[0] else -1
        if until is not None and index == until[0]:
            sees_until = until[1]
        deck, shown_actions = _rebuild(match, index, deal, actions, seat, sees_until)
        deals.append(
            {
                "dealer": deal.dealer,
                "deck": [card_text(c) for c in deck],
                "actions": [action_to_json(a) for a in shown_actions],
            }
        )
    document: dict[str, Any] = {
        "format": FORMAT,
        "variant": match.variant.key,
        "options": dict(match.options),
    }
    if players is not None:
        document["players"] = list(players)
    document["deals"] = deals
    return document


def _rebuild(
    match: Match, index: int, deal: Deal, actions: Sequence[Action], seat: int, sees_until: int
) -> tuple[list[Card], list[Action]]:
    """Replay the true deal step by step to learn its public structure, then place cards.
    The seat sees its own cards only up to action ``sees_until`` (-1: not in this deal)."""
    replica = Match(match.variant, match.options)
    for earlier, earlier_actions in zip(match.deals[:index], match.log[:index], strict=True):
        replica.start_deal(earlier.deck, earlier.dealer)
        for action in earlier_actions:
            replica.apply(action)
    live = replica.start_deal(deal.deck, deal.dealer)
    position = {card: i for i, card in enumerate(deal.deck)}
    slots: dict[int, Slot] = {}
    played_at: dict[Card, tuple[int, int]] = {}  # card -> (seat, time)
    voids: list[tuple[int, int, int]] = []  # (seat, suit, time)
    public: set[Card] = set()

    def observe(time: int) -> None:
        # Japanese Whist: nobody has looked at their hand before trick 1 is complete.
        own_hand_seen = not (live.table_up and not live.tricks) and time <= sees_until
        for owner in range(replica.players):
            for card in cards_in(live.hands[owner]):
                slot = slots.get(position[card])
                if slot is None:
                    slots[position[card]] = Slot(
                        position[card], owner, time, owner == seat and own_hand_seen
                    )
                elif owner == seat and own_hand_seen:
                    slot.known = True
        for cards in live.shown:
            public.update(cards)
        public.update(live.discards)
        if live.upcard_up and live.stock:
            public.add(live.stock[0])
        elif live.phase is Phase.TAKE and live.turn == seat and live.stock and time <= sees_until:
            public.add(live.stock[0])  # the unseen stock card only this seat was shown
        if live.table_up:
            for ups in live.table_up:
                public.update(c for c in ups if c is not None)
            if seat < len(live.table_mask):
                for owner in range(replica.players):
                    for card in cards_in(live.table_mask[owner]):
                        slots.setdefault(position[card], Slot(position[card], None, time, True))

    observe(0)
    secret_stand_ins: list[int] = []
    for time, action in enumerate(actions, start=1):
        if isinstance(action, Play):
            trick = live.trick
            # Japanese trick 1 is played from the table only: it shows nothing of hands.
            from_hand = not (live.table_up and not live.tricks)
            if trick and live.must_follow and from_hand and action.card // 13 != trick[0] // 13:
                voids.append((action.seat, trick[0] // 13, time))
            played_at[action.card] = (action.seat, time)
        replica.apply(action)
        observe(time)
    # Secret choices that were never revealed are replaced (they never affect play).
    revealed = {s for s, _ in live.revealed}
    for i, action in enumerate(actions):
        # Not even the seat's own: RULES.md says unrevealed bids are never shown to anyone.
        if (
            isinstance(action, Bid | Bottom)
            and action.seat not in revealed
            and match.variant.secret_simultaneous
        ):
            secret_stand_ins.append(i)
    known_cards: dict[int, Card] = {}
    for pos, slot in slots.items():
        card = deal.deck[pos]
        if slot.known or card in public:
            known_cards[pos] = card
    # Positions never seen in a hand or on the table (stock never drawn, face-down cards
    # never turned): unknown, reaching no hand.
    for pos in range(52):
        if pos not in slots:
            card = deal.deck[pos]
            if card in public:
                known_cards[pos] = card
            else:
                slots[pos] = Slot(pos, None, 10**6, False)
    placed = _place(slots, known_cards, played_at, voids)
    deck = [placed[pos] for pos in range(52)]
    shown = list(actions)
    if secret_stand_ins:
        stand_in_deal = Match(match.variant, match.options)
        hands = _hands_at_bidding(stand_in_deal, deck, deal.dealer, match, index)
        for i in secret_stand_ins:
            action = shown[i]
            if isinstance(action, Bid):
                shown[i] = Bid(action.seat, match.variant.bid_words[-1])  # low / pass
            elif isinstance(action, Bottom):
                shown[i] = Bottom(action.seat, min(cards_in(hands[action.seat])))
    return deck, shown


def _hands_at_bidding(
    fresh: Match, deck: list[Card], dealer: int, match: Match, index: int
) -> list[int]:
    for earlier, earlier_actions in zip(match.deals[:index], match.log[:index], strict=True):
        fresh.start_deal(earlier.deck, earlier.dealer)
        for action in earlier_actions:
            fresh.apply(action)
    return list(fresh.start_deal(deck, dealer).hands)


def _place(
    slots: dict[int, Slot],
    known: dict[int, Card],
    played_at: dict[Card, tuple[int, int]],
    voids: list[tuple[int, int, int]],
) -> dict[int, Card]:
    """Known cards stay; the rest are matched to the open positions (Kuhn's algorithm, in
    a fixed order) using only what the seat knows: never the true positions."""
    open_slots = sorted(pos for pos in range(52) if pos not in known)
    cards = sorted(set(range(52)) - set(known.values()))

    def fits(card: Card, pos: int) -> bool:
        slot = slots[pos]
        played = played_at.get(card)
        if played is not None:
            owner, time = played
            # A card that reaches a hand after action t can be played from action t + 1.
            if slot.owner != owner or slot.time >= time:
                return False
            until = time
        else:
            until = 10**6
        if slot.owner is None:
            return played is None
        suit = card // 13
        return not any(
            v_seat == slot.owner and v_suit == suit and slot.time < v_time < until
            for v_seat, v_suit, v_time in voids
        )

    options = {card: [pos for pos in open_slots if fits(card, pos)] for card in cards}
    owner_of: dict[int, Card] = {}

    def augment(card: Card, seen: set[int]) -> bool:
        for pos in options[card]:
            if pos in seen:
                continue
            seen.add(pos)
            if pos not in owner_of or augment(owner_of[pos], seen):
                owner_of[pos] = card
                return True
        return False

    for card in cards:
        if not augment(card, set()):
            raise AssertionError(f"no place for {card_text(card)}: inconsistent deal")
    placed = dict(known)
    placed.update(owner_of)
    return placed
