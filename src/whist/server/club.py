"""The club: every table's actor, the store and the bot pool, behind the ``Hub`` the
actors use. Tables come back from their logs when the club starts.

With a Redis URL the club is one node of a cluster (``whist.cluster``): it runs the tables
whose lease it holds, and reaches the others through the cluster."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

from whist.server.actor import TableActor, restore
from whist.server.analysing import Reviews
from whist.server.bots import BotPool
from whist.server.entries import BotSeated, Entry, HintsAllowed, Logged
from whist.server.settings import Settings
from whist.server.table import TableState
from whist.server.writer import Fenced, GroupWriter
from whist.store.db import make_engine, migrate
from whist.store.models import Table
from whist.store.ratings import RatedMatch
from whist.store.repository import Append, Repository, now

if TYPE_CHECKING:
    from whist.cluster.jobs import BotJobs
    from whist.cluster.node import Cluster
    from whist.cluster.route import RemoteTable, Route

log = logging.getLogger("whist.club")

LIVE = ("open", "playing", "suspended")


def with_free_seats(info: dict[str, Any]) -> dict[str, Any]:
    """A table's public info as the lobby lists it: with its free seats."""
    info["free_seats"] = [s["seat"] for s in info["seats"] if s["kind"] == "empty"]
    return info


IDLE_TRANSACTION_SECONDS = 10.0


