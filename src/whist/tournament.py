"""Duplicate tournaments between two bot levels: ``whist tournament VARIANT --a L --b L``.

Duplicate deals cancel out the luck of the cards. Deal ``i`` shuffles one deck with
``Random(f"{seed}:deck:{i}")`` and is dealt by seat ``i % players``; it is played twice from
a fresh match each time:

* orientation 0: bot A holds side 0 (seats 0 and 2, or seat 0), bot B side 1;
* orientation 1: the same deck and dealer with the sides swapped.

The score of the duplicate deal is ``diff_i`` = (A's points − B's points) in orientation 0
plus the same in orientation 1, points being ``match.deal.points`` of the deal. A bot that
plays each hand better scores a positive mean over the deals; the statistics give the mean,
its 95% confidence interval (Student t), and how many duplicate deals A won, lost or tied.

Every seat's bot has its own ``Random(f"{seed}:{i}:{orientation}:{seat}")``, so a result
depends only on (variant, options, levels, deals, seed, budget) and the bots — never on the
number of worker processes nor on the order in which they finish (results are put back in
deal order). Decision times (``choose`` alone, measured with ``time.perf_counter``) are the
one thing that changes from run to run.

The command-line part (``run_cli``: table, ``--json``, ``--chart``) is at the end; matplotlib
is imported only when a chart is asked for.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any, TextIO

from whist.bots import LEVELS, STUDY_LEVELS, make_bot
from whist.bots.base import Bot
from whist.core.actions import Bid, Bottom, ChooseTrump, Play, Resign, Take, action_to_json
from whist.core.errors import WhistError
from whist.core.options import OptionValue
from whist.core.views import view_for
from whist.variants import new_match, resolve

BotFactory = Callable[[str], Bot]

DEFAULT_BUDGET = 1.0  # seconds per decision handed to ``Bot.choose``
CONFIDENCE = 0.95
EXIT_OK = 0
EXIT_BOT_ERROR = 1
EXIT_USAGE = 2
EXIT_CHART_FAILED = 3  # the results were printed, the chart could not be written
EXIT_INTERRUPTED = 130


class BotError(RuntimeError):
    """A bot returned an action that is not one of its view's legal actions (a bot bug)."""

    def __init__(self, level: str, seat: int, action: str, detail: str = "") -> None:
        self.level = level
        self.seat = seat
        self.action = action
        self.detail = detail
        message = f"{level} bot at seat {seat} chose an illegal action {action}"
        super().__init__(f"{message} ({detail})" if detail else message)

    def __reduce__(self) -> tuple[Any, ...]:  # survives the trip back from a worker process
        return (type(self), (self.level, self.seat, self.action, self.detail))


# ------------------------------------------------------------------------------ one deal
@dataclass(frozen=True)
class DealResult:
    """One deal played to its end from a fresh match."""

    dealer: int
    deck: tuple[int, ...]
    levels: tuple[str, ...]  # level of each seat
    points: tuple[int, int]  # per side (side = seat % 2)
    tricks: tuple[int, int]  # counted tricks per side
    seat_ms: tuple[tuple[float, ...], ...]  # decision times of each seat, in ms
    mode: str | None = None  # the contract's mode (high, low, spel, noll, pass), if any

    @property
    def decision_ms(self) -> dict[str, list[float]]:
        """Decision times in ms per bot level (seats of the same level together)."""
        times: dict[str, list[float]] = {}
        for level, seat_times in zip(self.levels, self.seat_ms, strict=True):
            times.setdefault(level, []).extend(seat_times)
        return times


