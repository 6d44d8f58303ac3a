"""The conformance suite: random legal matches of every variant and option set.

At every step: all 52 cards accounted for, the listed legal actions are exactly the legal
ones by docs/rules.md, each is accepted and a sample of others refused with a stable code and no
change; replaying the record gives the same match; tricks, scores and the match end follow
the rules. Then the rule details that are easy to get wrong, variant by variant.
"""

from __future__ import annotations

import json
import random

import pytest

from helpers import (
    OPTION_SETS,
    STABLE_CODES,
    Case,
    Step,
    available_cards,
    card_locations,
    cases_of,
    counted_tricks,
    drive,
    expected_first_leader,
    expected_legal,
    expected_match_end,
    expected_points,
    expected_trick_winner,
    fork,
    illegal_candidates,
    mask_cards,
    piles_of,
    refuse,
    replay_of,
    shuffled_deck,
    snapshot,
    stock_of,
    suit,
)
from whist import records
from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Play, Resign, Take
from whist.core.errors import WhistError
from whist.core.match import Match
from whist.core.state import Phase
from whist.core.views import view_for
from whist.variants import new_match

SEEDS = (11, 22)
CASE_IDS = [case.id for case in OPTION_SETS]


# ------------------------------------------------------------------- the checker
class Checker:
    """Checks every step of a driven match against the rules and its previous step."""

    def __init__(self, case: Case, seed: int) -> None:
        self.case = case
        self.rng = random.Random(seed * 7919 + 5)
        self.prev_scores = [0, 0]
        self.prev_tricks = 0
        self.prev_dealer: int | None = None
        self.deals_completed = 0
        self.saw_over = False

    def step(self, step: Step) -> None:
        match = step.match
        if step.kind == "start":
            self.check_before_first_deal(match)
            return
        deal = match.deal
        assert deal is not None
        if step.kind == "deal":
            self.check_new_deal(match)
        else:
            assert step.action is not None
            self.check_after_action(match, step.action)
        self.check_cards(match)
        if not match.over and not deal.complete:
            self.check_turn_and_legal(match)
            heavy = deal.index == 0 or self.rng.random() < 0.3
            if heavy:
                self.check_legal_accepted(match)
                self.check_others_refused(match)
            if self.rng.random() < 0.02:
                self.check_replay(match)
        elif match.over:
            self.check_over(match)
        else:
            self.check_between_deals(match)
        self.prev_scores = list(match.scores)
        self.prev_tricks = len(deal.tricks)

    # ---------------------------------------------------------------- phases
    def check_before_first_deal(self, match: Match) -> None:
        assert match.needs_deal and match.deal is None and not match.over
        assert match.to_act() == () and tuple(match.legal_actions()) == ()
        before = snapshot(match)
        err = refuse(match, Play(0, 0))
        assert err.code == "no_deal_in_progress"
        with pytest.raises(WhistError) as info:
            match.start_deal(list(range(52)))  # the first deal needs its dealer
        assert info.value.code == "bad_dealer"
        with pytest.raises(WhistError) as info:
            match.start_deal([*range(51), 0], dealer=0)
        assert info.value.code == "bad_deck"
        assert snapshot(match) == before

    def check_new_deal(self, match: Match) -> None:
        deal = match.deal
        assert deal is not None
        n = match.players
        if self.prev_dealer is not None:
            assert deal.dealer == (self.prev_dealer + 1) % n, "the deal passes clockwise"
        self.prev_dealer = deal.dealer
        assert match.scores == self.prev_scores
        assert deal.points == [0, 0] and deal.won == [0, 0] and deal.tricks == []
        check_deal_positions(match)

    def check_after_action(self, match: Match, action: Action) -> None:
        deal = match.deal
        assert deal is not None
        n = match.players
        if isinstance(action, Resign):
            assert match.over and match.resigned == action.seat
            assert match.winner == 1 - action.seat % 2
            assert match.scores == self.prev_scores
            self.saw_over = True
            return
        if len(deal.tricks) > self.prev_tricks:
            assert len(deal.tricks) == self.prev_tricks + 1
            trick = deal.tricks[-1]
            assert len(trick.cards) == n
            assert trick.winner == expected_trick_winner(
                trick.leader, trick.cards, deal.trump, n
            ), f"trick {trick} with trump {deal.trump}"
            if not deal.complete:
                assert deal.leader == trick.winner, "the trick winner leads the next trick"
        if deal.complete:
            self.deals_completed += 1
            check_deal_end(match)
            points = expected_points(match, deal)
            assert deal.points == points, f"deal scored {deal.points}, rules say {points}"
            assert match.scores == [self.prev_scores[i] + points[i] for i in (0, 1)]
            over, winner = expected_match_end(match)
            assert (match.over, match.winner) == (over, winner)
            self.saw_over = match.over
        else:
            assert match.scores == self.prev_scores, "scores move only when a deal ends"
            assert deal.points == [0, 0]
            assert not match.over
            assert deal.won == counted_tricks(match, deal)

    # -------------------------------------------------------------- invariants
    def check_cards(self, match: Match) -> None:
        where = card_locations(match)
        for card, places in where.items():
            assert len(places) == 1, f"card {card} is in {places}"

    def check_turn_and_legal(self, match: Match) -> None:
        deal = match.deal
        assert deal is not None
        n = match.players
        if deal.phase is Phase.PLAY:
            assert match.to_act() == ((deal.leader + len(deal.trick)) % n,)
            if not deal.trick and not deal.tricks:
                assert deal.leader == expected_first_leader(match, deal)
            elif not deal.trick:
                assert deal.leader == deal.tricks[-1].winner
        elif deal.phase is Phase.BID and match.variant.key in ("minnesota", "swedish"):
            order = [(deal.dealer + 1 + i) % n for i in range(n)]
            decided = {a.seat for a in match.log[deal.index] if isinstance(a, (Bid, Bottom))}
            assert match.to_act() == tuple(s for s in order if s not in decided)
        else:
            assert len(match.to_act()) == 1
        for seat in range(n):
            listed = list(match.legal_actions(seat))
            assert len(listed) == len(set(listed)), "an action is listed twice"
            assert set(listed) == expected_legal(match, seat), f"legal actions of seat {seat}"
            if seat not in match.to_act():
                assert not listed
        assert match.next_seat() == match.to_act()[0]
        assert set(match.legal_actions()) == set(match.legal_actions(match.to_act()[0]))

    def check_legal_accepted(self, match: Match) -> None:
        before = snapshot(match)
        twin = fork(match)
        assert snapshot(twin) == before, "a copy differs from its original"
        if match.deal is not None:
            deal, copied = match.deal, twin.deal
            assert copied is not None
            fields = [
                n for n in dir(deal) if not n.startswith("_") and not callable(getattr(deal, n))
            ]
            assert {n: getattr(copied, n) for n in fields} == {n: getattr(deal, n) for n in fields}
        for seat in match.to_act():
            for action in match.legal_actions(seat):
                copy = fork(match)
                copy.apply(action)  # raises WhistError if refused
                assert copy.log[-1][-1] == action
        assert snapshot(match) == before, "applying to a deep copy changed the original"

    def check_others_refused(self, match: Match) -> None:
        deal = match.deal
        assert deal is not None
        before = snapshot(match)
        for action in illegal_candidates(match, self.rng, 8):
            err = refuse(match, action)
            assert err.code in STABLE_CODES, f"{action!r}: unstable code {err.code!r}"
            assert err.message
            if isinstance(action, Play) and deal.phase is Phase.PLAY:
                if not 0 <= action.seat < match.players:
                    assert err.code == "invalid_seat"
                elif action.seat != deal.turn:
                    assert err.code == "not_your_turn"
                elif not (available_cards(match, action.seat) >> action.card) & 1:
                    assert err.code == "card_not_available"
                else:
                    assert err.code == "must_follow_suit"
            assert snapshot(match) == before, f"refused {action!r} changed the state"
        if self.rng.random() < 0.2:
            with pytest.raises(WhistError) as info:
                match.start_deal(shuffled_deck(self.rng))
            assert info.value.code == "deal_in_progress"
            assert snapshot(match) == before

    def check_replay(self, match: Match) -> None:
        replayed = replay_of(match)
        assert snapshot(replayed) == snapshot(match)
        text = json.dumps(records.to_json(match))
        assert records.to_json(records.replay(records.loads(text))[0]) == json.loads(text)

    def check_between_deals(self, match: Match) -> None:
        assert match.needs_deal and match.to_act() == () and match.next_seat() is None
        assert all(not match.legal_actions(s) for s in range(match.players))
        before = snapshot(match)
        for action in (Play(0, 0), Bid(1, "high"), Bottom(0, 5), Take(0, True), ChooseTrump(1, 0)):
            assert refuse(match, action).code == "no_deal_in_progress"
        with pytest.raises(WhistError) as info:
            match.start_deal(list(range(52)), dealer=match.deal.dealer)  # type: ignore[union-attr]
        assert info.value.code == "bad_dealer", "the deal passes clockwise"
        assert snapshot(match) == before

    def check_over(self, match: Match) -> None:
        assert match.to_act() == () and match.next_seat() is None
        assert all(not match.legal_actions(s) for s in range(match.players))
        before = snapshot(match)
        for action in (Play(0, 0), Bid(1, "high"), Resign(0), Take(0, True), ChooseTrump(1, 0)):
            assert refuse(match, action).code == "match_over"
        with pytest.raises(WhistError) as info:
            match.start_deal(list(range(52)))
        assert info.value.code == "match_over"
        assert snapshot(match) == before

    def finish(self, match: Match) -> None:
        self.check_replay(match)
        if self.case.max_deals is None or match.over:
            assert match.over, f"{self.case.id}: the match never ended"
            assert self.saw_over
        else:
            assert len(match.deals) == self.case.max_deals


