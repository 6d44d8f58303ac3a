"""Issue point 7: hunting for crashes with hostile input, against a real ``whist serve`` on
SQLite and on PostgreSQL.

WebSocket frames are drawn from ``docs/protocol.schema.json``'s ClientMessage
(hypothesis-jsonschema) and mutated: wrong types, integers past 64 bits (2**64, 10**400),
lone surrogates written as JSON escapes, NUL, 300+ levels of nesting, long strings, unknown
fields, non-objects, binary frames, invalid UTF-8. HTTP requests come from the app's OpenAPI
document (schemathesis) and from hostile bodies on a live table. After every input:

- the server is up and answers, and its log shows no traceback and no ERROR line;
- the frame got its answer (pong, state, ack or error) rather than silence; an error or ack
  carries the frame's ``id`` whenever the frame had one readable; every server frame matches
  the schema's ServerMessage;
- a refused input changed nothing: ``GET /api/tables/{id}`` and a fresh socket's state
  (version, table, view) are the same before and after;
- every socket of the table still receives broadcasts: an honest player's act reaches all of
  them, the socket that sent the hostile frame included;
- HTTP answers are never 5xx, and every refusal has the ``{"code", "message"}`` shape.

CI runs a bounded, derandomized share (the Hypothesis profiles of ``tests/conftest.py``);
``bench/fuzz.py`` sends 100,000 frames. One server per database serves this whole module.
Shrinking is off: a failing input costs a timeout, and the input is printed as drawn.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx2
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from test_recovery import COOKIE, Server, postgres_database

hypothesis_jsonschema = pytest.importorskip("hypothesis_jsonschema")
schemathesis = pytest.importorskip("schemathesis")
jsonschema_rs = pytest.importorskip("jsonschema_rs")

ROOT = Path(__file__).resolve().parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
MAX_BYTES = 4096  # WHIST_MAX_MESSAGE_BYTES's default, which the server here runs with
WAIT = 8.0  # seconds any one answer may take (milliseconds on loopback when all is well)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def of_schema(name: str) -> dict[str, Any]:
    """One of the schema's $defs as a schema of its own (the others reachable by $ref)."""
    return {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"}


SERVER_FRAME = Draft202012Validator(of_schema("ServerMessage"))
# The same check, fast (schemathesis brings it): the Python one only explains a failure.
FAST_SERVER_FRAME = jsonschema_rs.Draft202012Validator(of_schema("ServerMessage"))
HTTP_ERROR = Draft202012Validator(
    {"$defs": SCHEMA["$defs"], "anyOf": [{"$ref": "#/$defs/HttpError"},
                                         {"$ref": "#/$defs/ValidationError"}]}
)  # fmt: skip


# ----------------------------------------------------------------------- the log
class LogWatch:
    """The server log from where it was last read: any traceback or ERROR line is a bug."""

    PROBLEM = re.compile(
        r"Traceback \(most recent call last\)|Exception in ASGI application|^(ERROR|CRITICAL)\b"
    )

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def problems(self) -> list[str]:
        with self.path.open("rb") as log:
            log.seek(self.offset)
            text = log.read().decode("utf-8", "replace")
        self.offset += len(text.encode("utf-8", "replace"))
        lines = text.splitlines()
        found = [i for i, line in enumerate(lines) if self.PROBLEM.search(line)]
        # Each problem with what follows it (the traceback's last lines name the exception).
        return ["\n".join(lines[i : i + 8]) for i in found[:3]]


# ------------------------------------------------------------------- the sockets
class Peer:
    """One raw WebSocket on a table. Every frame read must match the schema; the newest
    state is kept, and a close is recorded rather than raised."""

    def __init__(self, port: int, table_id: str, token: str | None, name: str) -> None:
        self.name = name
        headers = {"Cookie": f"{COOKIE}={token}"} if token else {}
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
            additional_headers=headers,
            open_timeout=WAIT,
            close_timeout=1,
            ping_interval=None,
            proxy=None,
            max_size=None,
            legacy=True,  # a plain connection, not a context manager
        )
        self.state: dict[str, Any] = {}
        self.closed: int | None = None  # the close code once the server closed it
        self.read_until(lambda frame: frame["type"] == "state", "the first state")

    @property
    def open(self) -> bool:
        return self.closed is None

    @property
    def version(self) -> int:
        return int(self.state.get("version", -1))

    @property
    def view(self) -> dict[str, Any]:
        return self.state["view"]  # type: ignore[no-any-return]

    def send(self, data: str | bytes, text: bool = True) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(data, text=text)

    def read(self, timeout: float) -> dict[str, Any] | None:
        """The next frame, or None once the socket is closed; TimeoutError after
        ``timeout``."""
        if not self.open:
            return None
        try:
            raw = self.ws.recv(timeout=timeout)
        except ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd is not None else 1006
            return None
        assert isinstance(raw, str), f"the server sent a binary frame: {raw[:80]!r}"
        frame: dict[str, Any] = json.loads(raw)
        if not FAST_SERVER_FRAME.is_valid(frame):
            errors = sorted(SERVER_FRAME.iter_errors(frame), key=str)
            raise AssertionError(f"a server frame outside the schema: {raw[:300]}\n{errors[:1]}")
        if frame["type"] == "state":
            assert frame["version"] >= self.version, "state versions went back"
            self.state = frame
        return frame

    def read_until(self, done: Callable[[dict[str, Any]], bool], what: str) -> list[dict[str, Any]]:
        """Every frame up to and including the first one ``done`` accepts."""
        frames: list[dict[str, Any]] = []
        while True:
            try:
                frame = self.read(WAIT)
            except TimeoutError:
                raise AssertionError(f"{self.name}: silence, no {what} within {WAIT} s") from None
            if frame is None:
                return frames
            frames.append(frame)
            if done(frame):
                return frames

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


