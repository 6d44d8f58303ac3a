"""Complete hidden states ("worlds") consistent with what one seat knows, for MASTER's
Perfect Information Monte Carlo: sample worlds, solve each exactly, average.

A ``World`` gives every card that is still in play a place: each seat's hand (Japanese
Whist: hand, face-up and face-down table cards), the stock in German Whist and Plockwhist
stage 1, and the Japanese face-down card under each face-up card. Everything comes from the
seat's ``View`` alone (docs/rules.md, What each seat may see): its own hand, every card played or
discarded, cards shown to be in a hand (German upcards taken, Classic's turned trump card, Swedish
bottom cards revealed), Japanese face-up cards, the upcard and the seat's private offer, hand
sizes, and the voids players showed by not following suit.

The model: every assignment of the unseen cards to the unseen places that is consistent
with the view is equally likely (a uniformly shuffled deck, other players' choices taken
as uninformative; ``whist.bots.inference.weighed`` weighs that afterwards).

- Lasting voids (four-player games; German Whist and Plockwhist stage 2; Japanese Whist
  from trick 2, where a void says the hidden *hand* holds no card of the suit: face-down
  cards were not available then and may be of any suit; Japanese trick 1 is played from
  the table alone and shows nothing about a hand).
- Exact counting, no rejection loop: the unseen cards are distributed suit by suit over
  groups of places with the same void constraints (places that share constraints are
  merged: given the cards a group gets, splitting them among its places is uniform), the
  number of ways of each partial distribution is a sum of products of multinomial
  coefficients (dynamic programming over the suits), and a world is drawn backwards from
  those counts. Stock order and pile order are uniform permutations.
- German Whist / Plockwhist stage 1 voids are not lasting: the hand is refilled. A void
  shown at stage-1 trick t means that every card of the suit the player holds now was
  drawn unseen after trick t, and every card of the suit it played after t and had not
  taken face up was too. Worlds (the other hand and the stock) are *not* equally likely
  then: the hidden history (which of its cards the player was dealt and which it drew,
  and when) is what a shuffled deck makes uniform, and a world that needs a void suit's
  cards in the few late draws has fewer histories. So stage 1 samples uniformly over
  hidden histories (exact Bayesian posterior of a shuffled deck) and returns their
  worlds: a sweep over the other player's hidden card slots from the latest draw back to
  the deal, counting the ways to fill each slot from classes of cards that may lie there
  (see ``_StockHistory``). ``world_count`` still counts distinct consistent worlds.
  With ``talon_discard`` a trick winner that discarded the upcard drew the next card
  unseen, and the view does not say at which of its won tricks: every timeline the view
  allows is counted (histories summed over them). Only past ``TIMELINES`` timelines are
  such draws treated as slots that may hold any card (an over-approximation that never
  excludes a consistent world).
- Plockwhist bidding (before the second round of the deal): ``stock`` holds the 40
  undealt cards in deck order (the next 14 are dealt one at a time from the non-dealer,
  then the rest is the stock, upcard first).

``World.below`` is per seat in Japanese Whist and ``()`` elsewhere. It maps each face-up
card that has a face-down card under it to that card; a face-down card whose face-up card
was just played to the trick in progress (``reveal: after_trick``) is in the hand mask
but not in ``below``: it turns up before its seat plays again.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from math import comb, factorial
from random import Random

from whist.core.cards import FULL_MASK, SUIT_MASK, Card, Hand, cards_in
from whist.core.components import STOCK, TABLE_PILES
from whist.core.views import View

ALL_SUITS = 0b1111


@dataclass(frozen=True)
class World:
    """One complete hidden state. ``hands``: per seat every card it holds now and has not
    played (Japanese Whist: hand + face-up + face-down table cards). ``stock``: German Whist
    and Plockwhist stage 1, the stock from the top, the face-up upcard first when there
    is one. ``below``: Japanese Whist, per seat {face-up card: face-down card under it}.
    ``weight``: inference weight (1.0 without inference)."""

    hands: tuple[Hand, ...]
    stock: tuple[Card, ...] = ()
    below: tuple[dict[Card, Card], ...] = ()
    weight: float = 1.0


# ----------------------------------------------------------------------- places
@dataclass
class _Place:
    """Unseen positions of one kind: a seat's hidden hand cards, its face-down table
    cards (``labels``: the face-up card each lies under, ``None`` for one about to turn
    up), or the unknown part of the stock."""

    seat: int | None
    kind: str  # hand | piles | stock
    cap: int
    suits: int = ALL_SUITS  # suits it may hold (lasting voids removed)
    labels: tuple[Card | None, ...] = ()


@dataclass
class _Group:
    """Places with the same suit constraint, filled together."""

    suits: int
    places: list[_Place] = field(default_factory=list)

    @property
    def cap(self) -> int:
        return sum(p.cap for p in self.places)


def _multinomial(total: int, parts: list[int]) -> int:
    result = 1
    left = total
    for part in parts:
        result *= comb(left, part)
        left -= part
    return result


def _pick(cumulative: list[int], rng: Random) -> int:
    """Index drawn with probability proportional to the increments of ``cumulative``."""
    return bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))


def played_mask(view: View) -> Hand:
    """Every card played so far in the deal, the trick in progress included."""
    mask = 0
    for trick in view.tricks:
        for card in trick.cards:
            mask |= 1 << card
    for card in view.trick:
        mask |= 1 << card
    return mask


def all_tricks(view: View) -> Iterator[tuple[int, int, tuple[Card, ...], int]]:
    """(index, leader, cards, stage) of every trick, the one in progress last."""
    for index, trick in enumerate(view.tricks):
        yield index, trick.leader, trick.cards, trick.stage
    if view.trick:
        assert view.leader is not None
        yield len(view.tricks), view.leader, view.trick, view.stage


def void_events(view: View) -> list[tuple[int, int, int]]:
    """(trick index, seat, suit) for every time a player did not follow the led suit."""
    events = []
    for index, leader, cards, _stage in all_tricks(view):
        led = cards[0] // 13
        for i, card in enumerate(cards[1:], start=1):
            if card // 13 != led:
                events.append((index, (leader + i) % view.players, led))
    return events


# ------------------------------------------------------------------ the sampler
class Sampler:
    """The worlds of one view, counted once: ``count`` (exact number of consistent
    worlds) and ``sample`` (as many as wanted)."""

    def __init__(self, view: View) -> None:
        if view.seat is None or not 0 <= view.seat < view.players:
            raise ValueError("worlds are sampled for a seat, not a spectator")
        if view.deal_index is None:
            raise ValueError("no deal in progress")
        self.view = view
        self.seat = view.seat
        players = view.players
        self.base: list[Hand] = [0] * players  # cards known to be in each seat's hands
        self.top: tuple[Card, ...] = ()  # known top of the stock
        self.below_seats = 0  # Japanese Whist: 2 (World.below per seat)
        self.places: list[_Place] = []
        self.history: _StockHistory | None = None
        self.count: int = 0
        if view.facts.has(TABLE_PILES):
            pool = self._japanese()
        elif view.facts.has(STOCK):
            pool = self._stock_game()
        else:
            pool = self._four_hands()
        self.pool = pool
        capacity = sum(p.cap for p in self.places)
        if pool.bit_count() != capacity:
            raise ValueError(
                f"view inconsistent: {pool.bit_count()} unseen cards for {capacity} places"
            )
        self.places = [p for p in self.places if p.cap > 0]
        if self.history is not None:
            self.history.solve(pool)
            self.count = self.history.world_count()
            return
        self._groups()
        if not self.groups:  # nothing unseen
            self.count = 1
            return
        self._forward()
        self.count = self._dp[-1].get(self._final, 0) * self._arrangements()
        if self.count == 0:
            raise ValueError("view inconsistent: no world fits it")

    # -------------------------------------------------------- places per variant
    def _four_hands(self) -> Hand:
        view = self.view
        me = self.seat
        gone = played_mask(view) | _mask(view.discards)
        voids = [0] * view.players
        for _index, seat, suit in void_events(view):
            voids[seat] |= 1 << suit
        pool = FULL_MASK & ~view.hand & ~gone
        self.base[me] = view.hand
        for seat in range(view.players):
            if seat == me:
                continue
            known = _mask(view.shown[seat]) & ~gone
            self.base[seat] = known
            pool &= ~known
            cap = view.hand_sizes[seat] - known.bit_count()
            self.places.append(_Place(seat, "hand", cap, ALL_SUITS & ~voids[seat]))
        return pool

    def _japanese(self) -> Hand:
        view = self.view
        me = self.seat
        gone = played_mask(view) | _mask(view.discards)
        pool = FULL_MASK & ~gone
        # The view shows no hand while nobody may look at theirs (trick 1).
        hand_known = bool(view.hand) or view.hand_sizes[me] == 0
        voids = [0] * 2
        for index, seat, suit in void_events(view):
            if index >= 1:  # trick 1 is played from the table alone
                voids[seat] |= 1 << suit
        self.below_seats = 2
        for seat in (0, 1):
            ups = 0
            labels: list[Card | None] = []
            for pile in view.table[seat]:
                if pile.up is not None:
                    ups |= 1 << pile.up
                    if pile.down:
                        labels.append(pile.up)
                elif pile.down:
                    labels.append(None)  # turns up when the trick is complete
            pool &= ~ups
            self.base[seat] = ups
            self.places.append(_Place(seat, "piles", len(labels), ALL_SUITS, tuple(labels)))
            if seat == me and hand_known:
                self.base[seat] |= view.hand
                pool &= ~view.hand
            else:
                suits = ALL_SUITS & ~voids[seat] if seat != me else ALL_SUITS
                self.places.append(_Place(seat, "hand", view.hand_sizes[seat], suits))
        return pool

    def _stock_game(self) -> Hand:
        view = self.view
        me = self.seat
        other = 1 - me
        gone = played_mask(view) | _mask(view.discards)
        self.base[me] = view.hand
        known = _mask(view.shown[other]) & ~gone
        self.base[other] = known
        pool = FULL_MASK & ~view.hand & ~gone & ~known
        if view.phase == "bid":
            # Plockwhist: six cards each; the other 40 are still to be dealt.
            cap = view.hand_sizes[other] - known.bit_count()
            self.places.append(_Place(other, "hand", cap))
            self.places.append(_Place(None, "stock", pool.bit_count() - cap))
            return pool
        top = view.upcard if view.upcard is not None else view.offer
        if top is not None:
            self.top = (top,)
            pool &= ~(1 << top)
        cap = view.hand_sizes[other] - known.bit_count()
        hidden_stock = view.stock_size - len(self.top)
        if view.stage == 2:
            # The stock is gone: the other hand is every unseen card (one world).
            self.places.append(_Place(other, "hand", cap))
            return pool
        self.places.append(_Place(other, "hand", cap))
        self.places.append(_Place(None, "stock", hidden_stock))
        if view.options.get("stage1_follow", True):
            history = _StockHistory.of(view, other, known, cap)
            if history is not None:
                self.history = history
        return pool

    # ------------------------------------------------------------ counting
    def _groups(self) -> None:
        by_suits: dict[int, _Group] = {}
        for place in self.places:
            by_suits.setdefault(place.suits, _Group(place.suits)).places.append(place)
        # The unconstrained group last: its fill is implied by the others.
        self.groups = sorted(by_suits.values(), key=lambda g: (g.suits == ALL_SUITS, g.suits))
        self.suit_cards = [list(cards_in(self.pool & SUIT_MASK[s])) for s in range(4)]

    def _forward(self) -> None:
        groups = self.groups
        size = len(groups)
        caps = [g.cap for g in groups]
        self._final = tuple(caps[:-1])
        self._comps: list[list[tuple[tuple[int, ...], int]]] = []
        layers: list[dict[tuple[int, ...], int]] = [{(0,) * (size - 1): 1}]
        done = 0
        for suit in range(4):
            n = len(self.suit_cards[suit])
            allowed = [bool(g.suits >> suit & 1) for g in groups]
            comps = list(_compositions(n, allowed, caps))
            self._comps.append(comps)
            nxt: dict[tuple[int, ...], int] = defaultdict(int)
            for state, ways in layers[-1].items():
                last = done - sum(state)
                for k, mult in comps:
                    if last + k[-1] > caps[-1]:
                        continue
                    new = tuple(f + x for f, x in zip(state, k, strict=False))
                    if any(f > c for f, c in zip(new, caps, strict=False)):
                        continue
                    nxt[new] += ways * mult
            layers.append(dict(nxt))
            done += n
        self._dp = layers
        self._back: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[tuple[int, ...]]]] = {}

    def _arrangements(self) -> int:
        """Ways to split each group's cards among its places, times the orders of
        positions that are ordered (stock, piles)."""
        ways = 1
        for group in self.groups:
            ways *= _multinomial(group.cap, [p.cap for p in group.places])
            for place in group.places:
                if place.kind != "hand":
                    ways *= factorial(place.cap)
        return ways

    def _draw_split(self, rng: Random) -> list[list[int]]:
        """Per suit, how many of its unseen cards each group gets."""
        state = self._final
        splits: list[list[int]] = [[] for _ in range(4)]
        for suit in range(3, -1, -1):
            key = (suit, state)
            table = self._back.get(key)
            if table is None:
                cumulative: list[int] = []
                options: list[tuple[int, ...]] = []
                total = 0
                layer = self._dp[suit]
                for k, mult in self._comps[suit]:
                    prev = tuple(f - x for f, x in zip(state, k, strict=False))
                    ways = layer.get(prev, 0)
                    if ways:
                        total += ways * mult
                        cumulative.append(total)
                        options.append(k)
                table = (cumulative, options)
                self._back[key] = table
            k = table[1][_pick(table[0], rng)]
            splits[suit] = list(k)
            state = tuple(f - x for f, x in zip(state, k, strict=False))
        return splits

    # ------------------------------------------------------------ sampling
    def sample(self, rng: Random, count: int) -> list[World]:
        return [self._one(rng) for _ in range(count)]

    def _one(self, rng: Random) -> World:
        if self.history is not None:
            held, rest = self.history.draw(rng)
            hands = list(self.base)
            hands[1 - self.seat] |= _mask(held)
            return World(tuple(hands), self.top + tuple(rest), ())
        groups = self.groups
        if len(groups) <= 1:
            cards = list(cards_in(self.pool))
            rng.shuffle(cards)
            return self._assemble([cards] if groups else [])
        splits = self._draw_split(rng)
        per_group: list[list[Card]] = [[] for _ in groups]
        for suit in range(4):
            cards = list(self.suit_cards[suit])
            rng.shuffle(cards)
            pos = 0
            for g, k in enumerate(splits[suit]):
                per_group[g].extend(cards[pos : pos + k])
                pos += k
        for cards in per_group:
            rng.shuffle(cards)
        return self._assemble(per_group)

    def _assemble(self, per_group: list[list[Card]]) -> World:
        hands = list(self.base)
        below: list[dict[Card, Card]] = [{} for _ in range(self.below_seats)]
        stock = list(self.top)
        for group, cards in zip(self.groups, per_group, strict=True):
            pos = 0
            for place in group.places:
                mine = cards[pos : pos + place.cap]
                pos += place.cap
                if place.kind == "stock":
                    stock.extend(mine)
                    continue
                assert place.seat is not None
                hands[place.seat] |= _mask(mine)
                if place.kind == "piles":
                    for label, card in zip(place.labels, mine, strict=True):
                        if label is not None:
                            below[place.seat][label] = card
        return World(tuple(hands), tuple(stock), tuple(below))


def _compositions(
    n: int, allowed: list[bool], caps: list[int]
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every way (k per group, multinomial n!/prod k!) to give ``n`` cards of a suit to the
    groups allowed to hold the suit, none above its capacity."""
    size = len(allowed)

    def rec(i: int, left: int, prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if i == size - 1:
            if left == 0 or (allowed[i] and left <= caps[i]):
                yield (*prefix, left)
            return
        top = min(left, caps[i]) if allowed[i] else 0
        for k in range(top + 1):
            yield from rec(i + 1, left - k, (*prefix, k))

    for k in rec(0, n, ()):
        yield k, _multinomial(n, list(k))


def _mask(cards: tuple[Card, ...] | list[Card]) -> Hand:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# --------------------------------------------------- German / Plockwhist stage 1
TIMELINES = 64  # most timelines of unseen winner draws enumerated (talon_discard)


@dataclass
class _StockHistory:
    """Stage 1 of German Whist / Plockwhist when the other player showed a void.

    The other player's hidden cards, over the deal, fill its *slots*: 13 dealt at the start
    (time -1) and one per unseen draw (time j: the refill after trick j). Cards that fill
    them: the unseen cards it holds now (class of its suit: a card of a suit it showed void
    in at trick t lies in a slot of time >= t) and the cards it played that it had not
    taken face up (each in a slot before its trick, and after the last void of its suit
    before that trick). Each assignment of cards to slots is one hidden history; all are
    equally likely. Sweeping the slots from the latest to the deal, the state counts the
    unseen cards used per class and the played cards placed per class; each slot is filled
    by one specific card, so the counts are exact.

    With ``talon_discard``, a trick winner that discarded the upcard drew the next card
    unseen, and the view does not say at which of its won tricks: every *timeline* (which
    won tricks those were) that fits the upcards it kept (the i-th kept upcard was taken
    before it was played) is counted, the histories summed over them. Past ``TIMELINES``
    of them, such draws become *wild* slots that take any card (a slight
    over-approximation: never excludes a consistent world).
    """

    timelines: list[tuple[list[int], int]]  # (times of the unseen draws, wild slots)
    initial: int  # cards dealt at the start
    u_lo: list[int]  # per unseen-card class: earliest slot time
    u_suits: list[int]  # per unseen-card class: suit bitmask
    p_lo: list[int]  # per played-card class: earliest slot time
    p_hi: list[list[int]]  # per played-card class: latest slot time of each card
    cap: int  # unseen cards the other player holds now
    finals: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    cumulative: list[int] = field(default_factory=list)
    class_cards: list[list[Card]] = field(default_factory=list)
    hidden_stock: int = 0

    @classmethod
    def of(cls, view: View, other: int, known: Hand, cap: int) -> _StockHistory | None:
        voids = [(i, suit) for i, seat, suit in void_events(view) if seat == other]
        if not voids:
            return None  # no constraint: every world has as many histories
        last_void = [-1] * 4
        for index, suit in voids:
            last_void[suit] = max(last_void[suit], index)
        played: list[tuple[int, Card]] = []
        shown_played: dict[Card, int] = {}
        for index, leader, cards, _stage in all_tricks(view):
            for i, card in enumerate(cards):
                if (leader + i) % 2 == other:
                    if card in view.shown[other]:
                        shown_played[card] = index
                    else:
                        played.append((index, card))
        # Unseen draws of known time: the refills after tricks it lost.
        definite: list[int] = []
        won: list[int] = []
        turn = view.to_act[0] if view.to_act else None
        for index, trick in enumerate(view.tricks):
            if trick.stage != 1:
                continue
            last = index == len(view.tricks) - 1
            if last and view.phase == "take":
                # The refill is under way: the winner takes first, then the loser.
                drawn = trick.winner == other and turn != other
            else:
                drawn = True
            if drawn:
                (won if trick.winner == other else definite).append(index)
        initial = 13
        unseen_won = cap + len(played) - initial - len(definite)
        if unseen_won < 0 or unseen_won > len(won):
            raise ValueError("view inconsistent: the other hand's draws do not add up")
        # The i-th upcard it kept was taken at the i-th won refill where it kept one.
        deadlines = [shown_played.get(card) for card in view.shown[other]]
        timelines: list[tuple[list[int], int]] = []
        if comb(len(won), unseen_won) <= TIMELINES:
            for unseen in combinations(won, unseen_won):
                kept = [j for j in won if j not in unseen]
                if all(p is None or j < p for j, p in zip(kept, deadlines, strict=False)):
                    timelines.append((sorted([*definite, *unseen], reverse=True), 0))
        if not timelines:
            timelines = [(sorted(definite, reverse=True), unseen_won)]
        u_lo = sorted(set(last_void))
        u_suits = [sum(1 << s for s in range(4) if last_void[s] == lo) for lo in u_lo]
        p_classes: dict[int, list[int]] = defaultdict(list)
        for index, card in played:
            suit = card // 13
            lo = max([t for t, s in voids if s == suit and t < index], default=-1)
            p_classes[lo].append(index - 1)
        p_lo = sorted(p_classes)
        return cls(
            timelines=timelines,
            initial=initial,
            u_lo=u_lo,
            u_suits=u_suits,
            p_lo=p_lo,
            p_hi=[sorted(p_classes[lo]) for lo in p_lo],
            cap=cap,
        )

    def solve(self, pool: Hand) -> None:
        self.class_cards = [
            [c for c in cards_in(pool) if self.u_suits[i] >> (c // 13) & 1]
            for i in range(len(self.u_lo))
        ]
        self.hidden_stock = pool.bit_count() - self.cap
        combined: dict[tuple[int, ...], int] = defaultdict(int)
        for slots, wild in self.timelines:
            for st, ways in self._sweep(slots, wild).items():
                combined[st] += ways
        finals: list[tuple[tuple[int, ...], int]] = []
        cumulative: list[int] = []
        total = 0
        for st, ways in combined.items():
            total += ways
            finals.append((st, ways))
            cumulative.append(total)
        if not finals:
            raise ValueError("view inconsistent: no hidden history fits it")
        self.finals = finals
        self.cumulative = cumulative

    def _sweep(self, slots: list[int], wild: int) -> dict[tuple[int, ...], int]:
        """Histories of one timeline, by final state (unseen cards used per class, unseen
        cards in wild slots)."""
        sizes = [len(cards) for cards in self.class_cards]
        nu = len(self.u_lo)
        npc = len(self.p_lo)
        totals = [len(h) for h in self.p_hi]
        states: dict[tuple[int, ...], int] = {(0,) * (nu + npc + 1): 1}
        expired: set[int] = set()

        def expire(states: dict[tuple[int, ...], int], time: int) -> dict[tuple[int, ...], int]:
            """Played cards whose class may lie no earlier than now: placed, or (only with
            wild slots) left to those."""
            for j, lo in enumerate(self.p_lo):
                if lo <= time or j in expired:
                    continue
                expired.add(j)
                out: dict[tuple[int, ...], int] = defaultdict(int)
                for st, ways in states.items():
                    left = totals[j] - st[nu + j]
                    if left and not wild:
                        continue
                    new = list(st)
                    new[nu + j] = totals[j]
                    new[-1] += left
                    out[tuple(new)] += ways
                states = dict(out)
            return states

        for time in slots:
            states = expire(states, time)
            nxt: dict[tuple[int, ...], int] = defaultdict(int)
            for st, ways in states.items():
                for i, lo in enumerate(self.u_lo):
                    left = sizes[i] - st[i]
                    if lo <= time and left > 0:
                        new = list(st)
                        new[i] += 1
                        nxt[tuple(new)] += ways * left
                for j, lo in enumerate(self.p_lo):
                    if lo > time:
                        continue
                    entered = sum(1 for hi in self.p_hi[j] if hi >= time)
                    left = entered - st[nu + j]
                    if left > 0:
                        new = list(st)
                        new[nu + j] += 1
                        nxt[tuple(new)] += ways * left
            states = dict(nxt)
        states = expire(states, -1)
        # The deal: ``initial`` slots for the unseen cards of suits with no void and the
        # played cards with no void before them.
        u0 = self.u_lo.index(-1) if -1 in self.u_lo else None
        p0 = self.p_lo.index(-1) if -1 in self.p_lo else None
        finals: dict[tuple[int, ...], int] = defaultdict(int)
        for st, ways in states.items():
            r_all = totals[p0] - st[nu + p0] if p0 is not None else 0
            a = sizes[u0] - st[u0] if u0 is not None else 0
            for r in range(0 if wild else r_all, r_all + 1):
                u = self.initial - r
                if u < 0 or u > a:
                    continue
                used = list(st[:nu])
                if u0 is not None:
                    used[u0] += u
                deferred = st[-1] + r_all - r
                # Wild slots: the deferred played cards and ``m`` unseen cards of any class.
                m = wild - deferred
                rest = sum(sizes) - sum(used)
                if m < 0 or m > rest:
                    continue
                finals[(*used, m)] += ways * comb(r_all, r) * comb(a, u) * comb(rest, m)
        return {st: ways for st, ways in finals.items() if ways}

    def world_count(self) -> int:
        """Distinct worlds: per class, how many of its cards the other hand holds (every
        split of the wild draws counted once), then the stock's orders."""
        sizes = [len(c) for c in self.class_cards]
        seen: set[tuple[int, ...]] = set()
        for st, _weight in self.finals:
            used, m = list(st[:-1]), st[-1]
            room = [s - u for s, u in zip(sizes, used, strict=True)]
            for extra in _splits(m, room):
                seen.add(tuple(u + e for u, e in zip(used, extra, strict=True)))
        worlds = 0
        for held in seen:
            ways = 1
            for size, h in zip(sizes, held, strict=True):
                ways *= comb(size, h)
            worlds += ways
        return worlds * factorial(self.hidden_stock)

    def draw(self, rng: Random) -> tuple[list[Card], list[Card]]:
        """The unseen cards of the other hand, and the hidden stock in order."""
        st, _ = self.finals[_pick(self.cumulative, rng)]
        held: list[Card] = []
        rest: list[Card] = []
        for i, cards in enumerate(self.class_cards):
            cards = list(cards)
            rng.shuffle(cards)
            held.extend(cards[: st[i]])
            rest.extend(cards[st[i] :])
        rng.shuffle(rest)
        m = st[-1]
        held.extend(rest[:m])
        return held, rest[m:]


def _splits(m: int, room: list[int]) -> Iterator[tuple[int, ...]]:
    if not room:
        if m == 0:
            yield ()
        return
    for k in range(min(m, room[0]) + 1):
        for tail in _splits(m - k, room[1:]):
            yield (k, *tail)


# -------------------------------------------------------------------- the API
_LAST: list[tuple[View, Sampler]] = []


def prepare(view: View) -> Sampler:
    """The sampler of a view (the last one is kept: sampling twice counts once)."""
    if _LAST and _LAST[0][0] is view:
        return _LAST[0][1]
    sampler = Sampler(view)
    _LAST[:] = [(view, sampler)]
    return sampler


def sample_worlds(view: View, rng: Random, count: int) -> list[World]:
    """``count`` worlds drawn uniformly (see the module doc) from those consistent with
    ``view``, each of weight 1 (``whist.bots.inference.weighed`` weighs them)."""
    return prepare(view).sample(rng, count)


def world_count(view: View) -> int:
    """The exact number of distinct worlds consistent with ``view``."""
    return prepare(view).count
