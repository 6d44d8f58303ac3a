"""Head-to-head rollouts for Japanese Whist: HARD compares its candidate cards by playing
the deal out from sampled unseen cards (the other hand and the face-down piles) with a
simple fast policy for both sides, the same samples for every candidate. MASTER does the
same with as many samples as its budget pays for.

Bit masks and a few dictionaries only: a rollout of the whole deal costs well under a
millisecond, so a few dozen fit in HARD's few milliseconds.
"""

from __future__ import annotations

from random import Random

from whist.bots.sampler import sample_worlds
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


def _worlds(view: View, rng: Random, count: int) -> list[tuple[list[Hand], list[dict[Card, Card]]]]:
    """Deals consistent with the view (``whist.bots.sampler``, uniform): (available cards,
    face-up card -> face-down card) per seat, seat 0 being the viewer. A face-down card
    about to turn up counts as available: its seat has played to this trick already."""
    assert view.seat is not None
    order = (view.seat, 1 - view.seat)
    worlds = []
    for world in sample_worlds(view, rng, count):
        below = [dict(world.below[seat]) for seat in order]
        avail = [world.hands[seat] for seat in order]
        for index in (0, 1):
            for down in below[index].values():
                avail[index] &= ~(1 << down)
        worlds.append((avail, below))
    return worlds


def best_by_rollouts(
    view: View, cards: list[Card], rng: Random, samples: int
) -> tuple[Card, dict[Card, float]]:
    """The candidate with the most tricks on average over ``samples`` sampled deals."""
    assert view.seat is not None and view.players == 2
    worlds = _worlds(view, rng, samples)
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
