"""``whist solve FILE [--json]``: the double-dummy analysis players see after a deal.

For a record whose last deal stops during card play: every legal card of the seat to act,
with the tricks that seat's side takes from the trick in progress to the end of the deal,
all cards known and both sides playing for the deal's objective. Exit 0 (analysed), 1 (the
position is not one the solver takes: the message says why), 2 (unreadable or malformed
record, or an action in it refused)."""

from __future__ import annotations

import json
import sys

from whist.core.cards import Card, Hand, card_text
from whist.core.match import Match
from whist.core.state import Deal, Phase
from whist.records import replay
from whist.replay_cli import read_record

LOW_MODES = frozenset({"low", "noll", "pass"})  # contracts played for the fewest tricks


class CannotSolve(Exception):
    """The record is fine but its last position is not one the solver can analyse."""


def run_solve(path: str, as_json: bool) -> int:
    record = read_record(path, "solve")
    if record is None:
        return 2
    match, error = replay(record)
    if error is not None:
        print(
            f"whist solve: deal {error.deal} action {error.action} is refused: {error.message}",
            file=sys.stderr,
        )
        return 2
    try:
        seat, most, tricks = analyse(match)
    except CannotSolve as exc:
        print(f"whist solve: {exc}", file=sys.stderr)
        return 1
    texts = {card_text(card): count for card, count in sorted(tricks.items())}
    objective = "most" if most else "fewest"
    if as_json:
        print(json.dumps({"seat": seat, "objective": objective, "tricks": texts}))
        return 0
    side = f"seat {seat}" if match.players == 2 else f"seat {seat} and seat {(seat + 2) % 4}"
    print(f"Seat {seat} to play, playing for the {objective} tricks.")
    print(f"Tricks for {side} from this trick to the end of the deal, all cards known:")
    for text_, count in texts.items():
        print(f"  {text_:>3}  {count}")
    return 0


def analyse(match: Match) -> tuple[int, bool, dict[Card, int]]:
    """(seat to act, whether its side plays for the most tricks, tricks per legal card)."""
    deal = match.deal
    if deal is None or deal.complete or match.over:
        raise CannotSolve("the record's last deal is finished: nothing is left to play")
    if deal.phase is not Phase.PLAY:
        raise CannotSolve(f"the last deal stops before card play (phase: {deal.phase.value})")
    if deal.stage == 1:
        raise CannotSolve(
            "the stock is not used up yet: the analysis covers two-player positions with no "
            "stock left"
        )
    if deal.table_up and not deal.tricks:
        raise CannotSolve(
            "Japanese Whist trick 1 is played from the table before the hands are picked "
            "up: the analysis starts from trick 2"
        )
    from whist.solver import solve  # numba: loaded only when there is something to solve

    hands, blockers = _holdings(deal)
    most = deal.contract is None or deal.contract.mode not in LOW_MODES
    tricks = solve(hands, deal.trump, deal.leader, deal.trick, most, blockers or None)
    return deal.turn, most, tricks


def _holdings(deal: Deal) -> tuple[list[Hand], dict[Card, Card]]:
    """Every seat's unplayed cards; Japanese table cards with the face-down card of each
    pile blocked by the face-up card on it."""
    hands = list(deal.hands)
    blockers: dict[Card, Card] = {}
    for seat, (ups, downs) in enumerate(zip(deal.table_up, deal.table_down, strict=True)):
        for up, down in zip(ups, downs, strict=True):
            for card in (up, down):
                if card is not None:
                    hands[seat] |= 1 << card
            if up is not None and down is not None:
                blockers[down] = up
    return hands, blockers
