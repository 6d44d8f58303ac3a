"""The HTTP and WebSocket server (FastAPI on uvicorn)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from fastapi import Depends, FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from whist.cluster.route import RemoteTable
from whist.core.errors import WhistError
from whist.server import socket
from whist.server.actor import Refused, TableActor
from whist.server.club import Club, with_free_seats
from whist.server.limits import (
    MAX_BODY_BYTES,
    BodyLimit,
    Text,
    is_token,
    printable,
)
from whist.server.progress import CARD_BACKS, CARD_FACES, level_for, unlocked
from whist.server.settings import Settings
from whist.server.table import BOT_LEVELS
from whist.store.models import Player

COOKIE = "whist_session"
hasher = PasswordHasher()


# ------------------------------------------------------------------ wire models
# Every string is bounded and free of NUL bytes, control characters and lone surrogates
# (limits.Text); numbers are checked by range where they are used (seats: bad_seat, option
# values: the core's bad_option_value), so huge ones are refused with those codes.
Nickname = Text(40, 1)
Word = Text(40)  # a variant key, an option name, a bot level, a card back...
OptionValue = Text(64) | bool | int


class GuestIn(BaseModel):
    nickname: Nickname


class RegisterIn(BaseModel):
    login: str = Field(min_length=3, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")
    password: Text(200, 8)
    nickname: Nickname | None = None


class LoginIn(BaseModel):
    login: Word
    password: Text(200)


class AppearanceIn(BaseModel):
    card_back: Word
    card_face: Word


class TableIn(BaseModel):
    variant: Word
    options: dict[Word, OptionValue] = Field(default_factory=dict, max_length=20)
    clock: bool = True  # the 90-second clock; False: unlimited time
    private: bool = False
    seat: int = 0  # where the host sits
    # Seats not for humans: seat -> bot level. Seats missing here wait for people.
    bots: dict[int, Word] = Field(default_factory=dict, max_length=4)


class JoinIn(BaseModel):
    seat: int | None = None


class QuickIn(BaseModel):
    variant: Word | None = None


def club_of(request: Request) -> Club:
    return request.app.state.club  # type: ignore[no-any-return]


async def current(request: Request) -> Player:
    """The signed-in player of this request (401 otherwise)."""
    token = request.cookies.get(COOKIE)
    if token:
        player = await asyncio.to_thread(club_of(request).repo.session_player, token)
        if player is not None:
            return player
    raise HTTPException(401, {"code": "not_signed_in", "message": "sign in first"})


Me = Annotated[Player, Depends(current)]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        club = Club(settings)
        app.state.club = club
        await club.start()
        try:
            yield
        finally:
            await club.stop()

    app = FastAPI(title="Whist Club", lifespan=lifespan)
    # Outermost: a body over the limit is refused before anything reads or parses it.
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    from whist.server.games import router as games_router
    from whist.server.health import router as health_router

    app.include_router(games_router)
    app.include_router(health_router)

    async def start_session(request: Request, response: Response, player: Player) -> None:
        token = secrets.token_urlsafe(32)
        days = settings.session_days if player.login else settings.guest_session_days
        club = club_of(request)
        await club.writer.run(club.repo.create_session, token, player.id, timedelta(days=days))
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(days * 86400),
            httponly=True,
            samesite="lax",
            domain=settings.cookie_domain or None,
        )

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

    def error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
        # Messages may quote what a client sent: printable() keeps them encodable.
        body = {"code": code, "message": printable(message), **extra}
        return JSONResponse(body, status_code=status)

    @app.exception_handler(WhistError)
    async def whist_error(_request: Request, exc: WhistError) -> JSONResponse:
        return error(400, exc.code, exc.message)

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        status = {"internal": 500, "unavailable": 503, "no_table": 404}
        return error(status.get(exc.code, 409), exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "loc": [printable(str(part), 60) for part in e.get("loc", ())],
                "msg": printable(str(e.get("msg", ""))),
                "type": printable(str(e.get("type", "")), 60),
            }
            for e in exc.errors()[:20]
        ]
        where = ".".join(errors[0]["loc"][1:]) if errors else ""
        first = f"{where}: {errors[0]['msg']}" if errors else ""
        return error(422, "bad_request", f"the request body is not valid ({first})", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # One error shape for every route: {"code": ..., "message": ...}.
        detail = exc.detail
        if isinstance(detail, dict):
            return JSONResponse(detail, status_code=exc.status_code, headers=exc.headers)
        # The framework's own refusals: an unreadable body (400) is a bad request.
        code = "bad_request" if exc.status_code == 400 else "http_error"
        response = error(exc.status_code, code, str(detail))
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(Exception)
    async def internal(_request: Request, _exc: Exception) -> JSONResponse:
        # A bug: logged by the server with its traceback; the client gets the one shape.
        return error(500, "internal", "internal error")

    # ----------------------------------------------------------------- players
    @app.post("/api/guest")
    async def guest(body: GuestIn, request: Request, response: Response) -> dict[str, Any]:
        club = club_of(request)
        player = await club.writer.run(club.repo.create_player, body.nickname)
        assert player is not None
        await start_session(request, response, player)
        return me_json(player)

    @app.post("/api/register")
    async def register(body: RegisterIn, request: Request, response: Response) -> dict[str, Any]:
        club = club_of(request)
        password_hash = await asyncio.to_thread(hasher.hash, body.password)
        player = await club.writer.run(
            club.repo.create_player, body.nickname or body.login, body.login, password_hash
        )
        if player is None:
            raise HTTPException(409, {"code": "login_taken", "message": "that login is taken"})
        await start_session(request, response, player)
        return me_json(player)

    @app.post("/api/login")
    async def login(body: LoginIn, request: Request, response: Response) -> dict[str, Any]:
        repo = club_of(request).repo
        player = await asyncio.to_thread(repo.player_by_login, body.login)
        wrong = HTTPException(401, {"code": "bad_login", "message": "wrong login or password"})
        if player is None or player.password_hash is None:
            raise wrong
        try:
            await asyncio.to_thread(hasher.verify, player.password_hash, body.password)
        except VerificationError:
            raise wrong from None
        await start_session(request, response, player)
        return me_json(player)

    @app.post("/api/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        token = request.cookies.get(COOKIE)
        if token:
            club = club_of(request)
            await club.writer.run(club.repo.delete_session, token)
        response.delete_cookie(COOKIE, domain=settings.cookie_domain or None)
        return {"ok": True}

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        """What the browser needs to know of this club's set-up."""
        return {"sockets": settings.socket_urls, "clock_seconds": settings.clock_seconds}

    @app.get("/api/me")
    async def me(player: Me) -> dict[str, Any]:
        return me_json(player)

    @app.put("/api/me/appearance")
    async def appearance(body: AppearanceIn, player: Me, request: Request) -> dict[str, Any]:
        if body.card_back not in unlocked(CARD_BACKS, player.xp):
            raise HTTPException(403, {"code": "locked", "message": "that card back is locked"})
        if body.card_face not in unlocked(CARD_FACES, player.xp):
            raise HTTPException(403, {"code": "locked", "message": "that card face is locked"})
        club = club_of(request)
        await club.writer.run(club.repo.set_appearance, player.id, body.card_back, body.card_face)
        player.card_back, player.card_face = body.card_back, body.card_face
        return me_json(player)

    # ------------------------------------------------------------------ tables
    async def listing(table: TableActor | RemoteTable) -> dict[str, Any]:
        return with_free_seats(await table.ask("info"))

    @app.get("/api/tables")
    async def tables(request: Request) -> list[dict[str, Any]]:
        return await club_of(request).open_tables()

    @app.post("/api/tables")
    async def create(body: TableIn, player: Me, request: Request) -> dict[str, Any]:
        from whist.variants import lookup

        club = club_of(request)
        for seat, level in body.bots.items():
            if level not in BOT_LEVELS:
                raise HTTPException(400, {"code": "bad_bot", "message": f"bot level {level!r}"})
            if seat == body.seat:
                raise HTTPException(400, {"code": "bad_seat", "message": "the host's seat"})
        # Check the seats before the table exists: a bot seat out of range would be written
        # to the log (and break the table's replay at the next start).
        players = lookup(body.variant)[0].players
        if not 0 <= body.seat < players or any(not 0 <= s < players for s in body.bots):
            raise HTTPException(400, {"code": "bad_seat", "message": f"seats are 0..{players - 1}"})
        actor = await club.create_table(
            player.id, body.variant, body.options, body.clock, body.private, body.bots
        )
        await actor.ask("sit", player.id, seat=body.seat, nickname=player.nickname)
        info = await listing(actor)
        row = await asyncio.to_thread(club.repo.table, actor.state.table_id)
        if row is not None and row.invite_code:
            info["invite"] = row.invite_code
        return info

    async def join_actor(
        table: TableActor | RemoteTable, player: Player, seat: int | None
    ) -> dict[str, Any]:
        result = await table.ask("sit", player.id, seat=seat, nickname=player.nickname)
        return {**await listing(table), "you": result["seat"]}

    def actor_or_404(request: Request, table_id: str) -> TableActor | RemoteTable:
        table = club_of(request).table(table_id) if is_token(table_id) else None
        if table is None:
            raise HTTPException(404, {"code": "no_table", "message": "no such table"})
        return table

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn, player: Me, request: Request) -> dict[str, Any]:
        club = club_of(request)
        row = await asyncio.to_thread(club.repo.table, table_id) if is_token(table_id) else None
        if row is None or row.private:
            raise HTTPException(404, {"code": "no_table", "message": "no such table"})
        return await join_actor(actor_or_404(request, table_id), player, body.seat)

    @app.post("/api/invite/{code}/join")
    async def join_invite(code: str, body: JoinIn, player: Me, request: Request) -> dict[str, Any]:
        club = club_of(request)
        row = await asyncio.to_thread(club.repo.table_by_invite, code) if is_token(code) else None
        if row is None:
            raise HTTPException(404, {"code": "no_table", "message": "no such invitation"})
        return await join_actor(actor_or_404(request, row.id), player, body.seat)

    @app.post("/api/quickplay")
    async def quickplay(body: QuickIn, player: Me, request: Request) -> dict[str, Any]:
        club = club_of(request)
        # Two players pressing at once, on any nodes: the table's one actor seats them in
        # turn, so the second gets another seat or is refused and tries the next table.
        for info in await club.open_tables():
            if body.variant and info["variant"] != body.variant:
                continue
            table = club.table(info["id"])
            if table is None:
                continue
            try:
                return await join_actor(table, player, None)
            except Refused:
                continue
        # Nobody waiting: a new table against MEDIUM bots.
        from whist.variants import lookup

        variant = body.variant or "minnesota"
        players = lookup(variant)[0].players
        actor = await club.create_table(
            player.id, variant, {}, True, False, {s: "medium" for s in range(1, players)}
        )
        return await join_actor(actor, player, 0)

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, player: Me, request: Request) -> dict[str, Any]:
        result: dict[str, Any] = await actor_or_404(request, table_id).ask("leave", player.id)
        return result

    @app.post("/api/tables/{table_id}/suspend")
    async def suspend(table_id: str, player: Me, request: Request) -> dict[str, Any]:
        result: dict[str, Any] = await actor_or_404(request, table_id).ask("suspend", player.id)
        return result

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
        club = club_of(request)
        missing = HTTPException(404, {"code": "no_table", "message": "no such table"})
        if not is_token(table_id):
            raise missing
        token = request.cookies.get(COOKIE)
        player = await asyncio.to_thread(club.repo.session_player, token) if token else None
        viewer = player.id if player else None
        live = club.table(table_id)
        if live is not None:
            try:
                if not await live.ask("watch", viewer, invite=invite):
                    raise missing
                return await listing(live)
            except Refused as refused:
                if refused.code != "no_table":
                    raise
        # An ended table no one watches any more: rebuilt from the store.
        row = await asyncio.to_thread(club.repo.table, table_id)
        if row is None:
            raise missing
        from whist.server.games import rebuild

        state = await rebuild(club, row)
        ended = TableActor(club, state, invite=row.invite_code)
        if not ended.may_watch(viewer, invite):
            raise missing
        return club.listing(ended)

    # ----------------------------------------------------------------- sockets
    def origin_allowed(websocket: WebSocket) -> bool:
        origin = websocket.headers.get("origin")
        if origin is None:
            return True  # not a browser: Origin protects browsers' cookies only
        host = websocket.headers.get("host", "")
        allowed = {f"http://{host}", f"https://{host}", *settings.allowed_origins}
        return origin in allowed

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        club: Club = websocket.app.state.club
        if not origin_allowed(websocket):
            await websocket.close(code=4403, reason="origin not allowed")
            return
        table = club.table(table_id) if is_token(table_id) else None
        if table is None:
            await websocket.close(code=4404, reason="no such table")
            return
        token = websocket.cookies.get(COOKIE)
        player = await asyncio.to_thread(club.repo.session_player, token) if token else None
        viewer = player.id if player is not None else None
        try:
            allowed = await table.ask("watch", viewer, invite=websocket.query_params.get("invite"))
        except Refused as refused:
            allowed = False
            if refused.code != "no_table":  # the club cannot tell now: try again later
                await websocket.close(code=1013, reason=refused.message[:120])
                return
        if not allowed:
            await websocket.close(code=4404, reason="no such table")
            return
        await websocket.accept()
        # Cluster mode: through a route even when the table runs here, so that the socket
        # follows the table when it moves to another node.
        link: socket.Link
        if club.cluster is not None:
            link = club.route(table_id, viewer)
        else:
            assert isinstance(table, TableActor)
            link = table
        await socket.serve(websocket, link, viewer, settings)

    # The browser client (src/whist/web): mounted last so /api and /ws routes match first.
    from pathlib import Path

    from fastapi.staticfiles import StaticFiles

    web = Path(__file__).resolve().parent.parent / "web"
    app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app
