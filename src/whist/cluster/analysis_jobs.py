"""Deal analyses ("Review deal") as jobs on Redis, taken by ``whist bot-worker`` processes.

The analyses have a stream and a consumer group of their own, beside the bots' (``jobs``):
an analysis takes seconds, a bot's move must come within its budget, so neither waits for
the other. Each worker runs one analysis at a time in one process of its own
(``AnalysisPool``), apart from its bot processes.

A job carries the match's record (JSON, nothing pickled) and the deal; the worker pushes its
answer onto a list named after the job, which the node pops (BLPOP) and which expires: an
answer waits there through a short loss of the node's connection, and needs no subscription.
Delivery is at-least-once as for bot jobs: a job stays pending until the worker has pushed
its answer, and a job pending longer than an analysis may last (its worker died) is claimed
by another worker. A job answered twice is harmless: the node takes the first answer and
the store keeps one row per deal.

A node that sees no live worker (the bot workers' heartbeats), or cannot reach Redis, or
gets no answer in time, analyses in its own process (``Reviews`` falls back to its pool).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Mapping
from typing import Any

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError, ResponseError

from whist.cluster.jobs import (
    MAX_JOBS,
    READ_BLOCK_MS,
    RETRY_SECONDS,
    BotJobs,
    read_entries,
    text,
    through_outages,
)
from whist.server.analysing import ANALYSIS_SECONDS, AnalysisFailed, AnalysisPool

log = logging.getLogger("whist.analysis_jobs")

STREAM = "whist:jobs:analysis"
GROUP = "analysis-workers"
ANSWER = "whist:analysis:answer:"  # + job id: a list holding the worker's answer
ANSWER_TTL_SECONDS = 600  # an answer nobody popped (its node stopped) is dropped then
# A job pending longer than an analysis may run (its process is killed then) and a margin
# belongs to a worker that died: another worker claims it.
CLAIM_SECONDS = ANALYSIS_SECONDS + 10.0
# A node waits for the job to be taken over once and analysed again, then analyses itself.
WAIT_SECONDS = CLAIM_SECONDS + ANALYSIS_SECONDS + 20.0
POP_SECONDS = 2  # one BLPOP's wait: under the client's 5 s socket timeout


async def ensure_group(client: redis.Redis) -> None:
    """The stream and its group, from id 0: a job added before the group existed (a
    restarted Redis) still reaches a worker."""
    try:
        await client.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
    except ResponseError as exc:
        if not str(exc).startswith("BUSYGROUP"):
            raise


# ------------------------------------------------------------------ the node's side
class AnalysisJobs:
    """A node's way to have deals analysed on the workers."""

    def __init__(self, bots: BotJobs) -> None:
        self.bots = bots  # its view of which workers live, and its Redis client
        self.client = bots.client

    async def analyse(self, document: dict[str, Any], deal: int) -> dict[str, Any] | None:
        """The deal's analysis made by a worker; None when no worker is alive, Redis is
        away or no answer came in time (the caller then analyses itself). Raises
        ``AnalysisFailed`` with the worker's reason when the analysis failed there."""
        if not await self.bots._alive():  # the same workers take both kinds of job
            return None
        job = os.urandom(8).hex()
        try:
            await self.client.xadd(
                STREAM,
                {
                    "id": job,
                    "deal": str(deal),
                    "deadline": repr(time.time() + WAIT_SECONDS),
                    "document": orjson.dumps(document),
                },
                maxlen=MAX_JOBS,
                approximate=True,
            )
        except (RedisError, OSError) as exc:
            log.error("an analysis job could not be added (%s): analysing here", exc)
            return None
        loop = asyncio.get_running_loop()
        until = loop.time() + WAIT_SECONDS
        while loop.time() < until:
            try:
                popped = await self.client.blpop([ANSWER + job], timeout=POP_SECONDS)
            except (RedisError, OSError):  # the answer waits in its list meanwhile
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if popped is not None:
                return answer_of(popped[1])
        log.warning("no worker analysed deal %d within %.0f s: analysing here", deal, WAIT_SECONDS)
        return None


def answer_of(data: bytes | str) -> dict[str, Any]:
    answer = orjson.loads(data)
    if "analysis" in answer:
        return dict(answer["analysis"])
    raise AnalysisFailed(str(answer["error"]), str(answer["code"]))


# ------------------------------------------------------------------ the worker's side
class AnalysisWorker:
    """A ``whist bot-worker``'s consumer of the analysis stream, one job at a time."""

    def __init__(self, client: redis.Redis, stop: asyncio.Event, consumer: str) -> None:
        self.client = client
        self.stop = stop
        self.id = consumer
        self.pool = AnalysisPool(1)

    async def run(self) -> None:
        try:
            await through_outages(self.stop, self.prepare, self.step, log, "analyses wait")
        finally:
            await asyncio.to_thread(self.pool.close)

    async def prepare(self) -> None:
        await ensure_group(self.client)

    async def step(self) -> None:
        """One job: first one whose worker died, else a new one."""
        _, entries, _ = await self.client.xautoclaim(
            STREAM, GROUP, self.id, min_idle_time=int(CLAIM_SECONDS * 1000), count=1
        )
        if entries:
            log.warning("took over an analysis job of a worker that stopped answering")
        else:
            read = await self.client.xreadgroup(
                GROUP, self.id, {STREAM: ">"}, count=1, block=READ_BLOCK_MS
            )
            entries = read_entries(read)
        for entry, fields in entries:
            job = asyncio.get_running_loop().create_task(self.answer(entry, fields))
            stopping = asyncio.ensure_future(self.stop.wait())
            try:
                await asyncio.wait([job, stopping], return_when=asyncio.FIRST_COMPLETED)
            finally:
                stopping.cancel()
            if not job.done():  # stopped mid-analysis: the job stays pending for another
                await asyncio.to_thread(self.pool.close)
            await job

    async def answer(self, entry: bytes | str, fields: Mapping[Any, Any]) -> None:
        try:
            got = {text(key): value for key, value in fields.items()}
            job, deal = text(got["id"]), int(got["deal"])
            deadline = float(got["deadline"])
            document = orjson.loads(got["document"])
        except (KeyError, ValueError, UnicodeDecodeError, orjson.JSONDecodeError):
            log.error("an analysis job that is not understood: %.200r: dropped", fields)
            await self.ack(entry)
            return
        if time.time() > deadline:  # its node has analysed it itself
            await self.ack(entry)
            return
        try:
            answer: dict[str, Any] = {"analysis": await self.pool.analyse(document, deal)}
        except AnalysisFailed as exc:
            if self.stop.is_set():  # killed by the stop, not failed: another worker's
                return
            answer = {"error": str(exc), "code": exc.code}
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.rpush(ANSWER + job, orjson.dumps(answer))
            pipe.expire(ANSWER + job, ANSWER_TTL_SECONDS)
            await pipe.execute()
        await self.ack(entry)

    async def ack(self, entry: bytes | str) -> None:
        with contextlib.suppress(RedisError, OSError):  # unacknowledged: claimed again
            await self.client.xack(STREAM, GROUP, entry)


async def serve_analyses(client: redis.Redis, stop: asyncio.Event, consumer: str) -> None:
    """``whist bot-worker``'s analyses: beside its bot jobs until ``stop`` is set."""
    log.info("analysis jobs: taking them (one at a time)")
    await AnalysisWorker(client, stop, consumer).run()
