"""Duplicate tournaments: deterministic for a seed, sides really swapped, honest statistics,
and the `whist tournament` command."""

from __future__ import annotations

import errno
import json
import math
import pickle
import sys
from pathlib import Path
from random import Random

import pytest

from whist.bots.base import Bot
from whist.cli import main
from whist.core.actions import Action, Bottom, Play
from whist.core.cards import rank_of
from whist.core.views import View
from whist.tournament import (
    BotError,
    DecisionStats,
    TournamentResult,
    _chunks,
    duplicate_deck,
    percentile,
    play_deal,
    play_duplicate,
    run_tournament,
    running_intervals,
    summarize,
    t_quantile,
)


# ------------------------------------------------------------------ fake bots for tests
def _card_rank(action: Action) -> int:
    return rank_of(action.card) if isinstance(action, Play | Bottom) else 0


class HighBot:
    """Always plays its highest card: wins far more tricks than LowBot."""

    level = "high"

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        return max(view.legal, key=_card_rank)


class LowBot:
    level = "low"

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        return min(view.legal, key=_card_rank)


class RandomBot:
    level = "random"

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        return rng.choice(view.legal)


class CheatBot:
    """Plays a card of another seat: a bot bug the tournament must report."""

    level = "cheat"

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        return Play((view.seat or 0) + 1, 0)


def fake_factory(level: str) -> Bot:
    bots: dict[str, type[Bot]] = {
        "high": HighBot,
        "low": LowBot,
        "random": RandomBot,
        "cheat": CheatBot,
    }
    if level not in bots:
        raise ValueError(f"unknown bot level {level!r}")
    return bots[level]()


# ---------------------------------------------------------------------- determinism
def _outcomes(result: TournamentResult) -> list[tuple[object, ...]]:
    return [
        (p.deck, p.dealer, p.levels, p.points, p.tricks) for d in result.duplicates for p in d.plays
    ]


def test_same_seed_gives_the_same_result_and_another_seed_other_deals() -> None:
    first = run_tournament("german", {}, "easy", "medium", 6, seed=3, progress=False)
    again = run_tournament("german", {}, "easy", "medium", 6, seed=3, progress=False)
    other = run_tournament("german", {}, "easy", "medium", 6, seed=4, progress=False)
    assert first.diffs == again.diffs
    assert _outcomes(first) == _outcomes(again)
    assert [len(t) for d in first.duplicates for p in d.plays for t in p.seat_ms] == [
        len(t) for d in again.duplicates for p in d.plays for t in p.seat_ms
    ]  # the same decisions; only their times differ
    assert [d.plays[0].deck for d in first.duplicates] != [
        d.plays[0].deck for d in other.duplicates
    ]


def test_workers_do_not_change_the_result() -> None:
    one = run_tournament("classic", {}, "medium", "easy", 8, seed=11, workers=1, progress=False)
    two = run_tournament("classic", {}, "medium", "easy", 8, seed=11, workers=2, progress=False)
    assert one.diffs == two.diffs
    assert [d.index for d in two.duplicates] == list(range(8))
    assert _outcomes(one) == _outcomes(two)
    assert one.summary == two.summary
    assert two.decision["a"].count == one.decision["a"].count > 0


def test_chunks_cover_every_deal_once() -> None:
    for deals, workers in ((1, 1), (7, 2), (300, 2), (1000, 8)):
        indices = [i for chunk in _chunks(deals, workers) for i in chunk]
        assert indices == list(range(deals))


