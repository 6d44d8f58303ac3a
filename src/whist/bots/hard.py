"""HARD: a card-counting player that plays for the deal's goal.

What it knows (all from its view): every card played and so which higher cards of each suit
are still out (its own card is a master once none are); the voids each player has shown;
the trump suit; the contract and so whether its side wants tricks (high, spel, classic,
German) or wants to avoid them (Minnesota low, Swedish nollspel, Plockwhist pass); in
German Whist and Plockwhist the upcards each player took and, in stage 2, the other hand
exactly (by elimination).

What it does:
- Playing for tricks: cashes masters the opponents cannot ruff, draws trumps when long in
  them, otherwise leads from its longest suit (top of touching honours, else low) and gives
  its partner ruffs; second hand low, third hand high; wins with the cheapest card no one
  after it can beat; never overtakes a partner whose card is safe; discards from its least
  useful cards, keeping masters and trumps.
- Playing to lose: leads the card with the fewest lower cards out, from short suits;
  ducks under the winning card with its highest card that still loses; when it must win,
  wins with its highest card if last; discards its most dangerous high cards.
- German Whist and Plockwhist stage 1: weighs the face-up card against the unseen card the
  loser gets and against what winning costs, and plays to win it or lose cheaply; stage 2
  endings of six tricks or fewer are played exactly.
- Japanese Whist (26 tricks, much of it on the open table): compares its candidate cards
  by playing the deal out over a fixed number of sampled deals of the unseen cards, with
  MEDIUM's policy for both sides (``whist.bots.rollout``); simple rules measured no better
  than MEDIUM there.
- Bids from a hand evaluation that counts sure and likely tricks; trump choice, bottom card
  and talon choices from the same evaluation.
"""

from __future__ import annotations

from random import Random

from whist.bots.base import CardPlayer
from whist.bots.decisions import (
    hcp,
    offered_card,
    take_choice,
    trump_choice,
    want_tricks_choice,
)
from whist.bots.endgame import best_card
from whist.bots.knowledge import Knowledge, beats, know, winning
from whist.bots.rollout import best_by_rollouts
from whist.bots.tactics import cheapest, highest_rank, lowest_rank
from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Take
from whist.core.cards import SUIT_MASK, Card, Hand, Suit, cards_in
from whist.core.components import TABLE_PILES
from whist.core.views import View

EXACT_FROM = 6  # stage-2 two-hand endings with at most this many cards each are solved
ROLLOUTS = 120  # Japanese Whist: playouts per decision, shared among the candidates


