"""A ``whist-record/1`` of a match as one seat may see it (docs/rules.md, What each seat may see).

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
from whist.core.state import Deal
from whist.core.views import seen_in_place, view_for
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
        deck, shown_actions, known_from = _rebuild(match, index, deal, actions, seat, sees_until)
        item: dict[str, Any] = {
            "dealer": deal.dealer,
            "deck": [card_text(c) for c in deck],
            "actions": [action_to_json(a) for a in shown_actions],
        }
        if known_from != -1:
            item["reconstructed"] = {"known_from": known_from}
        deals.append(item)
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
) -> tuple[list[Card], list[Action], int | None]:
    """Replay the true deal step by step to learn its public structure, then place cards.
    The seat sees its own cards only up to action ``sees_until`` (-1: not in this deal).
    Also: the first action from which every card in play is where the real deal had it
    (-1: the deck is the real one; None: never in this deal's actions)."""
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
        # What the seat sees is its view (every rule of it in one place, the components'
        # ``project``); once it has left, only what a spectator sees.
        view = view_for(replica, seat if time <= sees_until else None)
        for owner in range(replica.players):
            for card in cards_in(live.hands[owner]):
                own = bool(view.hand >> card & 1)
                slot = slots.get(position[card])
                if slot is None:
                    slots[position[card]] = Slot(position[card], owner, time, own)
                elif own:
                    slot.known = True
        public.update(seen_in_place(view))

    observe(0)
    secret_stand_ins: list[int] = []
    for time, action in enumerate(actions, start=1):
        if isinstance(action, Play):
            trick = live.trick
            # While hands are hidden (Japanese trick 1, played from the table only), not
            # following suit shows nothing of the hand.
            from_hand = not any(part.hides_hand(live) for part in live.parts.values())
            if trick and live.must_follow and from_hand and action.card // 13 != trick[0] // 13:
                voids.append((action.seat, trick[0] // 13, time))
            played_at[action.card] = (action.seat, time)
        replica.apply(action)
        observe(time)
    # Secret choices that were never revealed are replaced (they never affect play).
    revealed = {s for s, _ in live.revealed}
    for i, action in enumerate(actions):
        # Not even the seat's own: docs/rules.md says unrevealed bids are never shown to anyone.
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
    options = _fitting(slots, known_cards, played_at, voids)
    placed = _place(known_cards, options)
    deck = [placed[pos] for pos in range(52)]
    known_from = _known_from(slots, options, played_at, len(actions))
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
    return deck, shown, known_from


def _hands_at_bidding(
    fresh: Match, deck: list[Card], dealer: int, match: Match, index: int
) -> list[int]:
    for earlier, earlier_actions in zip(match.deals[:index], match.log[:index], strict=True):
        fresh.start_deal(earlier.deck, earlier.dealer)
        for action in earlier_actions:
            fresh.apply(action)
    return list(fresh.start_deal(deck, dealer).hands)


def _fitting(
    slots: dict[int, Slot],
    known: dict[int, Card],
    played_at: dict[Card, tuple[int, int]],
    voids: list[tuple[int, int, int]],
) -> dict[Card, list[int]]:
    """Every card the seat did not see in place, with the open positions it could have
    been at by what the seat knows: who played it and when, voids, when hands received."""
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

    return {card: [pos for pos in open_slots if fits(card, pos)] for card in cards}


def _place(known: dict[int, Card], options: dict[Card, list[int]]) -> dict[int, Card]:
    """Known cards stay; the rest are matched to the open positions they fit (Kuhn's
    algorithm, in a fixed order) using only what the seat knows: never the true positions."""
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

    for card in sorted(options):
        if not augment(card, set()):
            raise AssertionError(f"no place for {card_text(card)}: inconsistent deal")
    placed = dict(known)
    placed.update(owner_of)
    return placed


def _known_from(
    slots: dict[int, Slot],
    options: dict[Card, list[int]],
    played_at: dict[Card, tuple[int, int]],
    actions: int,
) -> int | None:
    """The first action from which the rebuilt deck puts every card in play where the real
    one had it, by the seat's knowledge alone (it must not tell the seat whether a guess
    was right): before action ``t``, a card not seen in place and not yet played is known
    when every position it could be at holds it in the same hand by then. A position whose
    card has not reached a hand by then (stock, face-down table card) is a place of its own.
    -1: every position is known (the real deck); None: not from any action."""
    if not options:
        return -1

    def known_before(t: int) -> bool:
        for card, positions in options.items():
            played = played_at.get(card)
            if played is not None and played[1] <= t:
                continue  # played before action t: not in play any more
            places = {
                slots[pos].owner
                if slots[pos].owner is not None and slots[pos].time <= t
                else -1 - pos
                for pos in positions
            }
            if len(places) > 1:
                return False
        return True

    first: int | None = None
    for t in range(actions, -1, -1):
        if not known_before(t):
            break
        first = t
    return first