def play_deal(
    variant: str,
    options: Mapping[str, OptionValue],
    deck: Sequence[int],
    dealer: int,
    levels_by_seat: Sequence[str],
    seed: int | str,
    *,
    index: int = 0,
    orientation: int = 0,
    budget: float = DEFAULT_BUDGET,
    factory: BotFactory = make_bot,
) -> DealResult:
    """Play one deal of a fresh match of ``variant`` with a bot of ``levels_by_seat[seat]``
    at each seat. Seat ``s`` draws from ``Random(f"{seed}:{index}:{orientation}:{s}")``.
    Raises ``BotError`` when a bot chooses an action that is not legal for it."""
    match = new_match(variant, options)
    if len(levels_by_seat) != match.players:
        raise ValueError(f"{variant} has {match.players} seats, got {len(levels_by_seat)} bots")
    deal = match.start_deal(deck, dealer)
    levels = tuple(levels_by_seat)
    bots = [factory(level) for level in levels]
    rngs = [Random(f"{seed}:{index}:{orientation}:{seat}") for seat in range(match.players)]
    times: list[list[float]] = [[] for _ in levels]
    clock = time.perf_counter
    while not deal.complete and not match.over:
        seat = match.next_seat()
        if seat is None:  # pragma: no cover - an incomplete deal always has a seat to act
            break
        view = view_for(match, seat)
        start = clock()
        action = bots[seat].choose(view, rngs[seat], budget)
        times[seat].append((clock() - start) * 1000.0)
        if action not in view.legal:
            raise BotError(levels[seat], seat, _action_text(action), "not in view.legal")
        try:
            match.apply(action)
        except WhistError as error:  # pragma: no cover - legal actions are accepted
            raise BotError(levels[seat], seat, _action_text(action), error.message) from None
    return DealResult(
        dealer=dealer,
        deck=tuple(deck),
        levels=levels,
        points=(deal.points[0], deal.points[1]),
        tricks=(deal.won[0], deal.won[1]),
        seat_ms=tuple(tuple(t) for t in times),
        mode=deal.contract.mode if deal.contract is not None else None,
    )


def _action_text(action: object) -> str:
    if isinstance(action, Play | Bid | Bottom | ChooseTrump | Take | Resign):
        return json.dumps(action_to_json(action))
    return repr(action)  # not an action at all


# ---------------------------------------------------------------------- duplicate deals
def duplicate_deck(seed: int | str, index: int) -> list[int]:
    """The deck of duplicate deal ``index`` (top first)."""
    deck = list(range(52))
    Random(f"{seed}:deck:{index}").shuffle(deck)
    return deck


def seat_levels(players: int, first: str, second: str) -> tuple[str, ...]:
    """``first`` on side 0 (even seats), ``second`` on side 1 (odd seats)."""
    return tuple(first if seat % 2 == 0 else second for seat in range(players))


MIXED = "mixed"  # a duplicate deal whose two plays reached different contract modes


@dataclass(frozen=True)
class DuplicateResult:
    """Deal ``index`` played in both orientations; ``plays[o]`` is orientation ``o``."""

    index: int
    plays: tuple[DealResult, DealResult]

    @property
    def a_points(self) -> tuple[int, int]:
        """A's points in orientation 0 and 1 (A sits on side 0, then on side 1)."""
        return (self.plays[0].points[0], self.plays[1].points[1])

    @property
    def b_points(self) -> tuple[int, int]:
        return (self.plays[0].points[1], self.plays[1].points[0])

    @property
    def diff(self) -> int:
        return sum(self.a_points) - sum(self.b_points)

    @property
    def mode(self) -> str | None:
        """The contract's mode when both plays reached the same one, else ``MIXED``."""
        first, second = self.plays[0].mode, self.plays[1].mode
        return first if first == second else MIXED

    @property
    def a_ms(self) -> list[float]:
        return _side_times(self.plays[0], 0) + _side_times(self.plays[1], 1)

    @property
    def b_ms(self) -> list[float]:
        return _side_times(self.plays[0], 1) + _side_times(self.plays[1], 0)


def _side_times(play: DealResult, side: int) -> list[float]:
    return [t for seat, ts in enumerate(play.seat_ms) if seat % 2 == side for t in ts]


