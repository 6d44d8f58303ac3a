"""Leaderboards and profiles (issue 19, point 8): ``/api/leaderboard/{variant}`` and
``/api/players/{id}/profile``. Which matches are rated and how: server/ratings.py."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query

from whist.server.deps import ClubDep
from whist.server.progress import level_for
from whist.server.ratings import BOT_RATINGS
from whist.store.ratings import shown
from whist.variants import VARIANTS

router = APIRouter()

LEADERBOARD_SIZE = 50  # players a leaderboard shows unless asked for fewer (at most 100)
HISTORY_POINTS = 50  # rated matches per variant a profile's chart shows (the latest)


def rounded(rating: float) -> float:
    return round(rating, 2)


@router.get("/api/leaderboard/{variant}")
async def leaderboard(
    variant: str,
    club: ClubDep,
    limit: Annotated[int, Query(ge=1, le=100)] = LEADERBOARD_SIZE,
) -> dict[str, Any]:
    if variant not in VARIANTS:
        raise HTTPException(
            404, {"code": "unknown_variant", "message": "no leaderboard for that variant"}
        )
    standings = await asyncio.to_thread(club.repo.leaderboard, variant, limit)
    return {
        "variant": variant,
        "players": [
            {
                "id": s.player_id,
                "nickname": s.nickname,
                "rating": rounded(s.rating),
                "matches": s.matches,
                "wins": s.wins,
            }
            for s in standings
        ],
        "bots": {level: rounded(shown(r.mu, r.sigma)) for level, r in BOT_RATINGS.items()},
    }


@router.get("/api/players/{player_id}/profile")
async def profile(
    player_id: Annotated[int, Path(ge=1, le=2**31 - 1)], club: ClubDep
) -> dict[str, Any]:
    player = await asyncio.to_thread(club.repo.player, player_id)
    if player is None:
        raise HTTPException(404, {"code": "no_player", "message": "no such player"})
    standings = await asyncio.to_thread(club.repo.standings_of, player_id)
    history = await asyncio.to_thread(club.repo.rating_history, player_id, HISTORY_POINTS)
    return {
        "id": player.id,
        "nickname": player.nickname,
        "registered": player.login is not None,
        "level": level_for(player.xp),
        "variants": [
            {
                "variant": s.variant,
                "rating": rounded(s.rating),
                "matches": s.matches,
                "wins": s.wins,
                "history": [
                    {
                        "at": point.at.isoformat(),
                        "rating": rounded(point.rating),
                        "outcome": point.outcome,
                    }
                    for point in history
                    if point.variant == s.variant
                ],
            }
            for s in standings
        ],
    }
