"""The lobby: the club's set-up, the open tables, creating, joining and leaving tables."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from whist.bots import LEVELS
from whist.cluster.route import RemoteTable
from whist.i18n import LANGUAGE_NAMES, LANGUAGES
from whist.server.actor import Refused, TableActor
from whist.server.club import Club, with_free_seats
from whist.server.commands import Info, Leave, Sit, Suspend, Watch
from whist.server.deps import ClubDep, Me, SettingsDep, Viewer
from whist.server.limits import OptionText, Word, is_token
from whist.server.progress import progress_config
from whist.store.models import Player
from whist.variants import lookup

router = APIRouter()

QUICKPLAY_VARIANT = "minnesota"  # quickplay's new table when the player names no variant
QUICKPLAY_BOTS = "medium"


class TableIn(BaseModel):
    # Numbers are checked by range where they are used (seats: bad_seat, option values: the
    # core's bad_option_value), so huge ones are refused with those codes.
    variant: Word
    options: dict[Word, OptionText | bool | int] = Field(default_factory=dict, max_length=20)
    clock: bool = True  # the per-move clock; False: unlimited time
    private: bool = False
    seat: int = 0  # where the host sits
    # Seats not for humans: seat -> bot level. Seats missing here wait for people.
    bots: dict[int, Word] = Field(default_factory=dict, max_length=4)
    # The host allows hints (issue 20): MASTER's choice on request, only while the asking
    # player is the only person seated. Set here or never; such a match is not rated.
    hints: bool = False


class JoinIn(BaseModel):
    seat: int | None = None


class QuickIn(BaseModel):
    variant: Word | None = None


NO_TABLE = {"code": "no_table", "message": "no such table"}


@router.get("/api/config")
async def config(settings: SettingsDep) -> dict[str, Any]:
    """What the browser needs to know of this club's set-up, and the lists of facts the
    server owns (bot levels, languages, XP and unlocks)."""
    return {
        "sockets": settings.socket_urls,
        "clock_seconds": settings.clock_seconds,
        "pace": settings.table_pace,
        "levels": list(LEVELS),
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
        **progress_config(),
    }


async def listing(table: TableActor | RemoteTable) -> dict[str, Any]:
    info: dict[str, Any] = await table.ask(Info())
    return with_free_seats(info)


async def join_table(
    table: TableActor | RemoteTable, player: Player, seat: int | None
) -> dict[str, Any]:
    result = await table.ask(Sit(player.id, seat, player.nickname))
    return {**await listing(table), "you": result["seat"]}


def live_table(club: Club, table_id: str) -> TableActor | RemoteTable:
    table = club.table(table_id) if is_token(table_id) else None
    if table is None:
        raise HTTPException(404, NO_TABLE)
    return table


@router.get("/api/tables")
async def tables(club: ClubDep) -> list[dict[str, Any]]:
    return await club.open_tables()


@router.post("/api/tables")
async def create(body: TableIn, player: Me, club: ClubDep) -> dict[str, Any]:
    for seat, level in body.bots.items():
        if level not in LEVELS:
            raise HTTPException(400, {"code": "bad_bot", "message": f"bot level {level!r}"})
        if seat == body.seat:
            raise HTTPException(400, {"code": "bad_seat", "message": "the host's seat"})
    # Check the seats before the table exists: a bot seat out of range would be written
    # to the log (and break the table's replay at the next start).
    players = lookup(body.variant)[0].players
    if not 0 <= body.seat < players or any(not 0 <= s < players for s in body.bots):
        raise HTTPException(400, {"code": "bad_seat", "message": f"seats are 0..{players - 1}"})
    actor = await club.create_table(
        player.id, body.variant, body.options, body.clock, body.private, body.bots, body.hints
    )
    await actor.ask(Sit(player.id, body.seat, player.nickname))
    info = await listing(actor)
    row = await asyncio.to_thread(club.repo.table, actor.state.table_id)
    if row is not None and row.invite_code:
        info["invite"] = row.invite_code
    return info


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: JoinIn, player: Me, club: ClubDep) -> dict[str, Any]:
    row = await asyncio.to_thread(club.repo.table, table_id) if is_token(table_id) else None
    if row is None or row.private:
        raise HTTPException(404, NO_TABLE)
    return await join_table(live_table(club, table_id), player, body.seat)


@router.post("/api/invite/{code}/join")
async def join_invite(code: str, body: JoinIn, player: Me, club: ClubDep) -> dict[str, Any]:
    row = await asyncio.to_thread(club.repo.table_by_invite, code) if is_token(code) else None
    if row is None:
        raise HTTPException(404, {"code": "no_table", "message": "no such invitation"})
    return await join_table(live_table(club, row.id), player, body.seat)


@router.post("/api/quickplay")
async def quickplay(body: QuickIn, player: Me, club: ClubDep) -> dict[str, Any]:
    # Two players pressing at once, on any nodes: the table's one actor seats them in
    # turn, so the second gets another seat or is refused and tries the next table.
    for info in await club.open_tables():
        if body.variant and info["variant"] != body.variant:
            continue
        table = club.table(info["id"])
        if table is None:
            continue
        try:
            return await join_table(table, player, None)
        except Refused:
            continue
    # Nobody waiting: a new table against bots.
    variant = body.variant or QUICKPLAY_VARIANT
    players = lookup(variant)[0].players
    bots = {seat: QUICKPLAY_BOTS for seat in range(1, players)}
    actor = await club.create_table(player.id, variant, {}, True, False, bots)
    return await join_table(actor, player, 0)


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, player: Me, club: ClubDep) -> dict[str, Any]:
    result: dict[str, Any] = await live_table(club, table_id).ask(Leave(player.id))
    return result


@router.post("/api/tables/{table_id}/suspend")
async def suspend(table_id: str, player: Me, club: ClubDep) -> dict[str, Any]:
    result: dict[str, Any] = await live_table(club, table_id).ask(Suspend(player.id))
    return result


@router.get("/api/tables/{table_id}")
async def table(
    table_id: str, club: ClubDep, viewer: Viewer, invite: str | None = None
) -> dict[str, Any]:
    missing = HTTPException(404, NO_TABLE)
    if not is_token(table_id):
        raise missing
    viewer_id = viewer.id if viewer is not None else None
    live = club.table(table_id)
    if live is not None:
        try:
            if not await live.ask(Watch(viewer_id, invite)):
                raise missing
            return await listing(live)
        except Refused as refused:
            if refused.code != "no_table":
                raise
    # An ended table no one watches any more: rebuilt from the store.
    row = await asyncio.to_thread(club.repo.table, table_id)
    if row is None:
        raise missing
    ended = TableActor(club, await club.rebuild(row), invite=row.invite_code)
    if not ended.may_watch(viewer_id, invite):
        raise missing
    return club.listing(ended)
