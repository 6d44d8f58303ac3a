"""The world sampler (``whist.bots.sampler``) and its inference weights
(``whist.bots.inference``).

1. At random decision points of every option set (bids, bottom cards, trump choice, talon
   decisions, card play mid-trick), every sampled world, put back into the real match (the
   deck rebuilt around the seat's known cards, the deal's actions replayed), gives the seat
   exactly its view. German Whist stage 1 needs a hidden history for that (which of the
   other hand's cards were dealt and which drawn when): one is found by bipartite matching
   under the rules' constraints, computed here from the full state.
2. On small positions late in a deal, the sampler's frequencies match an exhaustive
   enumeration of the consistent worlds done here from the full state (chi-square), and
   ``world_count`` equals the enumeration's count. A greedy sampler fails the same check.
3. German Whist / Plockwhist stage 1: frequencies match the exact posterior of a shuffled
   deck, each world weighted by its number of hidden histories (a permanent computed
   here), which uniform-over-worlds would not.
4. Inference: the past views rebuilt for other seats equal the views they really had; a
   Minnesota grander's hand is stronger under the weights than uniformly; no weight is 0.
5. No stall: positions where voids leave (almost) a single world.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations, permutations
from typing import Any

import pytest

from helpers import (
    CASES_BY_ID,
    OPTION_SETS,
    Case,
    drive,
    mask_cards,
    piles_of,
    stock_of,
    visible_cards,
)
from whist.bots import inference
from whist.bots.hard import decide, estimated_tricks
from whist.bots.inference import weighed
from whist.bots.knowledge import know
from whist.bots.sampler import World, sample_worlds, world_count
from whist.core.actions import Bottom
from whist.core.errors import WhistError
from whist.core.match import Match
from whist.core.state import Deal, Phase
from whist.core.views import View, view_for
from whist.master.bot import INFERENCE_BY_DEFAULT
from whist.variants import new_match

FULL = (1 << 52) - 1


def bits(mask: int) -> list[int]:
    return sorted(mask_cards(mask))


def mask_of(cards: Any) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# ---------------------------------------------------------------- positions
def decision_points(
    case: Case, seed: int, rate: float, max_deals: int = 2, other_rate: float = 0.5
) -> Iterator[tuple[Match, int]]:
    """(match, seat to act) at random decision points of a random match: card play with
    probability ``rate``, other decisions with ``other_rate``. The match is live: use it
    before asking for the next one."""
    rng = random.Random(f"points:{case.id}:{seed}")
    for step in drive(case, seed, max_deals=max_deals):
        match = step.match
        deal = match.deal
        if deal is None or match.over or deal.complete or not match.to_act():
            continue
        seat = rng.choice(match.to_act())
        kind = match.legal_actions(seat)[0].kind
        if rng.random() < (rate if kind == "play" else other_rate):
            yield match, seat


def played_by(deal: Deal, seat: int) -> int:
    mask = 0
    for trick in deal.tricks:
        for i, card in enumerate(trick.cards):
            if (trick.leader + i) % deal.players == seat:
                mask |= 1 << card
    for i, card in enumerate(deal.trick):
        if (deal.leader + i) % deal.players == seat:
            mask |= 1 << card
    return mask


def play_times(deal: Deal, seat: int) -> dict[int, int]:
    """Card -> index of the trick in which ``seat`` played it."""
    times = {}
    for index, trick in enumerate(deal.tricks):
        for i, card in enumerate(trick.cards):
            if (trick.leader + i) % deal.players == seat:
                times[card] = index
    for i, card in enumerate(deal.trick):
        if (deal.leader + i) % deal.players == seat:
            times[card] = len(deal.tricks)
    return times


def void_list(match: Match, seat: int) -> list[tuple[int, int]]:
    """(trick index, suit) where ``seat`` did not follow suit while it had to."""
    deal = match.deal
    assert deal is not None
    key = match.variant.key
    tricks = [(t.leader, t.cards, t.stage) for t in deal.tricks]
    if deal.trick:
        tricks.append((deal.leader, tuple(deal.trick), deal.stage))
    found = []
    for index, (leader, cards, stage) in enumerate(tricks):
        if key == "german" and stage == 1 and not match.options["stage1_follow"]:
            continue
        for i, card in enumerate(cards[1:], start=1):
            if (leader + i) % deal.players == seat and card // 13 != cards[0] // 13:
                found.append((index, cards[0] // 13))
    return found


# ------------------------------------------------------- putting a world back
def replay(match: Match, deck: list[int]) -> Match | None:
    """The match again with the current deal's deck replaced; unrevealed Swedish bottom
    cards no longer in their seat's hand are re-chosen. None if an action is illegal."""
    deal = match.deal
    assert deal is not None
    revealed = {seat for seat, _ in deal.revealed}
    again = Match(match.variant, match.options)
    last = len(match.deals) - 1
    try:
        for k, (old, actions) in enumerate(zip(match.deals, match.log, strict=True)):
            again.start_deal(deck if k == last else list(old.deck), old.dealer)
            for action in actions:
                if k == last and isinstance(action, Bottom) and action.seat not in revealed:
                    assert again.deal is not None
                    hand = again.deal.hands[action.seat]
                    if not hand >> action.card & 1:
                        action = Bottom(action.seat, bits(hand)[0])
                again.apply(action)
    except WhistError:
        return None
    return again


