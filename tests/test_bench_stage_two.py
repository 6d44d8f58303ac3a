"""bench/stage_two.py: the stage-2 estimate fitted and measured against exact solving; the
weights MASTER plays with must beat an estimate that ignores the hands."""

from __future__ import annotations

from bench_run import run_bench
from whist.core.cards import Hand, mask_of, parse_card
from whist.master.stage_two import estimate, features


def parse_cards(text: str) -> Hand:
    return mask_of(parse_card(card) for card in text.split())


def test_quick_run_measures_both_weight_sets() -> None:
    result, _ = run_bench("stage_two.py", "--quick", timeout=600)
    assert set(result["games"]) == {"german", "plockwhist"}
    for game in result["games"].values():
        assert game["positions"] == 60
        assert len(game["weights_fitted_half"]) == len(game["weights_in_code"]) == 7
        mae = game["held_out_mae"]
        assert mae["in_code"] < mae["constant"]


def test_features_count_what_tells_the_hands_apart() -> None:
    # Spades trump. Mine: AS KS 2S (the two top trumps), AH (one top heart), 5D 4D 3D
    # (three top diamonds, three longer, three they can ruff), no clubs; theirs: QS, KH QH
    # (a heart longer), 7C 6C (two top clubs, two longer, two to ruff), no diamonds.
    mine = parse_cards("AS KS 2S AH 5D 4D 3D")
    theirs = parse_cards("QS KH QH 6C 7C")
    assert features(mine, theirs, 0) == (3, 2, 4, 3, 1, 3)
    assert features(theirs, mine, 0) == (1, 0, 2, 3, 1, 2)
    # without trump the spades are a side suit like the others
    assert features(mine, theirs, None) == (0, 0, 6, 5, 1, 3)


def test_the_estimate_favours_the_stronger_hand() -> None:
    strong = parse_cards("AS KS QS JS TS AH KH AD KD AC KC QC JC")
    weak = parse_cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C")
    assert estimate([strong, weak], 0, 0) >= 11
    assert estimate([strong, weak], 0, 1) <= 2
