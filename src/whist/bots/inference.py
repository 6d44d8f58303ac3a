"""Inference weights for sampled worlds: how likely the other seats' past choices of this
deal were in a world if they played like HARD (``whist.bots.hard``).

Each past choice of another seat is re-asked of HARD from that seat's view at that moment,
rebuilt from the current view and the world alone: its hand then is its hand in the world
plus the cards it played since; the public history is cut back to that moment (tricks,
the trick in progress, hand sizes, tricks won, Classic's turned card). The choice's
likelihood is a mixture: the seat plays HARD's choice with probability ``Q`` and otherwise
any legal choice uniformly,

    p = Q * [HARD's choice == actual] + (1 - Q) / k        (k legal choices),

so no world weighs zero, and a world's weight is the product over the choices weighed.
``Q = 0.5``, measured: HARD's card (up to equivalent cards) is MEDIUM's in 70% of MEDIUM's
non-forced plays (Classic, Minnesota, Swedish), EASY's in 30-40%, its own in 100%; with
2-3 choices a typical decision, Q = 0.5 gives P(agree) = 0.67-0.75, MEDIUM's rate. A
sharper Q lets a few surprising moves decide the whole batch. Even so the weights are
uneven: over 100 worlds at tricks 4, 7 and 10 of HARD-played deals the effective sample
size (sum w)^2 / sum w^2 has median 25 (Classic) and 11 (Minnesota, where the bids weigh
too), minimum about 2 — ``Q`` and ``PLAY_MOMENTS`` are the knobs to calibrate with it.
Cards that are equivalent for the seat at that moment (same suit, every card between them
in its own hand or already played) count as one choice.

What is weighed (``moments``):
- Minnesota bids and Swedish bottom cards / spel-pass buttons that were revealed (the
  seat's 13-card hand then = its world hand + every card it played). For a bottom card
  only its colour counts (HARD's rule for which card of the colour to show is its own
  habit, not information a player would share).
- Card play in four-player games: the most recent ``PLAY_MOMENTS`` plays of other seats
  (the trick in progress first, then back); a play that was forced in the world weighs 1.
- German Whist / Plockwhist stage 1: the other player's lead to the trick in progress (its
  hand then is its hand now plus that card; earlier stage-1 hands would need the hidden
  order of its draws). Stage 2 has one world.
- Not weighed: Japanese Whist (HARD's trump choice depends on the open layouts only, its
  card play is a random rollout search, and the view does not say which played cards came
  from the table), the Plockwhist bid (made on six of the thirteen cards, which six is not
  known), German talon decisions (which refill a kept unseen card came from is not known).

Cost on this 2-core machine (shared), 100 worlds of random mid-deal positions: Classic /
Minnesota / Swedish card play 20-30 ms on average, 60-95 ms at worst (up to 12 plays and
3 bids weighed, HARD about 12 us a call plus the view rebuilt); German / Plockwhist stage 1
about 1-2 ms; Japanese nothing. Answers are cached per (choice, hand then), across the
batches of one view.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from whist.bots import hard
from whist.bots.knowledge import Knowledge, know
from whist.bots.sampler import World, all_tricks
from whist.core.actions import Action, Bid, Bottom, Play
from whist.core.cards import FULL_MASK, SUIT_MASK, Card, Hand, cards_in, is_red
from whist.core.components import TABLE_PILES, TURNED_CARD
from whist.core.views import View

Q = 0.5
PLAY_MOMENTS = 12


@dataclass(frozen=True)
class Moment:
    """A past choice of another seat: its view then without its hand (``view``), the
    cards it played from then on (``since``), what it chose, and for card play the cards
    gone then, the suit it had to follow and the public part of its knowledge."""

    seat: int
    kind: str  # bid | bottom | play
    view: View
    since: Hand
    actual: str | Card
    gone: Hand = 0
    follow: int | None = None
    knowledge: Knowledge | None = None


def moments(view: View) -> list[Moment]:
    assert view.seat is not None
    if view.facts.has(TABLE_PILES):
        return []
    if view.players == 2:
        return _stock_moments(view)
    return _bid_moments(view) + _play_moments(view)


def _played_by(view: View) -> list[Hand]:
    played = [0] * view.players
    for _index, leader, cards, _stage in all_tricks(view):
        for i, card in enumerate(cards):
            played[(leader + i) % view.players] |= 1 << card
    return played


def _bid_moments(view: View) -> list[Moment]:
    played = _played_by(view)
    found = []
    for seat, choice in view.revealed:
        if seat == view.seat:
            continue
        then = replace(
            view,
            seat=seat,
            phase="bid",
            to_act=(seat,),
            legal=(),
            hand=0,
            hand_sizes=(13,) * view.players,
            contract=None,
            decided=(),
            revealed=(),
            shown=((),) * view.players,
            leader=None,
            trick=(),
            tricks=(),
            won=(0, 0),
            trump_card=None,
        )
        kind = "bid" if isinstance(choice, str) else "bottom"
        found.append(Moment(seat, kind, then, played[seat], choice))
    return found


def _play_moments(view: View) -> list[Moment]:
    me = view.seat
    players = view.players
    tricks = list(all_tricks(view))
    since = [0] * players  # per seat: cards played from the moment on
    plays_since = [0] * players
    found: list[Moment] = []
    for index, leader, cards, _stage in reversed(tricks):
        for i in range(len(cards) - 1, -1, -1):
            seat = (leader + i) % players
            card = cards[i]
            since[seat] |= 1 << card
            plays_since[seat] += 1
            if seat == me or len(found) >= PLAY_MOMENTS:
                continue
            gone = 0
            for trick in view.tricks[:index]:
                for c in trick.cards:
                    gone |= 1 << c
            for c in cards[:i]:
                gone |= 1 << c
            won = [0, 0]
            for trick in view.tricks[:index]:
                won[trick.winner % 2] += 1
            turned = None
            if view.facts.has(TURNED_CARD) and index == 0 and view.dealer is not None:
                dealer_pos = (view.dealer - leader) % players
                if dealer_pos >= i and view.shown[view.dealer]:
                    turned = view.shown[view.dealer][0]
            then = replace(
                view,
                seat=seat,
                phase="play",
                to_act=(seat,),
                legal=(),
                hand=0,
                hand_sizes=tuple(n + k for n, k in zip(view.hand_sizes, plays_since, strict=True)),
                leader=leader,
                trick=tuple(cards[:i]),
                tricks=view.tricks[:index],
                won=(won[0], won[1]),
                trump_card=turned,
                decided=(),
            )
            follow = cards[0] // 13 if i else None
            found.append(Moment(seat, "play", then, since[seat], card, gone, follow, know(then)))
    return found


def _stock_moments(view: View) -> list[Moment]:
    assert view.seat is not None
    other = 1 - view.seat
    if view.stage != 1 or not view.trick or view.leader != other:
        return []
    sizes = list(view.hand_sizes)
    sizes[other] += 1
    then = replace(
        view,
        seat=other,
        phase="play",
        to_act=(other,),
        legal=(),
        hand=0,
        hand_sizes=tuple(sizes),
        trick=(),
        offer=None,
        decided=(),
    )
    card = view.trick[0]
    gone = 0
    for trick in view.tricks:
        for c in trick.cards:
            gone |= 1 << c
    for c in view.discards:
        gone |= 1 << c
    return [Moment(other, "play", then, 1 << card, card, gone)]


# ----------------------------------------------------------------------- weights
def _legal_bids(view: View, seat: int, hand: Hand, kind: str) -> tuple[Action, ...]:
    if kind == "bottom":
        return tuple(Bottom(seat, c) for c in cards_in(hand))
    return tuple(Bid(seat, word) for word in view.facts.bid_words)


def _bid_likelihood(m: Moment, hand: Hand) -> float:
    legal = _legal_bids(m.view, m.seat, hand, m.kind)
    choice = hard.decide(replace(m.view, hand=hand, legal=legal), legal)
    if isinstance(choice, Bottom):
        assert isinstance(m.actual, int)
        agree = is_red(choice.card) == is_red(m.actual)
    else:
        assert isinstance(choice, Bid)
        agree = choice.bid == m.actual
    return Q * agree + (1 - Q) / 2


def _classes(cards: list[Card], out: Hand) -> list[int]:
    """Equivalence class of each (sorted) card: a new class at a new suit or where a card
    still out lies between two neighbours."""
    ids = []
    current = -1
    prev: Card | None = None
    for card in cards:
        if prev is None or card // 13 != prev // 13:
            current += 1
        else:
            between = ((1 << card) - 1) & ~((1 << (prev + 1)) - 1)
            if between & out:
                current += 1
        ids.append(current)
        prev = card
    return ids


def _play_likelihood(m: Moment, hand: Hand) -> float:
    legal = hand
    if m.follow is not None:
        follow = hand & SUIT_MASK[m.follow]
        if follow:
            legal = follow
    if legal.bit_count() <= 1:
        return 1.0
    cards = list(cards_in(legal))
    out = FULL_MASK & ~hand & ~m.gone
    ids = _classes(cards, out)
    classes = ids[-1] + 1
    if classes == 1:
        return 1.0
    seat = m.seat
    v = replace(m.view, hand=hand, legal=tuple(Play(seat, c) for c in cards))
    if m.knowledge is not None:
        k = replace(m.knowledge, mine=hand, out=m.knowledge.out & ~hand)
    else:
        k = know(v)
    choice = hard.play(v, k, cards)
    agree = ids[cards.index(choice)] == ids[cards.index(int(m.actual))]
    return Q * agree + (1 - Q) / classes


_LAST: list[tuple[View, list[Moment], dict[tuple[int, Hand], float]]] = []


def weighed(view: View, worlds: list[World]) -> list[World]:
    """The worlds, each weighted by the likelihood of the other seats' past choices in it
    under HARD's policy."""
    weights = likelihoods(view, worlds)
    return [replace(w, weight=x) for w, x in zip(worlds, weights, strict=True)]


def likelihoods(view: View, worlds: list[World]) -> list[float]:
    """Per world, the product over ``moments(view)`` of each choice's likelihood. The
    moments and the answers of the last view are kept (MASTER asks in batches)."""
    if _LAST and _LAST[0][0] is view:
        _, found, cache = _LAST[0]
    else:
        found = moments(view)
        cache = {}
        _LAST[:] = [(view, found, cache)]
    if not found:
        return [1.0] * len(worlds)
    weights = []
    for world in worlds:
        weight = 1.0
        for n, m in enumerate(found):
            hand = world.hands[m.seat] | m.since
            key = (n, hand)
            p = cache.get(key)
            if p is None:
                like = _play_likelihood if m.kind == "play" else _bid_likelihood
                p = like(m, hand)
                cache[key] = p
            weight *= p
        weights.append(weight)
    return weights
