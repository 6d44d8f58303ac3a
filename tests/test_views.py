"""What a seat may know (docs/rules.md, What each seat may see), as properties of ``view_for``.

1. A view names no card the seat may not see and no bid or bottom card that was never
   revealed; the spectator's view names no hand card at all except public ones.
2. Two states that differ only in what seat S cannot see give S equal views (swapped
   hidden cards, changed unrevealed bids and bottom cards).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers import (
    CARD_TEXTS,
    OPTION_SETS,
    Case,
    card_locations,
    card_strings,
    cases_of,
    drive,
    mask_cards,
    played_cards,
    prefix_with_sightings,
    revealed_from_log,
    string_paths,
    suit,
    visible_cards,
)
from whist import records
from whist.core.actions import Bid, Bottom, action_to_json
from whist.core.match import Match
from whist.core.state import Phase
from whist.core.views import View, view_for

SEEDS = st.integers(0, 2**31 - 1)
CASE_IDS = [case.id for case in OPTION_SETS]
# Every option set gets its own examples (a sampled_from strategy favours the first ones).
EACH_CASE = pytest.mark.parametrize("case", OPTION_SETS, ids=CASE_IDS)


def positions(most: int) -> st.SearchStrategy[int]:
    """A prefix length spread evenly over 1..most (plain integers favour small ones)."""
    return st.integers(0, 10**9).map(lambda x: 1 + x % most)


BID_WORDS = frozenset({"high", "low", "spel", "pass"})
BID_PATHS = {
    "revealed[*].choice",
    "contract.mode",
    "history[*].contract.mode",
    "legal[*].bid",
    "facts.bid_words[*]",  # the words a variant has, the same in every view
    "facts.contracts[*]",
}


# ------------------------------------------------------------------ the checks
def assert_view_hides(match: Match, seat: int | None) -> None:
    view = view_for(match, seat)
    data = view.to_json()
    allowed = {CARD_TEXTS[c] for c in visible_cards(match, seat)}
    leaked = sorted(card_strings(data) - allowed)
    assert not leaked, f"seat {seat} sees {leaked} in its view"
    if match.deal is None:
        return
    seen = visible_cards(match, seat)
    for name in ("hand", "table_cards"):
        extra = mask_cards(getattr(view, name)) - seen
        assert not extra, f"seat {seat}: view.{name} holds unseen {extra}"
    for name in ("offer", "upcard", "trump_card"):
        card = getattr(view, name)
        assert card is None or card in seen, f"seat {seat}: view.{name} = {card}"
    if match.variant.key in ("minnesota", "swedish"):
        assert list(view.revealed) == revealed_from_log(match)
        stray = [p for p in string_paths(data, BID_WORDS) if p not in BID_PATHS]
        assert not stray, f"seat {seat}: a bid word appears at {stray}"
    if seat is None:
        assert view.hand == 0 and view.table_cards == 0
        assert view.offer is None and view.legal == ()


# ------------------------------------------------------------------ properties
@EACH_CASE
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_a_view_names_only_cards_the_seat_may_see(case: Case, seed: int) -> None:
    for step in drive(case, seed, max_actions=160):
        match = step.match
        for seat in range(match.players):
            assert_view_hides(match, seat)


@EACH_CASE
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_the_public_view_names_no_private_card(case: Case, seed: int) -> None:
    for step in drive(case, seed, max_actions=160):
        match = step.match
        assert_view_hides(match, None)
        deal = match.deal
        if deal is None:
            continue
        public = visible_cards(match, None)
        in_hands = set().union(*(mask_cards(h) for h in deal.hands))
        texts = card_strings(view_for(match, None).to_json())
        named = {c for c, text in enumerate(CARD_TEXTS) if text in texts}
        assert not (named & in_hands) - public


def _replay_with_deck(match: Match, deck: list[int]) -> Match:
    """``match`` replayed with the current deal's deck replaced; the example is dropped if
    the same actions are not all legal with that deck."""
    doc = records.to_json(match)
    doc["deals"][-1]["deck"] = [CARD_TEXTS[c] for c in deck]
    replayed, error = records.replay(records.parse(doc))
    assume(error is None)
    return replayed


def assert_same_view(m1: Match, m2: Match, seat: int | None) -> None:
    v1: View = view_for(m1, seat)
    v2: View = view_for(m2, seat)
    assert v1.to_json() == v2.to_json(), f"seat {seat} can tell the two states apart"
    assert v1 == v2


@EACH_CASE
@settings(max_examples=8, deadline=None)
@given(
    seed=SEEDS,
    length=positions(120),
    seat=st.integers(0, 3),
    same_suit=st.booleans(),
    data=st.data(),
)
def test_swapping_cards_a_seat_never_saw_leaves_its_view_unchanged(
    case: Case, seed: int, length: int, seat: int, same_suit: bool, data: st.DataObject
) -> None:
    m1, seen = prefix_with_sightings(case, seed, length)
    deal = m1.deal
    assume(deal is not None and not deal.complete and not m1.over)
    assert deal is not None
    seat %= m1.players
    played = played_cards(deal)
    where = card_locations(m1)
    hidden = [c for c in range(52) if c not in seen[seat] and c not in played]
    pairs = [
        (a, b)
        for i, a in enumerate(hidden)
        for b in hidden[i + 1 :]
        if where[a] != where[b] and (suit(a) == suit(b) or not same_suit)
    ]
    assume(pairs)
    a, b = data.draw(st.sampled_from(pairs), label="swap")
    deck = list(deal.deck)
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    m2 = _replay_with_deck(m1, deck)
    assert card_locations(m2)[a] == where[b], "the swap changed nothing"
    for other in [*range(m1.players), None]:
        blind = other is None or (a not in seen[other] and b not in seen[other])
        if blind:
            assert_same_view(m1, m2, other)


SECRET_CASES = [
    case
    for case in cases_of("minnesota") + cases_of("swedish")
    if case.options.get("reveal") != "simultaneous"
]


@pytest.mark.parametrize("case", SECRET_CASES, ids=[c.id for c in SECRET_CASES])
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, length=st.one_of(st.integers(1, 3), positions(120)), data=st.data())
def test_unrevealed_bids_and_bottom_cards_leave_every_view_unchanged(
    case: Case, seed: int, length: int, data: st.DataObject
) -> None:
    m1 = [step.match for step in drive(case, seed, max_actions=length)][-1]
    deal = m1.deal
    assume(deal is not None and not m1.over)
    assert deal is not None
    revealed = {s for s, _ in revealed_from_log(m1)}  # by the rules, not the core's list
    actions = list(m1.log[deal.index])
    secret = [
        k for k, a in enumerate(actions) if isinstance(a, (Bid, Bottom)) and a.seat not in revealed
    ]
    assume(secret)
    dealt = [{deal.deck[i] for i in range(52) if (deal.dealer + 1 + i) % 4 == s} for s in range(4)]
    changed = data.draw(st.lists(st.sampled_from(secret), min_size=1, unique=True), label="k")
    for k in changed:
        action = actions[k]
        if isinstance(action, Bid):
            flip = {"high": "low", "low": "high", "spel": "pass", "pass": "spel"}
            actions[k] = Bid(action.seat, flip[action.bid])
        else:
            assert isinstance(action, Bottom)
            others = sorted(dealt[action.seat] - {action.card})
            actions[k] = Bottom(action.seat, data.draw(st.sampled_from(others), label="card"))
    doc = records.to_json(m1)
    doc["deals"][-1]["actions"] = [action_to_json(a) for a in actions]
    m2, error = records.replay(records.parse(doc))
    assert error is None, f"changing an unrevealed choice made the replay fail: {error}"
    assert m2.log[-1] != m1.log[-1]
    for seat in [0, 1, 2, 3, None]:
        assert_same_view(m1, m2, seat)


@pytest.mark.parametrize("case", cases_of("minnesota"), ids=[c.id for c in cases_of("minnesota")])
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_minnesota_bids_after_the_first_high_are_never_shown(case: Case, seed: int) -> None:
    """Play whole deals: from the reveal to the end of the deal (and after the match), no
    view shows a bid made after the first high, not even to the seat that made it."""
    rng = random.Random(seed)
    for step in drive(case, seed, max_deals=2):
        match = step.match
        deal = match.deal
        if deal is None or deal.phase is Phase.BID:
            continue
        if rng.random() > 0.2 and not deal.complete:
            continue
        choices = {a.seat: a.bid for a in match.log[deal.index] if isinstance(a, Bid)}
        order = [(deal.dealer + 1 + i) % 4 for i in range(4)]
        highs = [s for s in order if choices[s] == "high"]
        hidden = order[order.index(highs[0]) + 1 :] if highs else []
        for seat in [0, 1, 2, 3, None]:
            view = view_for(match, seat)
            assert [s for s, _ in view.revealed] == [s for s in order if s not in hidden]
            for entry in view.to_json()["revealed"]:
                assert entry["seat"] not in hidden
