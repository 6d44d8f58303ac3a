"""The table WebSocket (``/ws/tables/{id}``): who may open one, reading and checking the
client's frames into the table's commands, and the queue of frames to send it.

Every frame the client sends is answered: an act by its ack or an error (from the table), a
ping by a pong, a snapshot by a state, anything refused by an error carrying the frame's
``id`` whenever the frame could be read. A frame that cannot be encoded or sent closes this
socket alone, with a close code and a log line: the table and the other players go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi import APIRouter
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from whist.server.actor import Refused, TableActor, frame_text
from whist.server.commands import (
    Act,
    Connect,
    Connection,
    Disconnect,
    Hint,
    Snapshot,
    SocketCommand,
    Watch,
)
from whist.server.deps import club_of, settings_of, viewer_of
from whist.server.limits import is_token, message_id, printable
from whist.server.settings import Settings

log = logging.getLogger("whist.socket")

# Close codes (docs/protocol.md): the server could not encode or send a frame; the client
# does not read what it is sent (its queue of unsent frames is full).
CLOSE_SEND_FAILED = 1011
CLOSE_TOO_SLOW = 1008
MAX_OUTBOX = 500  # frames waiting to be sent to one socket (a state per change is a lot)
MAX_DEPTH = 8  # nesting of a client frame: an act is three levels deep
KINDS = ("act", "snapshot", "ping", "hint")
MAX_READ_BYTES = 64 * 1024  # a refused frame larger than this is not read for its id


class Link(Protocol):
    """Where a socket's commands go: its table's actor (one process), or in cluster mode a
    route to wherever the table runs."""

    @property
    def table_id(self) -> str: ...

    @property
    def version(self) -> int: ...

    def post(self, command: SocketCommand) -> None: ...


class TokenBucket:
    """Per-connection rate limit."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(frozen=True)
class Refusal:
    """Why a frame is refused; ``read`` says whether the frame could be read at all (then
    the error carries its ``id``, null when it had none or an unusable one)."""

    code: str
    message: str
    read: bool = False
    id: str | int | None = None

    def frame(self) -> dict[str, Any]:
        error: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.read:
            error["id"] = self.id
        return error


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (a scalar: 0). No recursion: a hostile
    frame cannot exhaust the stack here."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level + 1)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, level + 1) for child in item)
    return deepest


