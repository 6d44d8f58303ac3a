"""The HTTP and WebSocket server (FastAPI on uvicorn), assembled from its parts: the routes
by concern (players, lobby, games, health, the table socket), one error shape, the body
limit, the club's life and the browser client's files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from whist.server import games, health, leaderboard, lobby, players, rematch, review, socket
from whist.server.club import Club
from whist.server.errors import add_error_handlers
from whist.server.limits import MAX_BODY_BYTES, BodyLimit
from whist.server.settings import Settings

WEB = Path(__file__).resolve().parent.parent / "web"


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    club = Club(app.state.settings)
    app.state.club = club
    await club.start()
    try:
        yield
    finally:
        await club.stop()


def create_app(settings: Settings | None = None) -> FastAPI:
    app = FastAPI(title="Whist Club", lifespan=lifespan)
    app.state.settings = settings or Settings()
    # Outermost: a body over the limit is refused before anything reads or parses it.
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    add_error_handlers(app)
    for module in (players, lobby, rematch, games, review, health, leaderboard, socket):
        app.include_router(module.router)
    # The browser client: mounted last so /api and /ws routes match first.
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app