class Club:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if not settings.database_url:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        # No transaction of ours waits seconds between two statements: one that does belongs
        # to a paused process, and must not hold its lease rows for long (store/db.py).
        idle = max(IDLE_TRANSACTION_SECONDS, 2 * settings.lease_seconds)
        self.engine = make_engine(settings.database(), idle_transaction_seconds=idle)
        migrate(self.engine)
        self.repo = Repository(self.engine)
        # Every write goes through one thread: the tables' appends in group commits.
        self.writer = GroupWriter(self.repo)
        self.bots = BotPool(settings.bot_workers, settings.bot_budget)
        self.reviews = Reviews(self.repo, self.writer, settings.analysis_workers)
        self.actors: dict[str, TableActor] = {}
        self.cluster: Cluster | None = None
        self.jobs: BotJobs | None = None
        if settings.redis_url:
            from whist.cluster.analysis_jobs import AnalysisJobs
            from whist.cluster.jobs import BotJobs
            from whist.cluster.node import Cluster

            self.cluster = Cluster(self, settings.redis_url, settings.lease_seconds)
            self.jobs = BotJobs(self.cluster.redis, settings.bot_budget, self.cluster.node)
            self.reviews.jobs = AnalysisJobs(self.jobs)
        self._heartbeat: asyncio.Task[None] | None = None
        self._run: int | None = None  # this run of the server (a heartbeat row)

    # ---------------------------------------------------------------- life
    async def start(self) -> None:
        self.writer.start()
        if self.cluster is not None:
            # Tables are claimed by lease (a dead node's too), not all restored here.
            await self.cluster.start()
            assert self.jobs is not None
            await self.jobs.start()
            return
        # Every earlier run, so that clocks charge none of the downtime between them.
        alive = await asyncio.to_thread(self.repo.alive_spans)
        rows = await asyncio.to_thread(self.repo.tables_with_status, LIVE)
        logs = await asyncio.to_thread(self.repo.logs, [row.id for row in rows])
        for row in rows:
            state = TableState.new(row.id, row.variant, row.options, row.clock_seconds)
            used = restore(state, logs[row.id], alive)
            actor = TableActor(self, state, used, invite=row.invite_code)
            self.actors[row.id] = actor
            actor.start()
            log.info("table %s restored at version %d", row.id, state.version)
        self._run = await self.writer.run(self.repo.start_run)
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self.cluster is not None:
            await self.cluster.stop()  # hands every table over to the other nodes
            assert self.jobs is not None
            await self.jobs.stop()
        for actor in self.actors.values():
            await actor.stop()
        if self._run is not None:
            try:  # a graceful stop: the clocks ran until now
                await self.writer.run(self.repo.beat, self._run)
            except Exception:
                log.exception("last heartbeat failed")
        await self.reviews.stop()  # before the writer: a finishing job may still store
        await self.writer.stop()
        self.bots.close()
        self.engine.dispose()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.settings.heartbeat_seconds)
            try:
                await self.writer.run(self.repo.beat, self._run)
            except Exception:
                log.exception("heartbeat failed")

    # ----------------------------------------------------------------- hub
    async def commit(
        self,
        table_id: str,
        seq: int,
        entries: list[Logged],
        status: str | None,
        result: dict[str, Any] | None,
        xp: dict[int, int] | None = None,
        rating: RatedMatch | None = None,
    ) -> None:
        """Store a table's log entries; returns once they are committed (group commit).
        Raises when they are not, and ``TableBehind`` when an earlier append of the table
        whose commit failed with an unknown outcome turns out to be stored: its entries come
        first (the actor adopts them), these are not stored."""
        epoch = None
        if self.cluster is not None:
            epoch = self.cluster.epochs.get(table_id)
            if epoch is None:  # dropped meanwhile: it runs elsewhere now
                raise Fenced(table_id)
        append = Append(table_id, seq, tuple(entries), status, result, xp, epoch, rating)
        try:
            await self.writer.append(append)
        except Fenced:
            if self.cluster is not None:
                self.cluster.fenced(table_id)
            raise
        if self.cluster is not None:
            actor = self.actors.get(table_id)
            if status is not None or (actor is not None and actor.listed):
                self.cluster.relist()  # the lobby on other nodes shows the change at once

    async def think(self, level: str, view: Any, seed: str) -> dict[str, Any]:
        if self.jobs is not None:
            # A bot worker (any machine) thinks; none alive: this node's own pool.
            action = await self.jobs.think(level, view, seed)
            if action is not None:
                return action
        return await self.bots.think(level, view, seed)

    async def advise(self, view: Any, seed: str) -> dict[str, Any]:
        """MASTER's advice for a hint (server/bots.py ``advise``), from a bot worker (any
        machine) in cluster mode, else (or with none alive) from this node's own pool."""
        if self.jobs is not None:
            advice = await self.jobs.advise(view, seed)
            if advice is not None:
                return advice
        return await self.bots.advise(view, seed)

    def forget(self, table_id: str) -> None:
        """Drop an ended table's actor (its task ends when the current command is done)."""
        actor = self.actors.pop(table_id, None)
        if self.cluster is not None:
            self.cluster.forget(table_id)
        if actor is not None and actor._task is not None:
            actor._task.get_loop().call_soon(actor._task.cancel)

    def clock_seconds(self) -> float:
        return self.settings.clock_seconds

    def bot_delay(self) -> float:
        return self.settings.bot_delay

    # -------------------------------------------------------------- finding
    def table(self, table_id: str) -> TableActor | RemoteTable | None:
        """A live table to ask (``ask``), wherever it runs; one process: its actor, or None.
        In cluster mode a table run elsewhere may turn out not to be live when asked."""
        actor = self.actors.get(table_id)
        if actor is not None or self.cluster is None:
            return actor
        return self.cluster.table(table_id)

    async def rebuild(self, row: Table) -> TableState:
        """A table's state from its log (for tables no actor holds)."""
        state = TableState.new(row.id, row.variant, row.options, row.clock_seconds)
        log_entries = await asyncio.to_thread(self.repo.log, row.id)
        state.replay((kind, data) for kind, data, _at in log_entries)
        return state

    @staticmethod
    def listing(actor: TableActor) -> dict[str, Any]:
        """A table as the lobby lists it."""
        return with_free_seats(actor.public_info(None))

    def route(self, table_id: str, player_id: int | None) -> Route:
        """Cluster mode: a socket's way to its table, wherever the table runs."""
        from whist.cluster.route import Route

        assert self.cluster is not None
        return Route(self.cluster, table_id, player_id)

    async def open_tables(self) -> list[dict[str, Any]]:
        """The lobby: every open public table's listing, oldest first."""
        rows = await asyncio.to_thread(self.repo.tables_with_status, ["open"])
        public = [row.id for row in rows if not row.private]
        if self.cluster is not None:
            return await self.cluster.lobby(public)
        return [self.listing(self.actors[t]) for t in public if t in self.actors]

    # -------------------------------------------------------------- tables
    async def create_table(
        self,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        clock: bool,
        private: bool,
        bots: dict[int, str],
        hints: bool = False,
    ) -> TableActor:
        """A new table with the host not yet seated; ``bots`` fills seats with bot levels;
        ``hints``: the host allows hints (logged now or never: ``HintsAllowed``). Options
        are validated here (``WhistError`` for a bad one)."""
        table_id = secrets.token_urlsafe(6)
        clock_seconds = self.settings.clock_seconds if clock else None
        state = TableState.new(table_id, variant, options, clock_seconds)
        row = Table(
            id=table_id,
            variant=state.variant,
            options=state.options,
            clock_seconds=clock_seconds,
            private=private,
            invite_code=secrets.token_urlsafe(12) if private else None,
            host_id=host_id,
            status="open",
            created_at=now(),
            finished_at=None,
            result=None,
        )
        if self.cluster is None:
            await self.writer.run(self.repo.create_table, row)
        else:  # the table and this node's lease on it, together
            epoch = await asyncio.to_thread(self.cluster.leases.create, row)
            self.cluster.granted(table_id, epoch)
        entries: list[Entry] = [BotSeated(seat, level) for seat, level in bots.items()]
        if hints:
            entries.append(HintsAllowed())
        if entries:
            await self.commit(table_id, 1, [entry.log() for entry in entries], None, None)
            for entry in entries:
                state.apply(entry)
        actor = TableActor(self, state, invite=row.invite_code)
        self.actors[table_id] = actor
        actor.start()
        if self.cluster is not None:
            self.cluster.relist()
        return actor
