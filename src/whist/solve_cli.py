"""``whist solve FILE [--json] [--time-limit S]``: the double-dummy analysis of one position.

For a record whose last deal stops during card play: every legal card of the seat to act,
with the tricks that seat's side takes from the trick in progress to the end of the deal,
all cards known and both sides playing for the deal's objective. Exit 0 (analysed), 1 (the
position is not one the solver takes: the message says why), 2 (unreadable or malformed
record, an action in it refused, or a bad command line), 130 (Ctrl-C). With a time limit,
cards not finished get the bounds proved so far and the output says so.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from whist.analysis import Limits, exact_position, most_tricks, solve_position
from whist.core.cards import Card, card_text
from whist.core.match import Match
from whist.core.state import Phase
from whist.records import Record, replay
from whist.replay_cli import read_record
from whist.watch import watched


class CannotSolve(Exception):
    """The record is fine but its last position is not one the solver can analyse."""


def prepared(command: str, path: str, seconds: float | None) -> tuple[Limits, Record, Match] | None:
    """What ``whist solve`` and ``whist analyse`` start from: the limits of
    ``--time-limit`` and the record in ``path`` replayed; None after one line on stderr
    saying why (a time limit that is not a positive number of seconds, a record that
    cannot be read, an action in it refused): the caller exits 2."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        print(
            f"whist {command}: --time-limit: must be a positive number of seconds", file=sys.stderr
        )
        return None
    record = read_record(path, command)
    if record is None:
        return None
    match, error = replay(record)
    if error is not None:
        print(
            f"whist {command}: deal {error.deal} action {error.action} is refused: {error.message}",
            file=sys.stderr,
        )
        return None
    return Limits(seconds), record, match


def run_solve(path: str, as_json: bool, seconds: float | None = None) -> int:
    loaded = prepared("solve", path, seconds)
    if loaded is None:
        return 2
    limits, record, match = loaded
    try:
        check(record, match)
    except CannotSolve as exc:
        print(f"whist solve: {exc}", file=sys.stderr)
        return 1
    deal = match.deal
    assert deal is not None

    def status() -> str:
        done, total, nodes = limits.under_way()
        if not total:
            return "solving…"
        return f"{done} of {total} cards solved, {nodes:,} positions searched"

    tricks = watched("solve", lambda: solve_position(deal, limits), limits, status)
    seat, most = deal.turn, most_tricks(deal.contract)
    finished = all(lo == hi for lo, hi in tricks.values())
    if as_json:
        print(json.dumps(document(seat, most, tricks, finished)))
        return 0
    side = f"seat {seat}" if match.players == 2 else f"seat {seat} and seat {(seat + 2) % 4}"
    print(f"Seat {seat} to play, playing for the {'most' if most else 'fewest'} tricks.")
    print(f"Tricks for {side} from this trick to the end of the deal, all cards known:")
    for card, (lo, hi) in sorted(tricks.items()):
        print(f"  {card_text(card):>3}  {lo}" if lo == hi else f"  {card_text(card):>3}  {lo}-{hi}")
    if not finished:
        print("Stopped at the time limit: a range is what was proved so far.")
    return 0


def document(
    seat: int, most: bool, tricks: dict[Card, tuple[int, int]], finished: bool
) -> dict[str, Any]:
    values: dict[str, Any] = {
        card_text(card): lo if lo == hi else [lo, hi] for card, (lo, hi) in sorted(tricks.items())
    }
    result: dict[str, Any] = {
        "seat": seat,
        "objective": "most" if most else "fewest",
        "tricks": values,
    }
    if not finished:
        result["complete"] = False
        result["stopped"] = "time limit: cards with [low, high] were not finished"
    return result


def check(record: Record, match: Match) -> None:
    """Raise ``CannotSolve`` unless the record stops at a card-play position the solver
    takes, with every card in play known."""
    deal = match.deal
    if deal is None or deal.complete or match.over:
        raise CannotSolve("the record's last deal is finished: nothing is left to play")
    if deal.phase is not Phase.PLAY:
        raise CannotSolve(f"the last deal stops before card play (phase: {deal.phase.value})")
    reason = exact_position(deal)
    if reason is not None:
        raise CannotSolve(reason)
    if record.deals[-1].known_from is None:
        raise CannotSolve(
            "the hidden cards of this position are a guess: the record was downloaded by "
            'one seat and its deck rebuilt (see its "reconstructed" field)'
        )