# ----------------------------------------------------------------- the duplicate swap
@pytest.mark.parametrize("variant", ["german", "swedish"])
def test_both_orientations_use_the_same_deck_and_dealer_with_sides_swapped(variant: str) -> None:
    result = play_duplicate(variant, {}, "easy", "medium", 5, seed=7)
    first, second = result.plays
    assert first.deck == second.deck == tuple(duplicate_deck(7, 5))
    assert first.dealer == second.dealer == 5 % len(first.levels)
    assert first.levels[0::2] == second.levels[1::2] == ("easy",) * (len(first.levels) // 2)
    assert first.levels[1::2] == second.levels[0::2] == ("medium",) * (len(first.levels) // 2)
    assert result.diff == (first.points[0] - first.points[1]) + (
        second.points[1] - second.points[0]
    )
    assert sorted(duplicate_deck(7, 5)) == list(range(52))


def test_a_stronger_bot_has_a_positive_mean_whichever_side_it_is_named() -> None:
    strong = run_tournament(
        "classic", {}, "high", "low", 200, seed=1, progress=False, factory=fake_factory
    )
    assert strong.summary.mean > 0
    assert strong.summary.ci_low is not None and strong.summary.ci_low > 0
    assert strong.summary.won > strong.summary.lost
    weak = run_tournament(
        "classic", {}, "low", "high", 200, seed=1, progress=False, factory=fake_factory
    )
    # Deterministic bots: swapping A and B swaps the two orientations of every deal exactly.
    assert weak.diffs == [-d for d in strong.diffs]
    assert weak.summary.ci_high is not None and weak.summary.ci_high < 0


def test_results_split_by_the_contract_mode_each_play_reached() -> None:
    result = run_tournament("minnesota", {}, "easy", "medium", 12, seed=2, progress=False)
    modes = {p.mode for d in result.duplicates for p in d.plays}
    assert modes <= {"high", "low"} and modes  # every Minnesota deal has a contract
    by_mode = result.by_mode()
    assert sum(s.n for s in by_mode.values()) == 12
    for mode, summary in by_mode.items():
        diffs = [
            d.diff
            for d in result.duplicates
            if (d.plays[0].mode == d.plays[1].mode == mode)
            or (mode == "mixed" and d.plays[0].mode != d.plays[1].mode)
        ]
        assert summary == summarize(diffs)
    data = result.to_json()
    assert set(data["by_mode"]) == set(by_mode)
    assert sum(m["deals"] for m in data["by_mode"].values()) == data["deals"] == 12
    # a variant without contracts has no split
    german = run_tournament("german", {}, "easy", "easy", 2, seed=2, progress=False)
    assert german.by_mode() == {} and "by_mode" not in german.to_json()


def test_a_bot_against_itself_scores_about_zero() -> None:
    result = run_tournament(
        "german", {}, "random", "random", 30, seed=5, progress=False, factory=fake_factory
    )
    assert result.summary.ci_low is not None and result.summary.ci_high is not None
    assert result.summary.ci_low < 0 < result.summary.ci_high
    assert result.decision["a"].level == result.decision["b"].level == "random"


def test_an_illegal_action_names_the_level_and_the_action() -> None:
    deck = duplicate_deck(0, 0)
    with pytest.raises(BotError) as caught:
        play_deal("german", {}, deck, 0, ["cheat", "cheat"], 0, factory=fake_factory)
    assert caught.value.level == "cheat"
    assert "cheat bot" in str(caught.value) and '"play": "2S"' in str(caught.value)
    copy = pickle.loads(pickle.dumps(caught.value))  # it must survive a worker process
    assert str(copy) == str(caught.value)


def test_play_deal_wants_one_bot_per_seat() -> None:
    with pytest.raises(ValueError):
        play_deal("classic", {}, duplicate_deck(0, 0), 0, ["easy", "easy"], 0)


def test_unknown_levels_and_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        run_tournament("german", {}, "easy", "grandmaster", 2, progress=False)
    with pytest.raises(ValueError):
        run_tournament("german", {}, "easy", "easy", 0, progress=False)


# --------------------------------------------------------------------------- statistics
@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.7062047),
        (2, 4.3026527),
        (4, 2.7764451),
        (10, 2.2281389),
        (30, 2.0422725),
        (31, 2.0395134),
        (99, 1.9842170),
        (1000, 1.9623391),
    ],
)
def test_student_t_quantiles_match_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-6)


def test_confidence_interval_on_known_numbers() -> None:
    s = summarize([1, 2, 3, 4, 5])
    assert s.n == 5 and s.mean == 3 and s.sd == pytest.approx(math.sqrt(2.5))
    half = 2.7764451052 * math.sqrt(2.5) / math.sqrt(5)
    assert s.ci_low == pytest.approx(3 - half) and s.ci_high == pytest.approx(3 + half)
    assert (s.won, s.lost, s.tied) == (5, 0, 0)
    counts = summarize([-1, 0, 0, 2])
    assert (counts.won, counts.lost, counts.tied) == (1, 1, 2)
    single = summarize([4])
    assert single.mean == 4 and single.ci_low is None and single.ci_high is None
    assert running_intervals([1, 2, 3, 4, 5])[-1] == pytest.approx((3, s.ci_low, s.ci_high))
    assert running_intervals([7])[0] == (7, None, None)


def test_decision_stats() -> None:
    stats = DecisionStats.of("hard", [4.0, 1.0, 3.0, 2.0])
    assert (stats.count, stats.mean, stats.median) == (4, 2.5, 2.5)
    assert stats.p95 == pytest.approx(3.85)
    assert percentile([5.0], 95) == 5.0
    assert DecisionStats.of("easy", []).to_json()["mean"] is None


