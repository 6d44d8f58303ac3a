"""My games: saved and finished matches, their score sheets, replays and downloads.

Finished matches are rebuilt from their logs; everything sent is what the asking player's
seat may know (the replay document with ``seat`` and ``seat_record``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from whist.core.options import MOST, OptionSpec
from whist.records import replay_document
from whist.seat_record import seat_record
from whist.server.club import Club
from whist.server.deps import ClubDep, Me
from whist.server.limits import is_token
from whist.server.table import TableState
from whist.store.models import Player
from whist.variants import UNAVAILABLE, VARIANTS

router = APIRouter()


async def _state(club: Club, table_id: str) -> TableState:
    actor = club.actors.get(table_id)
    if actor is not None:
        return actor.state
    row = await asyncio.to_thread(club.repo.table, table_id) if is_token(table_id) else None
    if row is None:
        raise HTTPException(404, {"code": "no_table", "message": "no such game"})
    return await club.rebuild(row)


def _sheet(state: TableState) -> list[dict[str, Any]]:
    """Points and running score per deal, per side."""
    running = [0, 0]
    sheet = []
    for deal in state.match.deals:
        running = [running[0] + deal.points[0], running[1] + deal.points[1]]
        sheet.append(
            {
                "deal": deal.index,
                "dealer": deal.dealer,
                "contract": None if deal.contract is None else deal.contract.to_json(),
                "tricks": list(deal.won),
                "points": list(deal.points),
                "score": running,
                "complete": deal.complete,
            }
        )
    return sheet


def _summary(state: TableState, player_id: int) -> dict[str, Any]:
    match = state.match
    return {
        "id": state.table_id,
        "variant": state.variant,
        "options": state.options,
        "status": state.status,
        "seats": [
            seat.nickname or (f"bot ({seat.bot})" if seat.bot else "") for seat in state.seats
        ],
        "you": _seat_of(state, player_id),
        "scores": list(match.scores),
        "over": match.over,
        "winner": match.winner,
        "resumable": state.status == "suspended",
        # Hints were shown in this match (issue 20): it is not rated.
        "hints_used": state.hints_shown,
    }


def _seat_of(state: TableState, player_id: int) -> int | None:
    for index, seat in enumerate(state.seats):
        if seat.player_id == player_id:
            return index
    return None


async def _mine(club: Club, player: Player, table_id: str) -> tuple[TableState, int]:
    state = await _state(club, table_id)
    seat = _seat_of(state, player.id)
    if seat is None:
        raise HTTPException(404, {"code": "no_table", "message": "not one of your games"})
    return state, seat


def _range(spec: OptionSpec) -> dict[str, int | None]:
    """The range of an option's number (a count, or the N of ``target:N``), else nulls."""
    numeric = spec.kind == "count" or any(c.endswith(":N") for c in spec.choices)
    return {"min": 1 if numeric else None, "max": MOST if numeric else None}


@router.get("/api/variants")
async def variants() -> dict[str, Any]:
    """Every variant with its options (for the create-table form) and the unavailable ones."""
    return {
        "variants": [
            {
                "key": variant.key,
                "title": variant.title,
                "players": variant.players,
                "facts": variant.facts.to_json(),
                "options": [
                    {
                        "name": spec.name,
                        "kind": spec.kind,
                        "default": spec.default,
                        "choices": list(spec.choices),
                        "help": spec.help,
                        **_range(spec),
                    }
                    for spec in variant.option_set.specs
                ],
                "presets": {name: dict(p) for name, p in variant.option_set.presets.items()},
                "aliases": dict(variant.aliases),
            }
            for variant in VARIANTS.values()
        ],
        "unavailable": {
            key: {"title": unavailable.title, "reason": unavailable.reason}
            for key, unavailable in UNAVAILABLE.items()
        },
    }


@router.get("/api/games")
async def my_games(player: Me, club: ClubDep) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(club.repo.tables_of_player, player.id)
    return [_summary(await _state(club, row.id), player.id) for row in rows]


@router.get("/api/games/{table_id}")
async def game(table_id: str, player: Me, club: ClubDep) -> dict[str, Any]:
    state, seat = await _mine(club, player, table_id)
    # A seat the player no longer holds (left, or a bot took over): the public view, as on
    # the table's socket. The replay shows the deal as it is now, so nothing of the seat's
    # hand since then (the bot's cards) may be in it.
    lost = state.seats[seat].replaced
    return {
        **_summary(state, state.seats[seat].player_id or 0),
        "sheet": _sheet(state),
        "replay": replay_document(state.match, None, None if lost else seat, spectator=lost),
    }


@router.get("/api/games/{table_id}/record")
async def record(table_id: str, player: Me, club: ClubDep) -> JSONResponse:
    state, seat = await _mine(club, player, table_id)
    names = [
        s.nickname or (f"Bot ({s.bot})" if s.bot else f"Seat {i}")
        for i, s in enumerate(state.seats)
    ]
    document = seat_record(state.match, seat, names, until=state.seats[seat].lost_at)
    return JSONResponse(
        document,
        headers={"Content-Disposition": f'attachment; filename="whist-{table_id}.json"'},
    )
