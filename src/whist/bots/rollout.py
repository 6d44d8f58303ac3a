"""Head-to-head rollouts for Japanese Whist: HARD compares its candidate cards by playing
the deal out from sampled unseen cards (the other hand and the face-down piles) with a
simple fast policy for both sides, the same samples for every candidate.

Bit masks and a few dictionaries only: a rollout of the whole deal costs well under a
millisecond, so a few dozen fit in HARD's few milliseconds.
"""

from __future__ import annotations

from random import Random

from whist.core.cards import SUIT_MASK, Card, Hand, Suit, cards_in
from whist.core.views import View


def _cost(card: Card, trump: Suit | None) -> int:
    return card % 13 + (13 if card // 13 == trump else 0)


def _lead(avail: Hand, trump: Suit | None) -> Card:
    """Top card of the longest plain suit (MEDIUM's lead)."""
    best_suit = -1
    best_len = -1
    for suit in range(4):
        if suit == trump:
            continue
        n = (avail & SUIT_MASK[suit]).bit_count()
        if n > best_len:
            best_suit, best_len = suit, n
    mask = avail & SUIT_MASK[best_suit] if best_len > 0 else avail
    return mask.bit_length() - 1


def _follow(avail: Hand, led: Card, trump: Suit | None) -> Card:
    """Cheapest card that wins, else the cheapest card."""
    suit_cards = avail & SUIT_MASK[led // 13]
    if suit_cards:
        above = suit_cards >> (led + 1) << (led + 1)
        pick = above if above else suit_cards
        return (pick & -pick).bit_length() - 1
    if trump is not None:
        trumps = avail & SUIT_MASK[trump]
        if trumps:
            return (trumps & -trumps).bit_length() - 1
    return min(cards_in(avail), key=lambda c: (_cost(c, trump), c))


def _beats(card: Card, led: Card, trump: Suit | None) -> bool:
    if card // 13 == led // 13:
        return card > led
    return card // 13 == trump


def playout(
    avail: list[Hand],
    below: list[dict[Card, Card]],
    trump: Suit | None,
    leader: int,
    led: Card | None,
) -> int:
    """Tricks seat 0 takes from the trick in progress to the end. ``led``: the card seat
    ``leader`` already led to the current trick (then seat 1 - leader is to follow)."""
    won = 0
    while True:
        follower = 1 - leader
        if led is None:
            if not avail[leader]:
                return won
            led = _lead(avail[leader], trump)
            avail[leader] &= ~(1 << led)
        answer = _follow(avail[follower], led, trump)
        avail[follower] &= ~(1 << answer)
        for seat, card in ((leader, led), (follower, answer)):
            turned = below[seat].get(card)
            if turned is not None:
                avail[seat] |= 1 << turned
        winner = follower if _beats(answer, led, trump) else leader
        if winner == 0:
            won += 1
        leader = winner
        led = None


def sample_worlds(
    view: View, rng: Random, count: int
) -> list[tuple[list[Hand], list[dict[Card, Card]]]]:
    """Deals consistent with the view: (available cards, face-up card -> face-down card)
    per seat, seat 0 being the viewer. Unseen cards are dealt uniformly at random."""
    assert view.seat is not None
    me = view.seat
    opp = 1 - me
    seen = view.hand | view.table_cards
    for trick in view.tricks:
        for card in trick.cards:
            seen |= 1 << card
    for card in view.trick:
        seen |= 1 << card
    opp_up = 0
    downs: list[list[Card]] = [[], []]  # face-up cards with a face-down card under them
    pending = [0, 0]  # face-down cards about to turn up (their face-up card was just played)
    for index, seat in enumerate((me, opp)):
        for pile in view.table[seat]:
            if pile.up is not None:
                seen |= 1 << pile.up
                if index == 1:
                    opp_up |= 1 << pile.up
                if pile.down:
                    downs[index].append(pile.up)
            elif pile.down:
                pending[index] += 1
    unseen = [c for c in range(52) if not (seen >> c) & 1]
    my_hidden = view.hand_sizes[me] if not view.tricks else 0  # trick 1: own hand unseen
    opp_hidden = view.hand_sizes[opp]
    worlds = []
    for _ in range(count):
        rng.shuffle(unseen)
        pos = 0
        mine = view.hand | view.table_cards
        for card in unseen[pos : pos + my_hidden]:
            mine |= 1 << card
        pos += my_hidden
        theirs = opp_up
        for card in unseen[pos : pos + opp_hidden]:
            theirs |= 1 << card
        pos += opp_hidden
        below: list[dict[Card, Card]] = [{}, {}]
        avail = [mine, theirs]
        for index in (0, 1):
            for up in downs[index]:
                below[index][up] = unseen[pos]
                pos += 1
            for card in unseen[pos : pos + pending[index]]:
                avail[index] |= 1 << card  # playable from the next trick on
            pos += pending[index]
        worlds.append((avail, below))
    return worlds


def best_by_rollouts(
    view: View, cards: list[Card], rng: Random, samples: int
) -> tuple[Card, dict[Card, float]]:
    """The candidate with the most tricks on average over ``samples`` sampled deals."""
    assert view.seat is not None and view.players == 2
    worlds = sample_worlds(view, rng, samples)
    totals = dict.fromkeys(cards, 0.0)
    following = bool(view.trick)
    for avail, below in worlds:
        for card in cards:
            hands = [avail[0] & ~(1 << card), avail[1]]
            turned = below[0].get(card)
            if following:
                led = view.trick[0]
                taken = 1 if _beats(card, led, view.trump) else 0
                if turned is not None:
                    hands[0] |= 1 << turned
                leader = 0 if taken else 1
                totals[card] += taken + playout(hands, below, view.trump, leader, None)
            else:
                # My lead: the other answers inside the playout.
                if turned is not None:
                    hands[0] |= 1 << turned
                totals[card] += playout(hands, below, view.trump, 0, card)
    averages = {card: total / samples for card, total in totals.items()}
    best = max(cards, key=lambda c: averages[c])
    return best, averages