def check_deal_positions(match: Match) -> None:
    """Where card i of the deck goes (docs/rules.md, per variant), seen through the views."""
    deal = match.deal
    assert deal is not None
    key = match.variant.key
    n = match.players
    deck = deal.deck
    dealer = deal.dealer
    expected: list[set[int]] = [set() for _ in range(n)]
    if key in ("classic", "minnesota", "swedish"):
        for i, card in enumerate(deck):
            expected[(dealer + 1 + i) % n].add(card)
    elif key in ("german", "plockwhist"):
        dealt = 26 if key == "german" else 12
        for i in range(dealt):
            expected[(dealer + 1 + i) % 2].add(deck[i])
        if key == "german":
            assert stock_of(deal).cards == list(deck[26:])
            assert deal.trump == suit(deck[26])
            for seat in (0, 1, None):
                assert view_for(match, seat).upcard == deck[26]
    elif key == "japanese":
        forehand = (dealer + 1) % 2
        for i in range(40, 52):
            expected[(forehand + i) % 2].add(deck[i])
        assert piles_of(deal).down[forehand] == list(deck[0:10])
        assert piles_of(deal).down[dealer] == list(deck[10:20])
        for seat in (0, 1, None):
            table = view_for(match, seat).table
            assert [p.up for p in table[forehand]] == list(deck[20:30])
            assert [p.up for p in table[dealer]] == list(deck[30:40])
            assert all(p.down for piles in table for p in piles)
    for seat in range(n):
        assert mask_cards(deal.hands[seat]) == expected[seat], f"hand of seat {seat}"
        if key != "japanese":
            assert mask_cards(view_for(match, seat).hand) == expected[seat]


