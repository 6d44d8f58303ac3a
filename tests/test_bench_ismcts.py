"""bench/ismcts.py: our variants as OpenSpiel games, and OpenSpiel's ISMCTS as a bot.

open_spiel is the optional ``bench`` extra: without it these tests are skipped.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from random import Random
from types import ModuleType
from typing import Any

import pytest

from bench_run import run_bench

pyspiel = pytest.importorskip("pyspiel", exc_type=ImportError)

from helpers import stock_of  # noqa: E402
from whist.core.actions import Play, Take  # noqa: E402
from whist.core.match import Match  # noqa: E402
from whist.core.views import view_for  # noqa: E402
from whist.tournament import duplicate_deck  # noqa: E402
from whist.variants import new_match  # noqa: E402

BENCH = Path(__file__).resolve().parent.parent / "bench" / "ismcts.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ismcts", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ism = _load()


def fresh(variant: str, index: int = 0, options: dict[str, Any] | None = None) -> Match:
    match = new_match(variant, options or {})
    match.start_deal(duplicate_deck(7, index), index % match.players)
    return match


def state_of(match: Match, seed: int = 0) -> Any:
    return ism.WhistState(ism.load(match.variant.key), match, Random(seed))


def advance(match: Match, rng: Random, actions: int) -> None:
    for _ in range(actions):
        match.apply(rng.choice(list(match.legal_actions())))


def ids(actions: Any) -> list[int]:
    return sorted(ism.action_id(a) for a in actions)


@pytest.mark.parametrize(
    ("variant", "options"),
    [("classic", {}), ("german", {}), ("german", {"talon_discard": True})],
)
def test_a_deal_played_through_openspiel_follows_our_rules_and_scoring(
    variant: str, options: dict[str, Any]
) -> None:
    for index in range(3):
        ours = fresh(variant, index, options)
        state = state_of(fresh(variant, index, options))
        rng = Random(index)
        takes = 0
        while not state.is_terminal():
            seat = ours.next_seat()
            assert state.current_player() == seat
            assert state.legal_actions() == ids(view_for(ours, seat).legal)
            assert not state.returns() or set(state.returns()) == {0.0}
            action = rng.choice(state.legal_actions())
            takes += action >= 52
            state.apply_action(action)
            ours.apply(ism.to_action(seat, action))
        assert ours.deal is not None and ours.deal.complete
        points = ours.deal.points
        assert state.returns() == [
            float(points[s % 2] - points[1 - s % 2]) for s in range(ours.players)
        ]
        assert sum(state.returns()) == 0.0
        if options.get("talon_discard"):
            assert takes > 0  # keep/discard went through as actions 52/53


def test_the_initial_state_deals_by_chance_then_plays_a_deal() -> None:
    game = pyspiel.load_game("python_whist_classic")
    state = game.new_initial_state()
    rng = Random(3)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(rng.choice(outcomes)[0])
    assert state.current_player() == 1  # the dealer's left (dealer 0)
    assert len(state.legal_actions()) == 13
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns()[0] == state.returns()[2] == -state.returns()[1]


@pytest.mark.parametrize(
    ("variant", "steps", "known"),
    [("classic", 9, False), ("german", 7, False), ("german", 21, False), ("german", 33, True)],
)
def test_resampling_keeps_the_information_state_and_varies_the_hidden_cards(
    variant: str, steps: int, known: bool
) -> None:
    match = fresh(variant, 1)
    advance(match, Random(steps), steps)
    state = state_of(match, seed=steps)
    player = state.current_player()
    key = state.information_state_string(player)
    others: set[tuple[int, ...]] = set()
    for _ in range(12):
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
        assert sample.information_state_string(player) == key
        assert sample.legal_actions() == state.legal_actions()
        assert sample.match.deal.hands[player] == match.deal.hands[player]
        unseen = [h for s, h in enumerate(sample.match.deal.hands) if s != player]
        others.add((*unseen, *stock_of(sample.match.deal).cards))
    # The cards the player cannot see were drawn anew; German stage 2 hides nothing.
    assert len(others) == 1 if known else len(others) > 1
    assert (match.deal.stage == 2) == known
    assert state.match is match  # resampling leaves the original alone


@pytest.mark.parametrize("variant", ["classic", "german"])
def test_the_information_state_hides_what_the_seat_cannot_see(variant: str) -> None:
    match = fresh(variant, 2)
    advance(match, Random(5), 3 if variant == "classic" else 2)
    state = state_of(match)
    player = state.current_player()
    key = state.information_state_string(player)
    deal = match.deal
    assert deal is not None
    if variant == "classic":
        a, b = [s for s in range(4) if s != player][:2]
        assert key != state.information_state_string(a)
    else:  # the other hand and the stock below the upcard
        a, b = 1 - player, -1
    twin = match.copy()
    public = {c for cards in deal.shown for c in cards}  # Classic: the turned card too

    def unseen(seat: int) -> int:
        return next(c for c in range(52) if (twin.deal.hands[seat] >> c) & 1 and c not in public)

    card = unseen(a)
    if b == -1:
        other = stock_of(twin.deal).cards[-1]
        twin.deal.hands[a] ^= (1 << card) | (1 << other)
        stock_of(twin.deal).cards[-1] = card
    else:
        other = unseen(b)
        twin.deal.hands[a] ^= (1 << card) | (1 << other)
        twin.deal.hands[b] ^= (1 << card) | (1 << other)
    assert twin.deal.hands != deal.hands
    assert state_of(twin).information_state_string(player) == key
    # ...but the seat's own cards are in it.
    mine = match.copy()
    own = next(c for c in range(52) if (mine.deal.hands[player] >> c) & 1)
    mine.deal.hands[player] ^= (1 << own) | (1 << card)
    mine.deal.hands[a] ^= (1 << own) | (1 << card)
    assert state_of(mine).information_state_string(player) != key


def test_a_clone_leaves_the_original_alone() -> None:
    match = fresh("german", 0)
    state = state_of(match)
    before = state.information_state_string(0), list(match.deal.hands), len(match.log[-1])
    clone = state.clone()
    while not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
    after = state.information_state_string(0), list(match.deal.hands), len(match.log[-1])
    assert before == after and not state.is_terminal()


@pytest.mark.parametrize("variant", ["classic", "german"])
def test_the_ismcts_bot_plays_a_legal_card_within_its_budget(variant: str) -> None:
    match = fresh(variant, 4)
    advance(match, Random(1), 5)
    seat = match.next_seat()
    view = view_for(match, seat)
    budget = 0.1
    start = time.perf_counter()
    action = ism.IsmctsBot().choose(view, Random(0), budget)
    elapsed = time.perf_counter() - start
    assert isinstance(action, Play) and action in view.legal
    assert elapsed <= budget + 0.05
    assert ism.SIMULATIONS[-1] >= ism.MIN_SIMULATIONS
    assert ism.factory("ismcts").level == "ismcts"
    assert ism.factory("hard").level == "hard"


def test_actions_map_both_ways() -> None:
    assert ism.to_action(2, 17) == Play(2, 17)
    assert ism.to_action(1, ism.TAKE_KEEP) == Take(1, True)
    assert ism.action_id(Take(0, False)) == ism.TAKE_DISCARD
    with pytest.raises(ValueError):
        ism.to_action(0, 60)


def test_the_quick_command_line_prints_the_report() -> None:
    report, _ = run_bench(
        "ismcts.py", "--quick", "--variants", "german", "--budget", "0.02", "--quiet", timeout=120
    )
    assert report["available"] and report["deals"] == 1 and report["budget"] == 0.02
    german = report["variants"]["german"]
    for key in ("mean", "ci_low", "ci_high", "holds", "deals", "decision_ms"):
        assert key in german
    assert german["a"] == "master" and german["b"] == "ismcts"
    for side in ("a", "b"):
        assert german["decision_ms"][side]["mean"] is not None
        assert german["decision_ms"][side]["p95"] is not None
    assert report["ismcts"]["uct_c"] == ism.UCT_C