# -------------------------------------------------------------------- the frames
@dataclass(frozen=True)
class Frame:
    """A WebSocket frame as sent: its payload, and whether it goes as a text frame."""

    data: str | bytes
    text: bool = True

    def __repr__(self) -> str:  # short enough to read in a failure report
        shown = self.data if len(self.data) <= 300 else self.data[:300] + "..."  # type: ignore[operator]
        return f"Frame({shown!r}, text={self.text}, {len(self.data)} long)"


@dataclass(frozen=True)
class Expect:
    """What the server must answer to a frame, judged by reading the frame as the protocol
    says the server reads it (docs/protocol.md, "Limits" and "Ids").

    ``kind``: "pong", "state" (answering a snapshot), "act" (an ack or an error), "hint" (a
    hint frame, or an error for a malformed one), "error" (a refusal) or "close" (a text
    frame that is not UTF-8: the socket is closed with 1007).
    ``ids``: the ids the answer may carry (None: any). ``codes``: the error codes allowed
    (None: any). ``lenient``: the frame is JSON only to a lax reader (NaN, duplicate keys,
    lone surrogates), so a ``bad_message`` refusal is a right answer as well."""

    kind: str
    ids: tuple[Any, ...] | None = (None,)
    codes: frozenset[str] | None = None
    lenient: bool = False


MAX_DEPTH = 8  # "nested at most 8 levels deep (an act is three)"
# Python's json reader gives up near 1,000 levels, sooner the deeper its caller's stack: a
# frame nested deeper than this may be unreadable to the server, so its id need not come back.
READABLE_DEPTH = 900
MAX_ID_CHARS = 64
MAX_SAFE_INTEGER = 2**53 - 1
BAD_MESSAGE = frozenset({"bad_message"})
TOO_LARGE = frozenset({"too_large"})


class _Lax(Exception):
    pass


def _strict_constant(name: str) -> Any:
    raise _Lax(name)


def _strict_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise _Lax("duplicate key")
    return dict(pairs)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shape(value: Any) -> tuple[int, bool]:
    """How deep ``value`` is nested (a scalar is one level) and whether a string in it (a key
    or a value) holds a lone surrogate; without recursion, for any depth."""
    deepest, lone = 0, False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, str):
            lone = lone or not _encodable(item)
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, dict):
            lone = lone or not all(_encodable(key) for key in item)
            stack.extend((child, depth + 1) for child in item.values())
    return deepest, lone


def usable_id(raw: Any) -> bool:
    """An id the server must echo: none, a string of 1..64 characters without NUL or lone
    surrogates, or an integer within ±(2**53 - 1)."""
    if raw is None:
        return True
    if isinstance(raw, str):
        return 0 < len(raw) <= MAX_ID_CHARS and "\x00" not in raw and _encodable(raw)
    return isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) <= MAX_SAFE_INTEGER


def expect(frame: Frame) -> Expect:
    """The answer ``frame`` must get."""
    if not frame.text:  # binary: never read as JSON, so no id
        return Expect("error", (None,), BAD_MESSAGE)
    raw = frame.data
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return Expect("close")
    too_large = len(raw.encode("utf-8")) > MAX_BYTES
    codes = TOO_LARGE if too_large else BAD_MESSAGE
    try:
        message = json.loads(raw)
    except RecursionError:  # deeper than this reader goes: another may read the id
        return Expect("error", None, codes | BAD_MESSAGE)
    except ValueError:
        return Expect("error", (None,), codes)
    if not isinstance(message, dict):
        return Expect("error", (None,), codes)
    depth, lenient = shape(message)
    try:
        json.loads(raw, parse_constant=_strict_constant, object_pairs_hook=_strict_pairs)
    except (_Lax, RecursionError):  # lax JSON; or too deep for this reader, as above
        lenient = True
    sent = message.get("id")
    ids: tuple[Any, ...] = (sent,) if usable_id(sent) else (None,)
    if lenient or depth > READABLE_DEPTH:  # a strict or a stack-bound reader cannot read it
        ids = (*ids, None)
    if too_large:
        return Expect("error", ids, TOO_LARGE, lenient)
    if depth > MAX_DEPTH or not usable_id(sent):
        return Expect("error", ids, BAD_MESSAGE, lenient)
    kind = message.get("type")
    if kind == "ping":
        return Expect("pong", ids, None, lenient)
    if kind == "snapshot":
        return Expect("state", ids, None, lenient)
    if kind == "act":
        return Expect("act", ids, None, lenient)
    if kind == "hint":  # answered by a hint frame (its suggestion, or a refusal with a code)
        return Expect("hint", ids, None, lenient)
    return Expect("error", ids, BAD_MESSAGE, lenient)


