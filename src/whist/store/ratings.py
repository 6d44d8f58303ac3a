"""Ratings: openskill's Plackett-Luce model over teams, per player and variant.

A rated match is a ranking of teams (the two sides: one player each in a two-player
variant, a partnership of two in a four-player one); each member is either a player, whose
stored rating the match moves, or a fixed reference rating (a bot level, chosen by the
server) that nothing ever moves. Equal ranks are a draw.

What a player sees is the conservative rating ``mu - 3 sigma`` (openskill's ordinal): a
newcomer starts at 0 and climbs as the model grows sure of them, so the top of a
leaderboard is players who are both strong and proven, not lucky in three matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class Fixed:
    """A reference rating that no match moves (a bot level)."""

    mu: float
    sigma: float


Member = int | Fixed  # a player id (rated) or a fixed reference


@dataclass(frozen=True)
class RatedMatch:
    """What a match tells the ratings: its variant, its teams best first or tied by
    ``ranks`` (0 the best; equal ranks a draw) and the players whose ratings it moves
    (others in the teams count with their ratings as they are)."""

    variant: str
    teams: tuple[tuple[Member, ...], ...]
    ranks: tuple[int, ...]
    moves: tuple[int, ...]

    def players(self) -> list[int]:
        return [m for team in self.teams for m in team if isinstance(m, int)]

    def outcome(self, player_id: int) -> str:
        """``win``, ``loss`` or ``draw`` for a player of the match."""
        rank = next(r for team, r in zip(self.teams, self.ranks, strict=True) if player_id in team)
        if all(r == rank for r in self.ranks):
            return "draw"
        return "win" if rank == min(self.ranks) else "loss"


def shown(mu: float, sigma: float) -> float:
    """The rating a player sees: conservative, ``mu - 3 sigma``."""
    return mu - 3 * sigma


def rate(
    match: RatedMatch, current: Mapping[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """The new ``(mu, sigma)`` of each player ``match`` moves, from ``current`` (a player
    missing there has never been rated: the model's start)."""

    def rating(member: Member) -> PlackettLuceRating:
        if isinstance(member, Fixed):
            return MODEL.rating(mu=member.mu, sigma=member.sigma)
        mu, sigma = current.get(member, (START_MU, START_SIGMA))
        return MODEL.rating(mu=mu, sigma=sigma)

    before = [[rating(member) for member in team] for team in match.teams]
    after = MODEL.rate(before, ranks=list(match.ranks))
    moved: dict[int, tuple[float, float]] = {}
    for team, rated in zip(match.teams, after, strict=True):
        for member, new in zip(team, rated, strict=True):
            if isinstance(member, int) and member in match.moves:
                moved[member] = (new.mu, new.sigma)
    return moved
