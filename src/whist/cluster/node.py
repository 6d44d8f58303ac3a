"""A node of the club in cluster mode: the tables it runs, and its part in the others.

- **Ownership.** A node runs the tables whose lease it holds (``whist.store.leases``): it
  holds them all by renewing its heartbeat row every ``lease_seconds / 4``, claims the
  leases of nodes gone for ``lease_seconds`` (or released) every second, and rebuilds each
  claimed table from its log. A table whose lease it lost is dropped at once; its appends
  were fenced off anyway.
- **Owner side.** Commands for its tables from sockets on other nodes arrive over the bus;
  each such socket is a ``Connection`` here whose frames go back over the bus.
- **Socket side.** Sockets and HTTP requests for tables run elsewhere go through
  ``whist.cluster.route``.
- **Shared views.** The lobby (open tables, in a Redis hash written by their owners) and
  the list of live nodes (a Redis key per node with a short expiry).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as redis
from redis import exceptions as redis_errors
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff

from whist.cluster.bus import Bus
from whist.cluster.route import Moved, RemoteTable, Route
from whist.server.actor import Refused, TableActor, failure, restore
from whist.server.commands import (
    Connect,
    Connection,
    Disconnect,
    Info,
    Question,
    Snapshot,
    question,
    socket_command,
)
from whist.server.table import TableState
from whist.store.leases import Claim, Leases

if TYPE_CHECKING:
    from whist.server.club import Club

log = logging.getLogger("whist.cluster")

NODE_KEY = "whist:node:"  # + node id: what the node runs (JSON), expires unless renewed
LOBBY = "whist:lobby"  # table id -> its listing (JSON), for open public tables
NODE_TTL = 3  # seconds: a node not seen for this long is gone
TICK = 1.0  # seconds between two rounds of claims, node beats and checks
CLAIM_LIMIT = 25  # leases taken per round (several nodes share a dead node's tables)
ASK_TIMEOUT = 5.0  # seconds an owner has to answer a request


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def new_node_id() -> str:
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster:
    def __init__(self, club: Club, redis_url: str, lease_seconds: float) -> None:
        self.club = club
        self.node = new_node_id()
        # health_check_interval: a pooled connection idle across a Redis restart is checked
        # (and replaced) before use, instead of failing one command.
        # retry: a pooled connection that Redis closed (a restart) is replaced and the
        # command sent again, not failed (a frame sent twice is harmless: a full state).
        self.redis = redis.from_url(
            redis_url,
            socket_timeout=5,
            socket_connect_timeout=3,
            health_check_interval=5,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
            retry_on_error=[redis_errors.ConnectionError, redis_errors.TimeoutError],
        )
        # The bus listens without retries: redis-py's pub/sub would otherwise reconnect and
        # subscribe again by itself, and the node would never learn that the messages of
        # the break are lost (its sockets must then ask their tables again).
        listener = redis.from_url(
            redis_url,
            socket_connect_timeout=3,
            health_check_interval=5,
            retry=Retry(NoBackoff(), 0),
        )
        self.bus = Bus(self.redis, listener, self.node, self._on_message, self._on_frame)
        self.bus.on_reconnect = self._reconnected
        self.leases = Leases(club.engine, self.node, lease_seconds)
        self.lease_seconds = lease_seconds
        self.epochs: dict[str, int] = {}  # the tables this node runs -> their lease epoch
        self.routes: dict[str, Route] = {}  # this node's sockets, by connection id
        self.remote: dict[str, tuple[str, str, Connection]] = {}  # id -> (table, node, conn)
        self.live_nodes: set[str] = set()
        self.stopping = False
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._listed: dict[str, bytes] = {}  # what this node last wrote to the lobby
        self._relist = asyncio.Event()  # a listing may have changed: write the lobby now
        self._renewed = time.monotonic()
        self._orphans: set[str] = set()  # leases held but not run, at the last renewal
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self.started = time.time()

    # ---------------------------------------------------------------- life
    async def start(self) -> None:
        await self.bus.start()
        await asyncio.to_thread(self.leases.beat)  # before any table: they hang on it
        await asyncio.to_thread(self.leases.forget_old_nodes)
        await self._beat()
        unleased = await asyncio.to_thread(self.leases.lease_unleased)
        if unleased:
            log.info("%d live tables of before cluster mode can now be claimed", unleased)
        await self._claim()
        loop = asyncio.get_running_loop()
        self._loops = [
            loop.create_task(self._every(TICK, self._claim)),
            loop.create_task(self._every(self.lease_seconds / 4, self._renew)),
            loop.create_task(self._every(TICK, self._beat)),
            loop.create_task(self._every(0.5, self._list, wake=self._relist)),
        ]

    async def stop(self) -> None:
        """Hand every table over: finish the commands each has received, stop it, release
        its lease (another node claims it at once) and move its sockets there."""
        self.stopping = True
        for task in self._loops:
            task.cancel()
        tables = list(self.epochs)
        await asyncio.gather(*(self._drain(t) for t in tables))
        held = dict(self.epochs)
        actors = [self.club.actors.pop(t) for t in tables if t in self.club.actors]
        for actor in actors:
            await actor.stop()
        try:
            await asyncio.to_thread(self.leases.release, held)
            await asyncio.to_thread(self.leases.leave)
        except Exception:
            log.exception("could not release the leases: they expire by themselves")
        self.epochs.clear()
        for actor in actors:
            self._moved(actor)
        for table_id in list(self._listed):
            await self._unlist(table_id)
        try:
            await self.redis.delete(NODE_KEY + self.node)
        except Exception:
            log.warning("could not remove this node from the list: it expires by itself")
        await self.bus.stop()
        await self.redis.aclose()
        await self.bus.listener.aclose()

    async def _drain(self, table_id: str) -> None:
        actor = self.club.actors.get(table_id)
        if actor is None:
            return
        try:  # the commands already in its inbox come first
            await asyncio.wait_for(actor.ask(Info()), 5.0)
        except Exception:
            log.warning("table %s: not drained before the handover", table_id)

    async def _every(self, seconds: float, job: Any, wake: asyncio.Event | None = None) -> None:
        """Run ``job`` every ``seconds`` (with jitter), and at once when ``wake`` is set."""
        name = getattr(job, "__name__", "a task").strip("_")
        failing = False
        while True:
            pause = seconds * random.uniform(0.8, 1.2)
            if wake is None:
                await asyncio.sleep(pause)
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), pause)
                wake.clear()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                code, _message = failure(exc)
                if code != "unavailable":
                    log.exception("cluster: %s failed", name)
                elif not failing:  # once per outage, not every second
                    log.error("cluster: %s failed: %s", name, first_line(exc))
                failing = True
            else:
                if failing:
                    log.warning("cluster: %s works again", name)
                failing = False

    def keep(self, coroutine_or_task: Coroutine[Any, Any, Any] | asyncio.Task[Any]) -> None:
        """Run a fire-and-forget task without losing the reference to it."""
        task = (
            coroutine_or_task
            if isinstance(coroutine_or_task, asyncio.Task)
            else asyncio.get_running_loop().create_task(coroutine_or_task)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----------------------------------------------------------- ownership
    async def _claim(self, table_id: str | None = None) -> bool:
        if self.stopping:
            return False
        claims = await asyncio.to_thread(self.leases.claim, CLAIM_LIMIT, table_id)
        for claim in claims:
            try:
                await self.adopt(claim)
            except Exception:
                # Not run here: give the lease up again rather than hold a table nobody runs
                # (it is tried again, and the error logged again, until it can be rebuilt).
                log.exception("table %s: could not be rebuilt from its log", claim.table_id)
                self.epochs.pop(claim.table_id, None)
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.leases.release, {claim.table_id: claim.epoch})
        return bool(claims)

    async def adopt(self, claim: Claim) -> None:
        """Run a table whose lease this node has just claimed, rebuilt from its log. Its
        clocks are charged up to the former owner's last sign of life, not for the time the
        table had no owner."""
        club = self.club
        row = await asyncio.to_thread(club.repo.table, claim.table_id)
        entries = await asyncio.to_thread(club.repo.log, claim.table_id)
        assert row is not None
        state = TableState.new(row.id, row.variant, row.options, row.clock_seconds)
        used = restore(state, entries, claim.last_seen)
        actor = TableActor(club, state, used, invite=row.invite_code)
        self.epochs[claim.table_id] = claim.epoch
        club.actors[claim.table_id] = actor
        actor.start()
        log.info("table %s: running it (epoch %d, version %d)", row.id, claim.epoch, state.version)

    def granted(self, table_id: str, epoch: int) -> None:
        self.epochs[table_id] = epoch

    async def _renew(self) -> None:
        held = dict(self.epochs)
        try:
            holding = await asyncio.to_thread(self.leases.beat)
        except Exception as exc:
            if time.monotonic() - self._renewed > self.lease_seconds:
                # Unrenewed, every lease has run out: another node may run these tables
                # now. Stop them here (their appends are fenced anyway).
                log.error(
                    "leases not renewed for %.0f s (%s): dropping every table",
                    time.monotonic() - self._renewed,
                    first_line(exc),
                )
                for table_id in list(held):
                    await self.drop(table_id)
            raise
        self._renewed = time.monotonic()
        # Leases this node holds but does not run (it dropped them while it could not renew,
        # and its heartbeat came back): given up, or no node would ever run those tables.
        # Only when seen twice, a renewal apart: a table being created or adopted here is
        # in the lease table a moment before it is in ``epochs``.
        orphans = set(holding) - set(self.epochs)
        released = {t: holding[t] for t in orphans & self._orphans}
        self._orphans = orphans - set(released)
        if released:
            log.warning("giving up %d leases of tables not run here", len(released))
            await asyncio.to_thread(self.leases.release, released)
        kept = {t for t, epoch in held.items() if holding.get(t) == epoch}
        for table_id in set(held) - kept:
            log.warning("table %s: another node runs it now", table_id)
            await self.drop(table_id)

    async def drop(self, table_id: str) -> None:
        """Stop running ``table_id`` here (its lease is gone): its sockets follow it."""
        self.epochs.pop(table_id, None)
        actor = self.club.actors.pop(table_id, None)
        if actor is None:
            return
        await actor.stop()
        self._moved(actor)
        await self._unlist(table_id)

    def forget(self, table_id: str) -> None:
        """An ended table nobody watches any more stops running here: its lease is given
        up at once (no node claims an ended table), so that asking for it finds it ended."""
        epoch = self.epochs.pop(table_id, None)
        if epoch is not None:
            self.keep(asyncio.to_thread(self.leases.release, {table_id: epoch}))

    def fenced(self, table_id: str) -> None:
        """An append of ``table_id`` was fenced off: another node runs it."""
        if table_id in self.epochs:
            self.keep(self.drop(table_id))

    def _moved(self, actor: TableActor) -> None:
        for connection in list(actor.connections):
            connection.moved()
        for key, (table_id, _node, _conn) in list(self.remote.items()):
            if table_id == actor.state.table_id:
                del self.remote[key]

    async def resolve(self, table_id: str) -> str | None:
        """The node running ``table_id``: this one, another, "" while nobody does (its
        owner stopped or died and the lease has not run out yet), None when the table is
        not live (no such table, or it has ended)."""
        if table_id in self.club.actors:
            return self.node
        owner = await asyncio.to_thread(self.leases.owner, table_id)
        if owner is None or owner.ended:
            return None
        if owner.live:
            if owner.node == self.node:  # being adopted or dropped here: soon known
                return ""
            return owner.node if owner.node in self.live_nodes else ""
        if await self._claim(table_id):
            return self.node if table_id in self.club.actors else ""
        owner = await asyncio.to_thread(self.leases.owner, table_id)
        if owner is None or owner.ended:
            return None
        return ""  # claimed by another node a moment ago, or soon claimable: ask again

    def table(self, table_id: str) -> TableActor | RemoteTable:
        actor = self.club.actors.get(table_id)
        return actor if actor is not None else RemoteTable(self, table_id)

    # ------------------------------------------------------------ messages
    async def _on_frame(self, key: str, text: str) -> None:
        route = self.routes.get(key)
        if route is not None:
            await route.deliver(text)

    async def _on_message(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "close":
            route = self.routes.get(message["conn"])
            if route is not None:
                route.proxy.close(message["code"], message["reason"])
        elif op == "moved":
            route = self.routes.get(message["conn"])
            if route is not None:
                route.moved()
        elif op == "cmd":
            self._command(message)
        elif op == "ask":
            self.keep(self._answer(message))
        elif op == "answer":
            future = self._answers.pop(message["rid"], None)
            if future is not None and not future.done():
                future.set_result(message)

    def _command(self, message: dict[str, Any]) -> None:
        """A command from a socket on another node for a table run here."""
        table_id, key, node = message["table"], message["conn"], message["node"]
        kind = message["kind"]
        actor = self.club.actors.get(table_id)
        if actor is None or self.stopping:
            if kind != "disconnect":
                self.bus.send(node, {"op": "moved", "conn": key})
            return
        if kind == "connect":
            old = self.remote.pop(key, None)
            if old is not None:
                actor.post(Disconnect(old[2]))
            connection = self._remote_connection(key, node, message["player"])
            self.remote[key] = (table_id, node, connection)
            actor.post(Connect(connection))
            return
        known = self.remote.get(key)
        if known is None or known[0] != table_id:
            if kind != "disconnect":  # this node took the table over: connect again
                self.bus.send(node, {"op": "moved", "conn": key})
            return
        if kind == "disconnect":
            del self.remote[key]
        actor.post(socket_command(kind, message["data"], known[2]))

    def _remote_connection(self, key: str, node: str, player: int | None) -> Connection:
        bus = self.bus

        async def send(text: str) -> None:
            bus.send_frame(node, key, text)

        def close(code: int, reason: str) -> None:
            bus.send(node, {"op": "close", "conn": key, "code": code, "reason": reason})

        def moved() -> None:
            bus.send(node, {"op": "moved", "conn": key})

        return Connection(player, send, close, moved)

    async def _answer(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"op": "answer", "rid": message["rid"]}
        actor = self.club.actors.get(message["table"])
        if actor is None or self.stopping:
            reply["moved"] = True
        else:
            try:
                asked = question(message["kind"], message["player"], message["data"])
                reply["result"] = await actor.ask(asked)
                reply["ok"] = True
            except Refused as refused:
                reply.update(ok=False, code=refused.code, message=refused.message)
        self.bus.send(message["node"], reply)

    async def ask_remote(self, node: str, table_id: str, asked: Question) -> Any:
        kind, player_id, data = asked.wire()
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[rid] = future
        self.bus.send(
            node,
            {
                "op": "ask",
                "rid": rid,
                "node": self.node,
                "table": table_id,
                "kind": kind,
                "player": player_id,
                "data": data,
            },
        )
        try:
            answer = await asyncio.wait_for(future, ASK_TIMEOUT)
        except TimeoutError:
            raise Moved from None  # the owner did not answer: ask whoever runs it now
        finally:
            self._answers.pop(rid, None)
        if answer.get("moved"):
            raise Moved
        if not answer.get("ok"):
            raise Refused(answer["code"], answer["message"])
        return answer["result"]

    def _reconnected(self) -> None:
        """Redis came back: what was sent meanwhile is lost, so every socket of this node
        asks its table again (a fresh state; unanswered acts re-sent, a repeat is
        recognised), and every socket elsewhere watching a table run here gets a fresh state
        (frames this node sent it may be lost)."""
        for route in list(self.routes.values()):
            route.moved()
        for table_id, _node, connection in list(self.remote.values()):
            actor = self.club.actors.get(table_id)
            if actor is not None:
                actor.post(Snapshot(connection))

    # ------------------------------------------------------- shared views
    async def _beat(self) -> None:
        """Say this node is alive (and what it runs); learn which nodes are."""
        club = self.club
        info = {
            "node": self.node,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "address": f"{club.settings.host}:{club.settings.port}",
            "started": self.started,
            "tables": len(club.actors),
            "sockets": len(self.routes),
        }
        await self.redis.set(NODE_KEY + self.node, orjson.dumps(info), ex=NODE_TTL)
        self.live_nodes = {info["node"] for info in await self.nodes()}
        gone = {node for _t, node, _c in self.remote.values() if node not in self.live_nodes}
        if gone:  # sockets held by nodes that died: they are not watching any more
            for key, (table_id, node, connection) in list(self.remote.items()):
                actor = club.actors.get(table_id)
                if node in gone and actor is not None:
                    del self.remote[key]
                    actor.post(Disconnect(connection))
                    # Only its heartbeat may have lapsed (a pause; Redis restarted and lost
                    # every heartbeat): a node still alive connects its socket again.
                    self.bus.send(node, {"op": "moved", "conn": key})
        for route in list(self.routes.values()):
            if route.owner not in (None, self.node) and route.owner not in self.live_nodes:
                route.moved()

    async def nodes(self) -> list[dict[str, Any]]:
        keys = [key async for key in self.redis.scan_iter(match=NODE_KEY + "*", count=500)]
        values = await self.redis.mget(keys) if keys else []
        return [orjson.loads(value) for value in values if value is not None]

    def relist(self) -> None:
        """An open table changed (made, a seat taken or left, started): the lobby on every
        node shows it within moments, not at the next tick."""
        self._relist.set()

    async def _list(self) -> None:
        """Write this node's open public tables to the lobby when they change."""
        listed: dict[str, bytes] = {}
        for table_id, actor in list(self.club.actors.items()):
            if actor.listed:
                listed[table_id] = orjson.dumps(self.club.listing(actor))
        changed = {t: v for t, v in listed.items() if self._listed.get(t) != v}
        if changed:
            await self.redis.hset(LOBBY, mapping=dict(changed.items()))
        for table_id in set(self._listed) - set(listed):
            await self._unlist(table_id)
        self._listed = listed

    async def _unlist(self, table_id: str) -> None:
        self._listed.pop(table_id, None)
        try:
            await self.redis.hdel(LOBBY, table_id)
        except Exception:
            log.warning("table %s: could not be taken off the lobby", table_id)

    async def lobby(self, table_ids: list[str]) -> list[dict[str, Any]]:
        """The listings of these open tables, as their owners last wrote them."""
        if not table_ids:
            return []
        values = await self.redis.hmget(LOBBY, table_ids)
        return [orjson.loads(value) for value in values if value is not None]

    async def status(self) -> dict[str, Any]:
        """This node's part of ``/healthz``."""
        return {
            "node": self.node,
            "redis": self.bus.up,
            "tables_owned": len(self.epochs),
            "sockets": len(self.routes),
            "remote_sockets": len(self.remote),
            "live_nodes": sorted(self.live_nodes),
        }
