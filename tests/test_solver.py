"""The double-dummy solver (whist.solver) against DDS (endplay) and a brute-force minimax.

1. Four hands, most tricks: a fixed, seeded set of positions (3..13 tricks left, all five
   denominations, 0..3 cards already on the table) must match DDS card for card.
2. Misère (four hands) and two-hand positions (with and without trumps, with Japanese-whist
   style blockers) must match :func:`whist.solver.brute_solve` on small endings.
3. Bad input raises ValueError.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from whist.solver import Position, brute_solve, check_position, solve, solve_bounds, solve_value
from whist.solver.brute import trick_winner
from whist.solver.dds import dds_solve

SEED = 20250107


# ----------------------------------------------------------------------------- helpers
def deal_position(
    rng: random.Random, tricks: int, players: int = 4, played: int | None = None
) -> tuple[list[int], int, list[int]]:
    """``players`` random hands of ``tricks`` cards, a random leader, then ``played``
    (default random) random legal cards already on the current trick."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0] * players
    for p in range(players):
        for c in deck[p * tricks : (p + 1) * tricks]:
            hands[p] |= 1 << c
    leader = rng.randrange(players)
    count = rng.randrange(players) if played is None else played
    trick: list[int] = []
    for i in range(count):
        seat = (leader + i) % players
        cards = [c for c in range(52) if hands[seat] >> c & 1]
        if trick:
            follow = [c for c in cards if c // 13 == trick[0] // 13]
            cards = follow or cards
        card = rng.choice(cards)
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return hands, leader, trick


# How many DDS positions per number of tricks left (1,016 in all).
DDS_PLAN = {3: 150, 4: 160, 5: 160, 6: 130, 7: 110, 8: 100, 9: 70, 10: 60, 11: 40, 12: 20, 13: 16}


def dds_positions(tricks: int) -> list[tuple[list[int], int | None, int, list[int]]]:
    rng = random.Random(SEED * 100 + tricks)
    out = []
    for i in range(DDS_PLAN[tricks]):
        trump = (None, 0, 1, 2, 3)[i % 5]
        hands, leader, trick = deal_position(rng, tricks, played=(i // 5) % 4)
        out.append((hands, trump, leader, trick))
    return out


def test_dds_plan_is_big_and_varied() -> None:
    assert sum(DDS_PLAN.values()) >= 1000
    positions = [p for n in DDS_PLAN for p in dds_positions(n)]
    assert {trump for _, trump, _, _ in positions} == {None, 0, 1, 2, 3}
    assert {len(trick) for _, _, _, trick in positions} == {0, 1, 2, 3}
    # The set is fixed: same seed, same positions.
    assert dds_positions(5) == dds_positions(5)


# ---------------------------------------------------------------------- 1. against DDS
# The slow sizes in two halves, so that pytest -n 2 can share them out.
DDS_CHUNKS = [(n, 0, 1) for n in sorted(DDS_PLAN) if n < 12] + [
    (n, part, 2) for n in (12, 13) for part in range(2)
]


@pytest.mark.parametrize(("tricks", "part", "parts"), DDS_CHUNKS)
def test_matches_dds(tricks: int, part: int, parts: int) -> None:
    wrong = []
    for hands, trump, leader, trick in dds_positions(tricks)[part::parts]:
        ours = solve(hands, trump, leader, trick, True)
        theirs = dds_solve(hands, trump, leader, trick)
        if ours != theirs:
            wrong.append((hands, trump, leader, trick, ours, theirs))
    assert not wrong, f"{len(wrong)} positions differ from DDS, first: {wrong[0]}"


def test_dds_adapter_counts_for_the_side_to_act() -> None:
    # North holds the four aces, the others small cards; East is to act after North's
    # ace of spades: every East card loses the trick, and NS take all four.
    aces = (1 << 12) | (1 << 25) | (1 << 38) | (1 << 51)
    east = (1 << 0) | (1 << 13) | (1 << 26) | (1 << 39)
    south = (1 << 1) | (1 << 14) | (1 << 27) | (1 << 40)
    west = (1 << 2) | (1 << 15) | (1 << 28) | (1 << 41)
    hands = [aces & ~(1 << 12), east, south, west]
    assert dds_solve(hands, None, 0, [12]) == {0: 0}
    assert solve(hands, None, 0, [12], True) == {0: 0}
    assert solve(hands, None, 0, [12], False) == {0: 0}


# ------------------------------------------------------------- 2. against brute force
def brute_cases(
    seed: int,
    count: int,
    players: int,
    max_tricks: int,
    blockers: bool = False,
    min_tricks: int = 1,
) -> list[tuple[object, ...]]:
    rng = random.Random(seed)
    cases: list[tuple[object, ...]] = []
    for i in range(count):
        tricks = rng.randint(min_tricks, max_tricks)
        hands, leader, trick = deal_position(rng, tricks, players)
        trump = (None, 0, 1, 2, 3)[i % 5]
        most = rng.random() < 0.5 if players == 2 else False
        piles: dict[int, int] = {}
        if blockers:
            for seat in range(players):
                cards = [c for c in range(52) if hands[seat] >> c & 1]
                rng.shuffle(cards)
                for j in range(0, len(cards) - 1, 2):
                    if rng.random() < 0.6:
                        piles[cards[j]] = cards[j + 1]
            try:
                check_position(hands, trump, leader, trick, piles)
            except ValueError:
                continue  # the random trick broke a blocker rule
        cases.append((hands, trump, leader, trick, most, piles))
    return cases


def _check_against_brute(cases: list[tuple[object, ...]]) -> None:
    """Every card's value as brute force finds it; the position's value alone, searched
    from a guess that is often wrong, is the best card's."""
    wrong = []
    for i, case in enumerate(cases):
        hands, trump, leader, trick, most, piles = case
        assert isinstance(hands, list) and isinstance(trick, list)
        assert isinstance(leader, int) and isinstance(most, bool) and isinstance(piles, dict)
        assert trump is None or isinstance(trump, int)
        ours = solve(hands, trump, leader, trick, most, piles)
        ref = brute_solve(hands, trump, leader, trick, most, piles)
        value = solve_value(hands, trump, leader, trick, most, piles, guess=i % 9)
        if ours != ref or value != (max if most else min)(ref.values()):
            wrong.append((case, ours, ref))
    assert not wrong, f"{len(wrong)} of {len(cases)} differ, first: {wrong[0]}"


@pytest.mark.parametrize("part", range(2))
def test_misere_four_hands_matches_brute_force(part: int) -> None:
    _check_against_brute(brute_cases(SEED + part, 130, 4, 4))


def test_misere_four_hands_five_tricks_match_brute_force() -> None:
    _check_against_brute(brute_cases(SEED + 5, 16, 4, 5, min_tricks=5))


@pytest.mark.parametrize("part", range(2))
def test_two_hands_match_brute_force(part: int) -> None:
    _check_against_brute(brute_cases(SEED + 10 + part, 150, 2, 7))


def test_two_hands_with_blockers_match_brute_force() -> None:
    cases = brute_cases(SEED + 20, 200, 2, 7, blockers=True)
    assert len(cases) > 150
    assert sum(1 for c in cases if c[5]) > 100
    _check_against_brute(cases)


def test_brute_force_matches_dds() -> None:
    """The reference itself agrees with DDS, so it cannot share a blind spot with us."""
    rng = random.Random(SEED + 30)
    for i in range(60):
        hands, leader, trick = deal_position(rng, rng.randint(1, 4))
        trump = (None, 0, 1, 2, 3)[i % 5]
        assert brute_solve(hands, trump, leader, trick, True) == dds_solve(
            hands, trump, leader, trick
        )


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 4]),
    tricks=st.integers(1, 4),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    most=st.booleans(),
    guess=st.none() | st.integers(-3, 16),
)
def test_random_small_positions_match_brute_force(
    seed: int, players: int, tricks: int, trump: int | None, most: bool, guess: int | None
) -> None:
    """Every card's value as brute force finds it, and the value alone (searched from any
    guess, out of range included) is the best card's."""
    hands, leader, trick = deal_position(random.Random(seed), tricks, players)
    ref = brute_solve(hands, trump, leader, trick, most)
    assert solve(hands, trump, leader, trick, most) == ref
    best = max(ref.values()) if most else min(ref.values())
    assert solve_value(hands, trump, leader, trick, most, guess=guess) == best


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 4]),
    tricks=st.integers(1, 6),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    most=st.booleans(),
    blockers=st.booleans(),
)
def test_grading_a_card_values_it_and_tells_the_best_cards(
    seed: int, players: int, tricks: int, trump: int | None, most: bool, blockers: bool
) -> None:
    """``solve_bounds(graded=card)``, as ``whist analyse`` grades a play: the card played
    gets its exact value, the best cards theirs, and every other card bounds that hold its
    value and leave out the best; with equivalent cards in runs, blockers, both objectives.
    The same when the card's value is given (``known``, as an analysis going backwards
    knows it from the next play)."""
    rng = random.Random(seed)
    cases = brute_cases(seed, 1, players, tricks, blockers=blockers and players == 2)
    if not cases:
        return
    hands, _, leader, trick, _, piles = cases[0]
    assert isinstance(hands, list) and isinstance(trick, list) and isinstance(piles, dict)
    assert isinstance(leader, int)
    exact = solve(hands, trump, leader, trick, most, piles)
    best = max(exact.values()) if most else min(exact.values())
    graded = rng.choice(sorted(exact))
    for known in (None, exact[graded]):
        bounds = solve_bounds(hands, trump, leader, trick, most, piles, graded=graded, known=known)
        assert set(bounds) == set(exact)
        assert bounds[graded] == (exact[graded], exact[graded])
        for card, (lo, hi) in bounds.items():
            assert lo <= exact[card] <= hi
            if exact[card] == best:
                assert lo == hi == best
            else:
                assert hi < best if most else lo > best