# ------------------------------------------------------------------------ the command
def test_cli_json_has_every_key(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "german", "--a", "easy", "--b", "medium", "--deals", "3"]
    assert main([*argv, "--json", "--quiet", "--seed", "9", "--option", "scoring=difference"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("variant", "options", "a", "b", "deals", "seed", "mean", "ci_low", "ci_high"):
        assert key in data
    for key in ("won", "lost", "tied", "decision_ms", "diffs"):
        assert key in data
    assert (data["variant"], data["a"], data["b"], data["deals"], data["seed"]) == (
        "german",
        "easy",
        "medium",
        3,
        9,
    )
    assert data["options"]["scoring"] == "difference"
    assert data["won"] + data["lost"] + data["tied"] == 3 == len(data["diffs"])
    assert data["mean"] == pytest.approx(sum(data["diffs"]) / 3)
    assert data["decision_ms"]["a"]["level"] == "easy"
    assert data["decision_ms"]["b"]["level"] == "medium"
    assert set(data["decision_ms"]["a"]) >= {"mean", "median", "p95"}


def test_cli_table_for_the_same_level_on_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "classic", "--a", "Easy", "--b", "easy", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "A = easy  vs  B = easy" in out and "Mean A − B" in out
    assert "A easy" in out and "B easy" in out and "Won/lost/tied" in out


@pytest.mark.parametrize(
    "extra",
    [
        ["german", "--a", "easy", "--b", "wizard"],
        ["german", "--a", "superhard", "--b", "easy"],
        ["nowhist", "--a", "easy", "--b", "easy"],
        ["german", "--a", "easy", "--b", "easy", "--option", "colour=blue"],
        ["german", "--a", "easy", "--b", "easy", "--option", "scoring"],
        ["german", "--a", "easy", "--b", "easy", "--deals", "0"],
    ],
)
def test_cli_bad_command_line_exits_2_with_one_line(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", *extra, "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("whist tournament: ")


def test_cli_chart_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "ladder.png"
    argv = ["tournament", "japanese", "--a", "medium", "--b", "easy", "--deals", "5"]
    assert main([*argv, "--quiet", "--json", "--chart", str(chart)]) == 0
    assert json.loads(capsys.readouterr().out)["chart"] == str(chart)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert chart.stat().st_size > 10_000


TINY = ["tournament", "classic", "--a", "easy", "--b", "easy", "--deals", "1", "--quiet"]


def _no_tournament(*args: object, **kwargs: object) -> None:
    raise AssertionError("the tournament ran although --chart was refused")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("out.txt", [".png"]),
        ("chart", [".png"]),
        ("existing", ["folder"]),
        ("existing.png", ["folder"]),
        ("missing/chart.png", ["missing"]),
        ("a-file.png/chart.png", ["a-file.png"]),
    ],
    ids=["not-png", "no-suffix", "existing-folder", "folder-named-png", "no-such-folder", "file"],
)
def test_cli_chart_refused_before_the_run_with_one_line(
    name: str,
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "existing").mkdir()
    (tmp_path / "existing.png").mkdir()
    (tmp_path / "a-file.png").write_bytes(b"")
    before = sorted(p.name for p in tmp_path.iterdir())
    monkeypatch.setattr("whist.tournament.run_tournament", _no_tournament)
    assert main([*TINY, "--chart", str(tmp_path / name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("whist tournament: --chart")
    for word in words:
        assert word in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


@pytest.mark.parametrize("where", ["read-only", "proc"])
def test_cli_chart_in_a_folder_that_cannot_be_written_is_refused(
    where: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if where == "proc":
        folder = Path("/proc")
        if not folder.is_dir():
            pytest.skip("no /proc here")
    else:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o500)
        try:
            (folder / "probe").write_bytes(b"")
        except OSError:
            pass
        else:
            pytest.skip("this user may write in a read-only folder (root)")
    monkeypatch.setattr("whist.tournament.run_tournament", _no_tournament)
    assert main([*TINY, "--chart", str(folder / "chart.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and str(folder) in captured.err


def test_cli_chart_without_matplotlib_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    monkeypatch.setattr("whist.tournament.run_tournament", _no_tournament)
    assert main([*TINY, "--chart", str(tmp_path / "chart.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "matplotlib" in captured.err
    assert not (tmp_path / "chart.png").exists()


@pytest.mark.parametrize("as_json", [False, True])
def test_cli_chart_that_fails_after_the_run_still_prints_the_results(
    as_json: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("matplotlib")

    def disk_full(result: TournamentResult, path: str) -> None:
        Path(path).write_bytes(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("whist.tournament.draw_chart", disk_full)
    chart = tmp_path / "chart.png"
    status = main([*TINY, *(["--json"] if as_json else []), "--chart", str(chart)])
    assert status != 0
    captured = capsys.readouterr()
    if as_json:
        data = json.loads(captured.out)
        assert data["deals"] == 1 and "chart" not in data
    else:
        assert "Mean A − B" in captured.out and "Chart written" not in captured.out
    assert captured.err.count("\n") == 1 and "No space left on device" in captured.err
    assert not chart.exists()  # no half-written PNG left behind


def test_cli_chart_is_written_exactly_where_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "Ladder.PNG"
    assert main([*TINY, "--chart", str(chart)]) == 0
    assert f"Chart written to {chart}\n" in capsys.readouterr().out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["Ladder.PNG"]