def check_deal_end(match: Match) -> None:
    deal = match.deal
    assert deal is not None
    key = match.variant.key
    tricks = deal.tricks
    assert not deal.trick and all(h == 0 for h in deal.hands)
    if key in ("classic", "minnesota", "swedish"):
        assert len(tricks) == 13
    elif key == "japanese":
        assert len(tricks) == 26
    else:
        stage1 = [t for t in tricks if t.stage == 1]
        stage2 = [t for t in tricks if t.stage == 2]
        assert len(stage2) == 13, "stage 2 is always 13 tricks"
        assert tricks == stage1 + stage2
        if key == "german" and match.options["talon_discard"]:
            assert 1 <= len(stage1) <= 13
            assert len(stock_of(deal).discards) == 26 - 2 * len(stage1)
        else:
            assert len(stage1) == 13
            assert not stock_of(deal).discards
    assert deal.won == counted_tricks(match, deal)


# ------------------------------------------------------------------- the suite
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", OPTION_SETS, ids=CASE_IDS)
def test_random_match_conforms(case: Case, seed: int) -> None:
    checker = Checker(case, seed)
    match = None
    for step in drive(case, seed):
        checker.step(step)
        match = step.match
    assert match is not None
    checker.finish(match)


@pytest.mark.parametrize("case", OPTION_SETS, ids=CASE_IDS)
def test_resignation_ends_match_and_replays(case: Case) -> None:
    seed = 100 + OPTION_SETS.index(case)
    checker = Checker(case, seed)
    match = None
    for step in drive(case, seed, resign_rate=0.01):
        checker.step(step)
        match = step.match
    assert match is not None
    checker.finish(match)


