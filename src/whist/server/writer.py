"""The one database writer: group commit of every table's log appends.

Table actors never write the store themselves. Each hands its append (log entries, listing
status, XP) to ``GroupWriter.append`` and waits; one thread writes whatever has gathered
meanwhile — the appends of many tables — in one transaction and commits once (one fsync,
``synchronous=FULL`` kept), then wakes every actor of the batch so that it can adopt its
entries and publish. An answer still means "stored": nothing is acknowledged before the
commit that holds it. Batches form by themselves: while one commits, the next gathers, so
a quiet server commits each append at once and a busy one pays one fsync for hundreds.

The same thread runs the server's other writes (``run``): with SQLite a second writing
connection would wait on the database lock (the driver sleeps and polls), which is what
made the latency tail when every append had its own thread and commit.

A batch that fails is retried one append at a time, so that one bad append (a duplicate
sequence number: a bug) fails only its own action and the others are stored.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from whist.store.repository import Append, Repository

log = logging.getLogger("whist.writer")

T = TypeVar("T")

MAX_BATCH = 1000  # appends per transaction; the rest wait for the next one


class GroupWriter:
    def __init__(self, repo: Repository, max_batch: int = MAX_BATCH) -> None:
        self.repo = repo
        self.max_batch = max_batch
        self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="whist-writer")
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # committed transactions of appends (for tests and benchmarks)
        self.appends = 0

    def start(self) -> None:
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop after the batch being committed (the actors are stopped first: appends
        still pending were never answered and are dropped)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        # A batch the thread is committing finishes before the engine is disposed.
        await asyncio.get_running_loop().run_in_executor(None, self.executor.shutdown, True)
        if self.batches:
            log.info(
                "%d appends in %d commits (%.1f per commit)",
                self.appends,
                self.batches,
                self.appends / self.batches,
            )

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Any other write, on the writer's thread (between two batches)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def append(self, item: Append) -> None:
        """Store ``item``; returns once it is committed (raises if it could not be)."""
        assert self._wake is not None, "the writer is not started"
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        self._wake.set()
        await future

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
                # An actor stopped while it waited: its append was never answered.
                batch = [(item, future) for item, future in batch if not future.done()]
                if batch:
                    await self._write(batch)

    async def _write(self, batch: list[tuple[Append, asyncio.Future[None]]]) -> None:
        try:
            await self.run(self.repo.append_batch, [item for item, _ in batch])
        except Exception as exc:
            if len(batch) > 1:
                log.warning("a batch of %d appends failed: retrying one by one", len(batch))
                for one in batch:
                    await self._write([one])
                return
            item, future = batch[0]
            log.error("table %s: append %d failed", item.table_id, item.seq, exc_info=exc)
            if not future.done():
                future.set_exception(exc)
            return
        self.batches += 1
        self.appends += len(batch)
        for _item, future in batch:
            if not future.done():  # its actor may have been stopped meanwhile
                future.set_result(None)
