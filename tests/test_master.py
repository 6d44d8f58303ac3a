"""MASTER's pieces that the bots tests do not reach: the deal margin it averages is what the
deal really scores (docs/rules.md, by tests/helpers' own implementation)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from random import Random

import pytest

from helpers import OPTION_SETS, Case, counted_tricks, drive, expected_points, shuffled_deck
from whist.bots.decisions import want_tricks_choice
from whist.bots.hard import HardBot
from whist.bots.sampler import sample_worlds
from whist.core.actions import Action, Bid, Play
from whist.core.state import Phase
from whist.core.views import View, view_for
from whist.master.bot import SWITCH_LEAD, MasterBot, decision_choices, tricks_left
from whist.master.determinize import determinize, hidden_of
from whist.master.pimc import Tally
from whist.master.playout import FEWEST_EXACT, candidates, choice_margins, play_on
from whist.master.scoring import margins
from whist.solver import solve
from whist.variants import new_match


@pytest.mark.parametrize("case", OPTION_SETS, ids=lambda c: c.id)
def test_the_margin_table_gives_what_the_deal_scores(case: Case) -> None:
    checked = 0
    for seed in range(3):
        pending: list[tuple[View, list[int]]] = []
        for step in drive(case, seed, max_deals=1):
            match = step.match
            deal = match.deal
            if deal is None:
                continue
            if deal.phase is Phase.PLAY and deal.stage != 1 and not deal.trick:
                view = view_for(match, deal.turn)
                pending.append((view, margins(view, tricks_left(view))))
            if deal.complete:
                points = expected_points(match, deal)
                won = counted_tricks(match, deal)
                for view, table in pending:
                    assert view.seat is not None
                    mine = view.seat % 2
                    future = won[mine] - view.won[mine]
                    assert table[future] == points[mine] - points[1 - mine]
                    checked += 1
                break
    assert checked >= 10


# ------------------------------------------------------------------ playouts (stock phase,
# bids, bottom cards, talon): a choice tried in a sampled world and played on to the end.


@pytest.mark.parametrize("variant", ["minnesota", "swedish", "classic"])
def test_a_playout_from_a_bid_scores_the_contract_it_reached(variant: str) -> None:
    """MASTER judges a bid by the deal it leads to: the margin of a deal played out from the
    bid is what docs/rules.md scores for the contract the simulation reached, not the view's."""
    hard = HardBot()
    for seed in range(6):
        rng = Random(seed)
        match = new_match(variant, {})
        match.start_deal(shuffled_deck(rng), seed % 4)
        seat = match.to_act()[0]
        view = view_for(match, seat)
        (world,) = sample_worlds(view, rng, 1)
        played = determinize(view, hidden_of(view, world, rng))
        got = play_on(view, played, rng, hard, solving=False)
        deal = played.deal
        assert deal is not None and deal.complete
        points = expected_points(played, deal)
        assert got == points[seat % 2] - points[1 - seat % 2]


def test_stage_two_solved_in_a_playout_is_what_perfect_play_then_scores() -> None:
    """German Whist: where stage 1 ends, the playout solves stage 2; playing stage 2 out with
    both seats choosing the solver's best card gives exactly that margin."""
    hard = HardBot()
    for seed in range(4):
        rng = Random(seed)
        match = new_match("german", {"scoring": "difference"})
        match.start_deal(shuffled_deck(rng), seed % 2)
        deal = match.deal
        assert deal is not None
        while deal.stage == 1:
            seat = match.next_seat()
            assert seat is not None
            match.apply(hard.choose(view_for(match, seat), rng, 0.0))
        seat = match.next_seat()
        assert seat is not None
        view = view_for(match, seat)
        (world,) = sample_worlds(view, rng, 1)  # stage 2: the world is the real deal
        solved = play_on(view, determinize(view, hidden_of(view, world, rng)), rng, hard, True)
        while not deal.complete:
            turn = match.next_seat()
            assert turn is not None
            tricks = solve(deal.hands, deal.trump, deal.leader, deal.trick, True)
            match.apply(Play(turn, max(tricks, key=lambda card: (tricks[card], -card))))
        points = expected_points(match, deal)
        assert solved == points[seat] - points[1 - seat]


