"""Rematch: a player of a finished table asks for the same match again (the same variant,
options, clock, privacy and bots, every human at the same seat); the other humans are asked
on the old table's sockets and accept (taking the seat kept for them) or decline."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException

from whist.cluster.route import RemoteTable
from whist.server.actor import TableActor
from whist.server.club import Club
from whist.server.commands import Accept, Decline, Rematch
from whist.server.deps import ClubDep, Me
from whist.server.limits import is_token
from whist.server.lobby import NO_TABLE, listing, live_table

router = APIRouter()


async def ended_table(club: Club, table_id: str) -> TableActor | RemoteTable:
    """The table to ask, also when it has ended and nobody watches it any more (its actor
    was let go): then it runs again from its log. In cluster mode only live tables."""
    table = club.table(table_id) if is_token(table_id) else None
    if table is not None or club.cluster is not None or not is_token(table_id):
        if table is None:
            raise HTTPException(404, NO_TABLE)
        return table
    row = await asyncio.to_thread(club.repo.table, table_id)
    if row is None:
        raise HTTPException(404, NO_TABLE)
    state = await club.rebuild(row)
    actor = club.actors.get(table_id)  # revived meanwhile by another request?
    if actor is None:
        actor = club.actors[table_id] = TableActor(club, state, invite=row.invite_code)
        actor.start()
    return actor


async def seated(club: Club, table_id: str, player_id: int, nickname: str) -> dict[str, Any]:
    table = live_table(club, table_id)
    taken = await table.ask(Accept(player_id, nickname))
    return {**await listing(table), "you": taken["seat"]}


@router.post("/api/tables/{table_id}/rematch")
async def rematch(table_id: str, player: Me, club: ClubDep) -> dict[str, Any]:
    ended = await ended_table(club, table_id)
    made = await ended.ask(Rematch(player.id))
    if isinstance(ended, TableActor) and not ended.connections:
        club.forget(table_id)  # nobody watches it (revived for this ask): let it go again
    return await seated(club, made["table"], player.id, player.nickname)


@router.post("/api/tables/{table_id}/accept")
async def accept(table_id: str, player: Me, club: ClubDep) -> dict[str, Any]:
    return await seated(club, table_id, player.id, player.nickname)


@router.post("/api/tables/{table_id}/decline")
async def decline(table_id: str, player: Me, club: ClubDep) -> dict[str, Any]:
    declined: dict[str, Any] = await live_table(club, table_id).ask(Decline(player.id))
    return declined
