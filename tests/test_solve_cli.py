"""``whist solve FILE [--json]`` as a player runs it after a deal: every legal card of the seat
to act with its side's tricks to the end, all cards known, for the deal's objective; a clear
refusal (exit 1) where the solver cannot take the position, exit 2 for a bad record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import CASES_BY_ID, Case, drive, piles_of
from whist.cli import main
from whist.core.cards import card_text
from whist.core.match import Match
from whist.core.state import Phase
from whist.records import dumps
from whist.solver import brute_solve


def stopped_at(case: Case, seed: int, tricks_left: int) -> Match:
    """A random match stopped in card play with ``tricks_left`` tricks to go (mid-trick)."""
    for step in drive(case, seed, max_deals=1):
        deal = step.match.deal
        if (
            deal is not None
            and deal.phase is Phase.PLAY
            and deal.stage != 1
            and not (piles_of(deal).up and not deal.tricks)
            and deal.tricks_total - len(deal.tricks) == tricks_left
            and len(deal.trick) == seed % step.match.players
        ):
            return step.match
    raise AssertionError("no such position")


def solve_json(
    tmp_path: Path, match: Match, capsys: pytest.CaptureFixture[str]
) -> dict[str, object]:
    path = tmp_path / "record.json"
    path.write_text(dumps(match), encoding="utf-8")
    assert main(["solve", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert isinstance(result, dict)
    return result


@pytest.mark.parametrize(
    ("case_id", "tricks_left"),
    [
        ("classic-5", 3),
        ("minnesota-defaults", 3),
        ("swedish-defaults", 3),
        ("german-defaults", 5),
        ("plockwhist-none", 5),
        ("japanese-after", 4),
    ],
)
def test_every_legal_card_gets_its_sides_tricks_under_best_play(
    case_id: str, tricks_left: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(6):
        match = stopped_at(CASES_BY_ID[case_id], seed, tricks_left)
        deal = match.deal
        assert deal is not None
        result = solve_json(tmp_path, match, capsys)
        low = deal.contract is not None and deal.contract.mode in ("low", "noll", "pass")
        assert result["seat"] == deal.turn
        assert result["objective"] == ("fewest" if low else "most")
        hands = list(deal.hands)
        blockers = {}
        for seat in range(len(piles_of(deal).up)):
            for up, down in zip(piles_of(deal).up[seat], piles_of(deal).down[seat], strict=True):
                hands[seat] |= sum(1 << c for c in (up, down) if c is not None)
                if up is not None and down is not None:
                    blockers[down] = up
        expected = brute_solve(hands, deal.trump, deal.leader, deal.trick, not low, blockers)
        assert result["tricks"] == {card_text(c): n for c, n in sorted(expected.items())}
        legal = {card_text(a.card) for a in match.legal_actions()}  # type: ignore[attr-defined]
        assert set(result["tricks"]) == legal  # type: ignore[arg-type]


def test_a_misere_deal_is_analysed_for_the_fewest_tricks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(40):
        match = stopped_at(CASES_BY_ID["minnesota-defaults"], seed, 2)
        deal = match.deal
        assert deal is not None and deal.contract is not None
        if deal.contract.mode == "low":
            result = solve_json(tmp_path, match, capsys)
            assert result["objective"] == "fewest"
            expected = brute_solve(deal.hands, None, deal.leader, deal.trick, False)
            assert result["tricks"] == {card_text(c): n for c, n in sorted(expected.items())}
            return
    raise AssertionError("no low deal in 40 seeds")


def refusal(tmp_path: Path, match: Match, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "record.json"
    path.write_text(dumps(match), encoding="utf-8")
    assert main(["solve", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_positions_the_solver_cannot_take_are_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    german = next(
        s.match
        for s in drive(CASES_BY_ID["german-defaults"], 1, max_deals=1)
        if s.match.deal is not None and s.match.deal.stage == 1 and s.match.deal.tricks
    )
    assert "stock" in refusal(tmp_path, german, capsys)
    japanese = next(
        s.match
        for s in drive(CASES_BY_ID["japanese-after"], 1, max_deals=1)
        if s.match.deal is not None and s.match.deal.phase is Phase.PLAY
    )
    assert "trick 1" in refusal(tmp_path, japanese, capsys)
    bidding = next(
        s.match
        for s in drive(CASES_BY_ID["minnesota-defaults"], 1, max_deals=1)
        if s.match.deal is not None and s.match.deal.phase is Phase.BID
    )
    assert "before card play" in refusal(tmp_path, bidding, capsys)
    finished = next(
        s.match
        for s in drive(CASES_BY_ID["classic-5"], 1, max_deals=1)
        if s.match.deal is not None and s.match.deal.complete
    )
    assert "finished" in refusal(tmp_path, finished, capsys)


def test_the_command_prints_a_table_and_rejects_a_bad_record(tmp_path: Path) -> None:
    match = stopped_at(CASES_BY_ID["classic-5"], 0, 2)
    good = tmp_path / "good.json"
    good.write_text(dumps(match), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "whist.cli", "solve", str(good)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "to play" in run.stdout and "Tricks for seat" in run.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "whist-record/1"}', encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "whist.cli", "solve", str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 2
    assert run.stdout == "" and "Traceback" not in run.stderr and run.stderr.count("\n") == 1