def play_duplicate(
    variant: str,
    options: Mapping[str, OptionValue],
    a: str,
    b: str,
    index: int,
    seed: int | str,
    *,
    budget: float = DEFAULT_BUDGET,
    factory: BotFactory = make_bot,
) -> DuplicateResult:
    """Duplicate deal ``index``: the same deck and dealer, A on side 0 then on side 1."""
    players = resolve(variant, options)[0].players
    deck = duplicate_deck(seed, index)
    dealer = index % players
    plays = tuple(
        play_deal(
            variant,
            options,
            deck,
            dealer,
            seat_levels(players, a, b) if orientation == 0 else seat_levels(players, b, a),
            seed,
            index=index,
            orientation=orientation,
            budget=budget,
            factory=factory,
        )
        for orientation in (0, 1)
    )
    return DuplicateResult(index, (plays[0], plays[1]))


# ------------------------------------------------------------------------------ statistics
def _central_t(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom (exact finite series,
    Abramowitz & Stegun 26.7.3–26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2:
        if df == 1:
            return 2.0 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(1, (df - 3) // 2 + 1):
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        return 2.0 / math.pi * (theta + sin * total)
    term = total = 1.0
    for k in range(1, (df - 2) // 2 + 1):
        term *= cos2 * (2 * k - 1) / (2 * k)
        total += term
    return sin * total


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t with ``df`` >= 1 degrees of freedom.

    Exact (bisection on the closed-form distribution) up to 30 degrees of freedom; above,
    the Cornish–Fisher expansion (A&S 26.7.5), within 1e-7 of the exact value."""
    if not 0.5 < p < 1.0:
        raise ValueError("p must be between 0.5 and 1")
    if df < 1:
        raise ValueError("degrees of freedom must be >= 1")
    if df > 30:
        z = statistics.NormalDist().inv_cdf(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
        return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
    target = 2.0 * p - 1.0
    low, high = 0.0, 1.0
    while _central_t(high, df) < target:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if _central_t(mid, df) < target:
            low = mid
        else:
            high = mid
        if high - low <= 1e-14 * high:
            break
    return (low + high) / 2.0


@dataclass(frozen=True)
class Summary:
    """Mean of the per-deal differences with its confidence interval (None when n < 2)."""

    n: int
    mean: float
    sd: float | None
    ci_low: float | None
    ci_high: float | None
    won: int
    lost: int
    tied: int

    @property
    def half_width(self) -> float | None:
        if self.ci_low is None or self.ci_high is None:
            return None
        return (self.ci_high - self.ci_low) / 2.0


def summarize(diffs: Sequence[float], confidence: float = CONFIDENCE) -> Summary:
    """mean ± t(1 − α/2, n − 1)·sd/√n, and won/lost/tied = diffs > 0, < 0, = 0."""
    n = len(diffs)
    if n == 0:
        raise ValueError("no deals to summarize")
    mean = statistics.fmean(diffs)
    sd = low = high = None
    if n >= 2:
        sd = statistics.stdev(diffs)
        half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
        low, high = mean - half, mean + half
    return Summary(
        n=n,
        mean=mean,
        sd=sd,
        ci_low=low,
        ci_high=high,
        won=sum(1 for d in diffs if d > 0),
        lost=sum(1 for d in diffs if d < 0),
        tied=sum(1 for d in diffs if d == 0),
    )


def running_intervals(
    diffs: Sequence[float], confidence: float = CONFIDENCE
) -> list[tuple[float, float | None, float | None]]:
    """(mean, ci_low, ci_high) after each deal: Welford's running mean and variance."""
    rows: list[tuple[float, float | None, float | None]] = []
    mean = m2 = 0.0
    for n, value in enumerate(diffs, start=1):
        delta = value - mean
        mean += delta / n
        m2 += delta * (value - mean)
        if n < 2:
            rows.append((mean, None, None))
            continue
        half = t_quantile(0.5 + confidence / 2.0, n - 1) * math.sqrt(m2 / (n - 1) / n)
        rows.append((mean, mean - half, mean + half))
    return rows


@dataclass(frozen=True)
class DecisionStats:
    """Decision times of one bot over all its decisions, in milliseconds."""

    level: str
    count: int
    mean: float | None
    median: float | None
    p95: float | None

    @classmethod
    def of(cls, level: str, times_ms: Sequence[float]) -> DecisionStats:
        if not times_ms:
            return cls(level, 0, None, None, None)
        ordered = sorted(times_ms)
        return cls(
            level=level,
            count=len(ordered),
            mean=statistics.fmean(ordered),
            median=statistics.median(ordered),
            p95=percentile(ordered, 95.0),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "count": self.count,
            "mean": _round(self.mean, 4),
            "median": _round(self.median, 4),
            "p95": _round(self.p95, 4),
        }


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of sorted values, interpolated linearly between ranks."""
    if not ordered:
        raise ValueError("no values")
    position = (len(ordered) - 1) * q / 100.0
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


# ------------------------------------------------------------------------------ tournament
@dataclass(frozen=True)
class TournamentResult:
    variant: str  # the variant's key
    options: dict[str, OptionValue]  # every option, resolved
    a: str
    b: str
    seed: int
    budget: float
    workers: int
    duplicates: tuple[DuplicateResult, ...]  # in deal order
    summary: Summary
    decision: dict[str, DecisionStats]  # "a" and "b"
    elapsed_s: float

    @property
    def deals(self) -> int:
        return len(self.duplicates)

    @property
    def diffs(self) -> list[int]:
        return [d.diff for d in self.duplicates]

    def by_mode(self) -> dict[str, Summary]:
        """The summary per contract mode, over the duplicate deals whose two plays reached
        that mode (``MIXED``: the others); empty for variants without modes.  Inference is
        calibrated per variant and mode from these."""
        groups: dict[str, list[int]] = {}
        for d in self.duplicates:
            if d.mode is not None:
                groups.setdefault(d.mode, []).append(d.diff)
        return {mode: summarize(diffs) for mode, diffs in sorted(groups.items())}

    def to_json(self, *, diffs: bool = True) -> dict[str, Any]:
        s = self.summary
        data: dict[str, Any] = {
            "variant": self.variant,
            "options": self.options,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "budget": self.budget,
            "workers": self.workers,
            **_summary_json(s),
            "confidence": CONFIDENCE,
            "decision_ms": {role: stats.to_json() for role, stats in self.decision.items()},
            "elapsed_s": round(self.elapsed_s, 3),
        }
        modes = self.by_mode()
        if modes:
            data["by_mode"] = {mode: _summary_json(m) for mode, m in modes.items()}
        if diffs:
            data["diffs"] = self.diffs
        return data


def _summary_json(s: Summary) -> dict[str, Any]:
    return {
        "deals": s.n,
        "mean": round(s.mean, 6),
        "sd": _round(s.sd, 6),
        "ci_low": _round(s.ci_low, 6),
        "ci_high": _round(s.ci_high, 6),
        "won": s.won,
        "lost": s.lost,
        "tied": s.tied,
    }


@dataclass(frozen=True)
class _Spec:
    """What a worker needs to play duplicate deals (picklable)."""

    variant: str
    options: dict[str, OptionValue]
    a: str
    b: str
    seed: int
    budget: float
    factory: BotFactory = field(default=make_bot)


def _play_chunk(spec: _Spec, indices: Sequence[int]) -> list[DuplicateResult]:
    """The task run by a worker process: several duplicate deals in a row."""
    return [
        play_duplicate(
            spec.variant,
            spec.options,
            spec.a,
            spec.b,
            i,
            spec.seed,
            budget=spec.budget,
            factory=spec.factory,
        )
        for i in indices
    ]


def _chunks(deals: int, workers: int) -> list[range]:
    """About eight tasks per worker, at most 25 deals each, to amortise the task overhead
    and still balance the load."""
    size = max(1, min(25, math.ceil(deals / (workers * 8))))
    return [range(start, min(start + size, deals)) for start in range(0, deals, size)]


def run_tournament(
    variant: str,
    options: Mapping[str, Any] | None,
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    *,
    budget: float = DEFAULT_BUDGET,
    factory: BotFactory = make_bot,
) -> TournamentResult:
    """Play ``deals`` duplicate deals of A against B and summarize them.

    ``workers`` > 1 spreads chunks of deals over that many processes ("spawn" start method,
    so it behaves the same everywhere; ``factory`` must then be a module-level function).
    Raises ``WhistError`` for a bad variant or option, ``ValueError`` for a bad level or
    count, ``BotError`` for a bot that chooses an illegal action."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if not budget > 0:
        raise ValueError("budget must be a positive number of seconds")
    spec_variant, resolved = resolve(variant, options or {})
    a_level, b_level = factory(a).level, factory(b).level  # ValueError for an unknown level
    spec = _Spec(spec_variant.key, resolved, a_level, b_level, seed, budget, factory)
    start = time.perf_counter()
    results: dict[int, DuplicateResult] = {}
    with _Progress(deals, f"{spec.variant} {a_level} vs {b_level}", progress) as bar:
        for chunk in _results(spec, deals, workers):
            for result in chunk:
                results[result.index] = result
            bar.update(len(chunk))
    duplicates = tuple(results[i] for i in range(deals))
    a_ms = [t for d in duplicates for t in d.a_ms]
    b_ms = [t for d in duplicates for t in d.b_ms]
    return TournamentResult(
        variant=spec.variant,
        options=dict(resolved),
        a=a_level,
        b=b_level,
        seed=seed,
        budget=budget,
        workers=workers,
        duplicates=duplicates,
        summary=summarize([d.diff for d in duplicates]),
        decision={"a": DecisionStats.of(a_level, a_ms), "b": DecisionStats.of(b_level, b_ms)},
        elapsed_s=time.perf_counter() - start,
    )


def _results(spec: _Spec, deals: int, workers: int) -> Iterator[list[DuplicateResult]]:
    """Chunks of results as they complete (in any order)."""
    chunks = _chunks(deals, workers)
    if workers == 1 or len(chunks) == 1:
        for chunk in chunks:
            for i in chunk:  # one deal at a time, so the progress bar moves smoothly
                yield _play_chunk(spec, [i])
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    executor = ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=context)
    try:
        futures = [executor.submit(_play_chunk, spec, list(chunk)) for chunk in chunks]
        for future in as_completed(futures):
            yield future.result()  # re-raises a worker's error (a BotError) here
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


class _Progress:
    """A tqdm bar on stderr, or nothing when ``enabled`` is false."""

    def __init__(self, total: int, description: str, enabled: bool) -> None:
        self._bar: Any = None
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(
                total=total, desc=description, unit="deal", file=sys.stderr, leave=False
            )

    def __enter__(self) -> _Progress:
        return self

    def update(self, count: int) -> None:
        if self._bar is not None:
            self._bar.update(count)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


# ------------------------------------------------------------------------------ reporting
def format_table(result: TournamentResult) -> str:
    """A plain-text report of a tournament."""
    s = result.summary
    options = ", ".join(f"{k}={_option_text(v)}" for k, v in result.options.items()) or "-"
    if s.half_width is None:
        mean = f"{s.mean:+.3f} (one deal: no confidence interval)"
    else:
        mean = f"{s.mean:+.3f} ± {s.half_width:.3f}  (95% CI {s.ci_low:+.3f} .. {s.ci_high:+.3f})"
    if s.ci_low is not None and s.ci_low > 0:
        verdict = f"A ({result.a}) is stronger (the interval lies above 0)"
    elif s.ci_high is not None and s.ci_high < 0:
        verdict = f"B ({result.b}) is stronger (the interval lies below 0)"
    else:
        verdict = "no significant difference (the interval contains 0)"
    rows = [
        ("Variant", result.variant),
        ("Options", options),
        ("Match-up", f"A = {result.a}  vs  B = {result.b}"),
        ("Deals", f"{result.deals} duplicate deals (each played twice, sides swapped)"),
        ("Seed", f"{result.seed}  (budget {result.budget:g} s per decision)"),
        ("Mean A − B", f"{mean}  points per duplicate deal"),
        ("Verdict", verdict),
        ("Won/lost/tied", f"{s.won} / {s.lost} / {s.tied}  (duplicate deals, for A)"),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [f"{label:<{width}}  {value}" for label, value in rows]
    lines.append("")
    lines.append(f"{'Decision time (ms)':<24}{'mean':>10}{'median':>10}{'p95':>10}{'count':>9}")
    for role, stats in result.decision.items():
        name = f"{role.upper()} {stats.level}"
        lines.append(
            f"  {name:<22}{_ms(stats.mean):>10}{_ms(stats.median):>10}{_ms(stats.p95):>10}"
            f"{stats.count:>9}"
        )
    lines.append(
        f"({result.elapsed_s:.1f} s with {result.workers} worker"
        f"{'s' if result.workers != 1 else ''})"
    )
    return "\n".join(lines)


def _option_text(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def draw_chart(result: TournamentResult, path: str) -> None:
    """A PNG: the per-deal differences with the running mean (top), and the running mean
    with its 95% confidence band (bottom), against the number of deals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    diffs = result.diffs
    deals = list(range(1, len(diffs) + 1))
    running = running_intervals(diffs)
    means = [row[0] for row in running]
    band = [(n, lo, hi) for n, (_, lo, hi) in zip(deals, running, strict=True) if lo is not None]
    figure, (top, bottom) = plt.subplots(
        2, 1, figsize=(10, 7), sharex=True, gridspec_kw={"height_ratios": [3, 2]}
    )
    try:
        colours = ["tab:green" if d > 0 else "tab:red" if d < 0 else "tab:gray" for d in diffs]
        if len(diffs) <= 400:
            top.bar(deals, diffs, width=1.0, color=colours, alpha=0.5, label="one deal")
        else:  # bars would merge into a block: dots show the spread better
            top.scatter(deals, diffs, s=4, c=colours, alpha=0.4, label="one deal")
        top.plot(deals, means, color="black", linewidth=1.5, label="running mean")
        top.axhline(0, color="gray", linewidth=0.8)
        top.set_ylabel("A − B (points)")
        top.legend(loc="upper right", fontsize="small")
        top.grid(alpha=0.3)
        if band:
            bottom.fill_between(
                [n for n, _, _ in band],
                [lo for _, lo, _ in band if lo is not None],
                [hi for _, _, hi in band if hi is not None],
                color="tab:blue",
                alpha=0.25,
                label="95% confidence interval",
            )
        bottom.plot(deals, means, color="tab:blue", linewidth=1.5, label="running mean")
        bottom.axhline(0, color="gray", linewidth=0.8)
        bottom.set_xlabel("duplicate deals played")
        bottom.set_ylabel("mean A − B (points)")
        bottom.legend(loc="upper right", fontsize="small")
        bottom.grid(alpha=0.3)
        if len(band) > 3:  # do not let the first, very wide intervals flatten the rest
            tail = band[len(band) // 10 :]
            low = min(min(lo for _, lo, _ in tail if lo is not None), 0.0)
            high = max(max(hi for _, _, hi in tail if hi is not None), 0.0)
            pad = (high - low) * 0.15 or 1.0
            bottom.set_ylim(low - pad, high + pad)
        s = result.summary
        interval = "" if s.half_width is None else f" ± {s.half_width:.2f}"
        figure.suptitle(
            f"{result.variant}: A = {result.a} vs B = {result.b}\n"
            f"{result.deals} duplicate deals, mean {s.mean:+.2f}{interval} (95%), "
            f"won/lost/tied {s.won}/{s.lost}/{s.tied}, seed {result.seed}"
        )
        figure.tight_layout()
        figure.savefig(path, dpi=110, format="png")  # never a suffix added to the name
    finally:
        plt.close(figure)


# ------------------------------------------------------------------------ command line
def run_cli(
    args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """``whist tournament``: exit 0, 1 for a bot bug, 2 for a bad command line (a ``--chart``
    that cannot be written included: refused before the run), 3 when the results were
    printed but the chart could not be written after all, 130 when interrupted."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr

    def usage(message: str) -> int:
        err.write(f"whist tournament: {message}\n")
        return EXIT_USAGE

    from whist.terminal import UsageError, parse_options

    try:
        options = parse_options(args.options or [])
        resolve(str(args.variant), options)
    except UsageError as exc:
        return usage(str(exc))
    except WhistError as exc:
        return usage(exc.message)
    for flag, level in (("--a", args.a), ("--b", args.b)):
        if str(level).lower() not in (*LEVELS, *STUDY_LEVELS):
            return usage(f"{flag}: unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if args.deals < 1:
        return usage("--deals: must be at least 1")
    if args.workers < 1:
        return usage("--workers: must be at least 1")
    if not args.budget > 0:
        return usage("--budget: must be a positive number of seconds")
    if args.chart is not None:
        problem = chart_problem(args.chart)
        if problem is not None:
            return usage(f"--chart: {problem}")
    try:
        result = run_tournament(
            str(args.variant),
            options,
            str(args.a).lower(),
            str(args.b).lower(),
            args.deals,
            seed=args.seed,
            workers=args.workers,
            progress=not args.quiet,
            budget=args.budget,
        )
    except BotError as exc:
        err.write(f"whist tournament: bot bug: {exc}\n")
        return EXIT_BOT_ERROR
    except KeyboardInterrupt:
        err.write("whist tournament: interrupted\n")
        return EXIT_INTERRUPTED
    # The results come first: a chart that cannot be written must not lose them.
    failure = None if args.chart is None else write_chart(result, args.chart)
    written = args.chart is not None and failure is None
    if args.json:
        data = result.to_json()
        if written:
            data["chart"] = args.chart
        out.write(json.dumps(data) + "\n")
    else:
        out.write(format_table(result) + "\n")
        if written:
            out.write(f"Chart written to {args.chart}\n")
    if failure is not None:
        err.write(f"whist tournament: {args.chart}: the chart was not written ({failure})\n")
        return EXIT_CHART_FAILED
    return EXIT_OK


def chart_problem(path: str) -> str | None:
    """Why ``--chart PATH`` could not be written, or None. Asked before the tournament
    runs, so that hours of deals do not end in a chart that cannot be saved."""
    target = Path(path)
    if target.is_dir():
        return f"{path} is a folder; name a file ending in .png"
    if not path.lower().endswith(".png"):
        return f"{path}: the chart is a PNG; name a file ending in .png"
    folder = target.parent
    if not folder.is_dir():
        return f"{folder}: no such folder" if not folder.exists() else f"{folder} is not a folder"
    if target.exists() and not target.is_file():
        return f"{path} exists and is not a file"
    try:
        # A nameless file that vanishes on close: the only sure test of a folder
        # (permissions, read-only mounts, root's exemption from both).
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"cannot write in {folder} ({exc.strerror or exc})"
    if target.exists() and not os.access(target, os.W_OK):
        return f"{path} is not writable"
    if importlib.util.find_spec("matplotlib") is None:
        return 'needs matplotlib: pip install -e ".[chart]"'
    return None


def write_chart(result: TournamentResult, path: str) -> str | None:
    """Draw the chart to ``path``; None when written, else why not, with no half-written
    file left behind where there was none."""
    existed = os.path.lexists(path)
    try:
        draw_chart(result, path)
    except Exception as exc:  # disk full, a broken matplotlib: the results still count
        if not existed:
            with contextlib.suppress(OSError):
                os.unlink(path)
        return str(exc) or type(exc).__name__
    return None