def test_stock_candidates_keep_one_card_of_each_run_of_touching_cards() -> None:
    """Seat 0 holds ♣2 ♣3 ♣5 ♣6 and the face-up ♣4 lies between: ♣2/♣3 and ♣5/♣6 each play
    the same, but ♣3 and ♣5 do not (whoever takes the ♣4 splits them)."""
    clubs = [0, 1, 3, 4]  # 2, 3, 5, 6 of the first suit
    rest = [c for c in range(52) if c not in (*clubs, 2)]
    seat0 = [*clubs, *rest[:9]]
    seat1 = rest[9:22]
    deck = [card for pair in zip(seat0, seat1, strict=True) for card in pair]
    deck += [2, *rest[22:]]
    match = new_match("german", {})
    match.start_deal(deck, 1)  # dealer 1: card i goes to seat (dealer + 1 + i) % 2
    view = view_for(match, 0)
    assert view.upcard == 2 and view.to_act == (0,)
    kept = candidates(view, [a.card for a in view.legal if isinstance(a, Play)])
    assert [c for c in kept if c < 13] == [0, 3]
    assert len(kept) < 13


def test_the_last_stock_trick_is_solved_on_a_small_budget() -> None:
    """At 0.3 s MASTER estimates stage 2 while the stock is deep (too many worlds to solve
    enough of them), but the last stock trick leaves only a dozen worlds: it solves those."""
    hard = HardBot()
    bot = MasterBot()
    bot.budget = 0.3
    rng = Random(3)
    match = new_match("german", {})
    match.start_deal(shuffled_deck(rng), 0)
    deal = match.deal
    assert deal is not None
    seen = {}
    while deal.stage == 1:
        seat = match.next_seat()
        assert seat is not None
        view = view_for(match, seat)
        seen.setdefault(view.stock_size, bot.playouts(view, 3)[0])
        match.apply(hard.choose(view, rng, 0.0))
    assert seen[26] is False
    assert seen[2] is True