def deck_four(match: Match, world: World) -> list[int]:
    deal = match.deal
    assert deal is not None
    players = deal.players
    lists = {s: bits(world.hands[s] | played_by(deal, s)) for s in range(players)}
    if match.variant.key == "classic":
        turned = deal.deck[51]  # the dealer's last card: keep it there
        lists[deal.dealer].remove(turned)
        lists[deal.dealer].append(turned)
    return [lists[(deal.dealer + 1 + i) % players].pop(0) for i in range(52)]


def decks_japanese(match: Match, world: World) -> Iterator[list[int]]:
    """Decks for a Japanese world: one per choice of the card about to turn up (a world
    keeps it in the hand mask, not under a pile)."""
    deal = match.deal
    assert deal is not None
    forehand = (deal.dealer + 1) % 2
    base = {forehand: 0, deal.dealer: 10}
    rests: dict[int, list[int]] = {}
    pending: dict[int, int | None] = {}
    for seat in (0, 1):
        ups = mask_of(c for c in piles_of(deal).up[seat] if c is not None)
        downs = mask_of(world.below[seat].values())
        rests[seat] = bits(world.hands[seat] & ~ups & ~downs)
        piles = [
            p
            for p in range(10)
            if piles_of(deal).up[seat][p] is None and piles_of(deal).down[seat][p] is not None
        ]
        assert len(piles) <= 1
        pending[seat] = piles[0] if piles else None
    choices: list[list[int | None]] = [
        [None] if pending[s] is None else list(rests[s]) for s in (0, 1)
    ]
    for first in choices[0]:
        for second in choices[1]:
            deck = list(deal.deck)
            for seat, turned in ((0, first), (1, second)):
                for p in range(10):
                    if piles_of(deal).down[seat][p] is None:
                        continue
                    up = piles_of(deal).up[seat][p]
                    card = world.below[seat][up] if up is not None else turned
                    assert card is not None
                    deck[base[seat] + p] = card
                hand = [c for c in rests[seat] if c != turned]
                slots = sorted(deal.deck.index(c) for c in mask_cards(deal.hands[seat]))
                assert len(hand) == len(slots)
                for slot, card in zip(slots, hand, strict=True):
                    deck[slot] = card
            yield deck


def draw_times(match: Match, seat: int) -> dict[int, int]:
    """Card -> the trick after which ``seat`` drew it (German Whist, Plockwhist), from the
    real deal replayed action by action."""
    deal = match.deal
    assert deal is not None
    again = Match(match.variant, match.options)
    for old, actions in zip(match.deals[:-1], match.log[:-1], strict=True):
        again.start_deal(list(old.deck), old.dealer)
        for action in actions:
            again.apply(action)
    again.start_deal(list(deal.deck), deal.dealer)
    times: dict[int, int] = {}
    assert again.deal is not None
    before = again.deal.hands[seat]
    for action in match.log[-1]:
        again.apply(action)
        now = again.deal.hands[seat]
        if again.deal.tricks:
            for card in mask_cards(now & ~before):
                times[card] = len(again.deal.tricks) - 1
        before = now
    return times


