"""``GET /healthz``: whether this server can serve, for a load balancer or a person.

200 when the database answers a ``SELECT 1`` within ``DATABASE_TIMEOUT`` (and, in cluster
mode, the node reaches Redis), 503 otherwise; the same JSON either way: the database check,
what this process runs, and in cluster mode the node's part of the cluster (tables owned,
the bot workers' queue).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, text

import whist
from whist.cluster.jobs import BotJobs
from whist.server.club import Club
from whist.server.deps import ClubDep

DATABASE_TIMEOUT = 2.0  # seconds: a health check must answer even when the database hangs
STARTED = time.monotonic()  # imported as the app is made, at the server's start

router = APIRouter()


@router.get("/healthz")
async def healthz(club: ClubDep) -> JSONResponse:
    database = await check_database(club.engine)
    ok = database["ok"]
    body: dict[str, Any] = {"database": database, "process": process_info(club)}
    if club.cluster is not None:
        body["cluster"] = cluster = await club.cluster.status()
        ok = ok and cluster["redis"]
        if club.jobs is not None:
            cluster["bot_jobs"] = await jobs_info(club.jobs)
    body = {"status": "ok" if ok else "unavailable", **body}
    return JSONResponse(body, status_code=200 if ok else 503)


async def jobs_info(jobs: BotJobs) -> dict[str, Any]:
    """The bot workers' queue as this node sees it (None: Redis did not answer)."""
    try:
        depth: int | None = await asyncio.wait_for(jobs.depth(), DATABASE_TIMEOUT)
        workers = len(await asyncio.wait_for(jobs.workers(), DATABASE_TIMEOUT))
    except Exception:
        depth, workers = None, 0
    return {"queue_depth": depth, "workers": workers}


async def check_database(engine: Engine) -> dict[str, Any]:
    started = time.perf_counter()
    error: str | None = None
    try:
        await asyncio.wait_for(asyncio.to_thread(select_one, engine), DATABASE_TIMEOUT)
    except TimeoutError:
        error = f"no answer within {DATABASE_TIMEOUT:g} s"
    except Exception as exc:  # any failure is the answer: the database is not usable
        # The first line only: the driver's message may run on for lines.
        error = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return {
        "ok": error is None,
        "dialect": engine.dialect.name,  # never the URL: it may hold a password
        "latency_ms": round((time.perf_counter() - started) * 1000, 2),
        "error": error,
    }


def select_one(engine: Engine) -> None:
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))


def process_info(club: Club) -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "version": whist.__version__,
        "uptime_seconds": round(time.monotonic() - STARTED, 1),
        "bot_workers": [
            {"pid": pid, "alive": alive} for pid, alive in sorted(club.bots.workers().items())
        ],
        "tables": len(club.actors),
        "sockets": sum(len(actor.connections) for actor in club.actors.values()),
    }
