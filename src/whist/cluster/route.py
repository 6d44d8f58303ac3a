"""The socket's side of cluster mode: a table socket on any node, its table run anywhere.

A ``Route`` stands between one WebSocket and its table's actor, wherever that actor runs.
It gives the actor a connection of its own (``proxy``): frames the actor sends it reach the
socket, directly when the actor runs on this node, over Redis when it runs on another. When
the table moves — its owner stops, dies or loses the lease — the route finds the new owner,
connects again (the client gets a fresh state, as after any reconnect) and re-sends the acts
that were not answered yet: an act is never dropped, and never applied twice (the table
recognises a re-sent message id from its log: ``duplicate_message``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import orjson

from whist.server.actor import Refused, frame_text
from whist.server.commands import (
    Act,
    Connect,
    Connection,
    Disconnect,
    MessageId,
    Question,
    SocketCommand,
)

if TYPE_CHECKING:
    from whist.cluster.node import Cluster

log = logging.getLogger("whist.route")

VERSION = re.compile(rb'"version":(\d+)')
UNAVAILABLE = (
    "unavailable",
    "the club's servers cannot reach each other just now: try again in a moment",
)
ASK_SECONDS = 10.0  # an HTTP request waits this long for a table that is changing owner


class Route:
    def __init__(self, cluster: Cluster, table_id: str, player_id: int | None) -> None:
        self.cluster = cluster
        self.table_id = table_id
        self.player_id = player_id
        self.id = secrets.token_hex(8)  # the connection's id between the nodes
        self.client: Connection | None = None  # the socket's own outbox
        self.proxy = Connection(player_id, self.deliver, self._close, self.moved)
        self.owner: str | None = None  # the node running the table (None: finding it)
        # Acts sent to the owner and not answered yet, oldest first (a table answers each
        # act, in order): re-sent when the table moves.
        self.unanswered: OrderedDict[int, Act] = OrderedDict()
        self._next = 0
        self.version = 0  # the newest version this socket was sent
        self.closed = False
        self._attaching: asyncio.Task[None] | None = None

    # ------------------------------------------------------- from the socket
    def post(self, command: SocketCommand) -> None:
        if isinstance(command, Connect):
            self.client = command.connection
            self.cluster.routes[self.id] = self
            self._attach()
            return
        if isinstance(command, Disconnect):
            self.closed = True
            self.cluster.routes.pop(self.id, None)
            if self._attaching is not None:
                self._attaching.cancel()
            if self.owner is not None:
                self._forward(Disconnect(self.proxy))
            return
        if isinstance(command, Act):
            if self.owner != self.cluster.node and not self.cluster.bus.up:
                self._refuse(command.id, *UNAVAILABLE)
                return
            self._next += 1
            self.unanswered[self._next] = command
        if self.owner is not None:
            self._forward(command)
        # else: sent once the owner is known (acts wait in ``unanswered``; the connect
        # that follows brings a fresh state, which answers a snapshot)

    # -------------------------------------------------------- from the table
    async def deliver(self, text: str) -> None:
        """A frame for this socket, built by the table's owner."""
        head = text[:200].encode()
        found = VERSION.search(head)
        if found is not None:
            self.version = max(self.version, int(found.group(1)))
        if head.startswith((b'{"type":"ack"', b'{"type":"error"')):
            self._answered(orjson.loads(text).get("id"))
        if self.client is not None:
            await self.client.send(text)

    def _answered(self, message_id: Any) -> None:
        for key, act in self.unanswered.items():
            if act.id == message_id:
                del self.unanswered[key]
                return
        if self.unanswered:  # answers come in order: the oldest one it is
            self.unanswered.popitem(last=False)

    def _close(self, code: int, reason: str) -> None:
        if self.client is not None:
            self.client.close(code, reason)

    def moved(self) -> None:
        """The table has left its owner (or the owner is gone): find it again."""
        if self.closed:
            return
        self.owner = None
        self._attach()

    # ----------------------------------------------------------------- inside
    def _attach(self) -> None:
        if self._attaching is None or self._attaching.done():
            self._attaching = asyncio.get_running_loop().create_task(self._find_owner())

    async def _find_owner(self) -> None:
        told = False
        while not self.closed:
            try:
                owner = await self.cluster.resolve(self.table_id)
            except Exception as exc:  # the database is away: keep trying
                if not told:
                    log.warning("table %s: owner unknown for now (%s)", self.table_id, exc)
                    told = True
                owner = ""
            if owner is None:  # the table has ended and nobody runs it any more
                self._close(4404, "no such table")
                return
            if owner:
                self.owner = owner
                self._forward(Connect(self.proxy))
                for act in list(self.unanswered.values()):
                    self._forward(act)
                return
            await asyncio.sleep(0.2)

    def _forward(self, command: SocketCommand) -> None:
        """Send the socket's command to the table's owner, as from the route's own
        connection (``proxy``)."""
        owner = self.owner
        if owner == self.cluster.node:
            actor = self.cluster.club.actors.get(self.table_id)
            if actor is None:  # dropped a moment ago
                self.moved()
                return
            actor.post(replace(command, connection=self.proxy))
            return
        assert owner is not None
        kind, data = command.wire()
        self.cluster.bus.send(
            owner,
            {
                "op": "cmd",
                "table": self.table_id,
                "conn": self.id,
                "node": self.cluster.node,
                "player": self.player_id,
                "kind": kind,
                "data": data,
            },
        )

    def _refuse(self, message_id: MessageId, code: str, message: str) -> None:
        if self.client is None:
            return
        frame = {
            "type": "error",
            "id": message_id,
            "code": code,
            "message": message,
            "version": self.version,
        }
        self.cluster.keep(_send(self.client, frame_text(frame)))


async def _send(connection: Connection, text: str) -> None:
    await connection.send(text)


class RemoteTable:
    """An HTTP request's handle on a live table run by any node: ``ask`` as on an actor."""

    def __init__(self, cluster: Cluster, table_id: str) -> None:
        self.cluster = cluster
        self.table_id = table_id

    async def ask(self, question: Question) -> Any:
        deadline = asyncio.get_running_loop().time() + ASK_SECONDS
        while True:
            owner = await self.cluster.resolve(self.table_id)
            if owner is None:
                raise Refused("no_table", "no such table")
            if owner == self.cluster.node:
                actor = self.cluster.club.actors.get(self.table_id)
                if actor is not None:
                    return await actor.ask(question)
            elif owner and self.cluster.bus.up:
                with contextlib.suppress(Moved):
                    return await self.cluster.ask_remote(owner, self.table_id, question)
            if asyncio.get_running_loop().time() > deadline:
                raise Refused(*UNAVAILABLE)
            await asyncio.sleep(0.2)


class Moved(Exception):
    """The node asked does not run the table (any more): ask whoever does now."""