class StockFacts:
    """What the full state says about the other hand's hidden slots in German Whist and
    Plockwhist: the positions in the deck, the time of each, and which card may lie where."""

    def __init__(self, match: Match, seat: int) -> None:
        deal = match.deal
        assert deal is not None
        self.deal = deal
        other = 1 - seat
        self.other = other
        gone = mask_of(c for t in deal.tricks for c in t.cards) | mask_of(deal.trick)
        gone |= mask_of(stock_of(deal).discards)
        self.known = mask_of(deal.shown[other]) & ~gone
        self.played = {
            c: t for c, t in play_times(deal, other).items() if c not in deal.shown[other]
        }
        hidden = deal.hands[other] & ~self.known
        self.slots = sorted(deal.deck.index(c) for c in [*mask_cards(hidden), *self.played])
        drawn = draw_times(match, other)
        self.time = {pos: -1 if pos < 26 else drawn[deal.deck[pos]] for pos in self.slots}
        self.kept_times = [drawn[c] for c in deal.shown[other]]
        self.voids = void_list(match, other)

    def allowed(self, card: int, time: int) -> bool:
        played = self.played.get(card)
        if played is not None and time >= played:
            return False
        for index, suit in self.voids:
            if suit == card // 13 and time < index and (played is None or played > index):
                return False
        return True

    def timelines(self) -> Iterator[dict[int, int]]:
        """Slot -> time for every timeline the seat cannot tell from the real one
        (``talon_discard``: at which of the other player's won tricks it discarded the
        upcard and drew unseen); each kept upcard was taken before it was played."""
        deal = self.deal
        other = self.other
        lost = {i for i, t in enumerate(deal.tricks) if t.stage == 1 and t.winner != other}
        times = [self.time[slot] for slot in self.slots]
        fixed = [t for t in times if t < 0 or t in lost]
        moved = len(times) - len(fixed)
        won = sorted({t for t in times if t >= 0 and t not in lost} | set(self.kept_times))
        plays = play_times(deal, other)
        for unseen in combinations(won, moved):
            kept = [j for j in won if j not in unseen]
            if any(
                card in plays and j >= plays[card]
                for j, card in zip(kept, deal.shown[other], strict=False)
            ):
                continue
            yield dict(zip(self.slots, [*fixed, *unseen], strict=True))

    def cards(self, world: World) -> list[int]:
        return [*mask_cards(world.hands[self.other] & ~self.known), *self.played]


def matching(cards: list[int], slots: list[int], ok: Callable[[int, int], bool]) -> dict[int, int]:
    """slot -> card, every card placed where ``ok(card, slot)`` (Kuhn's augmenting paths)."""
    owner: dict[int, int] = {}

    def place(card: int, seen: set[int]) -> bool:
        for slot in slots:
            if slot in seen or not ok(card, slot):
                continue
            seen.add(slot)
            if slot not in owner or place(owner[slot], seen):
                owner[slot] = card
                return True
        return False

    for card in cards:
        assert place(card, set()), f"no hidden history places {card}"
    return owner


def deck_stock(match: Match, seat: int, world: World, facts: StockFacts | None) -> list[int]:
    deal = match.deal
    assert deal is not None
    deck = list(deal.deck)
    other = 1 - seat
    if deal.phase is Phase.BID:  # Plockwhist: 12 dealt, 40 to come
        slots = sorted(deck.index(c) for c in mask_cards(deal.hands[other]))
        for slot, card in zip(slots, bits(world.hands[other]), strict=True):
            deck[slot] = card
        deck[12:] = world.stock
        assert len(deck) == 52
        return deck
    assert facts is not None
    start = 52 - len(stock_of(deal).cards)
    deck[start:] = world.stock
    owner = matching(
        facts.cards(world), facts.slots, lambda card, slot: facts.allowed(card, facts.time[slot])
    )
    for slot, card in owner.items():
        deck[slot] = card
    return deck