# Values nothing should trip over.
HUGE_INTS = (2**63, 2**64, 2**64 + 1, -(2**63) - 1, -(2**64), 10**400, -(10**400), 10**4000)
NASTY_STRINGS = (
    "\ud800",
    "\udfff",
    "x\udc00y",
    "\ud800\ud800",
    "\x00",
    "a\x00b",
    "\x00" * 40,
    "\uffff",
    "\ufeff",
    "\u202e",
    "\U0001f0a1",
    "x" * 4000,
    "é" * 1500,
    "AS\x00",
    "A\ud800",
    "%00",
    "'; DROP TABLE tables; --",
)


@dataclass(frozen=True)
class Deep:
    """``depth`` nested arrays or objects around ``leaf``: written as JSON text directly,
    since json.dumps itself gives up near 1,000 levels."""

    depth: int
    kind: str = "list"
    leaf: Any = 0


def to_json(value: Any, ascii_only: bool = True) -> str:
    """JSON text of ``value``; ``Deep`` inside is written out. ``ascii_only`` writes every
    non-ASCII character, lone surrogates included, as a ``\\uXXXX`` escape."""
    if isinstance(value, Deep):
        inner = to_json(value.leaf, ascii_only)
        if value.kind == "list":
            return "[" * value.depth + inner + "]" * value.depth
        return '{"a":' * value.depth + inner + "}" * value.depth
    if isinstance(value, dict):
        items = (
            f"{to_json(str(k), ascii_only)}:{to_json(v, ascii_only)}" for k, v in value.items()
        )
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(to_json(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only, allow_nan=False)


def text_frame(value: Any, ascii_only: bool = True) -> Frame:
    text = to_json(value, ascii_only)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a raw lone surrogate cannot be sent: write it escaped
        text = to_json(value, True)
    return Frame(text)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
NASTY = st.one_of(
    st.sampled_from(HUGE_INTS),
    st.sampled_from(NASTY_STRINGS),
    st.builds(Deep, st.integers(300, 1300), st.sampled_from(["list", "dict"])),
    JSON_VALUES,
    st.text(max_size=60),
)
NASTY_KEYS = st.sampled_from(["\ud800", "\x00", "seat", "type", "id", "x" * 300, "play", ""])
CLIENT_FRAMES = hypothesis_jsonschema.from_schema(of_schema("ClientMessage"))
ACTION_KINDS = ("play", "bid", "bottom", "trump", "take", "resign", "seat")


@st.composite
def mutated_frames(draw: st.DrawFn) -> Frame:
    """A schema-valid client frame with one to three hostile changes."""
    frame: Any = draw(CLIENT_FRAMES)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(
            st.sampled_from(
                ["field", "action_value", "action_kind", "unknown", "drop", "whole", "nest"]
            )
        )
        if not isinstance(frame, dict):
            frame = {"type": "act", "id": "m", "action": frame}
        if how == "field":
            frame[draw(st.sampled_from(["type", "id", "action"]))] = draw(NASTY)
        elif how == "action_value":
            kind = draw(st.sampled_from(ACTION_KINDS))
            frame["action"] = {kind: draw(NASTY)}
        elif how == "action_kind":
            frame["action"] = {draw(NASTY_KEYS | st.text(max_size=10)): draw(NASTY | JSON_VALUES)}
        elif how == "unknown":
            frame[draw(NASTY_KEYS | st.text(max_size=10))] = draw(NASTY)
        elif how == "drop" and frame:
            frame.pop(draw(st.sampled_from(sorted(frame))))
        elif how == "whole":
            frame = draw(NASTY)
        elif how == "nest":
            frame = Deep(draw(st.integers(1, 1300)), draw(st.sampled_from(["list", "dict"])), frame)
    return text_frame(frame, draw(st.booleans()))


def _invalid_utf8(base: str, junk: bytes) -> bytes:
    data = base.encode()
    cut = len(data) // 2
    return data[:cut] + junk + data[cut:]


# Byte sequences no UTF-8 reader accepts: a bad start byte, an overlong NUL, an encoded lone
# surrogate, a five-byte form, a lone continuation byte.
BAD_UTF8_BYTES = (b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80")
BAD_UTF8 = st.sampled_from(BAD_UTF8_BYTES)


@st.composite
def raw_frames(draw: st.DrawFn) -> Frame:
    """Frames that are not a JSON object at all, or not text, or not UTF-8."""
    base = to_json(draw(CLIENT_FRAMES))
    how = draw(
        st.sampled_from(
            ["garbage", "truncated", "binary", "binary_junk", "bad_utf8_text", "bad_utf8_binary",
             "lax_json", "padding", "oversize"]
        )
    )  # fmt: skip
    if how == "garbage":
        return Frame(draw(st.text(max_size=200)))
    if how == "truncated":
        return Frame(base[: draw(st.integers(0, max(0, len(base) - 1)))])
    if how == "binary":
        return Frame(base.encode(), text=False)
    if how == "binary_junk":
        return Frame(draw(st.binary(max_size=200)), text=False)
    if how == "bad_utf8_text":
        return Frame(_invalid_utf8(base, draw(BAD_UTF8)), text=True)
    if how == "bad_utf8_binary":
        return Frame(_invalid_utf8(base, draw(BAD_UTF8)), text=False)
    if how == "lax_json":  # JSON only to a lax reader
        lax = draw(st.sampled_from(['"x":NaN', '"x":-Infinity', '"type":"ping"', '"\\udbff":1']))
        return Frame(base[:-1] + ("," if base != "{}" else "") + lax + "}")
    if how == "padding":
        return Frame(draw(st.sampled_from([" ", "\n", "\ufeff", "\t"])) + base)
    return Frame(base[:-1] + ',"pad":"' + "y" * MAX_BYTES + '"}')


# Inputs known to have broken the server: always tried, each on its own.
KNOWN = {
    "id_2_64": {"type": "act", "id": 2**64, "action": {"play": "2S"}},
    "id_10_400": {"type": "act", "id": 10**400, "action": {}},
    "id_negative_huge": {"type": "act", "id": -(2**64), "action": {"resign": True}},
    "id_lone_surrogate": {"type": "act", "id": "\ud800", "action": {"play": "2S"}},
    "id_nul": {"type": "act", "id": "a\x00b", "action": {"play": "2S"}},
    "id_deep_300": {"type": "act", "id": Deep(300), "action": {}},
    "id_deep_object_600": {"type": "act", "id": Deep(600, "dict"), "action": {}},
    "id_long": {"type": "act", "id": "i" * 4000, "action": {}},
    "unknown_type_surrogate_id": {"type": "hello", "id": "\udfff"},
    "unknown_type_huge_id": {"type": "hello", "id": 2**64},
    "unknown_type_deep_id": {"type": "hello", "id": Deep(400)},
    "type_lone_surrogate": {"type": "\ud800"},
    "type_deep": {"type": Deep(500)},
    "ping_unknown_deep": {"type": "ping", "extra": Deep(900)},
    "snapshot_unknown_huge": {"type": "snapshot", "extra": 10**400},
    "play_lone_surrogate": {"type": "act", "id": "p1", "action": {"play": "\ud800"}},
    "play_nul": {"type": "act", "id": "p2", "action": {"play": "A\x00"}},
    "play_huge_int": {"type": "act", "id": "p3", "action": {"play": 2**64}},
    "play_deep": {"type": "act", "id": "p4", "action": {"play": Deep(700)}},
    "bid_lone_surrogate": {"type": "act", "id": "b1", "action": {"bid": "\ud800"}},
    "bid_nul": {"type": "act", "id": "b2", "action": {"bid": "high\x00"}},
    "bid_long": {"type": "act", "id": "b3", "action": {"bid": "h" * 3900}},
    "trump_surrogate": {"type": "act", "id": "t1", "action": {"trump": "\udc00"}},
    "take_deep": {"type": "act", "id": "k1", "action": {"take": Deep(350, "dict")}},
    "resign_huge": {"type": "act", "id": "r1", "action": {"resign": 10**400}},
    "seat_huge": {"type": "act", "id": "s1", "action": {"play": "2S", "seat": 2**64}},
    "action_key_surrogate": {"type": "act", "id": "a1", "action": {"\ud800": "2S"}},
    "action_deep": {"type": "act", "id": "a2", "action": Deep(1200)},
    "frame_deep": Deep(2000),
}
KNOWN_RAW = {
    "binary_json": Frame(b'{"type":"ping"}', text=False),
    "binary_bad_utf8": Frame(b'{"type":"ping","x":"\xff"}', text=False),
    "text_bad_utf8": Frame(b'{"type":"ping","x":"\xff"}', text=True),
    "text_surrogate_utf8": Frame(b'{"type":"ping","x":"\xed\xa0\x80"}', text=True),
    "nan_id": Frame('{"type":"act","id":NaN,"action":{}}'),
    "oversize": Frame('{"type":"act","id":"o","action":{},"pad":"' + "z" * MAX_BYTES + '"}'),
    "empty": Frame(""),
    "bom": Frame('\ufeff{"type":"ping"}'),
}


# -------------------------------------------------------------------- the arena
class Arena:
    """A German Whist table of two guests (no clock, no bots) on the shared server, with a
    clean socket per seat, a watching spectator, and a socket per seat (and one spectator)
    for hostile frames. A finished table is replaced by a new one."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.log = LogWatch(server.log_path)
        self.http = httpx2.Client(base_url=server.url, timeout=WAIT, trust_env=False)
        self.tokens = [self.guest("Ann"), self.guest("Bob")]
        self.stranger = self.guest("Cid")  # seated nowhere
        self.api_token = self.guest("fuzz")  # for requests drawn from the OpenAPI document
        self.rng = random.Random(7)
        self.sentinels = itertools.count()
        self.table_id = ""
        self.clean: list[Peer] = []
        self.fuzzers: dict[int | None, Peer] = {}
        self.new_table()

    # -- set-up
    def guest(self, nickname: str) -> str:
        response = self.http.post("/api/guest", json={"nickname": nickname})
        assert response.status_code == 200, response.text
        return str(response.cookies[COOKIE])

    def request(
        self,
        method: str,
        path: str,
        token: str | None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> httpx2.Response:
        headers = dict(headers or {})
        if token:
            headers["Cookie"] = f"{COOKIE}={token}"
        return self.http.request(method, path, headers=headers, **kwargs)

    def new_table(self) -> None:
        for peer in self.peers():
            peer.close()
        body = {"variant": "german", "options": {"match": "single"}, "clock": False}
        response = self.request("POST", "/api/tables", self.tokens[0], json=body)
        assert response.status_code == 200, response.text
        self.table_id = response.json()["id"]
        response = self.request(
            "POST", f"/api/tables/{self.table_id}/join", self.tokens[1], json={"seat": 1}
        )
        assert response.status_code == 200, response.text
        self.clean = [self.peer(0, "clean"), self.peer(1, "clean")]
        self.watcher = self.peer(None, "watcher")
        self.fuzzers = {seat: self.peer(seat, "hostile") for seat in (0, 1, None)}
        self.sync()

    def peer(self, seat: int | None, role: str) -> Peer:
        """A socket of ``seat``'s player (None: a spectator)."""
        token = None if seat is None else self.tokens[seat]
        return Peer(self.server.port, self.table_id, token, f"{role} socket of seat {seat}")

    def peers(self) -> list[Peer]:
        return [*self.clean, *self.fuzzers.values(), *([self.watcher] if self.clean else [])]

    def sync(self, version: int | None = None) -> None:
        """Every open socket has seen ``version`` (default: the newest any of them saw)."""
        newest = max(p.version for p in self.peers()) if version is None else version
        for peer in self.peers():
            if peer.open and peer.version < newest:
                peer.read_until(lambda _f, p=peer: p.version >= newest, f"version {newest}")
                assert peer.open, f"a socket was closed ({peer.closed}) waiting for {newest}"

    # -- what the table looks like from outside
    def observe(self) -> dict[str, Any]:
        """The table as a newcomer sees it: its listing and a fresh spectator's state."""
        response = self.http.get(f"/api/tables/{self.table_id}")
        assert response.status_code == 200, response.text
        fresh = self.peer(None, "fresh")
        fresh.close()
        return {"listing": response.json(), "version": fresh.version, "state": fresh.state}

    def check_server(self) -> None:
        assert self.server.process is not None and self.server.process.poll() is None, (
            f"the server died:\n{self.server.log_tail()}"
        )
        response = self.http.get("/api/tables")
        assert response.status_code == 200, f"the server does not answer: {response.status_code}"
        problems = self.log.problems()
        assert not problems, "the server logged a problem:\n" + "\n-----\n".join(problems)

    def ready(self) -> dict[str, Any]:
        """A playing table at rest, every socket open and up to date with it; the table as
        a newcomer sees it. (An act may be followed by the server's own moves: the end of
        the match, the next deal. Their states must not be taken for answers.)"""
        for seat, peer in list(self.fuzzers.items()):
            if not peer.open:
                self.fuzzers[seat] = self.peer(seat, "hostile")
        while True:
            seen = self.observe()
            self.sync(seen["version"])
            if seen["state"]["table"]["status"] != "playing":
                self.new_table()
            elif self.observe() == seen:
                return seen

    def sender(self, who: str) -> Peer:
        """``to_act``: the socket of a seat that may act; ``waiting``: of one that may not;
        ``spectator``: of nobody's seat."""
        to_act = self.watcher.view["to_act"] or [0]
        if who == "spectator":
            return self.fuzzers[None]
        seat = to_act[0] if who == "to_act" else 1 - to_act[0]
        return self.fuzzers[seat]

    # -- one hostile frame
    def hit(self, frame: Frame, who: str = "to_act") -> None:
        before = self.ready()
        peer = self.sender(who)
        wanted = expect(frame)
        sentinel = f"sentinel-{next(self.sentinels)}"
        peer.send(frame.data, text=frame.text)
        # An act that is always refused, answered after the frame (in order: it passes through
        # the same socket and the same table), so that silence can be told from slowness.
        peer.send(json.dumps({"type": "act", "id": sentinel, "action": {}}))
        got = peer.read_until(
            lambda f: f["type"] == "error" and f.get("id") == sentinel, f"answer to {frame!r}"
        )
        if peer.open:
            got.pop()  # the sentinel's own error
        acked = judge(frame, wanted, got, peer, before["version"])
        after = self.observe()
        if acked is None:
            assert after == before, f"{frame!r} was refused but changed the table"
        else:
            assert after["version"] >= acked, f"acked version {acked}, table at {after['version']}"
        self.check_server()
        self.check_broadcast()

    def check_broadcast(self) -> None:
        """The seat to act plays a legal card through its clean socket: every socket of the
        table, the hostile ones included, receives the new state."""
        self.sync()
        if self.watcher.state["table"]["status"] != "playing" or not self.watcher.view["to_act"]:
            return
        seat = self.watcher.view["to_act"][0]
        clean = self.clean[seat]
        action = {k: v for k, v in self.rng.choice(clean.view["legal"]).items() if k != "seat"}
        message_id = uuid.uuid4().hex
        clean.send(json.dumps({"type": "act", "id": message_id, "action": action}))
        frames = clean.read_until(
            lambda f: f["type"] in ("ack", "error") and f.get("id") == message_id, "an ack"
        )
        assert frames and frames[-1]["type"] == "ack", f"an honest {action} refused: {frames}"
        self.sync(frames[-1]["version"])

    def close(self) -> None:
        for peer in self.peers():
            peer.close()
        self.http.close()


def brief(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Frames for a failure message: a state by its version and status only."""
    return [
        {"type": "state", "version": f["version"], "status": f["table"]["status"]}
        if f["type"] == "state"
        else f
        for f in frames
    ]


def judge(
    frame: Frame, wanted: Expect, got: list[dict[str, Any]], peer: Peer, version: int
) -> int | None:
    """Check the frames answering ``frame`` (presence frames aside); the version an ack
    produced, or None when nothing may have changed."""
    got = [f for f in got if f["type"] != "table"]
    answers = [f for f in got if f["type"] in ("pong", "ack", "error", "hint")]
    states = [f for f in got if f["type"] == "state"]
    shown = f"{frame!r} -> {brief(got)}"
    if not peer.open:
        assert wanted.kind == "close", f"{frame!r}: the server closed the socket ({peer.closed})"
        assert peer.closed == 1007, f"{frame!r}: closed with {peer.closed}, not 1007"
        assert not answers and not states, shown
        return None
    assert wanted.kind != "close", f"not closed with 1007: {shown}"
    refused = len(answers) == 1 and answers[0]["type"] == "error"
    if wanted.lenient and refused and answers[0]["code"] == "bad_message" and not states:
        return None  # a stricter reader refused lax JSON: a right answer too
    if wanted.kind == "state":
        assert not answers and len(states) == 1, f"not exactly one state: {shown}"
        answer = states[0]
        assert answer["version"] == version, shown
    else:
        assert len(answers) == 1, f"not exactly one answer: {shown}"
        answer = answers[0]
    if wanted.ids is not None:
        assert answer.get("id") in wanted.ids, f"not answered with the frame's id: {shown}"
    if wanted.kind == "pong":
        assert answer["type"] == "pong" and not states, shown
        assert answer["version"] == version, shown
        return None
    if wanted.kind == "state":
        return None
    if wanted.kind == "hint" and answer["type"] == "hint":
        # No table the fuzzer plays at allows hints: a refusal with a code, nothing changed.
        assert "code" in answer and "action" not in answer and not states, shown
        return None
    if wanted.kind == "act" and answer["type"] == "ack":
        # The state of the act's version first, then the ack; then maybe the server's own
        # moves that follow it (the end of the match, the next deal).
        first = [s["version"] for s in got[: got.index(answer)] if s["type"] == "state"]
        assert first == [answer["version"]], f"not one state, then the ack: {shown}"
        assert answer["version"] > version, shown
        return int(answer["version"])
    assert answer["type"] == "error" and not states, shown
    if wanted.codes is not None:
        assert answer["code"] in wanted.codes, f"not {sorted(wanted.codes)}: {shown}"
    return None


# --------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One ``whist serve`` per database for the whole module (clocks long enough that no
    bot ever takes a seat over while the tests run)."""
    with contextlib.ExitStack() as stack:
        url = ""
        if request.param == "postgresql":
            url = stack.enter_context(contextlib.contextmanager(postgres_database)())
        root = tmp_path_factory.mktemp(f"fuzz-{request.param}")
        server = Server(root, url, {"WHIST_CLOCK_SECONDS": "3600"})
        server.start()
        try:
            yield server
        finally:
            server.close()
            print(f"--- log of {root}:\n{server.log_tail()}")


@pytest.fixture(scope="module")
def arena(server: Server) -> Iterator[Arena]:
    arena = Arena(server)
    yield arena
    arena.close()


WHO = st.sampled_from(["to_act", "waiting", "spectator"])


# ----------------------------------------------------------------- the sockets
@settings(max_examples=25, phases=NO_SHRINK)
@given(frame=CLIENT_FRAMES.map(text_frame), who=WHO)
def test_frames_of_the_schema_are_answered(arena: Arena, frame: Frame, who: str) -> None:
    """Frames the schema allows: each answered (a legal act is acked and changes the
    table; anything else changes nothing), and everyone still hears the table."""
    arena.hit(frame, who)


@settings(max_examples=60, phases=NO_SHRINK)
@given(frame=mutated_frames(), who=WHO)
def test_mutated_frames_are_refused_without_harm(arena: Arena, frame: Frame, who: str) -> None:
    arena.hit(frame, who)


@settings(max_examples=30, phases=NO_SHRINK)
@given(frame=raw_frames(), who=WHO)
def test_frames_that_are_not_json_objects_are_refused(arena: Arena, frame: Frame, who: str) -> None:
    arena.hit(frame, who)


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_hostile_frame(arena: Arena, name: str) -> None:
    """Each input known to have broken the server, from the seat to act."""
    arena.hit(text_frame(KNOWN[name]), "to_act")


@pytest.mark.parametrize("name", sorted(KNOWN_RAW))
def test_known_hostile_raw_frame(arena: Arena, name: str) -> None:
    arena.hit(KNOWN_RAW[name], "to_act")


# --------------------------------------------------------------------- HTTP
def assert_http_answer(response: httpx2.Response, what: str) -> None:
    """Never a 5xx; a refusal is JSON of the error shape."""
    assert response.status_code < 500, f"{what}: {response.status_code} {response.text[:300]}"
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            raise AssertionError(f"{what}: not JSON: {response.text[:300]}") from None
        errors = sorted(HTTP_ERROR.iter_errors(body), key=str)
        assert not errors, f"{what}: not the error shape: {body}"


@pytest.fixture(scope="module")
def openapi(server: Server) -> Any:
    return schemathesis.openapi.from_url(f"{server.url}/openapi.json")


API = schemathesis.pytest.from_fixture("openapi")


@API.parametrize()
@settings(max_examples=5, phases=NO_SHRINK)
def test_openapi_requests_get_no_server_error(case: Any, arena: Arena) -> None:
    """Requests drawn from the app's own OpenAPI document (schemathesis: its examples, its
    coverage of each field's edges, and a few random ones), by a signed-in guest."""
    response = case.call(headers={"Cookie": f"{COOKIE}={arena.api_token}"}, timeout=WAIT)
    if case.path == "/api/logout":
        arena.api_token = arena.guest("fuzz")  # the session is gone: a new one
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:300]}"
    )
    if response.status_code >= 400 and case.path.startswith("/api"):
        body = response.json()
        errors = sorted(HTTP_ERROR.iter_errors(body), key=str)
        assert not errors, f"{case.method} {case.formatted_path}: not the error shape: {body}"
    arena.check_server()


