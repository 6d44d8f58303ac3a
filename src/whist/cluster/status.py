"""``whist cluster status``: the club's nodes, the tables each runs, the bot workers and
their queue, read from Redis and PostgreSQL with the same settings as ``whist serve``."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import orjson
import redis.asyncio as redis

from whist.cluster.jobs import BotJobs
from whist.cluster.node import NODE_KEY
from whist.server.settings import Settings
from whist.store.db import make_engine
from whist.store.leases import Leases


async def gather(settings: Settings) -> dict[str, Any]:
    client = redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=3)
    try:
        keys = [key async for key in client.scan_iter(match=NODE_KEY + "*", count=500)]
        values = await client.mget(keys) if keys else []
        nodes = [orjson.loads(value) for value in values if value is not None]
        jobs = BotJobs(client, settings.bot_budget, "status")
        workers = await jobs.workers()
        depth = await jobs.depth()
    finally:
        await client.aclose()
    engine = make_engine(settings.database())
    try:
        leases = await asyncio.to_thread(Leases(engine, "status", 0).per_node)
    finally:
        engine.dispose()
    now = time.time()
    for node in nodes:
        node["leases"] = leases.pop(node["node"], 0)
        node["up_seconds"] = round(now - node.pop("started", now))
    return {
        "nodes": sorted(nodes, key=lambda node: str(node["node"])),
        # Leases of nodes that are gone and not taken over yet (within a lease's length).
        "orphaned_tables": sum(leases.values()),
        "bot_workers": workers,
        "queue_depth": depth,
    }


def show(status: dict[str, Any]) -> str:
    lines = [f"{len(status['nodes'])} node(s)"]
    for node in status["nodes"]:
        lines.append(
            f"  {node['node']:<32} {node['address']:<22} tables {node['leases']:>5}"
            f"  sockets {node['sockets']:>5}  up {node['up_seconds']} s"
        )
    if status["orphaned_tables"]:
        lines.append(f"  {status['orphaned_tables']} table(s) of nodes that are gone")
    lines.append(f"{len(status['bot_workers'])} bot worker(s), queue depth {status['queue_depth']}")
    for worker in status["bot_workers"]:
        lines.append("  " + " ".join(f"{key}={value}" for key, value in worker.items()))
    return "\n".join(lines)


def run_status(as_json: bool) -> int:
    settings = Settings()
    if not settings.redis_url or not settings.database_url:
        print(
            "whist cluster status: set WHIST_REDIS_URL and WHIST_DATABASE_URL as for the nodes",
            file=sys.stderr,
        )
        return 2
    try:
        status = asyncio.run(gather(settings))
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        print(f"whist cluster status: {first}", file=sys.stderr)
        return 1
    print(json.dumps(status, indent=2) if as_json else show(status))
    return 0