def test_grading_refuses_a_card_that_cannot_be_played() -> None:
    hands = [0b111, 0b111 << 13]  # two hands of three clubs / diamonds
    with pytest.raises(ValueError, match="not a legal card"):
        solve_bounds(hands, None, 0, [], True, graded=13)


@pytest.mark.parametrize(("graded", "known"), [(None, 1), (0, -1), (0, 4), (0, 10**30)])
def test_grading_refuses_a_known_value_out_of_range_or_without_a_card(
    graded: int | None, known: int
) -> None:
    hands = [0b111, 0b111 << 13]  # three tricks to play
    with pytest.raises(ValueError, match="known value"):
        solve_bounds(hands, None, 0, [], True, graded=graded, known=known)


def test_blockers_change_the_result() -> None:
    # Two hands, no trump: seat 0 holds AS and 2H, seat 1 holds KS and 3H; seat 0 leads.
    # Free, seat 0 cashes AS then loses 2H: 1 trick.  With 2H blocking AS the ace waits,
    # seat 0 must lead 2H and lose it, then wins AS: still 1 trick for the AS lead ...
    a_s, k_s, two_h, three_h = 12, 11, 13, 14
    hands = [(1 << a_s) | (1 << two_h), (1 << k_s) | (1 << three_h)]
    assert solve(hands, None, 0, [], True) == {a_s: 1, two_h: 1}
    # ... but only the 2H may be led.
    assert solve(hands, None, 0, [], True, {a_s: two_h}) == {two_h: 1}
    # Seat 1 follows the AS lead: free, it must play the KS and later wins the 3H; with the
    # KS blocked by the 3H it has no playable spade, throws the 3H and takes no trick.
    after = [1 << two_h, (1 << k_s) | (1 << three_h)]
    assert solve(after, None, 0, [a_s], False) == {k_s: 1}
    assert solve(after, None, 0, [a_s], False, {k_s: three_h}) == {three_h: 0}


