"""Bot decisions as jobs on Redis, taken by ``whist bot-worker`` processes on any machine.

A node (``BotJobs``) adds a job to one Redis stream and waits for the answer on its own
pub/sub channel; workers (``run_worker``) read the stream as one consumer group, decide in
a local process pool, publish the answer and then acknowledge the job.

Why Redis Streams with a consumer group, and no queue library: they are built into the
Redis the cluster already runs; a group delivers each job to one worker and keeps it in
that worker's pending list until acknowledged (at-least-once), and XAUTOCLAIM hands the
jobs of a worker that died (pending too long) to another. arq would be a second dependency
whose retry is by job timeout, not by a worker's death. A job answered twice (a slow
worker and the one that took its job over) is harmless: the node keeps the first answer.

The deadline guard stays: a node waits ``deadline(budget)`` at most, then plays MEDIUM's
safe move itself, as the local pool does on an overrun. A node that sees no live worker
(heartbeat keys that expire) gets None from ``think`` and uses its local pool.

Security: a job carries the pickled ``View`` (as the local process pool already does) and
workers unpickle it, so anyone who can write to this Redis can run code on every worker.
Redis must be as private as the database (no public port, a password, TLS between hosts).
Deadlines are wall-clock times: the machines' clocks must agree (NTP) within a fraction of
a second.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import pickle
import secrets
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio as redis
from redis.asyncio.connection import parse_url
from redis.exceptions import RedisError, ResponseError

from whist.core.views import View
from whist.server.bots import (
    HINT_GRACE,
    STOPPED,
    advise,
    choose,
    safe_move,
    signals_held,
    start_worker,
    stop_processes,
)

log = logging.getLogger("whist.jobs")

# ------------------------------------------------------------------ names in Redis
STREAM = "whist:jobs:bot"  # the bot jobs (analyses have their own: analysis_jobs.py)
# A bot job's kind: a bot's move (``choose``), or MASTER's advice for a hint (``advise``:
# the action and its estimate). A job without one (an older node's) is a move.
CHOOSE, ADVISE = "choose", "advise"
GROUP = "bot-workers"  # the consumer group of every worker; a worker's id is its consumer
REPLIES = "whist:replies:"  # + node id: the pub/sub channel of a node's answers
WORKER_KEY = "whist:worker:"  # + worker id: its heartbeat, JSON that expires
WORKERS = "whist:workers"  # a set of worker ids, pruned of those whose heartbeat expired

MAX_JOBS = 10_000  # the stream is trimmed (approximately) to this many entries
HEARTBEAT_SECONDS = 0.5
HEARTBEAT_TTL_MS = 2_000  # four missed beats: the worker is gone
LIVENESS_CACHE_SECONDS = 0.5  # a node asks Redis about live workers at most this often
READ_BLOCK_MS = 500  # XREADGROUP's wait: also how late a worker notices a stop
RETRY_SECONDS = 1.0  # between two tries to reach Redis again
CLAIM_MARGIN_SECONDS = 1.0  # idle longer than budget + this: the job's worker died
OVERRUN_SECONDS = 0.5  # a bot's grace over its budget before its safe move is played
REPLY_MARGIN_SECONDS = 0.25  # a late-taken job thinks less, to answer before its deadline
STALE_CONSUMER_MS = 600_000  # consumers without jobs idle this long are removed at start
POLL_SECONDS = 0.2  # a node's reader looks whether it should stop this often
STOP_SECONDS = 2.0  # a task that should stop and has not by then is cancelled


def deadline(budget: float) -> float:
    """Seconds a node waits for a worker's answer: twice the budget and 3 s.

    A job whose worker dies as it starts becomes claimable after ``budget + 1`` s; the
    next worker's read loop claims it within 0.5 s and thinks for at most ``budget`` (less
    if the deadline is near): ``2 * budget + 1.5`` s, leaving 1.5 s for the hops through
    Redis and a loaded machine. With the default budget (1 s) a table waits 5 s at most,
    and that long only when a worker died or none answered. A hint is waited for longer,
    by its extra ``grace`` (a worker that is slow with it may see it taken over as if it
    had died: thought twice, answered once)."""
    return budget * 2 + 3


def grace(kind: str) -> float:
    """Seconds a job may think past its budget: a move then gets MEDIUM's safe move, but
    advice has no stand-in, so a hint is waited for as long as the local pool waits."""
    return HINT_GRACE if kind == ADVISE else OVERRUN_SECONDS


def channel(node: str) -> str:
    return REPLIES + node


def text(value: bytes | str) -> str:
    """Redis answers in bytes, or in str when the client decodes responses."""
    return value.decode() if isinstance(value, bytes) else value


def unreachable(exc: BaseException) -> bool:
    """Redis itself is away (as opposed to a command it refused)."""
    return isinstance(exc, RedisError | OSError) and not isinstance(exc, ResponseError)


async def ensure_group(client: redis.Redis) -> None:
    """Create the stream and its group, once (BUSYGROUP: it exists). From id 0, not $: a
    node may have added a job to a stream that a restarted Redis made anew, without the
    group; such jobs must still reach a worker (expired ones are dropped unread)."""
    try:
        await client.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
    except ResponseError as exc:
        if not str(exc).startswith("BUSYGROUP"):
            raise


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Sleep, but no longer than until ``stop`` is set."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def through_outages(
    stop: asyncio.Event,
    prepare: Callable[[], Awaitable[None]],
    step: Callable[[], Awaitable[None]],
    logger: logging.Logger,
    waiting: str,
) -> None:
    """A worker's loop: ``step`` until ``stop``, ``prepare`` first and again after every
    outage. Redis away is said once in the log ("Redis is away (why): ``waiting``") and
    tried again every second; a restarted Redis without the stream (NOGROUP) is prepared
    again at once; anything else is raised."""
    ready = False
    down = False
    while not stop.is_set():
        try:
            if not ready:
                await prepare()
                ready = True
            await step()
            if down:
                down = False
                logger.warning("Redis is back: taking jobs again")
        except Exception as exc:
            ready = False
            if isinstance(exc, ResponseError) and str(exc).startswith("NOGROUP"):
                continue  # a restarted Redis without the stream: make it
            if not unreachable(exc):
                raise
            if not down:
                down = True
                logger.error("Redis is away (%s): %s", exc, waiting)
            await pause(stop, RETRY_SECONDS)


async def ended(task: asyncio.Task[None]) -> None:
    """Wait for a task told to stop by an event, cancelling it only if it has not ended in
    time. A task is not cancelled first: redis-py can swallow a cancellation that comes
    during a command (a reader cancelled while subscribing then blocked for good)."""
    done, _ = await asyncio.wait([task], timeout=STOP_SECONDS)
    if not done:
        task.cancel()  # not awaited: it may never end (see above)
    elif not task.cancelled() and (exc := task.exception()) is not None:
        log.error("a task ended with an error: %r", exc)


# ------------------------------------------------------------------ the node's side
class BotJobs:
    """A node's way to have bots think on the workers."""

    def __init__(self, client: redis.Redis, budget: float, node: str) -> None:
        self.client = client
        self.budget = budget
        self.node = node
        self.channel = channel(node)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}  # job -> its answer
        self._subscribed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._live = False
        self._live_checked = -LIVENESS_CACHE_SECONDS  # loop time of the last check
        self._down = False  # Redis is away: said once in the log

    async def start(self) -> None:
        """Listen for answers (one reader task) and make sure the group exists. Returns once
        subscribed, so that bots think on the workers from the first move; or after 2 s
        without Redis (its reader goes on trying: ``think`` says None meanwhile)."""
        self._stopping.clear()
        try:
            await ensure_group(self.client)
        except RedisError as exc:
            self._lost(exc)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), STOP_SECONDS)

    async def stop(self) -> None:
        self._stopping.set()
        if self._reader is not None:
            await ended(self._reader)
            self._reader = None
        self._subscribed.clear()
        for future in self._waiting.values():  # the node is stopping: thoughts are dropped
            future.cancel()
        self._waiting.clear()

    async def think(self, level: str, view: View, seed: str) -> dict[str, Any] | None:
        """The bot's action as record JSON, decided by a worker; None when no worker is
        alive or Redis is away (the caller then uses its local pool)."""
        try:
            answer = await self._job(CHOOSE, level, view, seed)
        except TimeoutError:
            log.warning(
                "no bot worker answered a %s bot within %.1f s: playing a safe move",
                level,
                deadline(self.budget),
            )
            return safe_move(view, seed)
        return None if answer is None else answer["action"]

    async def advise(self, view: View, seed: str) -> dict[str, Any] | None:
        """MASTER's advice for a hint (server/bots.py ``advise``), from a worker; None as
        for ``think``. Raises ``TimeoutError`` when no answer comes in time, and
        ``RuntimeError`` when the worker could not give it."""
        answer = await self._job(ADVISE, "master", view, seed)
        if answer is not None and "action" not in answer:
            raise RuntimeError("the bot worker could not give the hint")
        return answer

    async def _job(self, kind: str, level: str, view: View, seed: str) -> dict[str, Any] | None:
        """A job's answer from a worker; None when none is alive or Redis is away;
        ``TimeoutError`` past ``deadline``."""
        if not self._subscribed.is_set() or not await self._alive():
            return None
        loop = asyncio.get_running_loop()
        wait = deadline(self.budget) + grace(kind) - OVERRUN_SECONDS
        until = loop.time() + wait
        job = os.urandom(8).hex()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._waiting[job] = future  # before the job is added: the answer may come at once
        try:
            try:
                await self.client.xadd(
                    STREAM,
                    {
                        "id": job,
                        "kind": kind,
                        "level": level,
                        "seed": seed,
                        "budget": repr(self.budget),
                        "deadline": repr(time.time() + wait),
                        "reply": self.channel,
                        # Workers unpickle this: Redis must be as private as the database.
                        "view": pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL),
                    },
                    maxlen=MAX_JOBS,
                    approximate=True,
                )
            except RedisError as exc:
                self._lost(exc)
                self._live = False
                return None
            async with asyncio.timeout_at(until):
                return await future
        finally:
            self._waiting.pop(job, None)

    async def depth(self) -> int:
        """Jobs not finished: not yet read by a worker, or read and not acknowledged.
        (This and ``workers`` raise redis-py's errors while Redis is away.)"""
        try:
            groups = await self.client.xinfo_groups(STREAM)
        except ResponseError:  # no such key: no job was ever added
            return 0
        for group in groups:
            if text(group["name"]) != GROUP:
                continue
            lag = group.get("lag")
            if lag is None:  # Redis cannot tell (entries deleted): count them
                start = "(" + text(group["last-delivered-id"])
                lag = len(await self.client.xrange(STREAM, min=start, count=MAX_JOBS) or [])
            return int(lag) + int(group["pending"])
        return int(await self.client.xlen(STREAM))  # no group yet: nothing was read

    async def workers(self) -> list[dict[str, Any]]:
        """The live workers: id, host, pid, processes, done (jobs answered)."""
        ids = sorted(text(member) for member in await self.client.smembers(WORKERS))
        if not ids:
            return []
        beats = await self.client.mget([WORKER_KEY + worker for worker in ids])
        gone = [worker for worker, beat in zip(ids, beats, strict=True) if beat is None]
        if gone:  # their heartbeats expired: killed, or their machine is gone
            await self.client.srem(WORKERS, *gone)
        return [orjson.loads(beat) for beat in beats if beat is not None]

    async def _alive(self) -> bool:
        """Whether some worker has a heartbeat (asked at most every 0.5 s)."""
        now = asyncio.get_running_loop().time()
        if now - self._live_checked < LIVENESS_CACHE_SECONDS:
            return self._live
        try:
            ids = await self.client.smembers(WORKERS)
            keys = [WORKER_KEY + text(worker) for worker in ids]
            self._live = bool(keys) and await self.client.exists(*keys) > 0
        except RedisError as exc:
            self._lost(exc)
            self._live = False
        self._live_checked = now
        return self._live

    async def _read(self) -> None:
        """Resolve the waiting thoughts as answers come; subscribe again after an outage
        (meanwhile ``think`` says None: an answer could not reach this node)."""
        while not self._stopping.is_set():
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                while not self._stopping.is_set():
                    message = await pubsub.get_message(timeout=POLL_SECONDS)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":  # also after redis-py reconnected
                        self._subscribed.set()
                        if self._down:
                            self._down = False
                            log.warning("Redis is back: bots think on the workers again")
                    elif message["type"] == "message":
                        self._answer(message["data"])
            except (RedisError, OSError) as exc:
                self._subscribed.clear()
                self._lost(exc)
                await pause(self._stopping, RETRY_SECONDS)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py's

    def _answer(self, data: bytes | str) -> None:
        try:
            answer = orjson.loads(data)
            future = self._waiting.get(answer["id"])
        except (orjson.JSONDecodeError, KeyError, TypeError):
            log.error("a bot worker's answer is not understood: %.200r", data)
            return
        if future is not None and not future.done():  # else too late, or a second answer
            future.set_result(answer)

    def _lost(self, exc: BaseException) -> None:
        if not self._down:
            self._down = True
            log.error("Redis is away (%s): bots think in this node's processes", exc)