def test_every_variant_is_covered() -> None:
    keys = {case.key for case in OPTION_SETS}
    assert keys == {"german", "plockwhist", "japanese", "classic", "minnesota", "swedish"}


# -------------------------------------------------------------- German Whist
GERMAN = cases_of("german")


@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("case", GERMAN, ids=[c.id for c in GERMAN])
def test_german_stock_refill(case: Case, seed: int) -> None:
    """After a stage-1 trick the winner takes the face-up card (public), the loser the
    next one unseen, and the next is turned; with talon_discard each take may discard."""
    talon = bool(case.options.get("talon_discard"))
    prev = None
    for step in drive(case, seed, max_deals=2):
        match = step.match
        deal = match.deal
        if deal is None:
            continue
        action = step.action
        if prev is not None and step.kind == "action" and prev["deal"] == deal.index:
            p_stock, p_hands, p_shown = prev["stock"], prev["hands"], prev["shown"]
            p_tricks = prev["tricks"]
            finished_trick = len(deal.tricks) > p_tricks and deal.tricks[-1].stage == 1
            if finished_trick and not talon:
                winner = deal.tricks[-1].winner
                gained = [mask_cards(deal.hands[s]) - p_hands[s] for s in (0, 1)]
                assert gained[winner] == {p_stock[0]}, "the winner takes the face-up card"
                assert gained[1 - winner] == {p_stock[1]}, "the loser takes the next card"
                assert deal.shown[winner][-1] == p_stock[0]
                assert len(deal.shown[1 - winner]) == len(p_shown[1 - winner])
                up = view_for(match, 1 - winner).upcard
                assert up == (p_stock[2] if len(p_stock) > 2 else None)
            if isinstance(action, Take):
                seat = action.seat
                gained_s = mask_cards(deal.hands[seat]) - p_hands[seat]
                if action.keep:
                    assert gained_s == {p_stock[0]}
                else:
                    discarded = stock_of(deal).discards[len(prev["discards"])]
                    assert discarded == p_stock[0], "a discard is public"
                    assert gained_s == {p_stock[1]}
                    assert p_stock[1] not in deal.shown[seat], "the card taken after is private"
        if deal.phase is Phase.TAKE:
            assert talon
            owed_winner = stock_of(deal).upcard_up
            other = 1 - deal.turn
            if owed_winner:
                assert len(stock_of(deal).cards) >= 3
                assert view_for(match, other).upcard == stock_of(deal).cards[0]
            else:
                assert len(stock_of(deal).cards) >= 2
                assert view_for(match, deal.turn).offer == stock_of(deal).cards[0]
                assert view_for(match, other).offer is None
                assert view_for(match, None).offer is None
        if deal.phase is Phase.PLAY and not deal.trick:
            assert len(stock_of(deal).cards) != 1, "a single last stock card is discarded"
            if deal.stage == 1:
                assert [h.bit_count() for h in deal.hands] == [13, 13]
                assert view_for(match, None).upcard == stock_of(deal).cards[0]
            else:
                assert not stock_of(deal).cards and deal.must_follow
        prev = {
            "deal": deal.index,
            "stock": list(stock_of(deal).cards),
            "hands": [mask_cards(h) for h in deal.hands],
            "tricks": len(deal.tricks),
            "shown": [list(s) for s in deal.shown],
            "discards": list(stock_of(deal).discards),
        }