class HardBot(CardPlayer):
    level = "hard"

    def decide(self, view: View, legal: tuple[Action, ...], rng: Random) -> Action:
        return decide(view, legal)

    def play(self, view: View, cards: list[Card], rng: Random) -> Card:
        if view.facts.has(TABLE_PILES):
            # 26 tricks from hand and open table: look ahead by rollouts, a fixed number
            # (not a clock) so that a seed always gives the same choice.
            samples = max(4, min(40, ROLLOUTS // len(cards)))
            return best_by_rollouts(view, cards, rng, samples)[0]
        return play(view, know(view), cards)


# ------------------------------------------------------------------------ card play
def play(view: View, k: Knowledge, cards: list[Card]) -> Card:
    if k.players == 2 and view.stage == 1:
        return stock_play(view, k, cards)
    if k.players == 2 and view.stage == 2 and k.mine.bit_count() <= EXACT_FROM:
        led = k.trick[0] if k.trick else None
        return best_card(k.mine, k.known[1 - k.seat], k.trump, led, k.wants_tricks)[0]
    if k.wants_tricks:
        return lead_for_tricks(k, cards) if not k.trick else follow_for_tricks(k, cards)
    return lead_to_lose(k, cards) if not k.trick else follow_to_lose(k, cards)


def opponents(k: Knowledge) -> list[int]:
    return [s for s in range(k.players) if not k.is_teammate(s)]


def trumps_out(k: Knowledge) -> Hand:
    return k.out & SUIT_MASK[k.trump] if k.trump is not None else 0


def may_ruff(k: Knowledge, seat: int, suit: Suit) -> bool:
    """Whether ``seat`` might trump a lead of ``suit``: void shown (or hand known without
    the suit), or too few cards of the suit out to go round."""
    if k.trump is None or suit == k.trump or not trumps_out(k):
        return False
    if not k.may_hold(seat, k.trump):
        return False
    known = _exact_hand(k, seat)
    if known is not None:
        return not known & SUIT_MASK[suit] and bool(known & SUIT_MASK[k.trump])
    if not k.may_hold(seat, suit):
        return True
    return (k.out & SUIT_MASK[suit]).bit_count() < 2


def _exact_hand(k: Knowledge, seat: int) -> Hand | None:
    if k.players == 2 and k.known[seat] == k.out and k.out:
        return k.known[seat]
    return None


def can_beat(k: Knowledge, seat: int, best: Card, lead_suit: Suit) -> bool:
    """Whether ``seat``, still to play, might beat ``best`` in a trick led in ``lead_suit``."""
    known = _exact_hand(k, seat)
    if known is not None:
        follow = known & SUIT_MASK[lead_suit]
        options = follow if follow else known
        return any(beats(c, best, k.trump) for c in cards_in(options))
    if k.may_hold(seat, lead_suit) and best // 13 == lead_suit and k.higher_out(best):
        return True
    if best // 13 == k.trump:
        return bool(k.higher_out(best)) and may_ruff(k, seat, lead_suit)
    return may_ruff(k, seat, lead_suit)


def discard(k: Knowledge, cards: list[Card]) -> Card:
    """The least useful card: not a trump, not a master, low, from a suit worth the least."""

    def usefulness(card: Card) -> tuple[int, int, int, int]:
        return (
            int(card // 13 == k.trump),
            int(k.is_master(card)),
            card % 13,
            (k.mine & SUIT_MASK[card // 13]).bit_count(),
        )

    return min(cards, key=usefulness)


def lead_for_tricks(k: Knowledge, cards: list[Card]) -> Card:
    trump = k.trump
    opps = opponents(k)
    mine_trumps = [c for c in cards if c // 13 == trump]
    out_trumps = trumps_out(k)
    # Draw trumps when long in them (head to head, only with a master: a low trump led
    # gives the follower a cheap trick).
    if mine_trumps and out_trumps and len(mine_trumps) >= max(3, out_trumps.bit_count()):
        top = max(mine_trumps)
        if k.is_master(top):
            return top
        if k.players == 4:
            return min(mine_trumps)
    # Cash masters the opponents cannot ruff.
    masters = [
        c
        for c in cards
        if c // 13 != trump and k.is_master(c) and not any(may_ruff(k, s, c // 13) for s in opps)
    ]
    if masters:
        return max(masters, key=lambda c: ((k.mine & SUIT_MASK[c // 13]).bit_count(), c))
    # Give partner a ruff.
    partner = k.partner
    if partner is not None and trump is not None:
        for card in sorted(cards, key=lambda c: c % 13):
            suit = card // 13
            partner_ruffs = not k.may_hold(partner, suit) and k.may_hold(partner, trump)
            if suit != trump and partner_ruffs and not any(may_ruff(k, s, suit) for s in opps):
                return card
    # Lead from length, avoiding suits the opponents ruff.
    plain = [c for c in cards if c // 13 != trump] or cards
    if k.players == 2:
        # Head to head, a low lead hands the follower a cheap trick: lead high from length.
        return max(plain, key=lambda c: ((k.mine & SUIT_MASK[c // 13]).bit_count(), c % 13))
    safe = [c for c in plain if not any(may_ruff(k, s, c // 13) for s in opps)] or plain

    def length(suit: Suit) -> int:
        return sum(1 for c in safe if c // 13 == suit)

    suit = max({c // 13 for c in safe}, key=lambda s: (length(s), s))
    in_suit = sorted((c for c in safe if c // 13 == suit), reverse=True)
    if len(in_suit) >= 2 and in_suit[0] - in_suit[1] == 1 and in_suit[0] % 13 >= 9:
        return in_suit[0]  # top of touching honours
    return in_suit[-1]


def follow_for_tricks(k: Knowledge, cards: list[Card]) -> Card:
    trump = k.trump
    winner, best = winning(k.trick, k.leader, k.players, trump)
    lead_suit = k.trick[0] // 13
    after = k.to_play_after_me()
    opps_after = [s for s in after if not k.is_teammate(s)]
    if k.is_teammate(winner) and not any(can_beat(k, s, best, lead_suit) for s in opps_after):
        return discard(k, cards)
    winners = [c for c in cards if beats(c, best, trump)]
    if not winners:
        return discard(k, cards)
    safe = [c for c in winners if not any(can_beat(k, s, c, lead_suit) for s in opps_after)]
    if safe:
        return cheapest(safe, trump)
    if not opps_after:
        return cheapest(winners, trump)
    partner_after = k.partner is not None and k.partner in after
    if partner_after and cards[0] // 13 == lead_suit:
        return discard(k, cards)  # second hand low: partner still plays
    in_suit = [c for c in winners if c // 13 == lead_suit]
    return max(in_suit) if in_suit else cheapest(winners, trump)


def lead_to_lose(k: Knowledge, cards: list[Card]) -> Card:
    def risk(card: Card) -> tuple[int, int, int, int]:
        suit_mask = SUIT_MASK[card // 13]
        below_out = (k.out & suit_mask & ((1 << card) - 1)).bit_count()
        above_out = k.higher_out(card).bit_count()
        return (
            int(card // 13 == k.trump),
            int(above_out == 0),  # a master wins for sure
            below_out,
            (k.mine & suit_mask).bit_count(),
        )

    return min(cards, key=lambda c: (risk(c), c % 13))


def follow_to_lose(k: Knowledge, cards: list[Card]) -> Card:
    trump = k.trump
    _, best = winning(k.trick, k.leader, k.players, trump)
    lead_suit = k.trick[0] // 13
    after = k.to_play_after_me()
    if cards[0] // 13 == lead_suit or all(c // 13 == lead_suit for c in cards):
        under = [c for c in cards if not beats(c, best, trump)]
        if under:
            return highest_rank(under)
        return highest_rank(cards) if not after else lowest_rank(cards)
    # Void: throw the most dangerous card, never a trump that would win.
    losers = [c for c in cards if not beats(c, best, trump)] or cards

    def danger(card: Card) -> tuple[int, int]:
        below_out = (k.out & SUIT_MASK[card // 13] & ((1 << card) - 1)).bit_count()
        return (card % 13, below_out)

    return max(losers, key=danger)


# --------------------------------------------------------------------- stock stage
def card_worth(card: Card, trump: Suit | None, wants_tricks: bool) -> float:
    """What a card is worth for stage 2: high cards and trumps when playing for tricks,
    low cards when playing to lose."""
    rank = card % 13
    if not wants_tricks:
        return 12.0 - rank
    return rank + (9.0 if card // 13 == trump else 0.0)


def unseen_worth(k: Knowledge, view: View) -> float:
    """The average worth of the card the trick's loser will draw unseen."""
    pool = k.out
    for seat in range(k.players):
        if seat != k.seat:
            pool &= ~k.known[seat]
    cards = list(cards_in(pool))
    if not cards:
        return 0.0
    return sum(card_worth(c, k.trump, k.wants_tricks) for c in cards) / len(cards)


def stock_play(view: View, k: Knowledge, cards: list[Card]) -> Card:
    trump = k.trump
    up = view.upcard
    prize = card_worth(up, trump, k.wants_tricks) if up is not None else 0.0
    if view.options.get("counted") == "all26":
        prize += 4.0  # the trick itself counts
    blind = unseen_worth(k, view)

    def worth(card: Card) -> float:
        return card_worth(card, trump, k.wants_tricks)

    if not k.trick:
        sure = [c for c in cards if k.is_master(c) and (c // 13 == trump or not trumps_out(k))]
        low = min(cards, key=lambda c: (worth(c), c))
        if sure:
            cheapest_sure = min(sure, key=lambda c: (worth(c), c))
            if prize - worth(cheapest_sure) > blind - worth(low):
                return cheapest_sure
        return low
    _, best = winning(k.trick, k.leader, k.players, trump)
    winners = [c for c in cards if beats(c, best, trump)]
    losers = [c for c in cards if not beats(c, best, trump)]
    if not winners:
        return min(losers, key=lambda c: (worth(c), c))
    if not losers:
        return min(winners, key=lambda c: (worth(c), c))
    win = min(winners, key=lambda c: (worth(c), c))
    lose = min(losers, key=lambda c: (worth(c), c))
    return win if prize - worth(win) > blind - worth(lose) else lose


# ----------------------------------------------------------------------- decisions
def estimated_tricks(hand: Hand, trump: Suit | None) -> float:
    """Sure and likely tricks of a hand: aces, guarded kings and queens, long suits."""
    total = 0.0
    for suit in range(4):
        ranks = sorted((c % 13 for c in cards_in(hand & SUIT_MASK[suit])), reverse=True)
        n = len(ranks)
        if 12 in ranks:
            total += 1.0
        if 11 in ranks:
            total += 0.9 if 12 in ranks else (0.75 if n >= 2 else 0.25)
        if 10 in ranks:
            total += 0.55 if n >= 3 else 0.2
        if 9 in ranks and n >= 4:
            total += 0.25
        if suit == trump:
            total += max(0, n - 3) * 0.8
        elif n > 4:
            total += (n - 4) * 0.5
    return total


def decide(view: View, legal: tuple[Action, ...]) -> Action:
    first = legal[0]
    if isinstance(first, Bid | Bottom):
        if view.facts.bid_hand < 13:
            # Bidding on a start (Plockwhist's six cards of thirteen): an above-average
            # start plays for tricks.
            wants = hcp(view.hand) >= 6 and estimated_tricks(view.hand, None) >= 1.5
        else:
            # Partner adds about a third of the tricks this hand does not take.
            mine = estimated_tricks(view.hand, None)
            wants = mine + (13 - mine) / 3 >= 6.9
        return want_tricks_choice(view, legal, wants)
    if isinstance(first, ChooseTrump):
        return trump_choice(view, legal, lambda suit: _layout_value(view, suit))
    assert isinstance(first, Take)
    card = offered_card(view)
    if card is None:
        return take_choice(legal, True)
    k = know(view)
    keep = card_worth(card, view.trump, k.wants_tricks) >= unseen_worth(k, view)
    return take_choice(legal, keep)


def _layout_value(view: View, suit: Suit) -> float:
    """Japanese Whist trump choice: my face-up cards in the suit against the other's
    (counted; weighing ranks in measured no better)."""
    assert view.seat is not None
    value = 0.0
    for seat, piles in enumerate(view.table):
        sign = 1.0 if seat == view.seat else -1.0
        for pile in piles:
            if pile.up is not None and pile.up // 13 == suit:
                value += sign
    return value
