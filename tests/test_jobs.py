"""Bot decisions as jobs on Redis (``whist.cluster.jobs``), against real ``whist bot-worker``
processes and a private ``redis-server`` per test (never the shared one on 6379).

A worker answers with a legal action; a node without workers gets None (its local pool
decides); a worker killed mid-job has its job taken by another before the deadline; a job
nobody answers gets a safe move at its deadline; a worker outlives a Redis restart.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis
from redis import Redis as SyncRedis
from redis.exceptions import RedisError

from whist.cluster.jobs import (
    ADVISE,
    CHOOSE,
    GROUP,
    STREAM,
    WORKER_KEY,
    WORKERS,
    BotJobs,
    deadline,
    grace,
)
from whist.core.actions import action_to_json
from whist.core.views import View, view_for
from whist.server.bots import exit_with_parent
from whist.variants import new_match

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
pytestmark = pytest.mark.skipif(not os.path.exists(REDIS_SERVER), reason="no redis-server")

NO_DISK = ("--save", "", "--appendonly", "no")  # a restart is an empty Redis
START_TIMEOUT = 30.0  # seconds a worker may take to start (imports, fork, warm-up)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """A private redis-server without persistence, which can be killed and started again
    on the same port (as a restarted Redis: empty)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", *NO_DISK],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=exit_with_parent,
        )
        until = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            assert time.monotonic() < until, "redis-server did not start"
            time.sleep(0.02)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.kill()


class Workers:
    """``whist bot-worker`` processes, as people start them; stopped at teardown."""

    def __init__(self, server: RedisServer, root: Path) -> None:
        self.server = server
        self.root = root
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, budget: float) -> subprocess.Popen[bytes]:
        env = {**os.environ, "WHIST_REDIS_URL": self.server.url, "WHIST_BOT_BUDGET": str(budget)}
        log = self.root / f"worker{len(self.processes)}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "whist.cli", "bot-worker", "--processes", "1"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=exit_with_parent,
            )
        self.processes.append(process)
        return process

    def start_live(self, budget: float) -> subprocess.Popen[bytes]:
        """``start``, then wait until the worker's heartbeat is in Redis."""
        process = self.start(budget)
        client = SyncRedis.from_url(self.server.url)
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while not client.smembers(WORKERS):
                assert time.monotonic() < deadline, "no bot worker came up"
                time.sleep(0.1)
        finally:
            client.close()
        return process

    def log(self, index: int = 0) -> str:
        return (self.root / f"worker{index}.log").read_text()

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        for index in range(len(self.processes)):
            print(f"--- worker {index}:\n{self.log(index)}")  # shown when a test fails


@pytest.fixture
def workers(redis_server: RedisServer, tmp_path: Path) -> Iterator[Workers]:
    made = Workers(redis_server, tmp_path)
    yield made
    made.close()


def position() -> View:
    """A view with a real choice: trick 2 of a classic deal, for the seat to play."""
    match = new_match("classic")
    match.start_deal(list(range(52)), dealer=0)
    for _ in range(5):
        match.apply(match.legal_actions()[0])
    return view_for(match, match.next_seat())


def legal(view: View) -> list[dict[str, Any]]:
    return [action_to_json(action) for action in view.legal]


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    until = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < until, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.05)


def node(url: str, budget: float, scenario: Callable[[BotJobs], Awaitable[None]]) -> None:
    """Run ``scenario`` against a started ``BotJobs`` (a node of its own), then stop it."""

    async def run() -> None:
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=3)
        jobs = BotJobs(client, budget, "test-node")
        await jobs.start()
        try:
            await scenario(jobs)
        finally:
            await jobs.stop()
            await client.aclose()

    asyncio.run(run())


async def done(jobs: BotJobs, pid: int) -> int:
    """Jobs the worker with this pid answered (its heartbeat's count, -1 if not live)."""
    return next((w["done"] for w in await jobs.workers() if w["pid"] == pid), -1)


