"""Failover time of a cluster: SIGKILL the node running the most tables, again and again,
and time how long its tables go without an owner and without a move.

Nodes (``whist serve``) run on one PostgreSQL database and a private Redis; every table is
played by bots (its one human seat is taken over by a bot after a 1-second clock), so a
table moves on by itself as long as some node runs it. For each kill: the seconds until
every table of the killed node has a live lease on another node (``owned``) and until each
has a new log entry (``moving``: rebuilt from its log and playing again). The killed node
is then started again (it takes tables back as they are claimed) before the next kill.

    .venv/bin/python bench/failover.py --kills 10

prints one JSON object. Measured with the default lease (5 s, ``--lease``): a table is
claimed once its dead owner's lease has run out.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from cluster import redis_command  # the tests' own redis-server
from engine import load_average
from server_load import free_port
from soak import ServerProcess, header
from whist.server.bots import exit_with_parent

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"


def progress(message: str) -> None:
    print(f"[failover] {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def database(admin_url: str) -> Iterator[str]:
    name = f"whist_failover_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(admin_url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def redis_server(root: Path) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        redis_command(port, root),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=exit_with_parent,
    )
    try:
        time.sleep(0.5)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait(10)


def make_tables(node: ServerProcess, count: int) -> list[str]:
    """``count`` Minnesota tables to 1,000 points: a guest at seat 0 (whose 1-second clock
    soon hands the seat to a bot) and EASY bots."""
    base = f"http://127.0.0.1:{node.port}"
    tables = []
    with httpx2.Client(base_url=base, timeout=30, trust_env=False) as client:
        for index in range(count):
            guest = client.post("/api/guest", json={"nickname": f"g{index}"})
            guest.raise_for_status()
            body = {
                "variant": "minnesota",
                "options": {"target": 1000},
                "clock": True,
                "bots": {"1": "easy", "2": "easy", "3": "easy"},
            }
            created = client.post("/api/tables", json=body, cookies=guest.cookies)
            created.raise_for_status()
            tables.append(created.json()["id"])
    return tables


def owners(url: str, tables: Sequence[str]) -> dict[str, tuple[str | None, int]]:
    """Each table's live owner (None: nobody) and its newest log entry."""
    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute(
            """
            SELECT t.id,
                   (SELECT l.node FROM table_leases l JOIN cluster_nodes h ON h.node = l.node
                     WHERE l.table_id = t.id AND h.expires_at > now()),
                   (SELECT coalesce(max(seq), 0) FROM table_log g WHERE g.table_id = t.id)
            FROM tables t WHERE t.id = ANY(%s)
            """,
            (list(tables),),
        ).fetchall()
    return {row[0]: (row[1], int(row[2])) for row in rows}


def node_id(node: ServerProcess) -> str:
    with httpx2.Client(timeout=10, trust_env=False) as client:
        health = client.get(f"http://127.0.0.1:{node.port}/healthz").json()
    return str(health["cluster"]["node"])


def one_kill(url: str, nodes: list[ServerProcess], tables: list[str], timeout: float) -> Any:
    ids = {node_id(node): node for node in nodes}
    before = owners(url, tables)
    per_node: dict[str, list[str]] = {}
    for table, (owner, _seq) in before.items():
        if owner is not None:
            per_node.setdefault(owner, []).append(table)
    victim_id = max(ids, key=lambda n: len(per_node.get(n, [])))
    victim, moved = ids[victim_id], per_node.get(victim_id, [])
    killed = time.monotonic()
    victim.kill()
    owned: dict[str, float] = {}
    moving: dict[str, float] = {}
    while len(moving) < len(moved) and time.monotonic() - killed < timeout:
        time.sleep(0.1)
        now = time.monotonic() - killed
        for table, (owner, seq) in owners(url, moved).items():
            if owner is not None and owner != victim_id:
                owned.setdefault(table, now)
                if seq > before[table][1]:
                    moving.setdefault(table, now)
    victim.start()
    return {
        "tables": len(moved),
        "owned_max_s": round(max(owned.values(), default=0.0), 2),
        "moving_max_s": round(max(moving.values(), default=0.0), 2),
        "not_moving": len(moved) - len(moving),
    }


def run(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    result: dict[str, Any] = header("failover", args, load_average())
    with redis_server(root) as redis_url, database(args.database_url) as url:
        settings = {
            "WHIST_REDIS_URL": redis_url,
            "WHIST_LEASE_SECONDS": str(args.lease),
            "WHIST_CLOCK_SECONDS": "1",
            "WHIST_BOT_DELAY": "0.3",
            "WHIST_BOT_WORKERS": "0",
        }
        nodes = []
        for index in range(args.nodes):
            data = root / f"node{index}"
            data.mkdir()
            nodes.append(ServerProcess(data, url, settings))
        try:
            for node in nodes:
                node.start()
            tables = make_tables(nodes[0], args.tables)
            progress(f"{len(tables)} tables on {len(nodes)} nodes")
            time.sleep(args.settle)
            kills = []
            for index in range(args.kills):
                kills.append(one_kill(url, nodes, tables, args.timeout))
                progress(f"kill {index + 1}: {kills[-1]}")
                time.sleep(args.settle)
        finally:
            for node in nodes:
                node.stop()
    moving = [kill["moving_max_s"] for kill in kills]
    result["kills"] = kills
    result["summary"] = {
        "kills": len(kills),
        "moving_max_s": max(moving),
        "moving_median_s": statistics.median(moving),
        "tables_not_moving": sum(kill["not_moving"] for kill in kills),
        "goal_max_s": 10.0,
    }
    return result


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--lease", type=float, default=5.0, help="seconds (the default's)")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds between kills")
    parser.add_argument("--timeout", type=float, default=60.0, help="give up on a kill after")
    parser.add_argument("--database-url", default=ADMIN_URL, help="a PostgreSQL to create in")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    import json

    args = parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="whist-failover-"))
    try:
        print(json.dumps(run(args, root), indent=2))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
