"""``GET /api/games/{table_id}/deals/{k}/analysis``: "Review deal" asks for a finished
deal's analysis: 200 with it once made, 202 while it is being made (the first request
starts it), for the players who sat at the table only.

Only a finished deal: the analysis shows every hand, and a deal in play must never show
one (409 ``deal_not_over``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from whist.records import to_json
from whist.server.analysing import AnalysisFailed
from whist.server.deps import ClubDep, Me
from whist.server.errors import error
from whist.server.games import _mine, _summary

router = APIRouter()

POLL_SECONDS = 1  # the Retry-After of a 202: the client's first wait (it backs off)
FAILED_STATUS = {"cannot_analyse": 422}  # a deal with nothing to grade; else 500


@router.get("/api/games/{table_id}/deals/{deal}/analysis", response_model=None)
async def analysis(table_id: str, deal: int, player: Me, club: ClubDep) -> Any:
    state, seat = await _mine(club, player, table_id)
    deals = state.match.deals
    if not 0 <= deal < len(deals):
        raise HTTPException(404, {"code": "no_deal", "message": "no such deal in this game"})
    if not deals[deal].complete:
        raise HTTPException(
            409, {"code": "deal_not_over", "message": "this deal is still being played"}
        )
    try:
        found = await club.reviews.analysis(table_id, deal, lambda: to_json(state.match))
    except AnalysisFailed as exc:
        return error(FAILED_STATUS.get(exc.code, 500), exc.code, str(exc))
    if found is None:
        return JSONResponse(
            {"status": "analysing"},
            status_code=202,
            headers={"Retry-After": str(POLL_SECONDS)},
        )
    return {
        "status": "ready",
        "table": table_id,
        "variant": state.variant,
        "deal": deal,
        "seats": _summary(state, player.id)["seats"],
        "you": seat,
        "analysis": found,
    }
