"""``whist analyse`` and the honest records of issue 20: every card played graded with the
values ``whist solve`` gives at its position; estimates marked; a seat's download says how
much of its deck is rebuilt and the tools refuse what is a guess; Ctrl-C and a time limit
stop a long solve with exit 130 or the bounds proved so far."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest

from whist import analysis
from whist.analysis import (
    CPU_POLL_SECONDS,
    Progress,
    analyse,
    analyse_document,
    stopped_after,
)
from whist.analysis import to_json as analysis_json
from whist.bots import make_bot
from whist.cli import main
from whist.core.actions import Play
from whist.core.match import Match
from whist.core.views import view_for
from whist.records import RecordError, dumps, loads, parse, to_json
from whist.seat_record import seat_record
from whist.solver import Control
from whist.variants import new_match

ROOT = Path(__file__).resolve().parent.parent


def played_deal(variant: str, seed: int, stop_after: int | None = None) -> Match:
    """One deal played by EASY bots from a seeded deck (stopped after that many actions)."""
    match = new_match(variant)
    rng = Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    deal = match.start_deal(deck, dealer=seed % match.players)
    bot = make_bot("easy")
    while not deal.complete and (stop_after is None or len(match.log[-1]) < stop_after):
        seat = match.next_seat()
        assert seat is not None
        match.apply(bot.choose(view_for(match, seat), rng, 0.0))
    return match


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def truncated(match: Match, actions: int) -> Match:
    """The same match replayed up to ``actions`` actions of its last deal."""
    copy = Match(match.variant, match.options)
    deal = match.deals[-1]
    copy.start_deal(deal.deck, deal.dealer)
    for action in match.log[-1][:actions]:
        copy.apply(action)
    return copy


@pytest.mark.parametrize(
    ("variant", "seed"),
    [
        ("classic", 3),
        ("minnesota", 5),
        ("swedish", 2),
        ("swedish", 6),  # nollspel: misère
        ("german", 1),
        ("plockwhist", 4),
        ("japanese", 2),
    ],
)
def test_every_exact_play_has_the_values_whist_solve_gives_at_its_position(
    variant: str,
    seed: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (The CPU budget a play gets is raised: on a loaded machine the first plays of the
    # misère deal could pass it and be estimated; the budget has tests of its own.)
    monkeypatch.setattr(analysis, "PLAY_BUDGET", 120.0)
    match = played_deal(variant, seed)
    path = tmp_path / "deal.json"
    path.write_text(dumps(match), encoding="utf-8")
    code, out, _ = run(["analyse", str(path), "--json"], capsys)
    assert code == 0
    (deal,) = json.loads(out)["deals"]
    plays = [(i, a) for i, a in enumerate(match.log[0]) if isinstance(a, Play)]
    assert [(g["seat"], g["card"]) for g in deal["plays"]] == [
        (a.seat, _text(a.card)) for _, a in plays
    ]
    # Four hands: every play exact.  Two hands: all but the plays made with stock left
    # (German, Plockwhist) or before the first trick is seen (Japanese trick 1).
    exact = [g["exact"] for g in deal["plays"]]
    if match.players == 4:
        assert all(exact)
    else:
        assert exact[-1] and exact == sorted(exact)  # estimates first, then exact
    most = deal["objective"] == "most"
    lost = {str(s): 0 for s in range(match.players)}
    for grade, (index, action) in zip(deal["plays"], plays, strict=True):
        if not grade["exact"]:
            continue
        assert (grade["best"] >= grade["played"]) if most else (grade["best"] <= grade["played"])
        lost[str(action.seat)] += abs(grade["best"] - grade["played"])
        # the position before this play, solved by `whist solve`
        path.write_text(dumps(truncated(match, index)), encoding="utf-8")
        code, out, _ = run(["solve", str(path), "--json"], capsys)
        assert code == 0
        tricks = json.loads(out)["tricks"]
        assert tricks[grade["card"]] == grade["played"]
        best = max(tricks.values()) if most else min(tricks.values())
        assert grade["best"] == best
        assert sorted(grade["best_cards"]) == sorted(c for c, v in tricks.items() if v == best)
    assert deal["lost"] == lost


def test_a_misere_deal_is_graded_for_the_fewest_tricks() -> None:
    for seed in range(40):
        match = played_deal("minnesota", seed, stop_after=4 + 4 * 8)  # bids, then 8 tricks
        contract = match.deal.contract if match.deal else None
        if contract is not None and contract.mode == "low":
            doc = analyse_document(to_json(match))
            (deal,) = doc["deals"]
            assert deal["objective"] == "fewest" and len(deal["plays"]) == 32
            assert all(g["best"] <= g["played"] for g in deal["plays"])
            return
    raise AssertionError("no low deal in 40 seeds")


def test_a_plays_budget_counts_the_solvers_own_cpu_time() -> None:
    """A play's exact solve is stopped after its budget of CPU time, not of waiting: a
    machine busy with other work (here: a thread that sleeps, as one waiting for the CPU
    does) does not cut it short."""
    waiting = Control()
    with stopped_after(waiting, 0.1):
        time.sleep(0.5)
    assert not waiting.stopped
    working = Control()
    cpu = time.thread_time()
    with stopped_after(working, 0.1):
        deadline = time.monotonic() + 10
        while not working.stopped and time.monotonic() < deadline:
            sum(range(1000))  # the solver at work
    assert working.stopped and time.thread_time() - cpu >= 0.1


def test_a_budget_whose_thread_is_gone_ends_its_watch_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grading thread that has ended leaves no error behind in the thread that watched
    its play's CPU time (the thread's CPU clock is gone with it)."""
    failures: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    control = Control()
    budget = stopped_after(control, 5.0)
    gone = threading.Thread(target=budget.__enter__)  # watched, then ended
    gone.start()
    gone.join()
    time.sleep(10 * CPU_POLL_SECONDS)
    assert failures == [] and not control.stopped