TABLE_ROUTES = ("join", "leave", "suspend")


@settings(max_examples=30, phases=NO_SHRINK)
@given(
    route=st.sampled_from(TABLE_ROUTES),
    body=NASTY | JSON_VALUES | st.builds(lambda seat: {"seat": seat}, NASTY),
    who=st.sampled_from(["stranger", "seated", "nobody"]),
    invite=st.none() | st.sampled_from(NASTY_STRINGS[:11]),
)
def test_hostile_table_requests_change_nothing(
    arena: Arena, route: str, body: Any, who: str, invite: str | None
) -> None:
    """Join, leave and suspend on a playing table with hostile bodies, by someone not seated
    or by nobody (join, suspend) or a seated player (join): refused, nothing changed."""
    before = arena.ready()
    if who == "seated" and route != "join":
        who = "stranger"  # a seated player's leave or suspend is a real change
    token = {"stranger": arena.stranger, "seated": arena.tokens[0], "nobody": None}[who]
    response = arena.request(
        "POST",
        f"/api/tables/{arena.table_id}/{route}",
        token,
        content=to_json(body),
        headers={"Content-Type": "application/json"},
    )
    assert_http_answer(response, f"{route} {body!r}")
    if invite is not None:
        # Percent-encoded by hand: a lone surrogate goes as the bytes UTF-8 would make of it.
        query = quote(invite, safe="", errors="surrogatepass")
        listing = arena.http.get(f"/api/tables/{arena.table_id}?invite={query}")
        assert_http_answer(listing, f"listing with invite {invite!r}")
    if who == "seated" and response.status_code == 200:
        assert response.json()["you"] == 0  # joining again answers the seat one has
    else:
        assert response.status_code >= 400, f"{route} by {who}: {response.text[:200]}"
    assert arena.observe() == before, f"{route} {body!r} by {who} changed the table"
    arena.check_server()
    arena.check_broadcast()