def _find_position(case: Case, stage: int) -> tuple[Match, Play]:
    """A German position where the follower holds the led suit and plays another."""
    for seed in range(200):
        for step in drive(case, seed, max_deals=1):
            deal = step.match.deal
            if deal is None or deal.phase is not Phase.PLAY or deal.stage != stage:
                continue
            if len(deal.trick) != 1:
                continue
            hand = mask_cards(deal.hands[deal.turn])
            led = suit(deal.trick[0])
            off = sorted(c for c in hand if suit(c) != led)
            if off and any(suit(c) == led for c in hand):
                return step.match, Play(deal.turn, off[0])
    raise AssertionError("no such position found")


@pytest.mark.parametrize("free", (False, True))
def test_german_stage1_follow_option(free: bool) -> None:
    case = Case("g", "german", {"stage1_follow": not free})
    match, renege = _find_position(case, 1)
    if free:
        match.apply(renege)
        assert match.deal is not None and renege.card in played(match)
    else:
        assert refuse(match, renege).code == "must_follow_suit"
    match, renege = _find_position(case, 2)
    assert refuse(match, renege).code == "must_follow_suit", "stage 2 always follows suit"


def played(match: Match) -> set[int]:
    deal = match.deal
    assert deal is not None
    cards = set(deal.trick)
    for trick in deal.tricks:
        cards.update(trick.cards)
    return cards


def test_german_non_dealer_leads_and_upcard_sets_trump() -> None:
    match = new_match("german", {})
    deck = shuffled_deck(random.Random(5))
    match.start_deal(deck, dealer=1)
    assert match.to_act() == (0,)
    assert view_for(match, 0).trump == suit(deck[26])
    assert view_for(match, 0).hand == sum(1 << deck[i] for i in range(0, 26, 2))


# ------------------------------------------------------------------ Plockwhist
PLOCK = cases_of("plockwhist")


@pytest.mark.parametrize("seed", (1, 2, 3))
@pytest.mark.parametrize("case", PLOCK, ids=[c.id for c in PLOCK])
def test_plockwhist_bidding_and_second_round(case: Case, seed: int) -> None:
    for step in drive(case, seed, max_deals=3):
        match = step.match
        deal = match.deal
        if deal is None or step.kind != "action" or not isinstance(step.action, Bid):
            continue
        bids = [a for a in match.log[deal.index] if isinstance(a, Bid)]
        non_dealer = (deal.dealer + 1) % 2
        assert bids[0].seat == non_dealer
        if deal.phase is Phase.BID:
            assert bids == [Bid(non_dealer, "pass")] and deal.turn == deal.dealer
            continue
        # The bidding is over: seven more cards each, non-dealer first, then the stock.
        if bids[0].bid == "spel":
            assert len(bids) == 1 and deal.contract is not None
            assert (deal.contract.mode, deal.contract.seat) == ("spel", non_dealer)
        elif bids[1].bid == "spel":
            assert deal.contract is not None
            assert (deal.contract.mode, deal.contract.seat) == ("spel", deal.dealer)
        else:
            assert deal.contract is not None and deal.contract.mode == "pass"
        for seat in (0, 1):
            expected = {deal.deck[i] for i in range(26) if (deal.dealer + 1 + i) % 2 == seat}
            assert mask_cards(view_for(match, seat).hand) == expected
        assert stock_of(deal).cards == list(deal.deck[26:])
        assert view_for(match, None).upcard == deal.deck[26]
        trump = suit(deal.deck[26]) if match.options["trump"] == "upcard" else None
        assert deal.trump == trump
        assert match.to_act() == (non_dealer,)


