"""What a deal's tricks are worth to a seat: the variant's own scoring (``Variant.points``),
read as this seat's side's points minus the other side's. MASTER averages these margins,
not trick counts, because thresholds matter (7 tricks in a high game, 6 or fewer in low)."""

from __future__ import annotations

from collections.abc import Sequence

from whist.core.state import Contract
from whist.core.views import View
from whist.variants import lookup


def margin(view: View, won: Sequence[int], contract: Contract | None) -> int:
    """The deal's margin for the seat's side if the sides end the deal with ``won`` tricks,
    played for ``contract`` (the view's, or one a simulation from a bid has reached)."""
    assert view.seat is not None and view.dealer is not None
    variant, _ = lookup(view.variant)
    mine = view.seat % 2
    points = variant.points(view.options, contract, view.dealer, won)
    return points[mine] - points[1 - mine]


def margins(view: View, tricks_left: int) -> list[int]:
    """``margins[t]``: the deal's margin for the seat's side if that side wins ``t`` of the
    ``tricks_left`` counted tricks still to be won (the tricks already won included)."""
    assert view.seat is not None
    mine = view.seat % 2
    table: list[int] = []
    for t in range(tricks_left + 1):
        won = [view.won[0], view.won[1]]
        won[mine] += t
        won[1 - mine] += tricks_left - t
        table.append(margin(view, won, view.contract))
    return table
