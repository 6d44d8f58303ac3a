"""The routes' dependencies, all read from the application's state (``create_app`` puts the
settings there, the lifespan the club): nothing is held in closures, so every router module
stands alone."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from whist.server.club import Club
from whist.server.settings import Settings
from whist.store.models import Player

COOKIE = "whist_session"


def settings_of(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def club_of(connection: HTTPConnection) -> Club:
    club: Club = connection.app.state.club
    return club


async def viewer_of(connection: HTTPConnection) -> Player | None:
    """The signed-in player of this request or socket, None for anyone else."""
    token = connection.cookies.get(COOKIE)
    if not token:
        return None
    return await asyncio.to_thread(club_of(connection).repo.session_player, token)


async def signed_in(connection: HTTPConnection) -> Player:
    """The signed-in player of this request (401 otherwise)."""
    player = await viewer_of(connection)
    if player is None:
        raise HTTPException(401, {"code": "not_signed_in", "message": "sign in first"})
    return player


SettingsDep = Annotated[Settings, Depends(settings_of)]
ClubDep = Annotated[Club, Depends(club_of)]
Viewer = Annotated[Player | None, Depends(viewer_of)]
Me = Annotated[Player, Depends(signed_in)]
