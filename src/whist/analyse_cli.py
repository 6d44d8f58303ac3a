"""``whist analyse FILE [--json] [--deal K] [--time-limit S]``: every card played, graded.

For each card played in card play (``whist.analysis``): the tricks the playing seat's side
takes from the trick in progress to the end of the deal with the card played and with the
best card, and the difference; per deal and seat the tricks lost. Exit codes as ``whist
solve``: 0 analysed, 1 nothing the analysis can grade (the message says why), 2 an
unreadable or malformed record, an action in it refused, or a bad command line; 130 Ctrl-C.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from whist.analysis import (
    CannotAnalyse,
    DealAnalysis,
    Grade,
    Progress,
    analyse,
    default_threads,
    to_json,
)
from whist.core.cards import card_text
from whist.solve_cli import prepared
from whist.watch import watched


def run_analyse(
    path: str, as_json: bool, deal: int | None, seconds: float | None, threads: int | None = None
) -> int:
    loaded = prepared("analyse", path, seconds)
    if loaded is None:
        return 2
    limits, record, _ = loaded
    if deal is not None and not 0 <= deal < len(record.deals):
        last = len(record.deals) - 1
        has = f"deals 0..{last}" if last >= 0 else "no deal"
        print(f"whist analyse: --deal {deal}: the record has {has}", file=sys.stderr)
        return 2
    where: list[Progress] = []

    def status() -> str:
        if not where:
            return "starting…"
        now = where[-1]
        text = f"deal {now.deal}: {now.play} of {now.plays} plays graded"
        done, total, _ = limits.under_way()
        if total:
            text += f", {done} of {total} cards of the solves under way"
        return text

    try:
        deals = watched(
            "analyse",
            lambda: analyse(record, deal, limits, where.append, threads or default_threads()),
            limits,
            status,
        )
    except CannotAnalyse as exc:
        print(f"whist analyse: {exc}", file=sys.stderr)
        return 1
    finished = all(d.finished for d in deals) and not limits.asked
    if as_json:
        result: dict[str, Any] = to_json(deals)
        if not finished:
            result["complete"] = False
            result["stopped"] = "time limit: the plays not listed were not graded"
        print(json.dumps(result))
        return 0
    for analysis in deals:
        print_deal(analysis)
    if not finished:
        print("Stopped at the time limit: the plays not listed were not graded.")
    return 0


def print_deal(analysis: DealAnalysis) -> None:
    objective = "most" if analysis.most else "fewest"
    print(f"Deal {analysis.deal}, played for the {objective} tricks:")
    if analysis.graded_from:
        print(f"  (graded from action {analysis.graded_from}: before it the deck is rebuilt)")
    for grade in analysis.plays:
        print("  " + play_line(grade))
    lost = ", ".join(f"seat {seat} {_number(v)}" for seat, v in analysis.lost().items())
    print(f"  Tricks lost: {lost}")
    if any(not grade.exact for grade in analysis.plays):
        rough = analysis.lost(exact=False).items()
        print("  Tricks lost by estimate: " + ", ".join(f"seat {s} {_number(v)}" for s, v in rough))


def play_line(grade: Grade) -> str:
    card = card_text(grade.card)
    head = f"trick {grade.trick + 1:>2}  seat {grade.seat}  {card:>3}"
    if not grade.settled:
        return f"{head}  {_value(grade.played)} (best {_value(grade.best)}; not finished)"
    mark = "" if grade.exact else "  (estimate)"
    if grade.lost == 0:
        return f"{head}  {_number(grade.played)}{mark}"
    best = " ".join(card_text(c) for c in grade.best_cards)
    return (
        f"{head}  {_number(grade.played)}, best {_number(grade.best)} with {best}: "
        f"-{_number(grade.lost)}{mark}"
    )


def _value(v: float | tuple[int, int]) -> str:
    return f"{v[0]}-{v[1]}" if isinstance(v, tuple) else _number(v)


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}"