def test_misere_prefers_ducking() -> None:
    # Four hands, two tricks, no trump; seat 0 leads AS or 2H, East-West hold small cards
    # and West the 5H 6H: leading the 2H loses it and then the AS is thrown on a heart.
    hands = [
        (1 << 12) | (1 << 13),
        (1 << 0) | (1 << 14),
        (1 << 1) | (1 << 15),
        (1 << 16) | (1 << 17),
    ]
    most = solve(hands, None, 0, [], True)
    low = solve(hands, None, 0, [], False)
    assert most == brute_solve(hands, None, 0, [], True)
    assert low == brute_solve(hands, None, 0, [], False)
    assert solve_value(hands, None, 0, [], True) == max(most.values())
    assert solve_value(hands, None, 0, [], False) == min(low.values())
    assert low == {12: 1, 13: 0}


def test_threads_get_their_own_answers() -> None:
    """The table and buffers are shared per process: concurrent solves must not mix."""
    import threading

    rng = random.Random(SEED + 40)
    jobs = [(*deal_position(rng, 6), (None, 0, 1, 2, 3)[i % 5], i % 2 == 0) for i in range(40)]
    expected = [solve(h, t, lead, tr, most) for h, lead, tr, t, most in jobs]
    got: dict[int, dict[int, int]] = {}

    def work(offset: int) -> None:
        for _ in range(3):
            for i in range(offset, len(jobs), 4):
                h, lead, tr, t, most = jobs[i]
                got[i] = solve(h, t, lead, tr, most)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [got[i] for i in range(len(jobs))] == expected