def test_stock_plays_are_estimates_and_stage_two_is_exact() -> None:
    doc = analyse_document(to_json(played_deal("german", 1)))
    plays = doc["deals"][0]["plays"]
    assert len(plays) == 52
    assert {g["exact"] for g in plays[:26]} == {False}
    assert {g["exact"] for g in plays[26:]} == {True}
    assert all(isinstance(g["played"], int) for g in plays[26:])
    assert "estimated_lost" in doc["deals"][0]
    japanese = analyse_document(to_json(played_deal("japanese", 2)))["deals"][0]["plays"]
    assert japanese[0]["exact"] is False and japanese[-1]["exact"] is True


def test_bad_input_gets_a_clear_error_and_its_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deal.json"
    path.write_text(dumps(played_deal("classic", 1)), encoding="utf-8")
    code, out, err = run(["analyse", str(path), "--deal", "3"], capsys)
    assert (code, out) == (2, "") and "--deal 3: the record has deals 0..0" in err
    code, _, err = run(["analyse", str(path), "--time-limit", "nan"], capsys)
    assert code == 2 and "--time-limit" in err
    path.write_text('{"format": "whist-record/1", "variant": "classic"', encoding="utf-8")
    assert run(["analyse", str(path)], capsys)[0] == 2
    for threads in ("0", "17", "99999999999999999999", "two", "1.5"):
        with pytest.raises(SystemExit) as exit_:
            main(["analyse", str(path), "--threads", threads])
        assert exit_.value.code == 2
        assert "--threads" in capsys.readouterr().err
    bidding = played_deal("minnesota", 1, stop_after=2)
    path.write_text(dumps(bidding), encoding="utf-8")
    code, out, err = run(["analyse", str(path)], capsys)
    assert (code, out) == (1, "") and "no card played" in err


