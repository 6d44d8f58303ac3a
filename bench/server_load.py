"""Server load benchmark: N tables of simulated people playing over real WebSockets against
``whist serve`` on loopback; actions per second, action-to-everyone latency, server memory.

Prints one JSON object on stdout (progress goes to stderr). Linux only (/proc).

    .venv/bin/python bench/server_load.py                    # 500 tables x 4, 60 s (~2 min)
    .venv/bin/python bench/server_load.py --quick            # smoke test: 20 tables, 10 s
    .venv/bin/python bench/server_load.py --think-ms 50-200  # capacity: ~18x a person's pace
    .venv/bin/python bench/server_load.py --tables 250 --client-processes 2
    .venv/bin/python bench/server_load.py --database-url postgresql://user:pw@host/db

The server runs as a subprocess (``python -m whist.cli serve``) on a free loopback port with
a fresh data directory. The simulated clients run in ``--client-processes`` worker
processes (asyncio + the ``websockets`` library), each owning whole tables, so the latency
of one table is always measured on one clock in one process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from engine import load_average, machine_info, source_state
from whist.server.bots import exit_with_parent

TARGET_TABLES = 500
TARGET_P99_MS = 100.0
HUMAN_MS = (2000.0, 8000.0)  # a person's think time at a card table (the default)
COOKIE = "whist_session"  # whist.server.deps.COOKIE
ACK_TIMEOUT = 30.0  # seconds a client waits for the answer to an action
DRAIN_SECONDS = 15.0  # after the window: time for the last measured actions to reach everyone
SETUP_TIMEOUT = 900.0
LAG_PERIOD = 0.05  # the client event-loop lag probe sleeps this long


def progress(message: str) -> None:
    print(f"[load] {message}", file=sys.stderr, flush=True)


def percentiles(samples: Sequence[float]) -> dict[str, Any]:
    """count, p50, p95, p99, max and mean of ``samples`` (ms), rounded; None when empty."""
    if not samples:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None, "mean": None}
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {
        "count": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1], 2),
        "mean": round(statistics.fmean(ordered), 2),
    }


# ---------------------------------------------------------------------- HTTP (raw)
async def http(
    port: int, method: str, path: str, body: Any = None, cookie: str | None = None
) -> tuple[int, Any, str | None]:
    """One HTTP/1.1 request on a fresh connection: (status, JSON body, session cookie set)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Connection: close",
            f"Content-Length: {len(data)}",
        ]
        if body is not None:
            head.append("Content-Type: application/json")
        if cookie is not None:
            head.append(f"Cookie: {COOKIE}={cookie}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    header, _, payload = raw.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    session = None
    for line in lines[1:]:
        name, _, value = line.partition(":")
        value = value.strip()
        if name.strip().lower() == "set-cookie" and value.startswith(COOKIE + "="):
            session = value.split(";", 1)[0].split("=", 1)[1]
    try:
        parsed = json.loads(payload) if payload else None
    except ValueError:
        parsed = payload.decode("utf-8", "replace")
    return status, parsed, session


class SetupError(Exception):
    pass


# ------------------------------------------------------------------- the clients
class Client:
    """One simulated person: a guest session and one WebSocket to its table."""

    def __init__(self, group: Group, index: int) -> None:
        self.group = group
        self.worker = group.worker
        self.index = index
        self.cookie: str | None = None
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.legal: list[dict[str, Any]] = []
        self.arrivals: deque[tuple[int, float]] = deque(maxlen=64)  # (state version, time)
        self.turn = asyncio.Event()
        self.finished = False
        self.closing = False
        self.reply: tuple[str, asyncio.Future[tuple[int | None, float]]] | None = None
        self.in_flight: float | None = None  # when the action waiting for its answer was sent
        self.sent = 0
        # Its node: the people of a table spread over the nodes (as a load balancer would
        # spread them), so that most tables are watched from more than one node.
        ports = self.worker.ports
        self.port = ports[(group.index + index) % len(ports)]

    async def guest(self) -> None:
        name = f"load{self.group.index}-{self.index}"
        status, body, cookie = await http(self.port, "POST", "/api/guest", {"nickname": name})
        if status != 200 or cookie is None:
            raise SetupError(f"guest: HTTP {status} {body}")
        self.cookie = cookie

    async def connect(self, table_id: str) -> None:
        from websockets.asyncio.client import connect

        self.legal, self.finished, self.closing = [], False, False
        self.arrivals.clear()
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}",
            additional_headers={"Cookie": f"{COOKIE}={self.cookie}"},
            compression=self.worker.compression,
            proxy=None,
            ping_interval=None,
            open_timeout=120,
            max_queue=None,
        )
        if self.ws.protocol.extensions:
            self.worker.deflated += 1
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        worker = self.worker
        loads = json.loads
        try:
            async for text in self.ws:
                now = time.monotonic()
                message = loads(text)
                kind = message.get("type")
                if kind == "state":
                    if worker.measured(now):
                        worker.frames += 1
                        worker.frame_bytes += len(text)
                    self.on_state(message, now)
                elif kind == "ack":
                    self.answer(message.get("id"), message.get("version"), now)
                elif kind == "error":
                    worker.error(str(message.get("code")), now)
                    self.answer(message.get("id"), None, now)
        except ConnectionClosed:
            pass
        except Exception as exc:  # a frame this client does not understand
            worker.error(f"client: {type(exc).__name__}", time.monotonic())
        if not self.closing and not worker.stopping:
            worker.error("disconnected", time.monotonic())
            self.answer(None, None, time.monotonic())

    def on_state(self, message: dict[str, Any], now: float) -> None:
        version = message["version"]
        self.arrivals.append((version, now))
        self.legal = message["view"].get("legal") or []
        self.group.arrived(self, version, now)
        status = message["table"]["status"]
        if status in ("finished", "abandoned"):
            self.finished = True
            self.group.client_finished()
        elif status == "playing" and self.legal:
            self.turn.set()

    def answer(self, message_id: Any, version: int | None, now: float) -> None:
        if self.reply is None:
            return
        wanted, future = self.reply
        if (message_id is None or message_id == wanted) and not future.done():
            future.set_result((version, now))

    def first_arrival(self, version: int) -> float | None:
        for seen, at in self.arrivals:
            if seen >= version:
                return at
        return None

    async def play(self) -> None:
        """Act whenever the newest state offers legal actions, after a think time."""
        worker = self.worker
        rng = worker.rng
        low, high = worker.think
        loop = asyncio.get_running_loop()
        while not worker.stopping:
            await self.turn.wait()
            self.turn.clear()
            if self.finished or not self.legal:
                continue
            await asyncio.sleep(rng.uniform(low, high))
            if worker.stopping or self.finished or not self.legal:
                continue
            action = dict(rng.choice(self.legal))
            action.pop("seat", None)
            self.sent += 1
            message_id = str(self.sent)
            future: asyncio.Future[tuple[int | None, float]] = loop.create_future()
            self.reply = (message_id, future)
            sent_at = time.monotonic()
            worker.count_sent(sent_at)
            self.in_flight = sent_at
            try:
                await self.ws.send(json.dumps({"type": "act", "id": message_id, "action": action}))
                version, answered_at = await asyncio.wait_for(future, ACK_TIMEOUT)
            except TimeoutError:
                worker.error("ack_timeout", time.monotonic())
                continue
            except Exception:
                worker.error("send_failed", time.monotonic())
                continue
            finally:
                self.reply = None
                self.in_flight = None
            if version is None:
                continue  # refused: counted by the error frame
            worker.count_ack(answered_at)
            self.group.track(sent_at, version)