def _body(value: Any) -> bytes:
    return to_json(value).encode()


MINNESOTA = {"variant": "minnesota"}
# name: (method, path, body, the statuses docs/protocol.md allows: "Bounds on what a request
# may hold"). Each is sent by a signed-in guest.
HOSTILE_HTTP: dict[str, tuple[str, str, bytes | None, tuple[int, ...]]] = {
    "body_2_mib": ("POST", "/api/guest", _body({"nickname": "a", "pad": "p" * (2 << 20)}), (413,)),
    "body_65_kib": ("POST", "/api/guest", _body({"nickname": "a", "pad": "p" * 66000}), (413,)),
    "option_target_2_64": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "options": {"target": 2**64}}),
        (400,),
    ),
    "option_target_10_400": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "options": {"target": 10**400}}),
        (400,),
    ),
    "option_target_0": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "options": {"target": 0}}),
        (400,),
    ),
    "option_target_1001": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "options": {"target": 1001}}),
        (400,),
    ),
    "option_match_deals_2_64": (
        "POST",
        "/api/tables",
        _body({"variant": "german", "options": {"match": f"deals:{2**64}"}}),
        (400,),
    ),
    "option_deep": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "options": {"target": Deep(500)}}),
        (400, 422),
    ),
    "option_name_nul": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "options": {"tar\x00get": 5}}),
        (400, 422),
    ),
    "option_value_surrogate": (
        "POST",
        "/api/tables",
        _body({"variant": "german", "options": {"match": "\ud800"}}),
        (400, 422),
    ),
    "nickname_nul": ("POST", "/api/guest", _body({"nickname": "a\x00b"}), (422,)),
    "nickname_lone_surrogate": ("POST", "/api/guest", _body({"nickname": "\ud800"}), (422,)),
    "register_password_nul": (
        "POST",
        "/api/register",
        _body({"login": "nul_login", "password": "p\x00ssword1"}),
        (422,),
    ),
    "register_nickname_surrogate": (
        "POST",
        "/api/register",
        _body({"login": "sur_login", "password": "password1", "nickname": "\udc00"}),
        (422,),
    ),
    "login_nul": ("POST", "/api/login", _body({"login": "a\x00", "password": "x"}), (401, 422)),
    "appearance_nul": (
        "PUT",
        "/api/me/appearance",
        _body({"card_back": "\x00", "card_face": "classic"}),
        (403, 422),
    ),
    "variant_nul": ("POST", "/api/tables", _body({"variant": "minn\x00esota"}), (400, 422)),
    "variant_surrogate": ("POST", "/api/quickplay", _body({"variant": "\udc00"}), (400, 422)),
    "bot_level_nul": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "bots": {"1": "easy\x00"}}),
        (400, 422),
    ),
    "seat_huge": ("POST", "/api/tables", _body({**MINNESOTA, "seat": 2**64}), (400,)),
    "bot_seat_huge": (
        "POST",
        "/api/tables",
        _body({**MINNESOTA, "bots": {str(2**64): "easy"}}),
        (400,),
    ),
    "variant_10_kib": (
        "POST",
        "/api/quickplay",
        _body({"variant": "minn" + "e" * 10**4}),
        (400, 422),
    ),
    "table_path_nul": ("GET", "/api/tables/a%00b", None, (404,)),
    "table_path_surrogate": ("GET", "/api/tables/%ED%A0%80", None, (404,)),
    "join_path_nul": ("POST", "/api/tables/a%00b/join", b"{}", (404,)),
    "invite_path_nul": ("POST", "/api/invite/x%00y/join", b"{}", (404,)),
    "games_path_nul": ("GET", "/api/games/a%00b", None, (404,)),
    "games_record_path_surrogate": ("GET", "/api/games/%ED%A0%80/record", None, (404,)),
    "leave_path_long": ("POST", "/api/tables/" + "t" * 5000 + "/leave", None, (404,)),
    "body_deep_10000": ("POST", "/api/guest", b"[" * 10000 + b"]" * 10000, (400, 422)),
    "body_object_deep_5000": (
        "POST",
        "/api/tables",
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        (400, 422),
    ),
    "body_bad_utf8": ("POST", "/api/guest", b'{"nickname": "\xff\xfe"}', (400, 422)),
    "body_nan": (
        "POST",
        "/api/tables",
        b'{"variant": "minnesota", "options": {"target": NaN}}',
        (400, 422),
    ),
    "body_huge_number": (
        "POST",
        "/api/tables",
        b'{"variant": "minnesota", "seat": 1' + b"0" * 5000 + b"}",
        (400, 422),
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_HTTP))
def test_known_hostile_request(arena: Arena, name: str) -> None:
    """Each request known or likely to have broken the server, by a signed-in guest: the
    right status, the error shape, the server unharmed."""
    method, path, body, statuses = HOSTILE_HTTP[name]
    headers = {"Content-Type": "application/json"} if body is not None else {}
    response = arena.request(method, path, arena.stranger, content=body, headers=headers)
    assert_http_answer(response, name)
    assert response.status_code in statuses, f"{name}: {response.status_code} {response.text[:300]}"
    arena.check_server()