def test_position_helpers() -> None:
    p = check_position([1 << 0, 1 << 1, 1 << 2, 0], None, 3, [3])
    assert isinstance(p, Position)
    assert p.to_act == 0 and p.tricks_left == 1 and p.legal() == [0]


# --------------------------------------------------------------------- 3. bad input
@pytest.mark.parametrize(
    ("hands", "trump", "leader", "trick", "blockers", "message"),
    [
        ([1, 2, 4], None, 0, [], None, "2 or 4 hands"),
        ([1, 1, 4, 8], None, 0, [], None, "shares cards"),
        ([1, 2, 4, 1 << 52], None, 0, [], None, "52-bit"),
        ([1, 2, 4, -1], None, 0, [], None, "52-bit"),
        ([3, 4, 8, 16], None, 0, [], None, "expected"),
        ([1, 2, 4, 8], 4, 0, [], None, "trump"),
        ([1, 2, 4, 8], None, 4, [], None, "leader"),
        ([1, 2, 4, 8], None, 0, [1], None, "also in a hand"),
        ([0, 2, 4, 8], None, 0, [16, 16], None, "also in a hand"),
        ([0, 0, 0, 0], None, 0, [1, 2, 3, 4], None, "at most 3"),
        ([0, 0, 0, 0], None, 0, [], None, "no cards"),
        ([0, 2, 4, 8], None, 0, [60], None, "not a card"),
        # Seat 1 threw a heart on a spade lead while holding a spade.
        (
            [1 << 5, 1 << 6, 1 << 7 | 1 << 21, 1 << 8 | 1 << 22],
            None,
            0,
            [0, 13],
            None,
            "could follow",
        ),
        ([3, 12], None, 0, [], {0: 2}, "different hands"),
        ([3, 12], None, 0, [], {0: 1, 1: 0}, "cycle"),
        ([3, 12], None, 0, [], {0: 0}, "itself"),
    ],
)
def test_bad_input_raises(
    hands: list[int],
    trump: int | None,
    leader: int,
    trick: list[int],
    blockers: dict[int, int] | None,
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        solve(hands, trump, leader, trick, True, blockers)
    with pytest.raises(ValueError, match=message):
        brute_solve(hands, trump, leader, trick, True, blockers)


def _misere_cases(
    seed: int, count: int, players: int, low: int, high: int
) -> list[tuple[object, ...]]:
    """Misère only, the five denominations in turn, ``low``..``high`` tricks left."""
    rng = random.Random(seed)
    cases: list[tuple[object, ...]] = []
    for i in range(count):
        hands, leader, trick = deal_position(rng, rng.randint(low, high), players)
        cases.append((hands, (None, 0, 1, 2, 3)[i % 5], leader, trick, False, {}))
    return cases


def _few_suit_cases(seed: int, count: int, players: int, tricks: int) -> list[tuple[object, ...]]:
    """Misère deals from two or three suits at a trick start: voids, hands of nothing but
    trumps and hands of nothing but top cards are common."""
    rng = random.Random(seed)
    cases: list[tuple[object, ...]] = []
    for i in range(count):
        suits = rng.sample(range(4), rng.choice((2, 3)))
        deck = [13 * s + r for s in suits for r in range(13)]
        rng.shuffle(deck)
        hands = [0] * players
        for p in range(players):
            for c in deck[p * tricks : (p + 1) * tricks]:
                hands[p] |= 1 << c
        trump = (None, *suits)[i % (len(suits) + 1)]
        cases.append((hands, trump, rng.randrange(players), [], False, {}))
    return cases


def test_misere_forced_trick_bounds_match_brute_force() -> None:
    """The misère-only bounds (tricks a side cannot avoid when the other side helps it to
    them) against plain minimax: four hands at 4-5 tricks, two hands at 5-7, and deals from
    few suits."""
    _check_against_brute(_misere_cases(SEED + 40, 40, 4, 4, 5))
    _check_against_brute(_misere_cases(SEED + 41, 80, 2, 5, 7))
    _check_against_brute(_few_suit_cases(SEED + 42, 60, 4, 4))
    _check_against_brute(_few_suit_cases(SEED + 43, 60, 2, 6))


def _few_suit_hands(rng: random.Random, tricks: int) -> list[int]:
    suits = rng.sample(range(4), rng.choice((1, 2, 3)))
    deck = [13 * s + r for s in suits for r in range(13)]
    if len(deck) < 4 * tricks:
        deck += rng.sample([c for c in range(52) if c // 13 not in suits], 4 * tricks - len(deck))
    rng.shuffle(deck)
    hands = [0] * 4
    for p in range(4):
        for c in deck[p * tricks : (p + 1) * tricks]:
            hands[p] |= 1 << c
    return hands


@given(
    seed=st.integers(0, 2**32 - 1),
    tricks=st.integers(1, 4),
    trump=st.sampled_from([None, None, 0, 1, 2, 3]),
    few_suits=st.booleans(),
)
def test_misere_forced_tricks_bound_brute_force(
    seed: int, tricks: int, trump: int | None, few_suits: bool
) -> None:
    """The kernel's misère forced-trick bound (with its top-hand case) at a trick start,
    for each side, four hands: a lower bound on that side's tricks under best play."""
    import numpy as np

    from whist.solver import kernel

    rng = random.Random(seed)
    hands = _few_suit_hands(rng, tricks) if few_suits else deal_position(rng, tricks, played=0)[0]
    leader = rng.randrange(4)
    values = brute_solve(hands, trump, leader, [], False)
    mover = min(values.values())  # the leader's side's tricks
    arr = np.array(hands, dtype=np.int64)
    t = -1 if trump is None else trump
    for side in range(2):
        taken = mover if side == leader & 1 else tricks - mover
        bound, ranks = kernel._forced(arr, 4, t, leader, side, tricks, 1)
        assert bound <= taken, (hands, trump, leader, side, bound, taken)
        if tricks >= 2:
            # asked only whether the side takes every trick, it says so exactly when it would
            every, every_ranks = kernel._forced(arr, 4, t, leader, side, tricks, 2)
            if bound == tricks:
                assert (every, every_ranks) == (bound, ranks)
            else:
                assert every < tricks
        top, _ = kernel._top_hand(arr, t, leader, side, tricks)
        assert top <= taken, (hands, trump, leader, side, top, taken)


def test_misere_top_hands_within_a_trick_match_brute_force() -> None:
    """Misère, four hands, deals from few suits with one to three cards on the table: a
    hand of nothing but top cards still to play to the suit led is common."""
    rng = random.Random(SEED + 44)
    cases: list[tuple[object, ...]] = []
    for i in range(120):
        tricks = rng.randint(2, 4)
        hands = _few_suit_hands(rng, tricks)
        leader = rng.randrange(4)
        trick: list[int] = []
        for j in range(rng.randint(1, 3)):
            seat = (leader + j) % 4
            cards = [c for c in range(52) if hands[seat] >> c & 1]
            if trick:
                cards = [c for c in cards if c // 13 == trick[0] // 13] or cards
            card = rng.choice(cards)
            hands[seat] &= ~(1 << card)
            trick.append(card)
        cases.append((hands, (None, None, 0, 1, 2, 3)[i % 6], leader, trick, False, {}))
    _check_against_brute(cases)


def test_misere_a_hand_of_trumps_must_ruff() -> None:
    # Hearts trump, misère, South (0) leads from AS KS; West (1) holds only trumps and must
    # ruff the spade, then leads a trump and wins again: North-South take nothing.
    hands = [
        (1 << 12) | (1 << 11),
        (1 << 13) | (1 << 14),
        (1 << 39) | (1 << 40),
        (1 << 41) | (1 << 42),
    ]
    assert solve(hands, 1, 0, [], False) == brute_solve(hands, 1, 0, [], False) == {11: 0, 12: 0}


# ------------------------------------------------- 4. one deal's positions, table kept
def _play_out(
    rng: random.Random,
    hands: list[int],
    trump: int | None,
    leader: int,
    trick: list[int],
    piles: dict[int, int],
) -> list[tuple[list[int], int, list[int]]]:
    """Every position of a random line of play from the given one to the end."""
    hands, trick = list(hands), list(trick)
    players = len(hands)
    out = []
    while any(hands):
        out.append((list(hands), leader, list(trick)))
        position = check_position(hands, trump, leader, trick, piles)
        card = rng.choice(position.legal())
        hands[position.to_act] &= ~(1 << card)
        trick.append(card)
        if len(trick) == players:
            leader, trick = trick_winner(trick, leader, trump, players), []
    return out


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 4]),
    tricks=st.integers(2, 5),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    blockers=st.booleans(),
)
def test_positions_of_one_deal_with_the_table_kept(
    seed: int, players: int, tricks: int, trump: int | None, blockers: bool
) -> None:
    """``keep_table``: every position of a played-out deal, solved in turn for both
    objectives (each solve's table serves the next of the same objective, from either
    side's seat), gives brute force's values."""
    rng = random.Random(seed)
    cases = brute_cases(seed, 1, players, tricks, blockers=blockers and players == 2)
    if not cases:
        return  # the random trick broke a blocker rule
    hands, _, leader, trick, _, piles = cases[0]
    assert isinstance(hands, list) and isinstance(trick, list) and isinstance(piles, dict)
    assert isinstance(leader, int)
    line = _play_out(rng, hands, trump, leader, trick, piles)
    for most in (False, True, False):
        for h, lead, tr in line:
            got = solve(h, trump, lead, tr, most, piles, keep_table=True)
            assert got == brute_solve(h, trump, lead, tr, most, piles)
            value = solve_value(h, trump, lead, tr, most, piles, keep_table=True)
            assert value == (max if most else min)(got.values())


def test_full_table_buckets_keep_the_values_right() -> None:
    """A table of two buckets of three entries: every bucket fills at once, so stores
    overflow and evict, and probes read full buckets and their overflow, through headers
    and key filters that keep changing; every position of played-out deals, four and two
    hands, both objectives, with the table kept (the levels of whole misère deals) and
    without, still gives brute force's values."""
    import numpy as np

    from whist import solver
    from whist.solver import kernel

    state = solver._Kernel()
    tiny = np.zeros((2, kernel.TT_FIELDS, 4), dtype=np.int64)
    state.tables.tt = state.tables.big_tt = state.tables.huge_tt = tiny
    rng = random.Random(SEED + 77)
    checked = full = 0
    for players, tricks in ((4, 4), (4, 5), (2, 5), (2, 6)) * 3:
        trump = rng.choice([None, 0, 1, 2, 3])
        case = brute_cases(rng.randrange(1 << 30), 1, players, tricks, min_tricks=tricks)[0]
        hands, _, leader, trick, _, piles = case
        assert isinstance(hands, list) and isinstance(trick, list) and isinstance(leader, int)
        assert isinstance(piles, dict)
        for most in (False, True):
            for keep in (True, False):
                line = _play_out(rng, list(hands), trump, leader, list(trick), piles)
                for h, lead, tr in line:
                    position = check_position(h, trump, lead, tr, piles)
                    _, bounds = solver._run_locked(state, solver._Ask(position, most), keep)
                    got = {card: lo for card, (lo, hi) in bounds.items() if lo == hi}
                    assert got == brute_solve(h, trump, lead, tr, most, piles), (h, lead, tr)
                    checked += 1
                    full += int((tiny[:, kernel.E_INFO, 0] & 0xFFFF).max() == tiny.shape[2] - 1)
    assert checked > 100
    assert full > checked // 2  # the buckets did fill, most of the time


@pytest.mark.parametrize("shared", [False, True])
def test_threads_with_tables_of_their_own_solve_side_by_side(shared: bool) -> None:
    """``own_tables``: two threads solve the positions of two deals at the same time (not
    one after the other, as solves sharing the process's table do), each keeping its own
    table, or both searching one (``SharedTables``, as an analysis's threads do), and get
    the values a lone solve gets."""
    from whist.solver import SharedTables, _kernel, own_tables

    group = SharedTables() if shared else None

    rng = random.Random(SEED + 200)
    lines = []
    for trump in (None, 1):
        hands, leader, _ = deal_position(rng, 8, played=0)
        lines.append((trump, _play_out(rng, hands, trump, leader, [], {})))
    alone = [[solve(h, t, lead, tr, False) for h, lead, tr in line] for t, line in lines]
    together: list[list[dict[int, int]]] = [[], []]
    tables: list[object] = [None, None]
    both_in = threading.Barrier(2, timeout=30)
    failures: list[BaseException] = []

    def solve_line(n: int) -> None:
        try:
            trump, line = lines[n]
            with own_tables(group):
                tables[n] = _kernel().tables
                both_in.wait()
                for h, lead, tr in line:
                    together[n].append(solve(h, trump, lead, tr, False, keep_table=True))
        except BaseException as exc:
            failures.append(exc)

    workers = [threading.Thread(target=solve_line, args=(n,)) for n in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert not failures, failures
    assert together == alone
    assert (tables[0] is tables[1]) == shared and _kernel().tables not in tables


def test_a_deep_misere_solve_is_split_between_two_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four-hand misère from ``_SPLIT_TRICKS`` tricks left values the legal cards suit by
    suit on two threads sharing one table (lowered here to 5 tricks, which brute force can
    check): every card's value is brute force's, a control counts every suit's cards, and
    a split solve stopped part way has every legal card, in bounds that hold its value."""
    import whist.solver as solver

    monkeypatch.setattr(solver, "_SPLIT_TRICKS", 5)
    monkeypatch.setattr(solver, "usable_cores", lambda: 2)
    split = solver._run_split
    splits: list[object] = []

    def counted(*args: object) -> object:
        splits.append(args[0])
        return split(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "_run_split", counted)
    cases = brute_cases(SEED + 300, 40, 4, 5, min_tricks=5)
    _check_against_brute(cases)
    two_suits = 0
    for hands, trump, leader, trick, _, _ in cases:
        assert isinstance(hands, list) and isinstance(trick, list) and isinstance(leader, int)
        assert trump is None or isinstance(trump, int)
        legal = check_position(hands, trump, leader, trick).legal()
        two_suits += len({card // 13 for card in legal}) >= 2
        control = solver.Control()
        bounds = solve_bounds(hands, trump, leader, trick, False, control=control)
        assert control.cards_done == control.cards_total == len(bounds)
    # split: every solve whose seat to act may play two suits or more (solve_value is not)
    assert len(splits) == 2 * two_suits > 20
    monkeypatch.setattr(solver, "_SPLIT_TRICKS", 8)
    stopped_short = 0
    for i in range(6):
        hands, leader, _ = deal_position(random.Random(SEED + 301 + i), 8, played=0)
        exact = solve(hands, None, leader, [], False)
        for delay in (0.0, 0.005, 0.02):
            control = solver.Control()
            timer = threading.Timer(delay, control.stop)
            timer.start()
            bounds = solve_bounds(hands, None, leader, [], False, control=control)
            timer.cancel()
            assert set(bounds) == set(exact)
            assert all(lo <= exact[card] <= hi for card, (lo, hi) in bounds.items())
            stopped_short += any(lo < hi for lo, hi in bounds.values())
    assert stopped_short > 0


def test_a_thread_without_a_suit_left_finishes_the_other_threads_suit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a split solve, the thread that runs out of suits values the other thread's suit
    card by card and stops that search once every card is known.  Here the calling
    thread's search waits until it is stopped, so that the helping thread values every
    card of the calling thread's suit: the values are still brute force's, and the control
    counts every card."""
    import whist.solver as solver

    monkeypatch.setattr(solver, "_SPLIT_TRICKS", 5)
    monkeypatch.setattr(solver, "usable_cores", lambda: 2)
    caller = threading.current_thread()
    run = solver._Solve.run
    waited: list[bool] = []
    helped: list[int] = []
    caller_has_a_suit = threading.Event()

    def slow_caller(self: solver._Solve, k: solver._Kernel, ask: solver._Ask) -> object:
        assert ask.control is not None
        if threading.current_thread() is caller and ask.suits and ask.control._counted:
            caller_has_a_suit.set()
            for _ in range(1000):  # until the helping thread has valued the whole suit
                if ask.control.stopped:
                    break
                threading.Event().wait(0.01)
            waited.append(ask.control.stopped)
        elif ask.control._counted:
            # the other thread's suits: not before the caller has one (else the other
            # thread, started first, might take them all)
            assert caller_has_a_suit.wait(10)
        else:
            helped.append(ask.suits)
        return run(self, k, ask)

    monkeypatch.setattr(solver._Solve, "run", slow_caller)
    cases = brute_cases(SEED + 305, 12, 4, 5, min_tricks=5)
    for hands, trump, leader, trick, _, _ in cases:
        assert isinstance(hands, list) and isinstance(trick, list) and isinstance(leader, int)
        assert trump is None or isinstance(trump, int)
        legal = check_position(hands, trump, leader, trick).legal()
        if len({card // 13 for card in legal}) < 2:
            continue
        waited.clear()
        helped.clear()
        caller_has_a_suit.clear()  # (set by the last case: the other thread would not wait)
        control = solver.Control()
        bounds = solve_bounds(hands, trump, leader, trick, False, control=control)
        ref = brute_solve(hands, trump, leader, trick, False)
        assert {card: lo for card, (lo, hi) in bounds.items() if lo == hi} == ref
        assert control.cards_done == control.cards_total == len(legal)
        assert waited == [True] and helped  # the caller's suit: valued by the helper, stopped
        assert all(suits & (suits - 1) == 0 for suits in helped)  # a card at a time


def test_a_half_written_table_entry_is_never_used() -> None:
    """The threads of a split solve share a table, each reading entries the other may be
    writing a word at a time: an entry whose words do not match its check is a miss.  Every
    entry a solve stored is made to claim a wrong bound, its check left as it was: solved
    again on that table, every position still gets brute force's values (and with the
    checks made to match, the same table does give wrong values)."""
    import numpy as np

    from whist import solver
    from whist.solver import kernel

    rng = random.Random(SEED + 310)
    state = solver._Kernel()
    wrong_when_checked = 0
    for _ in range(16):
        hands, leader, trick = deal_position(rng, 5)
        trump = rng.choice([None, 0, 1])
        position = check_position(hands, trump, leader, trick)
        for most in (False, True):
            ref = brute_solve(hands, trump, leader, trick, most)
            answers = []
            for recheck in (False, True):
                state.tables.context = None
                solver._run_locked(state, solver._Ask(position, most), True)
                table = state.tables.table(position.tricks_left, 4, most, True)
                for b in np.flatnonzero(table[:, kernel.E_INFO, 0] >> 33 == state.tables.gen):
                    for e in range(1, int(table[b, kernel.E_INFO, 0] & 0xFFFF) + 1):
                        info = int(table[b, kernel.E_INFO, e])
                        left = info >> 28 & 0x1F
                        claim = info & ~0x3FF | left | left << 5  # side 0 takes them all
                        table[b, kernel.E_INFO, e] = claim
                        if recheck:
                            words = [
                                int(table[b, f, e])
                                for f in (kernel.E_SHAPE, kernel.E_TOP01, kernel.E_TOP23)
                            ]
                            table[b, kernel.E_CHECK, e] = kernel._check(
                                words[0], claim, words[1], words[2], state.tables.gen
                            )
                _, bounds = solver._run_locked(state, solver._Ask(position, most), True)
                answers.append({card: lo for card, (lo, hi) in bounds.items()})
            assert answers[0] == ref
            wrong_when_checked += answers[1] != ref
    assert wrong_when_checked > 5


def test_a_kept_table_serves_a_whole_deal() -> None:
    """Eight-trick misère and most-tricks deals played out: the same values with the table
    kept as without, and fewer positions searched."""
    from whist.solver import _kernel

    rng = random.Random(SEED + 100)
    searched = {True: 0, False: 0}
    for i in range(6):
        hands, leader, _ = deal_position(rng, 8, played=0)
        trump = (None, 2)[i % 2]
        line = _play_out(rng, hands, trump, leader, [], {})
        for most in (False, True):
            for keep in (True, False):
                before = int(_kernel().stats[0])
                got = [solve(h, trump, lead, tr, most, keep_table=keep) for h, lead, tr in line]
                searched[keep] += int(_kernel().stats[0]) - before
                if keep:
                    kept = got
            assert kept == got
    assert searched[True] < 0.8 * searched[False]