# ------------------------------------------------------------------ the tests
def test_a_worker_answers_with_a_legal_action_and_stops_on_sigterm(
    redis_server: RedisServer, workers: Workers
) -> None:
    process = workers.start(budget=0.05)
    view = position()

    async def scenario(jobs: BotJobs) -> None:
        await eventually(lambda: has_workers(jobs, 1), START_TIMEOUT, "a live worker")
        [worker] = await jobs.workers()
        assert (worker["pid"], worker["processes"], worker["done"]) == (process.pid, 1, 0)
        for level in ("medium", "hard"):
            action = await jobs.think(level, view, "seed")
            assert action in legal(view)
        await eventually(lambda: depth_is(jobs, 0), 2, "no job left")
        await eventually(lambda: is_equal(done(jobs, process.pid), 2), 2, "two jobs done")
        # A stopped worker leaves the live list at once and exits 0 with its processes.
        process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(process.wait, 10) == 0
        assert await jobs.workers() == []
        await asyncio.sleep(0.5)  # the node's answer to "any worker?" is kept that long
        assert await jobs.think("medium", view, "seed") is None

    node(redis_server.url, 0.05, scenario)
    assert "Traceback" not in workers.log()


def test_no_live_worker_means_none_at_once(redis_server: RedisServer) -> None:
    async def scenario(jobs: BotJobs) -> None:
        # A worker that is gone: listed, but its heartbeat expired.
        await jobs.client.sadd(WORKERS, "gone")
        started = time.monotonic()
        assert await jobs.think("medium", position(), "seed") is None
        assert time.monotonic() - started < 0.5
        assert await jobs.workers() == []
        assert await jobs.depth() == 0  # no job was added
        assert await jobs.client.smembers(WORKERS) == set()  # pruned

    node(redis_server.url, 0.05, scenario)


def test_the_job_of_a_killed_worker_is_answered_by_another_in_time(
    redis_server: RedisServer, workers: Workers, caplog: pytest.LogCaptureFixture
) -> None:
    budget = 0.5  # MASTER thinks its whole budget: the job is read and not yet answered
    first, second = workers.start(budget), workers.start(budget)
    view = position()

    async def scenario(jobs: BotJobs) -> None:
        await eventually(lambda: has_workers(jobs, 2), START_TIMEOUT, "two live workers")
        pids = {w["id"]: w["pid"] for w in await jobs.workers()}
        started = time.monotonic()
        thinking = asyncio.create_task(jobs.think("master", view, "seed"))
        holder = await reader(jobs)  # the worker that read the job, while it thinks
        victim = pids[holder]
        os.kill(victim, signal.SIGKILL)
        action = await thinking
        took = time.monotonic() - started
        assert action in legal(view)
        assert took < deadline(budget) - 0.5, took  # answered: not the deadline's safe move
        survivor = (set(pids.values()) - {victim}).pop()
        await eventually(lambda: is_equal(done(jobs, survivor), 1), 2, "the survivor's job")
        await eventually(lambda: depth_is(jobs, 0), 2, "no job left")

    with caplog.at_level(logging.WARNING, logger="whist.jobs"):
        node(redis_server.url, budget, scenario)
    assert not [r for r in caplog.records if "safe move" in r.getMessage()]
    assert {first.poll(), second.poll()} & {-signal.SIGKILL}
    survivor_log = workers.log(0) if first.poll() is None else workers.log(1)
    assert "took over 1 job(s)" in survivor_log