def check_world(match: Match, seat: int, view: View, world: World, facts: Any) -> None:
    key = match.variant.key
    if key == "japanese":
        decks = list(decks_japanese(match, world))
    elif key in ("german", "plockwhist"):
        try:
            decks = [deck_stock(match, seat, world, facts)]
        except AssertionError:
            # No hidden history with the real timeline of unseen winner draws: one the
            # seat cannot tell from it must have one (talon_discard only).
            assert match.options.get("talon_discard"), f"no hidden history for {world}"
            cards = facts.cards(world)
            for times in facts.timelines():
                try:
                    matching(cards, facts.slots, lambda c, slot, t=times: facts.allowed(c, t[slot]))
                    return
                except AssertionError:
                    continue
            raise AssertionError(f"no timeline has a hidden history for {world}") from None
    else:
        decks = [deck_four(match, world)]
    assert all(sorted(d) == list(range(52)) for d in decks), "not a deck"
    for deck in decks:
        again = replay(match, deck)
        if again is not None and view_for(again, seat) == view:
            return
    raise AssertionError(f"{key}: a world that does not give the view: {world}")


@pytest.mark.parametrize("case", OPTION_SETS, ids=[c.id for c in OPTION_SETS])
def test_every_world_gives_the_seat_its_view(case: Case) -> None:
    kinds: Counter[str] = Counter()
    rng = random.Random(f"worlds:{case.id}")
    for seed in range(1, 9):
        if seed > 2 and kinds["play"] >= 12 and decision_kinds(case) <= set(kinds):
            break
        for match, seat in decision_points(case, seed, rate=0.08):
            view = view_for(match, seat)
            kinds[view.legal[0].kind if view.legal else view.phase] += 1
            facts = None
            if case.key in ("german", "plockwhist") and view.phase != "bid":
                facts = StockFacts(match, seat)
            for world in sample_worlds(view, rng, 3):
                assert len(world.hands) == view.players
                assert world.weight == 1.0
                check_world(match, seat, view, world, facts)
    assert kinds["play"] >= 10, kinds
    assert decision_kinds(case) <= set(kinds), kinds


def decision_kinds(case: Case) -> set[str]:
    """The non-play decisions an option set has."""
    kinds = {
        "minnesota": {"bid"},
        "swedish": {"bid" if case.options.get("bid_input") == "button" else "bottom"},
        "plockwhist": {"bid"},
        "japanese": {"trump"},
        "german": {"take"} if case.options.get("talon_discard") else set(),
    }
    return kinds.get(case.key, set())


# ------------------------------------------------------ exhaustive enumeration
WorldKey = tuple[Any, ...]


def key_of(world: World) -> WorldKey:
    below = tuple(tuple(sorted(d.items())) for d in world.below)
    return (world.hands, world.stock, below)


def chi_square(counts: Counter[WorldKey], expected: dict[WorldKey, float]) -> float:
    """Pearson's statistic of ``counts`` against probabilities ``expected`` (a key outside
    the support makes it infinite)."""
    n = sum(counts.values())
    if any(key not in expected for key in counts):
        return math.inf
    return sum((counts[k] - n * p) ** 2 / (n * p) for k, p in expected.items())


def threshold(cells: int) -> float:
    """Far in the tail of chi-square with ``cells - 1`` degrees of freedom."""
    df = max(1, cells - 1)
    return df + 6 * math.sqrt(2 * df) + 6


def samples_for(cells: int) -> int:
    return min(30_000, max(3000, 50 * cells))


