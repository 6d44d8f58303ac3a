"""The one "tricks over six / fewest tricks" scoring (core.rules.bid_points, fewest_points),
as the three variants that share it score their deals."""

from __future__ import annotations

from typing import Any

import pytest

from whist.core.rules import bid_points, fewest_points


@pytest.mark.parametrize(
    ("won", "makers", "kwargs", "points"),
    [
        ([9, 4], 0, {}, [3, 0]),  # made: the tricks over six
        ([6, 7], 0, {}, [0, 1]),  # set by one: the defenders score their seventh trick
        ([5, 8], 0, {}, [0, 2]),  # set: the other side's tricks over six
        ([5, 8], 0, {"set_factor": 2}, [0, 4]),  # Plockwhist, Swedish, fail_double
        ([13, 0], 1, {"set_factor": 2}, [14, 0]),
        ([5, 8], 0, {"lose_under_seven": True}, [-2, 0]),  # South Dakota
        ([8, 5], 0, {"lose_under_seven": True}, [2, 0]),
    ],
)
def test_a_bid_of_seven_tricks_scores_over_six_or_is_set(
    won: list[int], makers: int, kwargs: dict[str, Any], points: list[int]
) -> None:
    assert bid_points(won, makers, **kwargs) == points


@pytest.mark.parametrize(
    ("won", "kwargs", "points"),
    [
        ([4, 9], {}, [3, 0]),  # fewer tricks: a point per trick under seven
        ([7, 6], {}, [0, 1]),
        ([0, 13], {}, [7, 0]),
        ([4, 9], {"lose_over_six": True}, [0, -3]),  # South Dakota: more tricks lose
        ([13, 0], {"lose_over_six": True}, [-7, 0]),
    ],
)
def test_the_side_with_fewest_tricks_scores_under_seven(
    won: list[int], kwargs: dict[str, bool], points: list[int]
) -> None:
    assert fewest_points(won, **kwargs) == points