class Group:
    """The people of one table; starts a new table when their match is over."""

    def __init__(self, worker: Worker, index: int) -> None:
        self.worker = worker
        self.index = index
        # A share of the tables (--master-share) seat one person against MASTER bots.
        self.bots = worker.master_every > 0 and index % worker.master_every == 0
        people = 1 if self.bots else worker.players
        self.clients = [Client(self, k) for k in range(people)]
        self.table_id: str | None = None
        self.ready = False
        self.rematching = False
        self.rematch_task: asyncio.Task[None] | None = None  # a reference keeps it alive
        # Actions acknowledged whose state has not reached every client yet:
        # [sent_at, version, latest arrival so far, clients still missing it].
        self.pending: list[list[Any]] = []

    async def setup(self) -> None:
        worker = self.worker
        try:
            async with worker.limit:
                for client in self.clients:
                    await client.guest()
            await self.seat()
            self.ready = True
        except Exception as exc:
            worker.setup_errors[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1

    async def seat(self) -> None:
        """A new table: the first client creates it (no bots, no clock), the others join,
        then everyone connects."""
        worker = self.worker
        host, *others = self.clients
        bots = {str(seat): "master" for seat in range(1, worker.players)} if self.bots else {}
        async with worker.limit:
            status, body, _ = await http(
                host.port,
                "POST",
                "/api/tables",
                {
                    "variant": worker.variant,
                    "options": worker.options,
                    "clock": False,
                    "bots": bots,
                },
                host.cookie,
            )
            if status != 200:
                raise SetupError(f"create: HTTP {status} {body}")
            table_id = body["id"]
            for client in others:
                status, body, _ = await http(
                    client.port, "POST", f"/api/tables/{table_id}/join", {}, client.cookie
                )
                if status != 200:
                    raise SetupError(f"join: HTTP {status} {body}")
            self.table_id = table_id
            await asyncio.gather(*(client.connect(table_id) for client in self.clients))

    # ------------------------------------------------------------ latency
    def track(self, sent_at: float, version: int) -> None:
        """An action was acknowledged at ``version``: its latency ends when every client of
        the table has received a state frame with a version >= it."""
        if not self.worker.measured(sent_at):
            return
        latest = sent_at
        missing = set()
        for client in self.clients:
            at = client.first_arrival(version)
            if at is None:
                missing.add(client)
            else:
                latest = max(latest, at)
        if missing:
            self.pending.append([sent_at, version, latest, missing])
        else:
            self.worker.latencies.append((latest - sent_at) * 1000)

    def arrived(self, client: Client, version: int, now: float) -> None:
        if not self.pending:
            return
        for entry in list(self.pending):
            if entry[1] <= version and client in entry[3]:
                entry[3].discard(client)
                entry[2] = max(entry[2], now)
                if not entry[3]:
                    self.pending.remove(entry)
                    self.worker.latencies.append((entry[2] - entry[0]) * 1000)

    # ------------------------------------------------------------ rematch
    def client_finished(self) -> None:
        if self.rematching or not all(c.finished for c in self.clients):
            return
        self.worker.count_match(time.monotonic())
        if self.worker.stopping:
            return
        self.rematching = True
        self.rematch_task = asyncio.get_running_loop().create_task(self.rematch())

    async def rematch(self) -> None:
        worker = self.worker
        try:
            self.worker.incomplete += len(self.pending)
            self.pending.clear()
            await asyncio.gather(*(client.close() for client in self.clients))
            await self.seat()
        except Exception as exc:
            worker.error(f"rematch: {type(exc).__name__}", time.monotonic())
        finally:
            self.rematching = False


# ------------------------------------------------------------------- the workers
class Worker:
    """One client process: its share of the tables, on one asyncio loop."""

    def __init__(self, conf: dict[str, Any], pipe: Connection) -> None:
        self.conf = conf
        self.pipe = pipe
        self.ports: list[int] = conf["ports"]
        self.master_every: int = conf.get("master_every", 0)
        self.variant: str = conf["variant"]
        self.options: dict[str, Any] = conf["options"]
        self.players: int = conf["players"]
        self.think: tuple[float, float] = conf["think"]
        self.compression: str | None = conf["compression"]
        self.rng = random.Random(conf["seed"])
        self.groups: list[Group] = []
        self.limit = asyncio.Semaphore(conf["setup_concurrency"])
        self.stopping = False
        self.window = (float("inf"), float("-inf"))
        self.latencies: list[float] = []
        self.lags: list[float] = []
        self.gc_mode: str = conf.get("gc", "frozen")
        self.gc_pauses: list[float] = []  # ms, collections that started in the window
        self.gc_started: float | None = None
        self.incomplete = 0
        self.acked = 0
        self.frames = 0  # state frames received in the window
        self.frame_bytes = 0
        self.deflated = 0  # connections on which the server accepted permessage-deflate
        self.sent = 0
        self.matches = 0
        self.matches_total = 0
        self.errors: Counter[str] = Counter()
        self.errors_total: Counter[str] = Counter()
        self.setup_errors: Counter[str] = Counter()

    def measured(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    def error(self, code: str, at: float) -> None:
        self.errors_total[code] += 1
        if self.measured(at):
            self.errors[code] += 1

    def count_sent(self, at: float) -> None:
        if self.measured(at):
            self.sent += 1

    def count_ack(self, at: float) -> None:
        if self.measured(at):
            self.acked += 1

    def count_match(self, at: float) -> None:
        self.matches_total += 1
        if self.measured(at):
            self.matches += 1

    def gc_callback(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self.gc_started = time.monotonic()
        elif self.gc_started is not None:
            if self.measured(self.gc_started):
                self.gc_pauses.append((time.monotonic() - self.gc_started) * 1000)
            self.gc_started = None

    def settle_gc(self) -> None:
        """After set-up: the clients' 300,000 objects (1,000 tables) frozen, and no
        collection while they play. A collection stops this process's event loop (a full
        one 0.3-0.4 s, a middle one ~0.1 s at 1,000 tables) and every action in flight
        meanwhile would count the pause as the server's latency; playing makes no cyclic
        garbage to speak of (refcounting frees it), so nothing piles up."""
        gc.callbacks.append(self.gc_callback)
        if self.gc_mode == "frozen":
            gc.collect()
            gc.freeze()
            gc.disable()

    async def lag_probe(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(LAG_PERIOD)
            now = time.monotonic()
            if self.measured(now):
                self.lags.append((now - before - LAG_PERIOD) * 1000)

    async def run(self) -> None:
        started = time.monotonic()
        self.groups = [Group(self, index) for index in self.conf["tables"]]
        await asyncio.gather(*(group.setup() for group in self.groups))
        ready = [group for group in self.groups if group.ready]
        self.settle_gc()
        self.pipe.send(
            {
                "ready": len(ready),
                "setup_seconds": round(time.monotonic() - started, 2),
                "setup_errors": dict(self.setup_errors),
            }
        )
        go = await asyncio.to_thread(self.pipe.recv)
        start, measure, end = go["start"], go["measure"], go["end"]
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        self.window = (measure, end)
        tasks = [
            asyncio.get_running_loop().create_task(client.play())
            for group in ready
            for client in group.clients
        ]
        probe = asyncio.get_running_loop().create_task(self.lag_probe())
        await asyncio.sleep(max(0.0, measure - time.monotonic()))
        cpu_before = os.times()
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        cpu_after = os.times()
        self.stopping = True

        # Let the actions sent in the window reach everyone (no new ones are sent).
        def unfinished() -> int:
            answers = sum(
                1
                for group in ready
                for client in group.clients
                if client.in_flight is not None and self.measured(client.in_flight)
            )
            return answers + sum(len(group.pending) for group in ready)

        deadline = time.monotonic() + DRAIN_SECONDS
        while unfinished() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        self.incomplete += unfinished()
        probe.cancel()
        for task in tasks:
            task.cancel()
        cpu = (cpu_after.user + cpu_after.system) - (cpu_before.user + cpu_before.system)
        total = os.times()
        self.pipe.send(
            {
                "latencies": self.latencies,
                "lags": self.lags,
                "gc_pauses": self.gc_pauses,
                "incomplete": self.incomplete,
                "acked": self.acked,
                "frames": self.frames,
                "frame_bytes": self.frame_bytes,
                "deflated": self.deflated,
                "sent": self.sent,
                "matches": self.matches,
                "matches_total": self.matches_total,
                "errors": dict(self.errors),
                "errors_total": dict(self.errors_total),
                "cpu_s": round(cpu, 3),
                "cpu_total_s": round(total.user + total.system, 3),
            }
        )
        # Closing 2,000 sockets one by one is slow: the process exit closes them all.


def worker_entry(conf: dict[str, Any], pipe: Connection) -> None:
    raise_open_files()
    run: Callable[[Coroutine[Any, Any, None]], None] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop  # the server uses it too (uvicorn[standard])

        run = uvloop.run
    code = 0
    try:
        run(Worker(conf, pipe).run())
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        pipe.close()
        sys.stderr.flush()
        os._exit(code)  # skip closing thousands of sockets and tasks gracefully


# -------------------------------------------------------------------- the server
def raise_open_files() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU time of a process (all its threads) from /proc/<pid>/stat, or of
    one of its threads."""
    where = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    text = Path(where).read_text()
    fields = text.rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def machine_busy_seconds() -> float | None:
    """CPU seconds all cores have spent busy since boot (/proc/stat: all but idle, iowait)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except (OSError, IndexError):
        return None
    ticks = [int(x) for x in fields[:8]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and of its descendants alive now (a node and its bot pool)."""
    total = 0.0
    stack = [pid]
    while stack:
        current = stack.pop()
        with contextlib.suppress(OSError, ValueError):
            total += cpu_seconds(current)
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(x) for x in (task / "children").read_text().split())
    return total


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process of this machine (the bench's database server
    is assumed to be local and otherwise idle)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError):
                if (entry / "comm").read_text().strip() == "postgres":
                    total += cpu_seconds(int(entry.name))
    return total


def helper_names(args: argparse.Namespace) -> list[str]:
    names = ["redis"] if args.nodes > 1 else []
    return names + [f"bot_worker_{k}" for k in range(args.job_workers)]


def start_nodes(
    args: argparse.Namespace, data_dir: Path
) -> tuple[list[subprocess.Popen[bytes]], list[int], list[subprocess.Popen[bytes]]]:
    """One server, or (--nodes N) N nodes of a cluster on a private Redis and the database,
    with --job-workers bot workers: (servers, their ports, helper processes)."""
    cluster: dict[str, str] = {}
    helpers: list[subprocess.Popen[bytes]] = []
    if args.nodes > 1:
        redis_port = free_port()
        helpers.append(
            subprocess.Popen(
                [shutil.which("redis-server") or "redis-server", "--port", str(redis_port),
                 "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                cwd=data_dir,
                stdout=subprocess.DEVNULL,
                preexec_fn=exit_with_parent,
            )
        )  # fmt: skip
        time.sleep(0.5)
        cluster["WHIST_REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    servers, ports = [], []
    for index in range(args.nodes):
        node_dir = data_dir if args.nodes == 1 else data_dir / f"node{index}"
        node_dir.mkdir(exist_ok=True)
        ports.append(free_port())
        servers.append(start_server(args, node_dir, ports[-1], cluster))
    for index in range(args.job_workers):
        log = (data_dir / f"bot-worker{index}.log").open("wb")
        helpers.append(
            subprocess.Popen(
                [sys.executable, "-m", "whist.cli", "bot-worker", "--processes", "1"],
                env=server_env(args, cluster),
                cwd=data_dir,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=exit_with_parent,
            )
        )
        log.close()
    return servers, ports, helpers


def server_env(args: argparse.Namespace, extra: dict[str, str]) -> dict[str, str]:
    # Only what is set here: a WHIST_* variable of the environment must not leak in.
    env = {key: value for key, value in os.environ.items() if not key.startswith("WHIST_")}
    env |= {
        "WHIST_RATE_LIMIT_PER_SECOND": "1000",
        "WHIST_RATE_LIMIT_BURST": "1000",
        "WHIST_BOT_WORKERS": str(args.bot_workers),
        "WHIST_BOT_DELAY": "0",
        **extra,
    }
    if args.database_url:
        env["WHIST_DATABASE_URL"] = args.database_url
    return env


def start_server(
    args: argparse.Namespace, data_dir: Path, port: int, extra: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    env = server_env(args, extra or {})
    log = (data_dir / "server.log").open("wb")
    command = [sys.executable, "-m", "whist.cli", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--data-dir", str(data_dir)]
    server = subprocess.Popen(
        command,
        env=env,
        cwd=data_dir,
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=exit_with_parent,  # a killed run leaves no server
    )
    log.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode}): see {data_dir}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2):
                return server
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not answer within 60 s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is not None:
        return
    server.send_signal(signal.SIGINT)
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def logs(data_dir: Path) -> list[Path]:
    """The servers' logs (one, or one per node) and the bot workers'."""
    return sorted(data_dir.rglob("*.log"))


def log_tail(data_dir: Path, lines: int = 30) -> str:
    tails = []
    for path in logs(data_dir):
        with contextlib.suppress(OSError):
            text = path.read_text(errors="replace")
            tail = "\n".join(text.splitlines()[-lines:])
            tails.append(f"--- {path.relative_to(data_dir)}\n{tail}")
    return "\n".join(tails)


EXCEPTION_LINE = re.compile(r"^[\w.]*(Error|Exception|Exit|Interrupt)\b.*")


def log_exceptions(data_dir: Path) -> dict[str, int]:
    """The exceptions the server logged (their last traceback line, shortened), counted."""
    found: Counter[str] = Counter()
    for path in logs(data_dir):
        with contextlib.suppress(OSError):
            for line in path.read_text(errors="replace").splitlines():
                if EXCEPTION_LINE.match(line):
                    found[line[:160]] += 1
    return dict(found.most_common(10))


# ----------------------------------------------------------------------- running
def receive(pipe: Connection, timeout: float, what: str) -> dict[str, Any]:
    if not pipe.poll(timeout):
        raise RuntimeError(f"a client process sent no {what} within {timeout:.0f} s")
    try:
        message: dict[str, Any] = pipe.recv()
    except EOFError:
        raise RuntimeError(f"a client process died before its {what}") from None
    return message


def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    from whist.variants import VARIANTS

    players = VARIANTS[args.variant].players
    servers, ports, helpers = start_nodes(args, data_dir)
    server = servers[0]
    progress(f"server pids {[s.pid for s in servers]}, ports {ports}, data in {data_dir}")
    procs: list[multiprocessing.process.BaseProcess] = []
    try:
        time.sleep(1.0)  # let start-up settle
        rss_before = sum(rss_kib(s.pid) for s in servers)
        context = multiprocessing.get_context("spawn")
        pipes: list[Connection] = []
        tables = list(range(args.tables))
        for k in range(args.client_processes):
            ours, theirs = context.Pipe()
            conf = {
                "ports": ports,
                "master_every": round(1 / args.master_share) if args.master_share else 0,
                "variant": args.variant,
                "options": args.options,
                "players": players,
                "think": (args.think[0] / 1000, args.think[1] / 1000),
                "compression": None if args.compression == "none" else "deflate",
                "seed": args.seed * 1000 + k,
                "tables": tables[k :: args.client_processes],
                "setup_concurrency": max(1, 64 // args.client_processes),
                "gc": args.client_gc,
            }
            proc = context.Process(target=worker_entry, args=(conf, theirs), daemon=True)
            proc.start()
            theirs.close()
            procs.append(proc)
            pipes.append(ours)
        progress(f"setting up {args.tables} tables x {players} clients")
        setup_started = time.monotonic()
        readies = [receive(pipe, SETUP_TIMEOUT, "ready") for pipe in pipes]
        setup_seconds = time.monotonic() - setup_started
        ready = sum(r["ready"] for r in readies)
        setup_errors: Counter[str] = Counter()
        for r in readies:
            setup_errors.update(r["setup_errors"])
        progress(f"{ready} tables ready in {setup_seconds:.1f} s; errors {dict(setup_errors)}")
        rss_setup = sum(rss_kib(s.pid) for s in servers)
        start = time.monotonic() + 0.5
        measure = start + args.warmup
        end = measure + args.seconds
        for pipe in pipes:
            pipe.send({"start": start, "measure": measure, "end": end})
        time.sleep(max(0.0, measure - time.monotonic()))
        nodes_before = [tree_cpu(s.pid) for s in servers]  # with their bot pools
        helpers_before = [tree_cpu(h.pid) for h in helpers]
        database_before = postgres_cpu() if args.database_url else 0.0
        loop_cpu_before = sum(cpu_seconds(s.pid, s.pid) for s in servers)  # event loops
        busy_before = machine_busy_seconds()
        progress(f"warm-up done; measuring for {args.seconds:g} s")
        time.sleep(max(0.0, end - time.monotonic()))
        node_cpu = [tree_cpu(s.pid) - b for s, b in zip(servers, nodes_before, strict=True)]
        helper_cpu = [tree_cpu(h.pid) - b for h, b in zip(helpers, helpers_before, strict=True)]
        database_cpu = postgres_cpu() - database_before if args.database_url else 0.0
        server_cpu = sum(node_cpu)
        loop_cpu = sum(cpu_seconds(s.pid, s.pid) for s in servers) - loop_cpu_before
        busy_after = machine_busy_seconds()
        rss_end = sum(rss_kib(s.pid) for s in servers)
        results = [receive(pipe, 60 + DRAIN_SECONDS, "result") for pipe in pipes]
    finally:
        for started in procs:
            started.join(10)
            if started.is_alive():
                started.kill()
        for started_server in servers:
            stop_server(started_server)
        for helper in helpers:
            stop_server(helper)

    latencies = [x for r in results for x in r["latencies"]]
    lags = [x for r in results for x in r["lags"]]
    gc_pauses = [x for r in results for x in r["gc_pauses"]]
    errors: Counter[str] = Counter()
    errors_total: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
        errors_total.update(r["errors_total"])
    acked = sum(r["acked"] for r in results)
    frames = sum(r["frames"] for r in results)
    incomplete = sum(r["incomplete"] for r in results)
    client_cpu = sum(r["cpu_s"] for r in results)
    latency = percentiles(latencies)
    error_count = sum(errors.values()) + sum(setup_errors.values()) + incomplete
    p99 = latency["p99"]
    busy = None
    if busy_before is not None and busy_after is not None:
        busy = busy_after - busy_before
    return {
        "tables_ready": ready,
        "clients": ready * players,
        "players_per_table": players,
        "setup_seconds": round(setup_seconds, 2),
        "actions": {
            "acked": acked,
            "sent": sum(r["sent"] for r in results),
            "per_s": round(acked / args.seconds, 1),
            "per_table_per_s": round(acked / args.seconds / max(1, ready), 3),
            "matches_finished": sum(r["matches"] for r in results),
        },
        "state_frames": {
            "per_s": round(frames / args.seconds, 1),
            "mean_bytes": round(sum(r["frame_bytes"] for r in results) / max(1, frames)),
            # Connections (of the whole run) on which permessage-deflate was negotiated.
            "deflate_connections": sum(r["deflated"] for r in results),
        },
        "latency_ms": {**latency, "incomplete": incomplete},
        "errors": {
            "total": error_count,
            "in_window": dict(errors),
            "whole_run": dict(errors_total),
            "setup": dict(setup_errors),
            "incomplete": incomplete,
        },
        "server": {
            "pid": server.pid,
            "rss_kib_before": rss_before,
            "rss_kib_after_setup": rss_setup,
            "rss_kib_end": rss_end,
            "rss_kib_per_table": round((rss_end - rss_before) / max(1, ready), 1),
            "cpu_s": round(server_cpu, 2),
            "cpu_share_of_one_core": round(server_cpu / args.seconds, 3),
            "cpu_ms_per_action": round(1000 * server_cpu / acked, 3) if acked else None,
            # The main thread runs the event loop (every table, every socket); the other
            # threads are mostly database calls (asyncio.to_thread).
            "loop_thread_cpu_share": round(loop_cpu / args.seconds, 3),
            "database": "postgresql" if args.database_url else "sqlite",
            "log_exceptions": log_exceptions(data_dir),
        },
        # Every process serving the club (--nodes: each node with its bot pool, Redis, the
        # bot workers, PostgreSQL's processes): what an action costs the club in all.
        "club_cpu": {
            "nodes": args.nodes,
            "node_cpu_s": [round(x, 2) for x in node_cpu],
            "helpers_cpu_s": {
                name: round(x, 2) for name, x in zip(helper_names(args), helper_cpu, strict=True)
            },
            "postgres_cpu_s": round(database_cpu, 2) if args.database_url else None,
            "cpu_ms_per_action": round(
                1000 * (server_cpu + sum(helper_cpu) + database_cpu) / acked, 3
            )
            if acked
            else None,
        },
        "load_generator": {
            "processes": args.client_processes,
            "cpu_s": round(client_cpu, 2),
            "cpu_share_of_one_core": round(client_cpu / args.seconds, 3),
            "cpu_ms_per_action": round(1000 * client_cpu / acked, 3) if acked else None,
            "cpu_s_per_process": [r["cpu_s"] for r in results],
            "cpu_total_s_per_process": [r["cpu_total_s"] for r in results],
            "loop_lag_ms": percentiles(lags),
            # Garbage collections in the client processes during the window (their event
            # loops stop meanwhile): "frozen" (the default) allows none while playing.
            "gc": {"mode": args.client_gc, "pauses_ms": percentiles(gc_pauses)},
        },
        "machine_cpu": {
            # Busy cores over the window: the server, the load generator and anything else
            # running on the machine (other processes make the figures noisy).
            "busy_cores": None if busy is None else round(busy / args.seconds, 2),
            "others_cores": None
            if busy is None
            else round(max(0.0, busy - server_cpu - client_cpu) / args.seconds, 2),
        },
        "target": {"tables": TARGET_TABLES, "p99_ms": TARGET_P99_MS},
        "target_met": bool(
            ready >= TARGET_TABLES and p99 is not None and p99 <= TARGET_P99_MS and not error_count
        ),
    }


def think_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    try:
        bounds = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError("LOW-HIGH in ms, e.g. 50-200") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError("need 0 <= LOW <= HIGH")
    return bounds


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    from whist.variants import VARIANTS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="tables (default 500)")
    parser.add_argument("--seconds", type=float, default=None, help="measured seconds (60)")
    parser.add_argument("--warmup", type=float, default=None, help="warm-up seconds (10)")
    parser.add_argument(
        "--think-ms", dest="think", type=think_range, default=None,
        help="a client's think time before each action, uniform LOW-HIGH ms (2000-8000, "
        "people at a card table; 50-200 measures capacity and is --quick's default)",
    )  # fmt: skip
    parser.add_argument("--variant", default="minnesota", help="a variant key (minnesota)")
    parser.add_argument(
        "--options",
        type=json.loads,
        default={},
        help='variant options as JSON, e.g. {"target": 50}',
    )
    parser.add_argument("--client-processes", type=int, default=1, help="client processes (1)")
    parser.add_argument(
        "--bot-workers", type=int, default=2,
        help="WHIST_BOT_WORKERS: bot processes of each node's own pool (2)",
    )  # fmt: skip
    parser.add_argument(
        "--nodes", type=int, default=1,
        help="whist serve processes: 1, or a cluster of N on --database-url (PostgreSQL) and "
        "a private Redis; each table's people spread over the nodes",
    )  # fmt: skip
    parser.add_argument(
        "--job-workers", type=int, default=0,
        help="cluster: `whist bot-worker --processes 1` processes taking the bots' decisions",
    )  # fmt: skip
    parser.add_argument(
        "--master-share", type=float, default=0.0,
        help="the share of tables where one person plays against MASTER bots (0.25: every "
        "4th table)",
    )  # fmt: skip
    parser.add_argument(
        "--client-gc", choices=("frozen", "default"), default="frozen",
        help="the client processes' garbage collector: frozen after set-up and off while "
        "playing (frozen), or Python's default (its pauses then count as latency)",
    )  # fmt: skip
    parser.add_argument(
        "--database-url", default="", help="WHIST_DATABASE_URL (default: SQLite in a temp dir)"
    )
    parser.add_argument(
        "--compression", choices=("deflate", "none"), default="deflate",
        help="permessage-deflate offered by the clients, as browsers do (deflate)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-data", action="store_true", help="keep the data dir and log")
    parser.add_argument(
        "--quick", action="store_true",
        help="20 tables, 10 s, 2 s warm-up, 50-200 ms think: a smoke test",
    )  # fmt: skip
    args = parser.parse_args(argv)
    quick = (20, 10.0, 2.0, (50.0, 200.0)) if args.quick else (TARGET_TABLES, 60.0, 10.0, HUMAN_MS)
    for name, default in zip(("tables", "seconds", "warmup", "think"), quick, strict=True):
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.variant not in VARIANTS:
        parser.error(f"unknown variant {args.variant!r}; known: {', '.join(VARIANTS)}")
    if not isinstance(args.options, dict):
        parser.error("--options must be a JSON object")
    if args.tables < 1 or args.seconds <= 0 or args.warmup < 0 or args.client_processes < 1:
        parser.error("--tables, --client-processes >= 1, --seconds > 0, --warmup >= 0")
    if args.nodes < 1 or args.job_workers < 0 or not 0 <= args.master_share <= 1:
        parser.error("--nodes >= 1, --job-workers >= 0, 0 <= --master-share <= 1")
    if args.nodes > 1 and not args.database_url.startswith("postgresql"):
        parser.error("--nodes > 1 needs --database-url postgresql://...")
    if args.job_workers and args.nodes == 1:
        parser.error("--job-workers needs --nodes > 1 (bot workers serve a cluster)")
    args.client_processes = min(args.client_processes, args.tables)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    open_files = raise_open_files()
    load_before = load_average()
    source = source_state()
    started = time.perf_counter()
    data_dir = Path(tempfile.mkdtemp(prefix="whist-load-"))
    try:
        measured = run(args, data_dir)
    except Exception:
        tail = log_tail(data_dir)
        if tail:
            progress("server log (tail):\n" + tail)
        raise
    finally:
        if not args.keep_data:
            shutil.rmtree(data_dir, ignore_errors=True)
    machine = {**machine_info(), "load_avg_before": load_before, "open_files_limit": open_files}
    result: dict[str, Any] = {
        "benchmark": "whist-server-load",
        "params": {
            "tables": args.tables,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "think_ms": list(args.think),
            "variant": args.variant,
            "options": args.options,
            "client_processes": args.client_processes,
            "client_gc": args.client_gc,
            "bot_workers": args.bot_workers,
            "nodes": args.nodes,
            "job_workers": args.job_workers,
            "master_share": args.master_share,
            "compression": args.compression,
            "seed": args.seed,
            "quick": args.quick,
        },
        "machine": machine,
        "source": source,
        **measured,
        "notes": [
            "latency: from a client's send of an action to the moment every client of that "
            "table has received a state frame with a version >= the acknowledged one; no bots",
            "the load generator shares the machine's cores with the server: compare "
            "load_generator.cpu_share_of_one_core and loop_lag_ms before blaming the server",
        ],
        "total_seconds": round(time.perf_counter() - started, 2),
    }
    if args.keep_data:
        result["data_dir"] = str(data_dir)
    machine["load_avg_after"] = load_average()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