def enumerate_four(match: Match, seat: int) -> tuple[Counter[WorldKey], Callable[[], World]]:
    """Every consistent world of a four-player position, from the full state: the cards the
    seat never saw dealt to the other hands in every way, kept where no void is broken.
    Also a greedy sampler for comparison."""
    deal = match.deal
    assert deal is not None
    seen = mask_of(visible_cards(match, seat))
    others = [o for o in range(4) if o != seat]
    hidden = {o: deal.hands[o] & ~seen for o in others}
    caps = [hidden[o].bit_count() for o in others]
    pool = bits(sum(hidden.values()))
    banned = {o: {suit for _i, suit in void_list(match, o)} for o in others}
    base = [deal.hands[s] & seen for s in range(4)]
    worlds: Counter[WorldKey] = Counter()
    for first in combinations(pool, caps[0]):
        rest = [c for c in pool if c not in first]
        for second in combinations(rest, caps[1]):
            third = [c for c in rest if c not in second]
            parts = (first, second, tuple(third))
            if any(
                c // 13 in banned[o] for o, part in zip(others, parts, strict=True) for c in part
            ):
                continue
            hands = list(base)
            for o, part in zip(others, parts, strict=True):
                hands[o] |= mask_of(part)
            worlds[(tuple(hands), (), ())] += 1
    rng = random.Random(f"greedy:{seat}:{pool}")

    def greedy() -> World:
        """Fills the hands one after the other with random cards each may hold, starting
        again when the last hand cannot take what is left: biased under voids."""
        while True:
            hands = list(base)
            left = list(pool)
            for o, cap in zip(others, caps, strict=True):
                allowed = [c for c in left if c // 13 not in banned[o]]
                if len(allowed) < cap:
                    break
                part = rng.sample(allowed, cap)
                hands[o] |= mask_of(part)
                left = [c for c in left if c not in part]
            else:
                return World(tuple(hands))

    return worlds, greedy


def enumerate_japanese(match: Match, seat: int) -> Counter[WorldKey]:
    """Every consistent world of a Japanese position after trick 1: the other hand (no
    card of a suit it did not follow from trick 2 on), then every order of the remaining
    cards under the face-down piles. Counted per assignment: a world keeps the card about
    to turn up in the hand mask, so two assignments can make the same world."""
    deal = match.deal
    assert deal is not None
    other = 1 - seat
    piles = [
        (s, piles_of(deal).up[s][p])
        for s in (0, 1)
        for p in range(10)
        if piles_of(deal).down[s][p] is not None
    ]
    pool = bits(
        deal.hands[other]
        | mask_of(
            piles_of(deal).down[s][p]
            for s in (0, 1)
            for p in range(10)
            if piles_of(deal).down[s][p] is not None
        )
    )
    banned = {suit for index, suit in void_list(match, other) if index >= 1}
    ups = [mask_of(c for c in piles_of(deal).up[s] if c is not None) for s in (0, 1)]
    worlds: Counter[WorldKey] = Counter()
    for held in combinations(pool, deal.hands[other].bit_count()):
        if any(c // 13 in banned for c in held):
            continue
        rest = [c for c in pool if c not in held]
        for order in permutations(rest):
            hands = list(ups)
            hands[seat] |= deal.hands[seat]
            hands[other] |= mask_of(held)
            below: list[dict[int, int]] = [{}, {}]
            for (s, up), card in zip(piles, order, strict=True):
                hands[s] |= 1 << card
                if up is not None:
                    below[s][up] = card
            worlds[(tuple(hands), (), tuple(tuple(sorted(d.items())) for d in below))] += 1
    return worlds


def small_positions(
    case: Case, fits: Callable[[Match, int], bool], wanted: int, first_seed: int = 1
) -> Iterator[tuple[Match, int]]:
    found = 0
    for seed in range(first_seed, first_seed + 80):
        for match, seat in decision_points(case, seed, rate=1.0, other_rate=0.0):
            if fits(match, seat):
                found += 1
                yield match, seat
                break  # one position per match: positions of one deal are alike
        if found >= wanted:
            return


def unseen(match: Match, seat: int) -> int:
    deal = match.deal
    assert deal is not None
    held = sum(deal.hands[o] for o in range(deal.players) if o != seat)
    downs = mask_of(c for piles in piles_of(deal).down for c in piles if c is not None)
    unseen = held | downs | mask_of(stock_of(deal).cards)
    return (unseen & ~mask_of(visible_cards(match, seat))).bit_count()


def binding(match: Match, seat: int) -> int:
    """The most unseen cards of a suit some other player has shown void in."""
    deal = match.deal
    assert deal is not None
    seen = mask_of(visible_cards(match, seat))
    held = sum(deal.hands[o] for o in range(deal.players) if o != seat) & ~seen
    most = 0
    for o in range(deal.players):
        if o != seat:
            for _index, suit in void_list(match, o):
                most = max(most, sum(1 for c in mask_cards(held) if c // 13 == suit))
    return most


FOUR = ["classic-5", "minnesota-defaults", "swedish-defaults"]


@pytest.mark.parametrize("case_id", FOUR)
def test_four_player_frequencies_match_enumeration(case_id: str) -> None:
    case = CASES_BY_ID[case_id]
    greedy_fails = 0
    checked = 0

    def fits(match: Match, seat: int) -> bool:
        deal = match.deal
        assert deal is not None
        if sum(h.bit_count() for h in deal.hands) > 13:
            return False
        return 6 <= unseen(match, seat) <= 9 and binding(match, seat) >= 3

    for match, seat in small_positions(case, fits, wanted=4):
        view = view_for(match, seat)
        worlds, greedy = enumerate_four(match, seat)
        total = sum(worlds.values())
        assert world_count(view) == total
        expected = {k: n / total for k, n in worlds.items()}
        n = samples_for(len(expected))
        rng = random.Random(f"freq:{case_id}:{checked}")
        counts = Counter(key_of(w) for w in sample_worlds(view, rng, n))
        stat = chi_square(counts, expected)
        assert stat < threshold(len(expected)), f"chi-square {stat:.1f} over {len(expected)}"
        biased = Counter(key_of(greedy()) for _ in range(n))
        greedy_fails += chi_square(biased, expected) > threshold(len(expected))
        checked += 1
    assert checked == 4
    assert greedy_fails >= 1, "the check would not catch a greedy sampler"


def test_japanese_frequencies_match_enumeration() -> None:
    checked = 0
    for case_id in ("japanese-after", "japanese-immediate"):

        def fits(match: Match, seat: int) -> bool:
            deal = match.deal
            assert deal is not None
            if len(deal.tricks) < 16:
                return False
            return 4 <= unseen(match, seat) <= 6

        for match, seat in small_positions(CASES_BY_ID[case_id], fits, wanted=2):
            view = view_for(match, seat)
            worlds = enumerate_japanese(match, seat)
            total = sum(worlds.values())
            assert world_count(view) == total
            expected = {k: n / total for k, n in worlds.items()}
            rng = random.Random(f"freq:{case_id}:{checked}")
            n = samples_for(len(expected))
            counts = Counter(key_of(w) for w in sample_worlds(view, rng, n))
            stat = chi_square(counts, expected)
            assert stat < threshold(len(expected)), f"chi-square {stat:.1f}"
            checked += 1
    assert checked == 4


# ------------------------------------------- German / Plockwhist stage 1 posterior
def histories(facts: StockFacts, cards: list[int]) -> int:
    """Hidden histories of the other hand holding ``cards`` (its unseen cards and the ones
    it played without having taken them face up): ways to put the cards in its slots (the
    deal and each unseen draw) that break no rule: a permanent, by dynamic programming over
    the draws taken."""
    times = [facts.time[s] for s in facts.slots]
    draws = [t for t in times if t >= 0]
    dealt = len(times) - len(draws)
    states = {0: 1}
    for card in cards:
        nxt: Counter[int] = Counter()
        early = facts.allowed(card, -1)
        for used, ways in states.items():
            if early:
                nxt[used] += ways
            for j, t in enumerate(draws):
                if not used >> j & 1 and facts.allowed(card, t):
                    nxt[used | 1 << j] += ways
        states = dict(nxt)
    return states.get((1 << len(draws)) - 1, 0) * math.factorial(dealt)


def stock_posterior(match: Match, seat: int) -> tuple[dict[WorldKey, float], int]:
    """Every world of a stage-1 position (which unseen cards are in the stock, in which
    order; the rest in the other hand) with its posterior probability ∝ its histories,
    and how many worlds have any."""
    deal = match.deal
    assert deal is not None
    facts = StockFacts(match, seat)
    other = 1 - seat
    seen = mask_of(visible_cards(match, seat))
    top = [stock_of(deal).cards[0]] if seen >> stock_of(deal).cards[0] & 1 else []
    hidden_stock = len(stock_of(deal).cards) - len(top)
    pool = bits((deal.hands[other] | mask_of(stock_of(deal).cards)) & ~seen)
    weights: dict[WorldKey, int] = {}
    for stock in permutations(pool, hidden_stock):
        held = mask_of(c for c in pool if c not in stock)
        hands = [0, 0]
        hands[seat] = deal.hands[seat]
        hands[other] = facts.known | held
        world = World(tuple(hands), (*top, *stock))
        ways = histories(facts, facts.cards(world))
        if ways:
            weights[key_of(world)] = ways
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}, len(weights)


def test_stock_stage_frequencies_match_the_posterior_of_hidden_histories() -> None:
    checked = 0
    with_voids = 0
    separates = 0
    for case_id, first_seed, voids in (
        ("german-defaults", 1, False),
        ("german-all26", 100, True),
        ("plockwhist-none", 1, False),
        ("plockwhist-upcard", 100, True),
    ):

        def fits(match: Match, seat: int, voids: bool = voids) -> bool:
            deal = match.deal
            assert deal is not None
            stock = stock_of(deal).cards
            if deal.stage != 1 or not 1 <= len(stock) <= 3 or deal.phase is Phase.TAKE:
                return False
            if voids and not void_list(match, 1 - seat):
                return False
            facts = StockFacts(match, seat)
            draws = sum(1 for s in facts.slots if facts.time[s] >= 0)
            return draws <= 9 and unseen(match, seat) - deal.hands[1 - seat].bit_count() <= 2

        for match, seat in small_positions(CASES_BY_ID[case_id], fits, 2, first_seed):
            view = view_for(match, seat)
            expected, worlds = stock_posterior(match, seat)
            assert world_count(view) == worlds
            rng = random.Random(f"stock:{case_id}:{checked}")
            n = samples_for(len(expected))
            counts = Counter(key_of(w) for w in sample_worlds(view, rng, n))
            stat = chi_square(counts, expected)
            assert stat < threshold(len(expected)), f"chi-square {stat:.1f}"
            if void_list(match, 1 - seat):
                with_voids += 1
                # Uniform over the same worlds would be told apart by this many samples.
                flat = 1 / len(expected)
                shift = n * sum((flat - p) ** 2 / p for p in expected.values())
                separates += shift > 3 * threshold(len(expected))
            checked += 1
    assert checked == 8
    assert with_voids >= 4 and separates >= 2, (with_voids, separates)


# ------------------------------------------------------------------ inference
def recorded_views(
    case: Case, seed: int, max_deals: int = 1
) -> Iterator[tuple[Match, dict[tuple[Any, ...], dict[int, View]]]]:
    """A random match, yielding after every action with the views every seat to act had
    so far this deal, keyed by (tricks done, cards in the trick, phase)."""
    seen: dict[tuple[Any, ...], dict[int, View]] = {}
    index = None
    for step in drive(case, seed, max_deals=max_deals):
        match = step.match
        deal = match.deal
        if deal is None or match.over or deal.complete:
            continue
        if deal.index != index:
            index, seen = deal.index, {}
        at = (len(deal.tricks), len(deal.trick), deal.phase.value)
        for seat in match.to_act():
            seen.setdefault(at, {})[seat] = view_for(match, seat)
        yield match, seen


def true_world(match: Match) -> World:
    deal = match.deal
    assert deal is not None
    return World(tuple(deal.hands), tuple(stock_of(deal).cards))


@pytest.mark.parametrize(
    "case_id",
    ["classic-5", "minnesota-defaults", "swedish-defaults", "swedish-button", "german-defaults"],
)
def test_rebuilt_past_views_are_the_views_the_seats_had(case_id: str) -> None:
    case = CASES_BY_ID[case_id]
    rng = random.Random(f"past:{case_id}")
    plays = bids = 0
    for seed in (1, 2, 3):
        for match, seen in recorded_views(case, seed):
            deal = match.deal
            assert deal is not None
            to_act = match.to_act()
            if not to_act or rng.random() > 0.15:
                continue
            seat = rng.choice(to_act)
            view = view_for(match, seat)
            world = true_world(match)
            for m in inference.moments(view):
                hand = world.hands[m.seat] | m.since
                if m.kind == "play":
                    t = m.view.tricks
                    real = seen[(len(t), len(m.view.trick), "play")][m.seat]
                    rebuilt = replace(m.view, hand=hand, legal=real.legal)
                    assert rebuilt == real, f"{case_id} seed {seed}: moment {m}"
                    if m.knowledge is not None:
                        fast = replace(m.knowledge, mine=hand, out=m.knowledge.out & ~hand)
                        assert fast == know(rebuilt)
                    plays += 1
                else:
                    real = seen[(0, 0, "bid")][m.seat]
                    assert real.hand == hand
                    legal = real.legal
                    rebuilt = replace(m.view, hand=hand, legal=legal)
                    assert decide(rebuilt, legal) == decide(real, legal)
                    bids += 1
    assert plays >= (20 if case.key != "german" else 5)
    if case.key in ("minnesota", "swedish"):
        assert bids >= 5


def grander_strength(view: View, worlds: list[World], seat: int) -> tuple[float, float]:
    """(uniform, weighted) mean of HARD's trick estimate of ``seat``'s hand at the bid."""
    played = 0
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            if (trick.leader + i) % 4 == seat:
                played |= 1 << card
    values = [estimated_tricks(w.hands[seat] | played, None) for w in worlds]
    weights = [w.weight for w in worlds]
    uniform = sum(values) / len(values)
    weighted = sum(v * x for v, x in zip(values, weights, strict=True)) / sum(weights)
    return uniform, weighted


def test_a_high_bid_makes_strong_hands_likelier_and_a_low_bid_weak_ones() -> None:
    case = CASES_BY_ID["minnesota-defaults"]
    rng = random.Random("minnesota-inference")
    high = [0.0, 0.0]
    low = [0.0, 0.0]
    positions = 0
    for seed in range(1, 40):
        for match, seat in decision_points(case, seed, rate=1.0, other_rate=0.0):
            view = view_for(match, seat)
            contract = view.contract
            if len(view.tricks) > 1 or contract is None or contract.seat in (None, seat):
                continue
            worlds = weighed(view, sample_worlds(view, rng, 300))
            assert all(0 < w.weight <= 1 for w in worlds)
            for other, bid in view.revealed:
                if other == seat:
                    continue
                uniform, weighted = grander_strength(view, worlds, other)
                total = high if bid == "high" else low
                total[0] += uniform
                total[1] += weighted
            positions += 1
            break
        if positions >= 8:
            break
    assert positions >= 8
    assert high[1] > high[0] + 0.2 * positions, high
    assert low[0] and low[1] < low[0], low


def test_inference_weights_are_never_zero_and_off_by_default() -> None:
    assert not INFERENCE_BY_DEFAULT
    rng = random.Random("weights")
    for case in OPTION_SETS:
        for match, seat in decision_points(case, 7, rate=0.05, max_deals=1):
            view = view_for(match, seat)
            assert all(w.weight == 1.0 for w in sample_worlds(view, rng, 5))
            weights = [w.weight for w in weighed(view, sample_worlds(view, rng, 20))]
            assert all(0 < x <= 1 for x in weights), (case.id, weights)


# ------------------------------------------------------------------- no stall
def test_voids_that_leave_one_world_do_not_stall() -> None:
    """Classic Whist dealt so that each player holds one whole suit: after the first tricks
    every player has shown void in three suits and every world but one is excluded."""
    match = new_match("classic", {"target": 5})
    suits = {1: 0, 2: 1, 3: 2, 0: 3}  # seat -> its suit, dealer 0
    order = {s: [13 * suits[s] + r for r in range(13)] for s in range(4)}
    deck = [order[(1 + i) % 4].pop() for i in range(52)]
    match.start_deal(deck, 0)
    rng = random.Random("stall")
    counts = []
    while match.deal is not None and not match.deal.complete:
        seat = match.to_act()[0]
        view = view_for(match, seat)
        worlds = sample_worlds(view, rng, 40)
        assert len(worlds) == 40
        counts.append(world_count(view))
        led = {t.cards[0] // 13 for t in match.deal.tricks}
        if len(led) == 4:  # every player has shown void in the three suits it lacks
            assert counts[-1] == 1
            assert all(w.hands == tuple(match.deal.hands) for w in worlds)
        match.apply(rng.choice(list(match.legal_actions(seat))))
    assert counts[0] > 10**15 and counts.count(1) >= 8


def test_sampling_and_counting_stay_fast_on_a_full_deal() -> None:
    """The largest state (a Minnesota bid: 39 unseen cards, three hands): counted exactly,
    sampled without search."""
    match = new_match("minnesota", {})
    match.start_deal(list(range(52)), 0)
    view = view_for(match, 1)
    assert world_count(view) == math.factorial(39) // math.factorial(13) ** 3
    worlds = sample_worlds(view, random.Random(0), 200)
    assert len({w.hands for w in worlds}) == 200