# -------------------------------------------------------------- Japanese Whist
JAPANESE = cases_of("japanese")


@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("case", JAPANESE, ids=[c.id for c in JAPANESE])
def test_japanese_table_and_first_trick(case: Case, seed: int) -> None:
    prev = None
    for step in drive(case, seed, max_deals=2):
        match = step.match
        immediate = match.options["reveal"] == "immediate"
        deal = match.deal
        if deal is None or match.over:
            continue
        forehand = (deal.dealer + 1) % 2
        if deal.phase is Phase.TRUMP:
            assert match.to_act() == (forehand,)
        if not deal.tricks and not deal.complete:
            # Trick 1: hands unseen, even by their owner; only face-up cards are playable.
            for seat in (0, 1):
                view = view_for(match, seat)
                assert view.hand == 0 and view.to_json()["hand"] == []
                table = {c for c in piles_of(deal).up[seat] if c is not None}
                assert mask_cards(view.table_cards) == table
                for action in match.legal_actions(seat):
                    assert isinstance(action, ChooseTrump) or action.card in table
            if deal.phase is Phase.PLAY and not deal.trick:
                assert match.to_act() == (forehand,), "the non-dealer leads trick 1"
        elif not deal.complete:
            for seat in (0, 1):
                assert view_for(match, seat).hand == deal.hands[seat]
        action = step.action
        if (
            prev is not None
            and isinstance(action, Play)
            and prev["deal"] == deal.index
            and action.card in prev["up"][action.seat]
        ):
            seat = action.seat
            pile = prev["up"][seat].index(action.card)
            below = prev["down"][seat][pile]
            trick_done = not deal.trick
            shown = view_for(match, 1 - seat).table[seat][pile]
            if immediate or trick_done:
                assert shown.up == below and not shown.down
            else:
                assert shown.up is None and shown.down == (below is not None)
        prev = {
            "deal": deal.index,
            "up": [list(p) for p in piles_of(deal).up],
            "down": [list(p) for p in piles_of(deal).down],
        }


# ---------------------------------------------------------------- Classic Whist
@pytest.mark.parametrize("seed", (1, 2, 3))
def test_classic_turned_trump_card(seed: int) -> None:
    case = Case("c", "classic", {"target": 3})
    for step in drive(case, seed):
        match = step.match
        deal = match.deal
        if deal is None or deal.complete:
            continue
        turned = deal.deck[51]
        assert deal.trump == suit(turned)
        dealer_played = any(
            isinstance(a, Play) and a.seat == deal.dealer for a in match.log[deal.index]
        )
        if not dealer_played:
            assert deal.hands[deal.dealer] >> turned & 1, "the dealer holds the turned card"
        for seat in (0, 1, 2, 3, None):
            view = view_for(match, seat)
            assert view.trump == suit(turned)
            assert view.trump_card == (None if dealer_played else turned)


# --------------------------------------------- Minnesota and Swedish: the reveal
SECRET = cases_of("minnesota") + cases_of("swedish")