@pytest.mark.parametrize("variant", ["minnesota", "swedish"])
def test_master_bids_by_simulation_for_tricks_with_the_top_cards(variant: str) -> None:
    """Every jack to ace of three suits and a jack: a high game (spel) wins ~6 points,
    a low one (noll) gives them away; the simulated deals must show it."""
    mine = [c for c in range(52) if c % 13 >= 9][:13]
    others = [c for c in range(52) if c not in mine]
    Random(1).shuffle(others)
    hands = [mine, others[:13], others[13:26], others[26:]]
    deck = [hands[i % 4][i // 4] for i in range(52)]  # dealer 3: card i to seat i % 4
    match = new_match(variant, {})
    match.start_deal(deck, 3)
    view = view_for(match, 0)
    choices = decision_choices(view, view.legal)
    assert choices == [want_tricks_choice(view, view.legal, w) for w in (True, False)]
    rng = Random(0)
    totals = [0.0, 0.0]
    for world in sample_worlds(view, rng, 8):
        for index, value in choice_margins(view, world, choices, rng, HardBot(), False).items():
            totals[index] += value
    assert totals[0] / 8 > totals[1] / 8 + 2
    assert MasterBot(least=4, most=8).choose(view, Random(0), 0.2) == choices[0]


def test_master_bids_as_hard_where_playouts_bid_worse() -> None:
    """Swedish Whist: bidding by playouts lost to HARD's bids (bot.SWITCH_LEAD: never), so
    MASTER's bid is HARD's, whatever the hand."""
    for seed in range(6):
        rng = Random(seed)
        match = new_match("swedish", {})
        match.start_deal(shuffled_deck(rng), seed % 4)
        seat = match.to_act()[0]
        view = view_for(match, seat)
        assert len(decision_choices(view, view.legal)) == 2  # a real choice of bid
        hard = HardBot().choose(view, Random(seed), 0.2)
        assert MasterBot(least=4, most=8).choose(view, Random(seed), 0.2) == hard


def bid_and_its_tally(view: View, rng: Random) -> tuple[Action, Sequence[Action], Tally]:
    """MASTER's bid, with the choices and the playout tally it was made from."""
    bot = MasterBot(least=4, most=8)
    seen: list[tuple[Sequence[Action], Tally]] = []
    tally_of = bot.playout_tally

    def spy(view: View, choices: Sequence[Action], rng: Random) -> Tally:
        seen.append((choices, tally_of(view, choices, rng)))
        return seen[-1][1]

    bot.playout_tally = spy  # type: ignore[method-assign]
    chosen = bot.choose(view, rng, 0.2)
    ((choices, tally),) = seen
    return chosen, choices, tally


def test_master_departs_from_hards_bid_only_on_a_sure_gain() -> None:
    """Minnesota: a few dozen playouts are a noisy measure of a bid, so MASTER bids as
    HARD does unless the other bid is better by more than SWITCH_LEAD standard errors over
    the worlds; a smaller gain keeps HARD's bid."""
    sure = SWITCH_LEAD[("high", "low")]  # by Minnesota's contracts
    kept = switched = 0
    for seed in range(4):
        match = new_match("minnesota", {})
        match.start_deal(shuffled_deck(Random(seed)), seed % 4)
        for seat in range(4):
            view = view_for(match, seat)
            chosen, choices, tally = bid_and_its_tally(view, Random(seed * 4 + seat))
            hard = HardBot().choose(view, Random(seed * 4 + seat), 0.2)
            best = tally.best()[0]
            lead = tally.lead(best, choices.index(hard))
            if lead > sure:
                assert chosen == choices[best]
                switched += 1
            else:
                assert chosen == hard
                kept += lead > 0
    assert kept and switched


def test_a_four_hand_misere_playout_solves_the_last_eight_tricks_as_perfect_play_scores() -> None:
    """Minnesota low: a playout from trick 1 hands over to the misère solver at eight tricks
    left; playing those tricks out with every seat taking the solver's best card (fewest
    tricks for its side) scores exactly that margin."""
    hard = HardBot()
    for seed in range(3):
        rng = Random(seed)
        match = new_match("minnesota", {})
        match.start_deal(shuffled_deck(rng), seed % 4)
        for seat in range(4):
            match.apply(Bid(seat, "low"))
        seat = match.next_seat()
        assert seat is not None
        view = view_for(match, seat)
        (world,) = sample_worlds(view, rng, 1)
        twin = determinize(view, hidden_of(view, world, Random(0)))
        solved = play_on(
            view, determinize(view, hidden_of(view, world, Random(0))), Random(1), hard, True
        )
        deal = twin.deal
        assert deal is not None
        while deal.hands[deal.leader].bit_count() > FEWEST_EXACT or deal.trick:
            turn = twin.next_seat()
            assert turn is not None
            twin.apply(hard.choose(view_for(twin, turn), Random(1), 0.0))
        while not deal.complete:
            turn = twin.next_seat()
            assert turn is not None
            tricks = solve(deal.hands, deal.trump, deal.leader, deal.trick, False)
            twin.apply(Play(turn, min(tricks, key=lambda card: (tricks[card], card))))
        points = expected_points(twin, deal)
        assert solved == points[seat % 2] - points[1 - seat % 2]


def test_a_lead_is_counted_over_the_worlds_both_choices_were_tried_in() -> None:
    """How sure a playout comparison is: the difference is taken world by world, so a
    choice that is worth one point more in every world is surely better however much the
    worlds differ, and one that wins big in one world and loses in the others is not."""
    steady = Tally([0, 1])
    for world_value in (-6.0, 0.0, 5.0, 9.0):
        steady.add({0: world_value + 1, 1: world_value}, 1.0)
    assert steady.lead(0, 1) == math.inf
    assert steady.lead(1, 0) == 0.0

    lucky = Tally([0, 1])
    for gain in (9.0, -1.0, -1.0, -1.0):
        lucky.add({0: gain, 1: 0.0}, 1.0)
    # mean 1.5, deviations 7.5 and 2.5 (three times): variance 18.75, standard error 2.5
    assert lucky.lead(0, 1) == pytest.approx(1.5 / 2.5)
    assert lucky.best() == [0]