def test_a_job_nobody_answers_gets_a_safe_move_at_its_deadline(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    budget = 0.05
    view = position()

    async def scenario(jobs: BotJobs) -> None:
        # A worker's heartbeat, and no worker: the job is added and never read.
        await jobs.client.set(WORKER_KEY + "ghost", b'{"id": "ghost"}', px=30_000)
        await jobs.client.sadd(WORKERS, "ghost")
        started = time.monotonic()
        thinking = asyncio.create_task(jobs.think("master", view, "seed"))
        await eventually(lambda: depth_is(jobs, 1), 2, "the job waits")
        action = await thinking
        took = time.monotonic() - started
        assert action in legal(view)
        assert deadline(budget) - 0.05 <= took < deadline(budget) + 0.5, took

    with caplog.at_level(logging.WARNING, logger="whist.jobs"):
        node(redis_server.url, budget, scenario)
    assert [r for r in caplog.records if "playing a safe move" in r.getMessage()]


def test_a_hint_nobody_answers_is_waited_for_longer_than_a_move_then_fails(
    redis_server: RedisServer,
) -> None:
    """Advice has no safe stand-in: a node waits its extra grace (as the local pool does)
    before the hint is refused, and then it raises instead of making up an action."""
    budget = 0.05
    wait = deadline(budget) + grace(ADVISE) - grace(CHOOSE)
    assert wait > deadline(budget) + 1

    async def scenario(jobs: BotJobs) -> None:
        await jobs.client.set(WORKER_KEY + "ghost", b'{"id": "ghost"}', px=30_000)
        await jobs.client.sadd(WORKERS, "ghost")
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await jobs.advise(position(), "seed")
        took = time.monotonic() - started
        assert wait - 0.05 <= took < wait + 0.5, took

    node(redis_server.url, budget, scenario)


def test_a_worker_outlives_a_redis_restart(redis_server: RedisServer, workers: Workers) -> None:
    process = workers.start(budget=0.05)
    view = position()

    async def scenario(jobs: BotJobs) -> None:
        await eventually(lambda: has_workers(jobs, 1), START_TIMEOUT, "a live worker")
        await asyncio.to_thread(redis_server.kill)
        await asyncio.sleep(1.5)  # the worker (and this node) notice it
        await asyncio.to_thread(redis_server.start)  # empty: no stream, group, heartbeat
        await eventually(lambda: has_workers(jobs, 1), 5, "the worker back")
        # This node subscribes again too (think says None until then: the local pool).
        started = time.monotonic()
        action = None
        while action is None:
            assert time.monotonic() - started < 5, "no answer after the restart"
            action = await jobs.think("hard", view, "seed")
            await asyncio.sleep(0.1)
        assert action in legal(view)
        await eventually(lambda: is_equal(done(jobs, process.pid), 1), 2, "answered by it")
        groups = await jobs.client.xinfo_groups(STREAM)
        assert [g["name"] for g in groups] == [GROUP.encode()]

    node(redis_server.url, 0.05, scenario)
    assert process.poll() is None
    log = workers.log()
    # One line for the outage from the bot jobs (the analysis jobs say theirs once too).
    assert log.count("whist.jobs Redis is away") == 1, log
    assert log.count("whist.analysis_jobs Redis is away") <= 1, log
    assert "Redis is back" in log


def test_a_worker_without_a_redis_url_exits_2_with_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "WHIST_REDIS_URL"}
    run = subprocess.run(
        [sys.executable, "-m", "whist.cli", "bot-worker"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and "WHIST_REDIS_URL" in run.stderr, run.stderr


# ------------------------------------------------------------------ small checks
async def has_workers(jobs: BotJobs, count: int) -> bool:
    try:
        return len(await jobs.workers()) == count
    except RedisError:  # a pooled connection from before a Redis restart, once
        return False


async def depth_is(jobs: BotJobs, count: int) -> bool:
    return await jobs.depth() == count


async def is_equal(value: Awaitable[Any], expected: Any) -> bool:
    return await value == expected


async def reader(jobs: BotJobs) -> str:
    """The consumer (worker id) that holds the one pending job, as soon as one does."""
    until = time.monotonic() + 5
    while True:
        pending = await jobs.client.xpending(STREAM, GROUP)
        if pending["pending"]:
            [consumer] = pending["consumers"]
            return str(consumer["name"].decode())
        assert time.monotonic() < until, "no worker read the job"
        await asyncio.sleep(0.005)
