"""Deal analysis for "Review deal": a job beside the bots, never in a table's path, cached
per deal in the database.

``analyse_deal`` is the job: pure CPU (the exact solver on every card of a deal; a Classic
deal takes a second or two, a Minnesota low deal up to some ten seconds). One process
runs it, apart from the bots' pool, so that a long analysis never delays a bot's move at
a table: ``AnalysisPool`` locally, or a ``whist bot-worker`` in cluster mode
(``whist.cluster.analysis_jobs``), with the local pool for a node that sees no live worker.

``Reviews`` starts one job per deal and node however many players ask at once, and keeps
its result in ``deal_analyses``; a second request reads the row. Two nodes may both
analyse one deal: the second insert is dropped, and both results are the same anyway.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from whist.analysis import CannotAnalyse, analyse_document
from whist.server.bots import signals_held, start_worker, stop_processes
from whist.server.writer import GroupWriter
from whist.store.repository import Repository

if TYPE_CHECKING:
    from whist.cluster.analysis_jobs import AnalysisJobs

log = logging.getLogger("whist.analysis")

# An analysis that runs longer is stopped (its process killed) and reported as failed. A
# Minnesota low deal takes ~10 s, but a Japanese deal's first trick (estimated by rollouts)
# took 45 s a card on this loaded 2-core machine: room for that, and still an end.
ANALYSIS_SECONDS = 300.0


class AnalysisFailed(Exception):
    """The analysis of a deal could not be made: ``analysis_failed`` (its process died,
    overran, or raised) or ``cannot_analyse`` (the deal has nothing to grade)."""

    def __init__(self, message: str, code: str = "analysis_failed") -> None:
        super().__init__(message)
        self.code = code


def analyse_deal(document: dict[str, Any], deal: int) -> dict[str, Any]:
    """Runs in an analysis process: deal ``deal`` of the whist-record/1 ``document``, every
    card played graded (``whist.analysis``; its per-deal JSON)."""
    result = analyse_document(document, deal=deal)
    for analysed in result["deals"]:
        if analysed["deal"] == deal:
            return dict(analysed)
    raise ValueError(f"the analysis has no deal {deal}")


# The analysis process runs at a lower CPU priority than the bots: on a machine with few
# cores it takes what the bots leave. Measured on this 2-core machine, shared: MASTER with a
# 0.5 s budget thinks 0.23 s a move (median) alone, 0.47 s while deals are analysed at the
# same priority, 0.35 s with the analysis at niceness 10.
NICENESS = 10


def start_analysis_worker(server_pid: int) -> None:
    """The analysis process's initializer: lower priority, then as a bot worker (dies with
    the server, loads the solvers)."""
    with contextlib.suppress(OSError):  # a priority is only a preference
        os.nice(NICENESS)
    start_worker(server_pid)


class AnalysisPool:
    """The local analysis process: one, started at the first analysis (about a second),
    dying with the server as the bot workers do, at a lower priority than theirs.
    ``workers=0`` analyses in a thread of the server (tests that need no process)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.closed = False

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self.executor is None:
            self.executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                # spawn, not fork as the bot pool: started late, from a server whose
                # threads (and, in tests, a solver run in a thread) may hold locks that a
                # forked child would wait on for ever (seen: an analysis that never ended).
                mp_context=multiprocessing.get_context("spawn"),
                initializer=start_analysis_worker,
                initargs=(os.getpid(),),
            )
        return self.executor

    async def analyse(self, document: dict[str, Any], deal: int) -> dict[str, Any]:
        """The deal's analysis; ``AnalysisFailed`` whatever went wrong."""
        try:
            return await self._analyse(document, deal)
        except AnalysisFailed:
            raise
        except CannotAnalyse as exc:  # e.g. a deal without card play
            raise AnalysisFailed(str(exc), "cannot_analyse") from None
        except Exception as exc:  # the analysis' bug: told to the player, logged here
            log.exception("analysing deal %d failed", deal)
            raise AnalysisFailed(f"the analysis failed ({type(exc).__name__})") from None

    async def _analyse(self, document: dict[str, Any], deal: int) -> dict[str, Any]:
        if self.closed:
            raise AnalysisFailed("the server is stopping")
        if self.workers <= 0:
            return await asyncio.to_thread(analyse_deal, document, deal)
        loop = asyncio.get_running_loop()
        with signals_held():  # the executor starts its process at the first submit
            executor = self._pool()
            future = loop.run_in_executor(executor, analyse_deal, document, deal)
        try:
            return await asyncio.wait_for(future, ANALYSIS_SECONDS)
        except TimeoutError:
            log.error("the analysis of a deal overran %.0f s: stopping it", ANALYSIS_SECONDS)
            self._stop(executor)
            raise AnalysisFailed("the analysis took too long") from None
        except BrokenProcessPool:
            self._stop(executor)
            raise AnalysisFailed("the analysis process died") from None

    def _stop(self, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        """Stop the pool's process (busy or not); the next analysis starts another."""
        if executor is self.executor:
            self.executor = None
        processes = list((executor._processes or {}).values())  # no public list
        executor.shutdown(wait=False, cancel_futures=True)
        stop_processes(processes)

    def close(self) -> None:
        self.closed = True
        if self.executor is not None:
            self._stop(self.executor)


Key = tuple[str, int]  # (table id, deal index)


class Reviews:
    """The analyses of finished deals: cached in the store, computed once per node."""

    def __init__(self, repo: Repository, writer: GroupWriter, workers: int) -> None:
        self.repo = repo
        self.writer = writer
        self.pool = AnalysisPool(workers)
        self.jobs: AnalysisJobs | None = None  # cluster mode: the bot workers' stream
        self.running: dict[Key, asyncio.Task[None]] = {}
        # Told once to the next request, then tried again.
        self.failed: dict[Key, AnalysisFailed] = {}

    async def analysis(
        self, table_id: str, deal: int, document: Callable[[], dict[str, Any]]
    ) -> dict[str, Any] | None:
        """The deal's analysis, or None while it is being made (started here if need be).
        ``document`` makes the match's record (only when a job must start). Raises
        ``AnalysisFailed`` once after a job failed; the next call starts another."""
        key = (table_id, deal)
        if key in self.running:
            return None
        # A job stores its result before it leaves ``running``: not running, not stored
        # means never started (or failed).
        stored = await asyncio.to_thread(self.repo.analysis, table_id, deal)
        if stored is not None:
            return stored
        if key in self.running:  # started while the row was read
            return None
        failure = self.failed.pop(key, None)
        if failure is not None:
            raise failure
        task = asyncio.get_running_loop().create_task(self._analyse(key, document()))
        self.running[key] = task
        task.add_done_callback(lambda _: self.running.pop(key, None))
        return None

    async def _analyse(self, key: Key, document: dict[str, Any]) -> None:
        table_id, deal = key
        try:
            result = None
            if self.jobs is not None:  # a worker on any machine; None: none is alive
                result = await self.jobs.analyse(document, deal)
            if result is None:
                result = await self.pool.analyse(document, deal)
            await self.writer.run(self.repo.save_analysis, table_id, deal, result)
        except AnalysisFailed as exc:
            self.failed[key] = exc
        except Exception as exc:  # storing it failed: the database's trouble, logged
            log.exception("keeping the analysis of deal %d of table %s failed", deal, table_id)
            self.failed[key] = AnalysisFailed(f"the analysis failed ({type(exc).__name__})")

    async def stop(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        self.running.clear()
        self.pool.close()
