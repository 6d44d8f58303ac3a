"""This node's line to the other nodes: Redis pub/sub, one channel per node.

Every node listens on its own channel (``whist:node:<id>``) and sends to another node's. A
table's frames must reach a socket in the order the owner built them: all of this node's
messages go out through one connection, in the order ``send`` was called (Redis delivers a
connection's publications to a subscriber in order). Messages are JSON (orjson), but for
the frames a table sends to sockets on other nodes — nearly all of the traffic — which go
as they are, behind a marker byte and each socket's id and length: a frame is JSON text
already, and wrapping it in JSON would escape it on one node and unescape it on the other.
Frames queued together for one node travel as one message (a change of a table sends one
frame to each of its sockets there): fewer commands, fewer messages to parse.

Redis carries messages only; the truth is in PostgreSQL. When Redis goes away, messages of
the outage are lost: ``up`` turns False (routes refuse what they cannot forward, with a
clear error), and once both connections are back the ``on_reconnect`` callback lets every
route ask its table's owner for a fresh snapshot and re-send its unanswered acts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as redis

log = logging.getLogger("whist.bus")

RETRY_SECONDS = 0.5  # between two tries to reach Redis again
STOP_SECONDS = 2.0  # a stopping node waits this long for its connections to close
MAX_QUEUED = 100_000  # messages waiting while Redis is away: the oldest are dropped


def channel(node: str) -> str:
    return f"whist:node:{node}"


Handler = Callable[[dict[str, Any]], Awaitable[None]]
FrameHandler = Callable[[str, str], Awaitable[None]]  # (connection id, frame text)
FRAMES = 0  # first byte of a message of frames: then (id, 4-byte length, text) each
KEY_BYTES = 16  # connection ids are 16 characters (secrets.token_hex(8))


def pack(queued: list[tuple[str, bytes | None, bytes]]) -> list[tuple[str, bytes]]:
    """The messages to publish for ``queued`` (channel, socket id or None, payload), in
    order: runs of frames for one channel joined into one message."""
    messages: list[tuple[str, bytearray | bytes]] = []
    for name, key, payload in queued:
        if key is None:
            messages.append((name, payload))
            continue
        last = messages[-1] if messages else None
        if last is None or last[0] != name or not isinstance(last[1], bytearray):
            last = (name, bytearray([FRAMES]))
            messages.append(last)
        frames = last[1]
        assert isinstance(frames, bytearray)
        frames += key + len(payload).to_bytes(4, "big") + payload
    return [(name, bytes(data)) for name, data in messages]


def unpack(data: bytes) -> list[tuple[str, str]]:
    """The (socket id, frame text) of a message of frames."""
    frames = []
    at = 1
    while at < len(data):
        key = data[at : at + KEY_BYTES].decode()
        size = int.from_bytes(data[at + KEY_BYTES : at + KEY_BYTES + 4], "big")
        at += KEY_BYTES + 4
        frames.append((key, data[at : at + size].decode()))
        at += size
    return frames


class Bus:
    def __init__(
        self,
        client: redis.Redis,
        listener: redis.Redis,
        node: str,
        handle: Handler,
        on_frame: FrameHandler,
    ) -> None:
        self.client = client  # publishes
        self.listener = listener  # subscribes: a break must end its subscription
        self.node = node
        self.handle = handle
        self.on_frame = on_frame
        self.on_reconnect: Callable[[], None] = lambda: None
        self._queue: deque[tuple[str, bytes | None, bytes]] = deque(maxlen=MAX_QUEUED)
        self._wake = asyncio.Event()
        self._listening = False
        self._sending = True
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def up(self) -> bool:
        """Both directions work (as far as this node can tell)."""
        return self._listening and self._sending

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        self._tasks = [
            loop.create_task(self._listen(ready)),
            loop.create_task(self._publish()),
        ]
        await ready  # subscribed: messages sent to this node from now on arrive

    async def stop(self) -> None:
        await self.flush()
        for task in self._tasks:
            task.cancel()
        # Bounded: closing a pub/sub connection in the middle of a read can hang.
        await asyncio.wait(self._tasks, timeout=STOP_SECONDS)

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (a little) until everything sent so far went out."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self._queue and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node`` (sent in order, by one connection)."""
        self._queue.append((channel(node), None, orjson.dumps(message)))
        self._wake.set()

    def send_frame(self, node: str, key: str, text: str) -> None:
        """Queue a frame for the socket ``key`` on ``node``, in order with ``send``."""
        assert len(key) == KEY_BYTES
        self._queue.append((channel(node), key.encode(), text.encode()))
        self._wake.set()

    # ------------------------------------------------------------------ inside
    async def _listen(self, ready: asyncio.Future[None]) -> None:
        first = True
        while True:
            pubsub = self.listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node))
                if not ready.done():
                    ready.set_result(None)
                was_down = not self._listening
                self._listening = True
                if was_down and not first:
                    log.warning("Redis is back: routes ask their tables again")
                    self.on_reconnect()
                first = False
                # listen(), not get_message(timeout): no timer set up per message.
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    data: bytes = message["data"]
                    try:
                        if data[0] == FRAMES:
                            for key, text in unpack(data):
                                await self.on_frame(key, text)
                        else:
                            await self.handle(orjson.loads(data))
                    except Exception:  # one bad message must not stop the node's line
                        log.exception("a cluster message could not be handled")
                raise ConnectionError("the subscription ended")
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), STOP_SECONDS)  # type: ignore[no-untyped-call]
                raise
            except Exception as exc:
                if self._listening:
                    log.error("lost Redis (listening): %s", exc)
                self._listening = False
                if not ready.done() and first:
                    ready.set_exception(exc)
                    return
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), STOP_SECONDS)  # type: ignore[no-untyped-call]
                await asyncio.sleep(RETRY_SECONDS)

    async def _publish(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = pack(list(self._queue))
                self._queue.clear()
                try:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for name, data in batch:
                            pipe.publish(name, data)
                        await pipe.execute()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    # The batch is dropped: what it held is asked again after the reconnect.
                    if self._sending:
                        log.error("lost Redis (sending %d messages): %s", len(batch), exc)
                    self._sending = False
                    await asyncio.sleep(RETRY_SECONDS)
                    await self._probe()
                    log.warning("Redis is back (sending): routes ask their tables again")
                    self._sending = True
                    self.on_reconnect()

    async def _probe(self) -> None:
        """Wait until Redis answers again (messages queued meanwhile are kept)."""
        while True:
            try:
                await self.client.ping()
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(RETRY_SECONDS)