def _parse(data: str | bytes) -> Any:
    """The JSON of a text frame, or None when it is not readable JSON text."""
    if isinstance(data, bytes):
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def read_message(data: str | bytes, limit: int, bucket: TokenBucket) -> dict[str, Any] | Refusal:
    """The client's message, its ``id`` checked (``message["id"]`` is then the id to echo),
    or the refusal to answer it with. The checks and their order are docs/protocol.md's."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    # The id is read whenever the frame is readable, so that even a refusal for rate or
    # size can be matched to its request (frames are bounded by the server's transport).
    parsed = _parse(data) if size <= MAX_READ_BYTES else None
    read = isinstance(parsed, dict)
    id_ok, mid = message_id(parsed.get("id")) if isinstance(parsed, dict) else (False, None)

    def refuse(code: str, message: str) -> Refusal:
        return Refusal(code, message, read, mid if id_ok else None)

    if not bucket.take():
        return refuse("rate_limited", "too many messages: slow down")
    if size > limit:
        return refuse("too_large", f"messages are at most {limit} bytes")
    if isinstance(data, bytes):
        return refuse("bad_message", "messages are JSON text frames")
    if parsed is None:
        return refuse("bad_message", "not JSON")
    if not isinstance(parsed, dict):
        return refuse("bad_message", "a message is a JSON object")
    if depth(parsed) > MAX_DEPTH:
        return refuse("bad_message", f"a message nests at most {MAX_DEPTH} levels")
    if not id_ok:
        return refuse(
            "bad_message", "id must be a string of 1 to 64 characters or an integer within ±2^53"
        )
    if parsed.get("type") not in KINDS:
        return refuse("bad_message", "unknown message type")
    parsed["id"] = mid
    return parsed


class Outbox:
    """The frames waiting to be sent to one socket, and the task that sends them. A frame
    that cannot be sent, or a client that lets MAX_OUTBOX frames pile up, closes the socket
    with a close code and a log line; the receive loop then ends the connection."""

    def __init__(self, websocket: WebSocket, who: str) -> None:
        self.websocket = websocket
        self.who = who
        self.queue: asyncio.Queue[str | tuple[int, str] | None] = asyncio.Queue()
        self.closing = False
        self.task = asyncio.get_running_loop().create_task(self._write())

    async def send_text(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_OUTBOX:
            self.close(CLOSE_TOO_SLOW, "too many frames unread")
            return
        self.queue.put_nowait(text)

    async def send(self, message: dict[str, Any]) -> None:
        try:
            text = frame_text(message)
        except Exception:
            log.exception("%s: a frame could not be encoded", self.who)
            self.close(CLOSE_SEND_FAILED, "a frame could not be encoded")
            return
        await self.send_text(text)

    def close(self, code: int, reason: str) -> None:
        """Close the socket after the frames already queued (once)."""
        if not self.closing:
            self.closing = True
            log.warning("%s: closing the socket (%d %s)", self.who, code, reason)
            self.queue.put_nowait((code, reason))

    async def finish(self) -> None:
        self.queue.put_nowait(None)
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            if isinstance(item, tuple):
                with contextlib.suppress(Exception):
                    await self.websocket.close(code=item[0], reason=item[1])
                return
            try:
                await self.websocket.send_text(item)
            except Exception as exc:  # the client went away meanwhile: nothing more to send
                log.info("%s: a frame could not be sent (%s)", self.who, printable(repr(exc)))
                self.closing = True
                return


async def serve(
    websocket: WebSocket, actor: Link, player_id: int | None, settings: Settings
) -> None:
    """Run one accepted socket of ``actor``'s table until the client or the server closes
    it."""
    who = f"table {actor.table_id}, player {player_id}"
    outbox = Outbox(websocket, who)
    connection = Connection(player_id, outbox.send_text, outbox.close)
    actor.post(Connect(connection))
    bucket = TokenBucket(settings.rate_limit_per_second, settings.rate_limit_burst)
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
            text = frame.get("text")
            data = text if text is not None else frame.get("bytes") or b""
            message = read_message(data, settings.max_message_bytes, bucket)
            if isinstance(message, Refusal):
                await outbox.send(message.frame())
                continue
            kind = message["type"]
            if kind == "ping":
                await outbox.send({"type": "pong", "id": message["id"], "version": actor.version})
            elif kind == "snapshot":
                actor.post(Snapshot(connection, message["id"]))
            elif kind == "hint":
                actor.post(Hint(connection, message["id"]))
            else:
                actor.post(Act(connection, message["id"], message.get("action")))
    except WebSocketDisconnect:
        pass
    finally:
        actor.post(Disconnect(connection))
        await outbox.finish()
        if websocket.client_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(RuntimeError):
                await websocket.close()


# ----------------------------------------------------------------------- the route
router = APIRouter()


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: Origin protects browsers' cookies only
    host = websocket.headers.get("host", "")
    allowed = {f"http://{host}", f"https://{host}", *settings.allowed_origins}
    return origin in allowed


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    club, settings = club_of(websocket), settings_of(websocket)
    if not origin_allowed(websocket, settings):
        await websocket.close(code=4403, reason="origin not allowed")
        return
    table = club.table(table_id) if is_token(table_id) else None
    if table is None:
        await websocket.close(code=4404, reason="no such table")
        return
    player = await viewer_of(websocket)
    viewer = player.id if player is not None else None
    try:
        allowed = await table.ask(Watch(viewer, websocket.query_params.get("invite")))
    except Refused as refused:
        allowed = False
        if refused.code != "no_table":  # the club cannot tell now: try again later
            await websocket.close(code=1013, reason=refused.message[:120])
            return
    if not allowed:
        await websocket.close(code=4404, reason="no such table")
        return
    await websocket.accept()
    # Cluster mode: through a route even when the table runs here, so that the socket
    # follows the table when it moves to another node.
    link: Link
    if club.cluster is not None:
        link = club.route(table_id, viewer)
    else:
        assert isinstance(table, TableActor)  # one process: every table is an actor here
        link = table
    await serve(websocket, link, viewer, settings)
