"""Deal analyses as jobs on Redis (``whist.cluster.analysis_jobs``): a real ``whist
bot-worker`` takes them from their own stream and answers what the local analysis gives;
a node without a live worker gets None at once (it analyses itself); a failure is told; a
worker stopped mid-analysis leaves its job pending; and "Review deal" across two nodes."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis import Redis as SyncRedis

from cluster import Cluster, Player, Redis, Seat
from test_cluster import cluster, play, redis
from test_jobs import (
    START_TIMEOUT,
    RedisServer,
    Workers,
    eventually,
    has_workers,
    redis_server,
    workers,
)
from whist.cluster.analysis_jobs import STREAM, AnalysisJobs
from whist.cluster.jobs import WORKERS, BotJobs
from whist.records import to_json
from whist.server.analysing import AnalysisFailed, analyse_deal
from whist.variants import new_match

__all__ = ["cluster", "redis", "redis_server", "workers"]  # the fixtures, used by name


def one_deal(variant: str = "classic") -> dict[str, Any]:
    """The record of a match after one deal of random legal play."""
    rng = random.Random(20)
    match = new_match(variant)
    deck = list(range(52))
    rng.shuffle(deck)
    match.start_deal(deck, dealer=0)
    while not match.deals[0].complete:
        match.apply(rng.choice(match.legal_actions()))
    return to_json(match)


async def pending_is(jobs: AnalysisJobs, count: int) -> bool:
    [group] = await jobs.client.xinfo_groups(STREAM)
    return int(group["pending"]) == count


def on_a_node(url: str, scenario: Any) -> None:
    async def run() -> None:
        client = aioredis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=3)
        bots = BotJobs(client, 0.05, "test-node")
        await bots.start()
        try:
            await scenario(bots, AnalysisJobs(bots))
        finally:
            await bots.stop()
            await client.aclose()

    asyncio.run(run())


def test_a_worker_analyses_a_deal_as_the_local_analysis_does(
    redis_server: RedisServer, workers: Workers
) -> None:
    workers.start(budget=0.05)
    document = one_deal()
    expected = analyse_deal(document, 0)

    async def scenario(bots: BotJobs, jobs: AnalysisJobs) -> None:
        await eventually(lambda: has_workers(bots, 1), START_TIMEOUT, "a live worker")
        assert await jobs.analyse(document, 0) == expected
        # Acknowledged once answered: nothing left pending in the analyses' group.
        await eventually(lambda: pending_is(jobs, 0), 2, "the job acknowledged")
        with pytest.raises(AnalysisFailed) as failed:
            await jobs.analyse(document, 5)  # the record has one deal
        assert failed.value.code == "cannot_analyse"

    on_a_node(redis_server.url, scenario)
    assert "Traceback" not in workers.log()


def test_no_live_worker_means_none_at_once(redis_server: RedisServer) -> None:
    async def scenario(bots: BotJobs, jobs: AnalysisJobs) -> None:
        await bots.client.sadd(WORKERS, "gone")  # listed, its heartbeat expired
        started = time.monotonic()
        assert await jobs.analyse(one_deal(), 0) is None
        assert time.monotonic() - started < 0.5
        assert await jobs.client.exists(STREAM) == 0  # no job was added

    on_a_node(redis_server.url, scenario)


def test_a_stopped_worker_leaves_its_job_pending_for_another(
    redis_server: RedisServer, workers: Workers
) -> None:
    """SIGTERM mid-analysis: the worker exits 0 at once, its analysis process with it, and
    the job stays pending (unacknowledged, unanswered) for another worker to claim."""
    process = workers.start(budget=0.05)
    document = one_deal("japanese")  # its first trick is estimated by rollouts: long

    async def scenario(bots: BotJobs, jobs: AnalysisJobs) -> None:
        await eventually(lambda: has_workers(bots, 1), START_TIMEOUT, "a live worker")
        waiting = asyncio.ensure_future(jobs.analyse(document, 0))
        await eventually(lambda: pending_is(jobs, 1), 10, "the job taken")
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        assert await asyncio.to_thread(process.wait, 15) == 0
        assert time.monotonic() - started < 10
        assert await pending_is(jobs, 1)
        assert not waiting.done()  # no answer: the node waits on (or analyses itself)
        waiting.cancel()

    on_a_node(redis_server.url, scenario)
    assert "Traceback" not in workers.log()


def test_review_in_cluster_mode_is_analysed_by_a_worker_through_another_node(
    tmp_path: Path, redis: Redis, cluster: Cluster
) -> None:
    """Two nodes and a ``whist bot-worker``: the analysis asked on the node that does not
    run the table is a job on the analysis stream, answered by the worker, kept once."""
    a, b = cluster.add(), cluster.add()
    worker = Workers(redis, tmp_path)  # type: ignore[arg-type]  # it needs only the URL
    worker.start_live(budget=0.05)
    client = SyncRedis.from_url(redis.url)
    try:
        ann = Player(a, "ann")
        body = {"variant": "classic", "options": {"target": 8}, "clock": False,
                "bots": {"1": "easy", "2": "easy", "3": "easy"}}  # fmt: skip
        table_id = ann.ok(a, "POST", "/api/tables", body)["id"]
        seat = Seat(ann, [b, a], table_id)  # on b: a runs the table
        play([seat], 13, random.Random(4))  # Ann's 13 cards: deal 0 is over
        seat.wait(lambda: seat.view["deal"] == 1, "the next deal", 30)
        url = f"/api/games/{table_id}/deals/0/analysis"
        assert ann.call(b, "GET", url).status_code == 202
        deadline = time.monotonic() + 60
        while (response := ann.call(b, "GET", url)).status_code == 202:
            assert time.monotonic() < deadline, "no analysis came"
            time.sleep(0.2)
        assert response.status_code == 200, response.text
        assert len(response.json()["analysis"]["plays"]) == 52
        assert client.xlen(STREAM) == 1  # one job, taken by the worker
        assert ann.call(a, "GET", url).json() == response.json()  # kept: any node reads it
        assert ann.call(b, "GET", f"/api/games/{table_id}/deals/1/analysis").status_code == 409
        seat.close()
    finally:
        client.close()
        worker.close()
