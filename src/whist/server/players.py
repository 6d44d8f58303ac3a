"""Players and their sessions: guests, accounts, signing in and out, the player's own
profile (``/api/me``), appearance and table settings."""

from __future__ import annotations

import asyncio
import secrets
from datetime import timedelta
from typing import Any, Literal

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from whist.server.club import Club
from whist.server.deps import COOKIE, ClubDep, Me, SettingsDep
from whist.server.limits import NewPassword, Nickname, Password, Word, printable
from whist.server.progress import CARD_BACKS, CARD_FACES, level_for, unlocked
from whist.server.settings import Settings
from whist.store.models import Player

router = APIRouter()
hasher = PasswordHasher()


class GuestIn(BaseModel):
    nickname: Nickname


class RegisterIn(BaseModel):
    login: str = Field(min_length=3, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")
    password: NewPassword
    nickname: Nickname | None = None


class LoginIn(BaseModel):
    login: Word
    password: Password


class AppearanceIn(BaseModel):
    card_back: Word
    card_face: Word


class PlayerSettings(BaseModel):
    """A player's table settings (issue 19, point 5). A save carries every key and nothing
    else, each of its exact type: strict, so ``1`` is no boolean and ``"true"`` none either."""

    model_config = ConfigDict(extra="forbid", strict=True)

    sound: bool
    animation: Literal["off", "fast", "normal", "slow"]
    card_size: Literal["small", "normal", "large"]
    hand_order: Literal["alternate", "suits", "suits_desc"]
    auto_play: bool
    preselect: bool


# What a player who never saved plays with.
DEFAULT_SETTINGS = PlayerSettings(
    sound=True,
    animation="normal",
    card_size="normal",
    hand_order="alternate",
    auto_play=True,
    preselect=True,
)


def settings_of(player: Player) -> PlayerSettings:
    """The player's saved settings; a key added after they saved takes its default."""
    if player.settings is None:
        return DEFAULT_SETTINGS
    return PlayerSettings.model_validate({**DEFAULT_SETTINGS.model_dump(), **player.settings})


def bad_settings(exc: ValidationError) -> HTTPException:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    message = printable(f"the settings are not valid ({where}: {first['msg']})")
    return HTTPException(400, {"code": "bad_settings", "message": message})


def me_json(player: Player) -> dict[str, Any]:
    return {
        "id": player.id,
        "nickname": player.nickname,
        "registered": player.login is not None,
        "login": player.login,
        "xp": player.xp,
        "level": level_for(player.xp),
        "card_back": player.card_back,
        "card_face": player.card_face,
        "unlocked": {
            "card_backs": unlocked(CARD_BACKS, player.xp),
            "card_faces": unlocked(CARD_FACES, player.xp),
        },
    }


async def start_session(
    club: Club, settings: Settings, response: Response, player: Player
) -> dict[str, Any]:
    """Sign ``player`` in (the session cookie) and answer with its profile."""
    token = secrets.token_urlsafe(32)
    days = settings.session_days if player.login else settings.guest_session_days
    await club.writer.run(club.repo.create_session, token, player.id, timedelta(days=days))
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(days * 86400),
        httponly=True,
        samesite="lax",
        domain=settings.cookie_domain or None,
    )
    return me_json(player)


@router.post("/api/guest")
async def guest(
    body: GuestIn, club: ClubDep, settings: SettingsDep, response: Response
) -> dict[str, Any]:
    player = await club.writer.run(club.repo.create_player, body.nickname)
    assert player is not None  # a guest has no login that could be taken
    return await start_session(club, settings, response, player)


@router.post("/api/register")
async def register(
    body: RegisterIn, club: ClubDep, settings: SettingsDep, response: Response
) -> dict[str, Any]:
    password_hash = await asyncio.to_thread(hasher.hash, body.password)
    player = await club.writer.run(
        club.repo.create_player, body.nickname or body.login, body.login, password_hash
    )
    if player is None:
        raise HTTPException(409, {"code": "login_taken", "message": "that login is taken"})
    return await start_session(club, settings, response, player)


@router.post("/api/login")
async def login(
    body: LoginIn, club: ClubDep, settings: SettingsDep, response: Response
) -> dict[str, Any]:
    player = await asyncio.to_thread(club.repo.player_by_login, body.login)
    wrong = HTTPException(401, {"code": "bad_login", "message": "wrong login or password"})
    if player is None or player.password_hash is None:
        raise wrong
    try:
        await asyncio.to_thread(hasher.verify, player.password_hash, body.password)
    except VerificationError:
        raise wrong from None
    return await start_session(club, settings, response, player)


@router.post("/api/logout")
async def logout(
    request: Request, club: ClubDep, settings: SettingsDep, response: Response
) -> dict[str, Any]:
    token = request.cookies.get(COOKIE)
    if token:
        await club.writer.run(club.repo.delete_session, token)
    response.delete_cookie(COOKIE, domain=settings.cookie_domain or None)
    return {"ok": True}


@router.get("/api/me")
async def me(player: Me) -> dict[str, Any]:
    return me_json(player)


@router.put("/api/me/appearance")
async def appearance(body: AppearanceIn, player: Me, club: ClubDep) -> dict[str, Any]:
    if body.card_back not in unlocked(CARD_BACKS, player.xp):
        raise HTTPException(403, {"code": "locked", "message": "that card back is locked"})
    if body.card_face not in unlocked(CARD_FACES, player.xp):
        raise HTTPException(403, {"code": "locked", "message": "that card face is locked"})
    await club.writer.run(club.repo.set_appearance, player.id, body.card_back, body.card_face)
    player.card_back, player.card_face = body.card_back, body.card_face
    return me_json(player)


@router.get("/api/me/settings")
async def get_settings(player: Me) -> dict[str, Any]:
    return settings_of(player).model_dump()


@router.put("/api/me/settings")
async def put_settings(request: Request, player: Me, club: ClubDep) -> dict[str, Any]:
    # Read by hand rather than as a body parameter: any bad save (not JSON, a key missing or
    # unknown, a wrong type or value) is one refusal, 400 bad_settings, not the generic 422.
    try:
        chosen = PlayerSettings.model_validate_json(await request.body())
    except ValidationError as exc:
        raise bad_settings(exc) from None
    await club.writer.run(club.repo.set_settings, player.id, chosen.model_dump())
    return chosen.model_dump()
