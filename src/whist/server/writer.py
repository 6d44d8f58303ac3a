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

A failed commit may have an unknown outcome: the connection to PostgreSQL lost during
COMMIT, the transaction may or may not be stored. So after any failure the writer reads the
log back: appends whose entries are there (one writer per table: equal entries at those
sequence numbers are ours) are answered as stored; the others are written once more — a
batch one append at a time, so that one bad append (a duplicate sequence number: a bug)
fails only its own action, and a lone append only when the connection was lost — and fail
if that fails too. When even the reading fails (the store is unreachable), nobody can tell:
the appends fail, and before that table's next append the writer reads its log again; what
the table's actor has not adopted yet comes back to it as ``TableBehind``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from whist.store.repository import Append, Repository, connection_lost, same_moves

log = logging.getLogger("whist.writer")

T = TypeVar("T")

MAX_BATCH = 1000  # appends per transaction; the rest wait for the next one

Waiting = tuple[Append, asyncio.Future[None]]  # an append and its answer


class TableBehind(Exception):
    """The table's log holds entries beyond the sequence number its append was given: an
    earlier append of it whose commit failed with an unknown outcome was stored after all.
    Its actor adopts ``entries`` (they follow its version); the append was not stored."""

    def __init__(self, table_id: str, entries: list[tuple[str, dict[str, Any]]]) -> None:
        super().__init__(f"table {table_id}: {len(entries)} stored entries not adopted yet")
        self.table_id = table_id
        self.entries = entries


class Fenced(Exception):
    """Cluster mode: the table's lease has another epoch now (another node runs it). The
    append was not stored, and this node must never write to the table again."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: its lease was taken over by another node")
        self.table_id = table_id


class GroupWriter:
    def __init__(self, repo: Repository, max_batch: int = MAX_BATCH) -> None:
        self.repo = repo
        self.max_batch = max_batch
        self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="whist-writer")
        self._pending: list[Waiting] = []
        # Tables whose last append failed and nobody could tell whether it was stored.
        self._unsure: set[str] = set()
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
        """Store ``item``; returns once it is committed (raises if it could not be, and
        ``TableBehind`` when the log holds entries of its table from ``item.seq`` on)."""
        assert self._wake is not None, "the writer is not started"
        if item.table_id in self._unsure and await self._stored_before(item):
            return
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

    async def _stored_before(self, item: Append) -> bool:
        """The table's last append failed with an unknown outcome: whether ``item`` is what
        it stored (then it is stored now). Raises ``TableBehind`` when it stored something
        else, and while the store is unreachable (the table stays unsure)."""
        stored = await self.run(self.repo.log_from, item.table_id, item.seq)
        self._unsure.discard(item.table_id)
        if not stored:
            return False
        if same_moves(stored, item.entries):
            log.warning("table %s: append %d was stored before", item.table_id, item.seq)
            return True
        raise TableBehind(item.table_id, stored)

    async def _write(self, batch: list[Waiting], again: bool = False) -> None:
        """Commit ``batch``; on failure find out what was stored (``again``: this is the
        one retry, there is no other)."""
        try:
            fenced = await self.run(self.repo.append_batch, [item for item, _ in batch])
        except Exception as exc:
            await self._settle(batch, exc, again)
            return
        if fenced:
            lost = {item.table_id for item in fenced}
            for item, future in batch:
                if item.table_id in lost:
                    log.warning("table %s: append %d fenced off", item.table_id, item.seq)
                    _fail(future, Fenced(item.table_id))
            batch = [(item, future) for item, future in batch if item.table_id not in lost]
        self._stored(batch)

    async def _settle(self, batch: list[Waiting], exc: Exception, again: bool) -> None:
        """The commit of ``batch`` failed, maybe after it was stored: ask the log."""
        try:
            stored = await self.run(self.repo.stored, [item for item, _ in batch])
        except Exception:
            # The store is unreachable: the outcome is unknown. Fail, and each table reads
            # its log before its next append.
            log.error("%d appends failed, stored or not: unknown", len(batch), exc_info=exc)
            for item, future in batch:
                self._unsure.add(item.table_id)
                _fail(future, exc)
            return
        kept = [one for one, mine in zip(batch, stored, strict=True) if mine]
        if kept:
            log.warning("%d appends were stored though their commit failed", len(kept))
            self._stored(kept)
        lost = [one for one, mine in zip(batch, stored, strict=True) if not mine]
        if not lost:
            return
        if not again and (len(batch) > 1 or connection_lost(exc)):
            log.warning("%d appends not stored: writing them again one by one", len(lost))
            for one in lost:
                await self._write([one], again=True)
            return
        for item, future in lost:
            log.error("table %s: append %d failed", item.table_id, item.seq, exc_info=exc)
            _fail(future, exc)

    def _stored(self, batch: list[Waiting]) -> None:
        self.batches += 1
        self.appends += len(batch)
        for _item, future in batch:
            if not future.done():  # its actor may have been stopped meanwhile
                future.set_result(None)


def _fail(future: asyncio.Future[None], exc: Exception) -> None:
    if not future.done():  # its actor may have been stopped meanwhile
        future.set_exception(exc)
