"""The club: every table's actor, the store and the bot pool, behind the ``Hub`` the
actors use. Tables come back from their logs when the club starts."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from whist.server.actor import TableActor, restore
from whist.server.bots import BotPool
from whist.server.settings import Settings
from whist.server.table import TableState
from whist.server.writer import GroupWriter
from whist.store.db import make_engine, migrate
from whist.store.models import Table
from whist.store.repository import Append, Repository, now

log = logging.getLogger("whist.club")

LIVE = ("open", "playing", "suspended")


class Club:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if not settings.database_url:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.engine = make_engine(settings.database())
        migrate(self.engine)
        self.repo = Repository(self.engine)
        # Every write goes through one thread: the tables' appends in group commits.
        self.writer = GroupWriter(self.repo)
        self.bots = BotPool(settings.bot_workers, settings.bot_budget)
        self.actors: dict[str, TableActor] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        self._run: int | None = None  # this run of the server (a heartbeat row)

    # ---------------------------------------------------------------- life
    async def start(self) -> None:
        self.writer.start()
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
        for actor in self.actors.values():
            await actor.stop()
        if self._run is not None:
            try:  # a graceful stop: the clocks ran until now
                await self.writer.run(self.repo.beat, self._run)
            except Exception:
                log.exception("last heartbeat failed")
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
        entries: list[tuple[str, dict[str, Any]]],
        status: str | None,
        result: dict[str, Any] | None,
        xp: dict[int, int] | None = None,
    ) -> None:
        """Store a table's log entries; returns once they are committed (group commit).
        Raises when they are not, and ``TableBehind`` when an earlier append of the table
        whose commit failed with an unknown outcome turns out to be stored: its entries come
        first (the actor adopts them), these are not stored."""
        await self.writer.append(Append(table_id, seq, tuple(entries), status, result, xp))

    async def think(self, level: str, view: Any, seed: str) -> dict[str, Any]:
        return await self.bots.think(level, view, seed)

    def forget(self, table_id: str) -> None:
        """Drop an ended table's actor (its task ends when the current command is done)."""
        actor = self.actors.pop(table_id, None)
        if actor is not None and actor._task is not None:
            actor._task.get_loop().call_soon(actor._task.cancel)

    def clock_seconds(self) -> float:
        return self.settings.clock_seconds

    def bot_delay(self) -> float:
        return self.settings.bot_delay

    # -------------------------------------------------------------- tables
    async def create_table(
        self,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        clock: bool,
        private: bool,
        bots: dict[int, str],
    ) -> TableActor:
        """A new table with the host not yet seated; ``bots`` fills seats with bot levels.
        Options are validated here (``WhistError`` for a bad one)."""
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
        await self.writer.run(self.repo.create_table, row)
        entries = [
            ("seat", {"seat": seat, "why": "bot", "bot": level}) for seat, level in bots.items()
        ]
        if entries:
            await self.commit(table_id, 1, entries, None, None)
            for kind, data in entries:
                state.apply(kind, data)
        actor = TableActor(self, state, invite=row.invite_code)
        self.actors[table_id] = actor
        actor.start()
        return actor