# ------------------------------------------------------------------ the worker's side
def decide(kind: str, level: str, view: bytes, seed: str, budget: float) -> dict[str, Any]:
    """Runs in a pool process: unpickled there, so the worker's event loop stays free. The
    answer's fields: ``action`` (and ``estimate`` for advice)."""
    if kind == ADVISE:
        return advise(pickle.loads(view), seed, budget)
    return {"action": choose(level, pickle.loads(view), seed, budget)}


def read_entries(read: Any) -> list[tuple[Any, Any]]:
    """XREADGROUP's entries: its answer is a list of [stream, entries] (RESP2) or a dict
    of them (RESP3), as the client was made."""
    streams = read.values() if isinstance(read, dict) else [pair[1] for pair in read or []]
    return [(entry, fields) for entries in streams for entry, fields in entries]


@dataclass(frozen=True)
class Job:
    entry: bytes | str  # the stream entry's id (what XACK takes)
    id: str
    kind: str  # CHOOSE or ADVISE
    level: str
    seed: str
    budget: float
    deadline: float  # wall clock
    reply: str
    view: bytes

    @classmethod
    def parse(cls, entry: bytes | str, fields: Mapping[Any, Any]) -> Job:
        got = {text(key): value for key, value in fields.items()}
        view = got["view"]
        if not isinstance(view, bytes):  # a client that decodes answers cannot read jobs
            raise ValueError("the view is not bytes")
        return cls(
            entry=entry,
            id=text(got["id"]),
            kind=text(got["kind"]) if "kind" in got else CHOOSE,
            level=text(got["level"]),
            seed=text(got["seed"]),
            budget=float(got["budget"]),
            deadline=float(got["deadline"]),
            reply=text(got["reply"]),
            view=view,
        )