def test_plays_graded_side_by_side_get_the_grades_one_thread_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Threads with solver tables of their own, and DDS (which must not be entered twice
    at once), give every play the grade a single thread gives; progress ends at every
    play graded.  (The CPU budget a play gets is raised: on a loaded machine a first
    misère play could pass it in one run and not in the other, and be estimated.)"""
    monkeypatch.setattr(analysis, "PLAY_BUDGET", 120.0)
    low = next(
        m
        for seed in range(40)
        if (m := played_deal("minnesota", seed, stop_after=4 + 4 * 8)).deal is not None
        and m.deal.contract is not None
        and m.deal.contract.mode == "low"
    )
    for match in (low, played_deal("classic", 8)):
        record = parse(to_json(match))
        one = analysis_json(analyse(record, threads=1))
        seen: list[Progress] = []
        several = analysis_json(analyse(record, progress=seen.append, threads=3))
        assert several == one
        assert all(g["exact"] for g in one["deals"][0]["plays"])
        plays = len(one["deals"][0]["plays"])
        assert (seen[-1].play, seen[-1].plays) == (plays, plays)
        assert sorted(p.play for p in seen) == [p.play for p in seen]


# ------------------------------------------------------------------ honest records
def test_a_seats_download_says_how_much_of_its_deck_is_rebuilt() -> None:
    finished = played_deal("minnesota", 4)
    assert seat_record(finished, 0)["deals"][0]["reconstructed"] == {"known_from": 0}
    mid = played_deal("minnesota", 4, stop_after=20)
    assert seat_record(mid, 0)["deals"][0]["reconstructed"] == {"known_from": None}
    german = played_deal("german", 4)
    known_from = seat_record(german, 1)["deals"][0]["reconstructed"]["known_from"]
    # Once the stock is gone the other hand is the cards the seat has not seen: known.
    assert known_from is not None and 0 < known_from <= 26
    # The full record (every card real) has no such field; a record without it is valid.
    assert "reconstructed" not in to_json(finished)["deals"][0]
    assert parse(to_json(finished)).deals[0].known_from == 0


@pytest.mark.parametrize(
    "bad", [{}, {"known_from": -1}, {"known_from": True}, 7, {"known_from": 10**30}]
)
def test_a_malformed_reconstructed_field_is_a_malformed_record(bad: Any) -> None:
    doc = to_json(played_deal("classic", 1, stop_after=6))
    doc["deals"][0]["reconstructed"] = bad
    with pytest.raises(RecordError, match=r"deals\[0\]\.reconstructed"):
        parse(doc)


def test_solve_and_analyse_refuse_a_guessed_position_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mid = played_deal("minnesota", 4, stop_after=20)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(seat_record(mid, 0)), encoding="utf-8")
    code, out, err = run(["solve", str(path)], capsys)
    assert (code, out) == (1, "") and "guess" in err and err.count("\n") == 1
    code, out, err = run(["analyse", str(path)], capsys)
    assert (code, out) == (1, "") and "rebuilt" in err and err.count("\n") == 1
    # A German download is graded from where every card is known: stage 2 only.
    german = played_deal("german", 4)
    download = seat_record(german, 1)
    start = download["deals"][0]["reconstructed"]["known_from"]
    (deal,) = analyse_document(download)["deals"]
    assert deal["graded_from"] >= start
    full = analyse_document(to_json(german))["deals"][0]["plays"]
    stage_two = [g for g in deal["plays"] if g["exact"]]
    assert len(stage_two) == 26 and stage_two == full[26:]


def _text(card: int) -> str:
    from whist.core.cards import card_text

    return card_text(card)


# ------------------------------------------------------------------ stopping
def slow_position(tmp_path: Path) -> Path:
    """A Japanese position with 25 tricks left: minutes for the solver."""
    match = played_deal("japanese", 2)
    plays = [i for i, a in enumerate(match.log[0]) if isinstance(a, Play)]
    path = tmp_path / "slow.json"
    path.write_text(dumps(truncated(match, plays[2])), encoding="utf-8")  # trick 2, led
    loads(path.read_text(encoding="utf-8"))
    return path


def whist(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen(
        [sys.executable, "-m", "whist.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def long_match(tmp_path: Path) -> Path:
    """Several German Whist deals: their stock plays alone take a few seconds a deal."""
    match = new_match("german")
    rng = Random(7)
    bot = make_bot("easy")
    while not match.over and len(match.deals) < 4:
        deck = list(range(52))
        rng.shuffle(deck)
        deal = match.start_deal(deck, dealer=len(match.deals) % 2)
        while not deal.complete and not match.over:
            seat = match.next_seat()
            assert seat is not None
            match.apply(bot.choose(view_for(match, seat), rng, 0.0))
    path = tmp_path / "long.json"
    path.write_text(dumps(match), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["solve", "analyse"])
def test_ctrl_c_stops_a_long_solve_at_once_with_exit_130(command: str, tmp_path: Path) -> None:
    path = slow_position(tmp_path) if command == "solve" else long_match(tmp_path)
    process = whist(command, str(path))
    time.sleep(3.5)  # well into the work (the solver loads in ~1 s)
    assert process.poll() is None
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)
    assert process.returncode == 130, err
    assert time.monotonic() - sent < 1.0
    assert "interrupted" in err
    assert f"whist {command}: " in err.split("interrupted")[0]  # a progress line came first


def test_a_time_limit_gives_the_bounds_proved_so_far(tmp_path: Path) -> None:
    path = slow_position(tmp_path)
    started = time.monotonic()
    process = whist("solve", str(path), "--json", "--time-limit", "2")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert time.monotonic() - started < 10
    result = json.loads(out)
    assert result["complete"] is False and "time limit" in result["stopped"]
    bounds = [v for v in result["tricks"].values() if isinstance(v, list)]
    assert bounds and all(0 <= lo <= hi <= 25 for lo, hi in bounds)


def test_a_stopped_analysis_lists_the_plays_it_graded_in_play_order(tmp_path: Path) -> None:
    process = whist("analyse", str(long_match(tmp_path)), "--json", "--time-limit", "1.5")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    result = json.loads(out)
    assert result["complete"] is False and "time limit" in result["stopped"]
    last = result["deals"][-1]
    assert last["finished"] is False
    order = [(g["trick"], g["card"]) for g in last["plays"]]
    tricks = [t for t, _ in order]
    assert tricks == sorted(tricks)
    # cut short: plays left out, or the last one taken left with the bounds proved so far
    cut = [g for g in last["plays"] if isinstance(g["played"], list) or isinstance(g["best"], list)]
    assert len(order) < 52 or cut


def test_a_deal_graded_to_its_last_play_is_finished_though_time_runs_out_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Time running out just after a deal's last play was graded cuts nothing of that deal
    short: it is finished, and the next deal is listed with nothing graded. (Two threads
    raced there: the one that found the time over marked the deal cut short while the
    other was grading its last play, and a whole deal came out unfinished.)"""
    record = loads(long_match(tmp_path).read_text(encoding="utf-8"))
    limits = analysis.Limits(600.0)
    graded = 0

    def grade(position: Any, rng: Random, lim: Any, known: int | None = None) -> Any:
        nonlocal graded
        graded += 1
        if graded == 52:  # the first deal's last play: the time is over from now on
            limits.deadline = time.monotonic()
        card = position.action.card
        return analysis.Grade(0, position.action.seat, card, 0, 1.0, 1.0, [card], False)

    monkeypatch.setattr(analysis, "_grade", grade)
    deals = analysis.analyse(record, limits=limits)
    assert [(d.deal, d.finished, len(d.plays)) for d in deals] == [(0, True, 52), (1, False, 0)]
