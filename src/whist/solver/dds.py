"""Four-hand most-tricks positions through DDS (Bo Haglund's double-dummy solver, via the
``endplay`` binding): the reference our solver is tested against, and what MASTER uses at
play time for those positions early in a deal, where DDS is the faster of the two.
Misère and two-hand positions are not DDS's game; they stay with ``whist.solver``."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from types import ModuleType

# SolveBoard's thread 0 holds one search's memory: two threads calling it at once (an
# analysis grading plays side by side) corrupt each other's ("Sum 2 is not four").
_solving = threading.Lock()


def _binding() -> ModuleType:
    # Imported on first use: the `endplay` package also imports its dealer and matplotlib,
    # 0.4 s at every start of a server or a command that may never ask DDS anything.
    from endplay import _dds

    return _dds


def single_thread() -> None:
    """Make DDS solve on one thread (benchmarks; each bot worker process is one thread)."""
    _binding().SetMaxThreads(1)


def dds_solve(
    hands: Sequence[int], trump: int | None, leader: int, trick: Sequence[int]
) -> dict[int, int]:
    """DDS's ``SolveBoard`` for every card (``solutions=3``): ``{card: tricks}`` for the side
    to act, the current trick included, in our card numbering (DDS counts suits S H D C =
    0..3 and 4 = no trump, ranks 2..14 as bits, seats clockwise, ``first`` = the seat that
    led the current trick)."""
    _dds = _binding()
    deal = _dds.deal()
    deal.trump = 4 if trump is None else trump
    deal.first = leader
    for i in range(3):
        deal.currentTrickSuit[i] = trick[i] // 13 if i < len(trick) else 0
        deal.currentTrickRank[i] = trick[i] % 13 + 2 if i < len(trick) else 0
    for seat in range(4):
        for suit in range(4):
            deal.remainCards[seat][suit] = ((hands[seat] >> (13 * suit)) & 0x1FFF) << 2
    future = _dds.futureTricks()
    with _solving:
        _dds.SolveBoard(deal, -1, 3, 1, future, 0)  # positions come checked by the caller
    out: dict[int, int] = {}
    for i in range(future.cards):
        held = (1 << future.rank[i]) | future.equals[i]
        for rank in range(2, 15):
            if held >> rank & 1:
                out[future.suit[i] * 13 + rank - 2] = future.score[i]
    return out
