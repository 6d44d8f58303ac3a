"""Bounds on everything that comes from outside, checked before it reaches the rules core,
the JSON encoders or the database.

A value that no encoder or database can hold must be refused where it enters: a NUL byte
is fine for SQLite but an error for PostgreSQL; a lone surrogate (``"\\ud800"``, legal in
JSON text) cannot be written as UTF-8; an integer of 2**64 or more breaks orjson. Each is
refused here with a stable code, and nothing changes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any

from pydantic import AfterValidator, Field

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 64 * 1024  # an HTTP request body; the largest real one is a few hundred
MAX_ID_LENGTH = 64  # a WebSocket message id (a string)
MAX_SAFE_INTEGER = 2**53 - 1  # an integer id: the largest every JSON reader holds exactly
MAX_SEAT = 3  # seats are 0..3 at most (four players)

# Table ids and invitation codes are made by secrets.token_urlsafe: anything else names no
# table, and is answered "no such table" without asking the database.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
# C0 controls but tab, newline and carriage return, and DEL: never in a name or a login.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def is_token(text: str) -> bool:
    """Could ``text`` be a table id or an invitation code?"""
    return _TOKEN.fullmatch(text) is not None


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored or sent (None: it can)."""
    if "\x00" in text:
        return "text may not contain NUL bytes"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "text may not contain lone surrogates"
    return None


def _clean(text: str) -> str:
    problem = text_problem(text)
    if problem is None and _CONTROL.search(text):
        problem = "text may not contain control characters"
    if problem is not None:
        raise ValueError(problem)
    return text


# The strings a request body may carry: bounded, and free of NUL bytes, control characters
# and lone surrogates (``_clean``; the request is refused with ``bad_request`` otherwise).
Clean = AfterValidator(_clean)
Nickname = Annotated[str, Field(min_length=1, max_length=40), Clean]
Word = Annotated[str, Field(max_length=40), Clean]  # a variant key, an option name, a level...
NewPassword = Annotated[str, Field(min_length=8, max_length=200), Clean]
Password = Annotated[str, Field(max_length=200), Clean]
OptionText = Annotated[str, Field(max_length=64), Clean]


def printable(text: str, most: int = 300) -> str:
    """A message for a log line or an error frame: ASCII-safe where it must be (a lone
    surrogate or a NUL in it becomes an escape) and at most ``most`` characters."""
    if text_problem(text) is not None:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")
    return text if len(text) <= most else text[: most - 3] + "..."


def message_id(raw: Any) -> tuple[bool, str | int | None]:
    """A WebSocket message's ``id`` as the server echoes it: ``(True, id)`` for an absent or
    null id, a string of 1..64 characters that any encoder can write, or an integer in
    ±(2**53 - 1); ``(False, None)`` for anything else (the frame is refused)."""
    if raw is None:
        return True, None
    if isinstance(raw, str):
        ok = 0 < len(raw) <= MAX_ID_LENGTH and text_problem(raw) is None
        return (True, raw) if ok else (False, None)
    if isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) <= MAX_SAFE_INTEGER:
        return True, raw
    return False, None


class BodyLimit:
    """ASGI middleware: an HTTP request body of more than ``limit`` bytes is answered
    ``413 too_large`` before the application reads or parses any of it. A declared
    ``Content-Length`` over the limit is refused at once; a body without one (chunked) is
    read up to the limit and refused as soon as it passes it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        body: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            body.append(chunk)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(body), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)

    async def _refuse(self, send: Send) -> None:
        message = f"request bodies are at most {self.limit} bytes"
        text = json.dumps({"code": "too_large", "message": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(text)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": text})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            digits = value.strip()
            # More digits than any limit needs: too large (and never a huge int()).
            if not digits.isdigit():
                return None
            return int(digits) if len(digits) <= 18 else 10**18
    return None


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A ``receive`` that hands out ``messages`` first, then waits on ``then`` (for the
    disconnect a streaming response listens for)."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        return await then()

    return receive