@pytest.mark.parametrize("seed", (1, 2, 3))
@pytest.mark.parametrize("case", SECRET, ids=[c.id for c in SECRET])
def test_reveal_contract_and_lead(case: Case, seed: int) -> None:
    key = case.key
    for step in drive(case, seed, max_deals=4):
        match = step.match
        deal = match.deal
        if deal is None or step.kind != "action" or deal.phase is not Phase.PLAY:
            continue
        if deal.tricks or deal.trick:
            continue
        n = 4
        choices = {a.seat: a for a in match.log[deal.index] if isinstance(a, (Bid, Bottom))}
        order = [(deal.dealer + 1 + i) % n for i in range(n)]

        def stops(action: Action) -> bool:
            if isinstance(action, Bottom):
                return suit(action.card) in (1, 2)
            return isinstance(action, Bid) and action.bid in ("high", "spel")

        stopper = next((s for s in order if stops(choices[s])), None)
        simultaneous = key == "swedish" and match.options["reveal"] == "simultaneous"
        shown_seats = (
            order if stopper is None or simultaneous else order[: order.index(stopper) + 1]
        )
        expected = [
            (s, choices[s].card if isinstance(choices[s], Bottom) else choices[s].bid)
            for s in shown_seats
        ]
        for seat in (0, 1, 2, 3, None):
            assert list(view_for(match, seat).revealed) == expected
        contract = deal.contract
        assert contract is not None
        if stopper is None:
            assert contract.mode == ("low" if key == "minnesota" else "noll")
            lead = (deal.dealer + 1) % n
        else:
            assert contract.mode == ("high" if key == "minnesota" else "spel")
            assert contract.seat == stopper
            left = key == "swedish" and match.options["spel_lead"] == "left"
            lead = (stopper + 1) % n if left else (stopper - 1) % n
        assert match.to_act() == (lead,)


def test_swedish_card_mode_refuses_button_bid() -> None:
    """With bottom cards, a spel/pass button would let a seat bid without showing a card."""
    match = new_match("swedish", {})
    match.start_deal(shuffled_deck(random.Random(1)), dealer=0)
    before = snapshot(match)
    for word in ("spel", "pass"):
        assert Bid(1, word) not in match.legal_actions(1)
        assert refuse(match, Bid(1, word)).code == "invalid_bid"
    assert snapshot(match) == before


@pytest.mark.parametrize("suit", [4, -1, "S", None])
def test_a_trump_that_is_no_suit_is_refused(suit: object) -> None:
    match = new_match("japanese", {})
    match.start_deal(list(range(52)), dealer=0)
    before = snapshot(match)
    assert refuse(match, ChooseTrump(1, suit)).code == "bad_action"  # type: ignore[arg-type]
    assert snapshot(match) == before


@pytest.mark.parametrize("keep", ["keep", None, 2])
def test_a_take_that_is_neither_keep_nor_discard_is_refused(keep: object) -> None:
    match = new_match("german", {"talon_discard": True})
    match.start_deal(list(range(52)), dealer=0)
    deal = match.deal
    assert deal is not None
    while deal.phase is not Phase.TAKE:
        match.apply(match.legal_actions()[0])
    before = snapshot(match)
    assert refuse(match, Take(deal.turn, keep)).code == "bad_action"  # type: ignore[arg-type]
    assert snapshot(match) == before


# ------------------------------------------------------- records of odd actions
def test_resignation_before_the_first_deal_survives_replay() -> None:
    match = new_match("classic", {})
    try:
        match.apply(Resign(1))
    except WhistError as err:  # refusing it would be consistent too
        assert err.code in STABLE_CODES
        assert not match.over
        return
    assert (match.over, match.winner) == (True, 0)
    replayed = replay_of(match)
    assert (replayed.over, replayed.winner, replayed.resigned) == (True, 0, 1)


@pytest.mark.parametrize(
    "seat",
    [
        True,
        1.0,
        "1",
        None,
    ],
)
def test_a_seat_that_is_not_an_int_is_refused(seat: object) -> None:
    match = new_match("german", {})
    match.start_deal(list(range(52)), dealer=0)
    assert match.to_act() == (1,)
    card = match.legal_actions(1)[0].card
    before = snapshot(match)
    assert refuse(match, Play(seat, card)).code == "invalid_seat"  # type: ignore[arg-type]
    assert snapshot(match) == before
    assert replay_of(match).log == match.log