class Worker:
    """One ``whist bot-worker``: a consumer of the group with its own process pool."""

    def __init__(
        self, client: redis.Redis, budget: float, processes: int, stop: asyncio.Event
    ) -> None:
        self.client = client
        self.stop = stop
        self.budget = budget
        self.processes = processes
        self.id = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.restarting = False
        self.thinking: dict[bytes | str, asyncio.Task[None]] = {}
        self.done = 0

    # --- the process pool
    async def start_pool(self) -> None:
        """Fork the pool and wait for its warm-up (a first MASTER decision would pay for
        loading the solvers), so that a worker takes jobs only once it can answer them."""
        self.executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.processes,
            # fork: a process starts in a fraction of a second with the modules loaded.
            mp_context=multiprocessing.get_context("fork"),
            initializer=start_worker,  # dies with this worker, even after a SIGKILL
            initargs=(os.getpid(),),
        )
        with signals_held():
            warming = [self.executor.submit(int) for _ in range(self.processes)]
        stopping: asyncio.Future[Any] = asyncio.ensure_future(self.stop.wait())
        warm: asyncio.Future[Any] = asyncio.gather(*map(asyncio.wrap_future, warming))
        try:
            await asyncio.wait([stopping, warm], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()

    async def restart_pool(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """A pool process died (out of memory, killed): the pool takes no more work."""
        if broken is not self.executor or self.restarting:
            return  # another job found it broken first: once per broken pool
        log.error("a bot process died: starting the pool again")
        self.restarting = True
        try:
            processes = list((broken._processes or {}).values())  # no public list
            broken.shutdown(wait=False, cancel_futures=True)
            await asyncio.to_thread(stop_processes, processes)  # the heartbeat goes on
            await self.start_pool()  # forked here: the loop's (main) thread
        finally:
            self.restarting = False

    def stop_pool(self) -> None:
        if self.executor is not None:
            processes = list((self.executor._processes or {}).values())
            self.executor.shutdown(wait=False, cancel_futures=True)
            stop_processes(processes)
            self.executor = None

    # --- Redis
    def beat(self) -> bytes:
        return orjson.dumps(
            {
                "id": self.id,
                "host": socket.gethostname(),
                "pid": os.getpid(),
                "processes": self.processes,
                "done": self.done,
            }
        )

    async def heartbeat(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(RedisError, OSError):  # the read loop reports outages
                async with self.client.pipeline(transaction=False) as pipe:
                    pipe.set(WORKER_KEY + self.id, self.beat(), px=HEARTBEAT_TTL_MS)
                    pipe.sadd(WORKERS, self.id)
                    await pipe.execute()
            await pause(self.stop, HEARTBEAT_SECONDS)

    async def prepare(self) -> None:
        """Once at start (and after an outage): the group exists; consumers of workers
        long gone that hold no job are removed (those that hold one are claimed from)."""
        await ensure_group(self.client)
        for consumer in await self.client.xinfo_consumers(STREAM, GROUP):
            if consumer["pending"] == 0 and consumer["idle"] > STALE_CONSUMER_MS:
                await self.client.xgroup_delconsumer(STREAM, GROUP, consumer["name"])

    async def step(self) -> None:
        """Take as many jobs as there are free processes: first those of dead workers."""
        free = self.processes - len(self.thinking)
        if free <= 0:
            await asyncio.wait(
                list(self.thinking.values()),
                timeout=READ_BLOCK_MS / 1000,
                return_when=asyncio.FIRST_COMPLETED,
            )
            return
        # A live worker answers within its budget (and a little): a job pending longer
        # than budget + 1 s belongs to a worker that died.
        idle = int((self.budget + CLAIM_MARGIN_SECONDS) * 1000)
        _, claimed, _ = await self.client.xautoclaim(
            STREAM, GROUP, self.id, min_idle_time=idle, start_id="0-0", count=free
        )
        entries = [(entry, fields) for entry, fields in claimed if entry not in self.thinking]
        if entries:
            log.warning("took over %d job(s) of a worker that stopped answering", len(entries))
        if len(entries) < free:
            read = await self.client.xreadgroup(
                GROUP, self.id, {STREAM: ">"}, count=free - len(entries), block=READ_BLOCK_MS
            )
            entries.extend(read_entries(read))
        for entry, fields in entries:
            if entry not in self.thinking:
                task = asyncio.get_running_loop().create_task(self.answer(entry, fields))
                self.thinking[entry] = task
                task.add_done_callback(self._forget(entry))

    def _forget(self, entry: bytes | str) -> Callable[[asyncio.Task[None]], None]:
        def forget(_: asyncio.Task[None]) -> None:
            self.thinking.pop(entry, None)

        return forget

    async def answer(self, entry: bytes | str, fields: Mapping[Any, Any]) -> None:
        try:
            job = Job.parse(entry, fields)
        except (KeyError, ValueError, UnicodeDecodeError):
            log.error("a job that is not a bot job: %.200r: dropped", fields)
            await self.ack(entry)
            return
        try:
            await self.answer_job(job)
        except Exception:  # e.g. a view that does not unpickle: it must not go round
            log.exception("a %s job could not be answered: dropped", job.level)
            await self.ack(entry)

    async def answer_job(self, job: Job) -> None:
        entry = job.entry
        budget = min(job.budget, job.deadline - time.time() - REPLY_MARGIN_SECONDS)
        if budget <= 0:  # its node has played a safe move already (or is about to)
            log.info("a %s job past its deadline: dropped", job.level)
            await self.ack(entry)
            return
        executor = self.executor
        loop = asyncio.get_running_loop()
        try:
            if executor is None:  # stopped already (the pool goes before the last jobs)
                raise BrokenProcessPool
            future = loop.run_in_executor(
                executor, decide, job.kind, job.level, job.view, job.seed, budget
            )
            answer = await asyncio.wait_for(future, timeout=budget + grace(job.kind))
        except Exception as exc:
            if isinstance(exc, BrokenProcessPool):
                # This move at once (as the local pool does), the next ones on a new pool.
                # Not thought about again: a position that kills its process must not kill
                # more.
                if executor is not None and not self.stop.is_set():
                    await self.restart_pool(executor)
            elif isinstance(exc, TimeoutError):
                log.warning("a %s bot overran its %.2f s budget", job.level, budget)
            else:  # a bot's bug: the table must still get a move
                log.exception("a %s bot failed", job.level)
            # A move: MEDIUM's safe one. Advice has no stand-in: the node is told it failed.
            answer = {}
            if job.kind != ADVISE:
                answer = {"action": safe_move(pickle.loads(job.view), job.seed)}
        try:
            await self.client.publish(job.reply, orjson.dumps({"id": job.id, **answer}))
        except (RedisError, OSError) as exc:
            log.error("an answer could not be sent (%s): dropped", exc)
            return
        await self.ack(entry)
        self.done += 1

    async def ack(self, entry: bytes | str) -> None:
        with contextlib.suppress(RedisError, OSError):  # unacknowledged: claimed, dropped
            await self.client.xack(STREAM, GROUP, entry)

    async def run(self) -> None:
        stop = self.stop
        await self.start_pool()
        if stop.is_set():
            return
        beating = asyncio.get_running_loop().create_task(self.heartbeat())
        log.info("bot worker %s with %d bot process(es): taking jobs", self.id, self.processes)
        try:
            await through_outages(stop, self.prepare, self.step, log, "trying again every second")
        finally:
            log.info("stopping: %d job(s) being thought about", len(self.thinking))
            # Gone from the live list first, so that nodes stop sending jobs here.
            await ended(beating)  # it sees the stop within its pause
            with contextlib.suppress(RedisError, OSError):
                await self.client.delete(WORKER_KEY + self.id)
                await self.client.srem(WORKERS, self.id)
            await self.finish()

    async def finish(self) -> None:
        """Let the jobs being thought about end (each within its budget and a little),
        then leave the group if no job is left pending here."""
        if self.thinking:
            await asyncio.wait(
                list(self.thinking.values()), timeout=self.budget + OVERRUN_SECONDS + 1
            )
        for task in list(self.thinking.values()):  # left pending: another worker claims it
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            for consumer in await self.client.xinfo_consumers(STREAM, GROUP):
                if text(consumer["name"]) == self.id and consumer["pending"] == 0:
                    await self.client.xgroup_delconsumer(STREAM, GROUP, self.id)


# Other jobs a bot worker takes beside the bots' (the deal analyses of "Review deal",
# cluster/analysis_jobs.py, which the command line passes: they import this module): run
# with the worker's Redis client, its stop and its consumer id.
Beside = Callable[[redis.Redis, asyncio.Event, str], Coroutine[Any, Any, None]]


async def run_worker(
    redis_url: str,
    budget: float,
    processes: int,
    stop: asyncio.Event | None = None,
    beside: Beside | None = None,
) -> None:
    """Take bot jobs (and ``beside``'s) until ``stop`` is set (by default: until SIGTERM or
    SIGINT)."""
    loop = asyncio.get_running_loop()
    handled = stop is None
    stop = stop or asyncio.Event()
    if handled:
        for sig in STOPPED:
            loop.add_signal_handler(sig, stop.set)
    # The timeouts keep a vanished host (no "connection refused") from hanging a worker.
    client = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=3)
    worker = Worker(client, budget, processes, stop)
    other: asyncio.Task[None] | None = None
    if beside is not None:
        other = loop.create_task(beside(client, stop, worker.id))
    try:
        await worker.run()
    finally:
        if other is not None:
            stop.set()  # also when the bots' loop ended with an error
            await ended(other)
        worker.stop_pool()
        with contextlib.suppress(RedisError, OSError):
            await client.aclose()
        if handled:
            for sig in STOPPED:
                loop.remove_signal_handler(sig)


class Stopped(BaseException):
    """A stop signal before the event loop took them over."""


def stopped(sig: int, _frame: object) -> None:
    raise Stopped(sig)


def run_bot_worker(
    redis_url: str | None, processes: int | None, beside: Beside | None = None
) -> int:
    """``whist bot-worker``: exit 0 when stopped, 2 for nothing to work with."""
    from pydantic import ValidationError

    from whist.server.settings import Settings

    for sig in STOPPED:
        signal.signal(sig, stopped)
    try:
        try:
            settings = Settings()
        except ValidationError as exc:
            error = exc.errors()[0]
            name = "WHIST_" + "_".join(str(part) for part in error["loc"]).upper()
            return fail(f"bad setting {name}: {error['msg']}")
        url = redis_url or settings.redis_url
        if not url:
            return fail("no Redis to take jobs from: set WHIST_REDIS_URL or pass --redis-url")
        try:
            where = parse_url(url)
        except ValueError as exc:
            return fail(f"bad Redis URL: {exc}")
        count = processes if processes is not None else max(1, settings.bot_workers)
        if count < 1:
            return fail("--processes must be at least 1")
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        shown = where.get("path") or f"{where.get('host', 'localhost')}:{where.get('port', 6379)}"
        print(f"whist bot-worker: jobs from Redis at {shown}", flush=True)
        asyncio.run(run_worker(url, settings.bot_budget, count, beside=beside))
    except Stopped:
        pass
    return 0


def fail(why: str) -> int:
    print(f"whist bot-worker: {why}", file=sys.stderr, flush=True)
    return 2
