"""The wire protocol (docs/protocol.md) checked against its JSON Schema (docs/protocol.schema.json).

The server runs in process: ``TestClient`` used as a context manager runs the lifespan, so
the store, the table actors and the bots are the real ones. Every frame a test receives is
validated against the schema; real matches against bots are played to their end through the
WebSocket; malformed, foreign and replayed messages must each come back as one error frame
with the documented code. Every wait has a deadline, so a test fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from starlette.websockets import WebSocketDisconnect

from whist.core import errors as core_errors
from whist.server.app import create_app
from whist.server.deps import COOKIE
from whist.server.settings import Settings
from whist.variants import lookup

ROOT = Path(__file__).resolve().parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
PROTOCOL_MD = (ROOT / "docs" / "protocol.md").read_text()
UNLIMITED = {"rate_limit_per_second": 1000.0, "rate_limit_burst": 1000}
CLOCK = 60.0  # long enough never to run out during a test
WAIT = 15.0  # seconds any expected frame may take (a bot's move included)
CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


def validator(name: str) -> Draft202012Validator:
    """A validator for one of the schema's $defs (the others stay reachable by $ref)."""
    return Draft202012Validator(
        {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"}
    )


SERVER = validator("ServerMessage")
CLIENT = validator("ClientMessage")
ME = validator("Me")
LISTING = validator("TableListing")
HTTP_ERROR = validator("HttpError")


def assert_valid(checker: Draft202012Validator, instance: Any) -> None:
    error = best_match(checker.iter_errors(instance))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        pytest.fail(f"{error.message} at /{where} in {json.dumps(instance)[:3000]}")


def ms_now() -> int:
    return round(time.time() * 1000)


# ----------------------------------------------------------------------------- harness
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path, bot_workers=0, clock_seconds=CLOCK, **UNLIMITED)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def guest(client: TestClient, nickname: str) -> dict[str, str]:
    """Sign in a new guest; its cookie as request headers (the jar is left empty, so that
    several players can share one client)."""
    response = client.post("/api/guest", json={"nickname": nickname})
    assert response.status_code == 200, response.text
    assert_valid(ME, response.json())
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={token}"}


def create_table(client: TestClient, who: dict[str, str], **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body, headers=who)
    assert response.status_code == 200, response.text
    assert_valid(LISTING, response.json())
    body: dict[str, Any] = response.json()
    return body


async def _receive_within(stream: Any, seconds: float) -> Any:
    with anyio.fail_after(seconds):
        return await stream.receive()


class Socket:
    """A client's WebSocket on a table. Every frame received is validated against the
    schema; the newest state and table info are kept."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.last_state: dict[str, Any] | None = None
        self.last_table: dict[str, Any] | None = None
        self.received: list[dict[str, Any]] = []

    @property
    def state(self) -> dict[str, Any]:
        """The newest state frame."""
        assert self.last_state is not None, "no state received yet"
        return self.last_state

    @property
    def view(self) -> dict[str, Any]:
        return self.state["view"]

    @property
    def table(self) -> dict[str, Any]:
        """The newest table info, from a state or a table frame."""
        assert self.last_table is not None, "no table received yet"
        return self.last_table

    def send(self, message: Any) -> None:
        self.session.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive(self) -> dict[str, Any]:
        # The session's own receive() has no deadline: wait on its stream with one.
        message = self.session.portal.call(_receive_within, self.session._send_rx, WAIT)
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        assert "text" in message, "the server only sends text frames"
        frame: dict[str, Any] = json.loads(message["text"])
        assert_valid(SERVER, frame)
        self.received.append(frame)
        if "table" in frame:
            self.last_table = frame["table"]
        if frame["type"] == "state":
            if self.last_state is not None:  # versions never go back
                assert frame["version"] >= self.last_state["version"]
            self.last_state = frame
        return frame

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if wanted(frame):
                return frame

    def answer(self, message: Any) -> dict[str, Any]:
        """Send ``message`` and return the server's answer to it (ack, error or pong),
        taking the state and table frames that come before it."""
        self.send(message)
        return self.until(lambda f: f["type"] in ("ack", "error", "pong"))


def connect(client: TestClient, table_id: str, who: dict[str, str] | None = None) -> Any:
    return client.websocket_connect(f"/ws/tables/{table_id}", headers=who or {})


def cards_named(frame: dict[str, Any]) -> set[str]:
    return set(CARD.findall(json.dumps(frame)))


# ----------------------------------------------------------------------------- the schema
def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    card, suit = validator("Card"), validator("Suit")
    for good in ("2S", "TH", "AD", "QC", "9S"):
        assert card.is_valid(good)
    for bad in ("1S", "10H", "AX", "as", "A", "ASX", 12):
        assert not card.is_valid(bad)
    assert all(suit.is_valid(s) for s in "SHDC") and not suit.is_valid("X")
    # Every message kind is one branch of its direction's oneOf, told apart by "type".
    assert CLIENT.is_valid({"type": "act", "id": "1", "action": {"play": "AS"}})
    assert CLIENT.is_valid({"type": "snapshot"}) and CLIENT.is_valid({"type": "ping"})
    assert not CLIENT.is_valid({"type": "act", "id": "1", "action": {"seat": 0, "play": "AS"}})
    assert not CLIENT.is_valid({"type": "act", "id": "1", "action": {"play": "AS", "bid": "low"}})
    assert SERVER.is_valid({"type": "pong", "id": None, "version": 3})
    assert SERVER.is_valid({"type": "pong", "id": "p1", "version": 3})
    assert not SERVER.is_valid({"type": "pong", "version": 3})  # the ping's id, or null
    assert not SERVER.is_valid({"type": "pong", "id": None, "version": -1})
    # Ids: strings of 1..64 characters or safe integers; the answers echo them.
    assert CLIENT.is_valid({"type": "ping", "id": 7}) and CLIENT.is_valid({"type": "snapshot"})
    assert not CLIENT.is_valid({"type": "ping", "id": 2**64})
    assert not CLIENT.is_valid({"type": "act", "id": "x" * 65, "action": {"play": "AS"}})
    assert not SERVER.is_valid({"type": "error", "code": "no_such_code", "message": ""})


def test_every_error_code_is_in_the_schema_and_documented() -> None:
    """The core's stable codes and every code the server sends (grepped from its source)
    are in the schema's ErrorCode enum, and every one has a line in docs/protocol.md."""
    enum = set(SCHEMA["$defs"]["ErrorCode"]["enum"])
    core = {
        value
        for name, value in vars(core_errors).items()
        if name.isupper() and isinstance(value, str)
    }
    server = set()
    for path in (ROOT / "src" / "whist" / "server").glob("*.py"):
        text = path.read_text()
        server |= set(re.findall(r'Refused\(\s*"(\w+)"', text))
        server |= set(re.findall(r'"code":\s*"(\w+)"', text))
        server |= set(re.findall(r'\("(\w+)",\s*(?:f?"[^"]*")\)', text)) & {
            "rate_limited",
            "too_large",
            "bad_message",
        }
    assert core <= enum, core - enum
    assert server <= enum, server - enum
    undocumented = {code for code in enum if f"`{code}`" not in PROTOCOL_MD}
    assert not undocumented, undocumented


# ----------------------------------------------------------------------------- matches
MATCHES = [
    pytest.param("minnesota", {"target": 1}, id="minnesota"),
    pytest.param("german", {"match": "single", "talon_discard": True}, id="german-talon"),
    pytest.param("classic", {"target": 1}, id="classic"),
    pytest.param("japanese", {"target": 1}, id="japanese"),
    pytest.param("plockwhist", {"target": 1}, id="plockwhist"),
    pytest.param("swedish", {"match": "rounds:1", "bid_input": "button"}, id="swedish"),
]
SECRET_BIDS = {"minnesota": ("high", "low"), "swedish": ("spel", "pass")}


def check_state(frame: dict[str, Any], seat: int, humans: set[int]) -> None:
    """What one seat's state frame must say, whatever the variant."""
    table, view = frame["table"], frame["view"]
    assert table["you"] == view["seat"] == seat
    assert table["variant"] == view["variant"] and table["options"] == view["options"]
    assert len(view["hand_sizes"]) == len(table["seats"]) == len(view["shown"])
    if view["hand"]:
        assert len(view["hand"]) == view["hand_sizes"][seat]
    if view["legal"]:
        assert seat in view["to_act"]
        assert all(action["seat"] == seat for action in view["legal"])
    for key, deadline in table["deadlines"].items():
        assert int(key) in humans
        assert ms_now() - 2000 <= deadline <= ms_now() + CLOCK * 1000 + 2000
    words = SECRET_BIDS.get(view["variant"])
    if words and view["phase"] == "bid":
        # Secret simultaneous choices: while seats choose, nobody's choice is shown, not
        # even one's own once locked: of the current deal, bid words appear only among this
        # seat's legal actions (earlier deals' contracts are in history).
        assert view["revealed"] == []
        public = json.dumps(
            {k: v for k, v in view.items() if k not in ("legal", "history", "facts")}
        )
        assert not any(f'"{word}"' in public for word in words)


@pytest.mark.parametrize(("variant", "options"), MATCHES)
def test_a_match_against_bots_through_the_socket_matches_the_schema(
    client: TestClient, variant: str, options: dict[str, Any]
) -> None:
    players = lookup(variant)[0].players
    ann = guest(client, "Ann")
    info = create_table(
        client,
        ann,
        variant=variant,
        options=options,
        bots={str(s): "easy" for s in range(1, players)},
    )
    assert info["status"] == "playing"  # the host took the last free seat
    rng = random.Random(variant)
    pending: str | None = None  # the id of our act not yet answered
    sent = 0
    with connect(client, info["id"], ann) as session:
        sock = Socket(session)
        while True:
            frame = sock.receive()
            kind = frame["type"]
            assert kind != "error", frame
            if kind == "ack":
                assert frame["id"] == pending
                # The ack follows the state of the version it produced.
                assert frame["version"] == sock.state["version"]
                pending = None
            elif kind == "state":
                check_state(frame, 0, {0})
                if frame["table"]["status"] == "finished":
                    break
            # Act on the newest state whenever it is our turn and nothing is in flight.
            if pending is None and sock.last_state and sock.view["legal"]:
                action = dict(rng.choice(sock.view["legal"]))
                del action["seat"]  # implied by the connection
                sent += 1
                pending = f"{variant}-{sent}"
                message = {"type": "act", "id": pending, "action": action}
                assert_valid(CLIENT, message)
                sock.send(message)
        view = frame["view"]
        assert view["over"] and view["to_act"] == [] and view["legal"] == []
        assert frame["table"]["end_reason"] == "finished"
        assert frame["table"]["deadlines"] == {}
        assert sent > 0 and pending is None
        # Versions: every state of a connection is newer than the one before.
        versions = [f["version"] for f in sock.received if f["type"] == "state"]
        assert versions == sorted(set(versions))
        if view["winner"] == 0:  # our side won: XP comes to our connection
            xp = sock.until(lambda f: f["type"] == "xp")
            me = client.get("/api/me", headers=ann).json()
            assert me["xp"] == xp["gained"] > 0
        pong = sock.answer({"type": "ping"})
        assert pong == {"type": "pong", "id": None, "version": frame["version"]}
    listing = client.get(f"/api/tables/{info['id']}").json()
    assert_valid(LISTING, listing)
    assert listing["status"] == "finished"


# ----------------------------------------------------------------------------- refusals
@dataclass
class Duel:
    """A German Whist match between two people (no bots: nothing moves unless a test
    acts), with a spectator; ``mover`` is the socket of the seat to act."""

    client: TestClient
    table_id: str
    a: Socket  # Alice, seat 0
    b: Socket  # Bob, seat 1
    spectator: Socket
    mover: Socket
    other: Socket
    mover_cookie: dict[str, str]


@pytest.fixture
def duel(client: TestClient) -> Iterator[Duel]:
    alice, bob = guest(client, "Alice"), guest(client, "Bob")
    info = create_table(client, alice, variant="german", options={"match": "single"})
    table_id = info["id"]
    assert info["status"] == "open"
    with contextlib.ExitStack() as stack:
        a = Socket(stack.enter_context(connect(client, table_id, alice)))
        spectator = Socket(stack.enter_context(connect(client, table_id)))
        for sock in (a, spectator):
            sock.until(lambda f: f["type"] == "state")
        # Before the match starts, and from a spectator: refused, with the table's version.
        error = a.answer({"type": "act", "id": "early", "action": {"play": "AS"}})
        assert (error["type"], error["code"], error["id"]) == ("error", "wrong_phase", "early")
        assert error["version"] == a.state["version"]
        error = spectator.answer({"type": "act", "id": "spy", "action": {"play": "AS"}})
        assert (error["code"], error["id"]) == ("not_seated", "spy")
        assert error["version"] == spectator.state["version"]

        joined = client.post(f"/api/tables/{table_id}/join", json={}, headers=bob).json()
        assert_valid(LISTING, joined)
        assert joined["you"] == 1 and joined["status"] == "playing"
        b = Socket(stack.enter_context(connect(client, table_id, bob)))
        for sock in (a, b, spectator):
            sock.until(lambda f: f["type"] == "state" and f["view"]["phase"] == "play")
        mover, other = (a, b) if spectator.view["to_act"] == [0] else (b, a)
        cookie = alice if mover is a else bob
        yield Duel(client, table_id, a, b, spectator, mover, other, cookie)


def test_each_connection_sees_its_own_seat_only_and_the_clock(duel: Duel) -> None:
    a, b, spectator = duel.a.view, duel.b.view, duel.spectator.view
    assert (a["seat"], b["seat"], spectator["seat"]) == (0, 1, None)
    assert duel.spectator.table["you"] is None
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["offer"] is None
    assert len(a["hand"]) == len(b["hand"]) == 13 and a["hand_sizes"] == [13, 13]
    # No frame names a card its connection may not see: the other hand, the stock.
    assert cards_named(duel.a.state) & set(b["hand"]) == set()
    assert cards_named(duel.b.state) & set(a["hand"]) == set()
    assert cards_named(duel.spectator.state) == {spectator["upcard"]}
    # The seat to act has a deadline in epoch milliseconds (in this state frame or in a
    # table frame right after it); nobody else has one.
    seat = str(spectator["to_act"][0])
    duel.spectator.until(lambda f: "table" in f and seat in f["table"]["deadlines"])
    deadlines = duel.spectator.table["deadlines"]
    assert list(deadlines) == [seat]
    assert ms_now() <= deadlines[seat] <= ms_now() + CLOCK * 1000


FRAME_ERRORS = [
    ("not json{", "bad_message", None),
    ("[1, 2]", "bad_message", None),
    ('"ping"', "bad_message", None),
    ("null", "bad_message", None),
    ({"type": "dance", "id": "u1"}, "bad_message", "u1"),
    ({"id": "u2"}, "bad_message", "u2"),
    ({"type": "ping", "pad": "x" * 5000}, "too_large", None),
]


def test_malformed_frames_get_an_error_without_a_version(duel: Duel) -> None:
    sock = duel.mover
    for text, code, message_id in FRAME_ERRORS:
        if not isinstance(text, str):
            assert not CLIENT.is_valid(text)
            text = json.dumps(text)
        error = sock.answer(text)
        assert (error["type"], error["code"]) == ("error", code), text[:80]
        assert error.get("id") == message_id and "version" not in error
    sock.session.send_bytes(b'{"type": "ping"}')  # JSON, but in a binary frame
    error = sock.until(lambda f: f["type"] in ("error", "pong"))
    assert (error["type"], error["code"]) == ("error", "bad_message")
    ping = {"type": "ping", "id": "last"}
    assert sock.answer(ping) == {"type": "pong", "id": "last", "version": sock.state["version"]}


def test_refused_actions_get_the_cores_codes_and_change_nothing(duel: Duel) -> None:
    sock, view = duel.mover, duel.mover.view
    hand, version = view["hand"], duel.mover.state["version"]
    deck = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"]
    unseen = next(c for c in deck if c not in hand and c != view["upcard"])
    refusals = [
        ("AS", "bad_action"),  # not an object
        ({"play": "ZZ"}, "bad_action"),  # not a card
        ({"play": hand[0], "bid": "high"}, "bad_action"),  # two kinds
        ({"dance": 1}, "bad_action"),  # no such kind
        ({"resign": False}, "bad_action"),
        ({"take": "keep"}, "wrong_phase"),  # kinds of action this phase does not take
        ({"bid": "high"}, "wrong_phase"),
        ({"play": unseen}, "card_not_available"),
    ]
    for number, (action, code) in enumerate(refusals):
        message_id = f"bad{number}"
        error = sock.answer({"type": "act", "id": message_id, "action": action})
        assert (error["type"], error["code"], error["id"]) == ("error", code, message_id)
        assert error["version"] == version
    error = sock.answer({"type": "act", "action": {"play": "ZZ"}})  # no id
    assert error["code"] == "bad_action" and error["id"] is None
    # Out of turn: a well-formed message, the other player's own card.
    out_of_turn = {"type": "act", "id": "wait", "action": {"play": duel.other.view["hand"][0]}}
    assert_valid(CLIENT, out_of_turn)
    error = duel.other.answer(out_of_turn)
    assert (error["code"], error["id"], error["version"]) == ("not_your_turn", "wait", version)
    for each in (duel.a, duel.b, duel.spectator):
        assert each.answer({"type": "ping"}) == {"type": "pong", "id": None, "version": version}


def test_a_replayed_id_is_refused_and_a_snapshot_resyncs(duel: Duel) -> None:
    sock = duel.mover
    version = sock.state["version"]
    message = {"type": "act", "id": "r1", "action": {"play": sock.view["legal"][0]["play"]}}
    ack = sock.answer(message)
    # The ack names the version the act produced, and comes after that version's state.
    assert ack == {"type": "ack", "id": "r1", "version": version + 1}
    assert sock.state["version"] == version + 1
    error = sock.answer(message)
    assert (error["code"], error["id"], error["version"]) == (
        "duplicate_message",
        "r1",
        version + 1,
    )
    assert str(version + 1) in error["message"]
    # Ids are per player: another player's r1 is a new message...
    error = duel.other.answer({"type": "act", "id": "r1", "action": {"play": "ZZ"}})
    assert error["code"] == "bad_action"
    # ...but the same player's r1 on a new connection (a reconnect, a second tab) is the
    # same act: never applied twice.
    with connect(duel.client, duel.table_id, duel.mover_cookie) as session:
        again = Socket(session)
        again.until(lambda f: f["type"] == "state")
        error = again.answer(message)
        assert (error["code"], error["id"]) == ("duplicate_message", "r1")
    # A snapshot's state carries the snapshot's id.
    sock.send({"type": "snapshot", "id": 99})
    answer = sock.until(lambda f: f["type"] == "state")
    assert answer["id"] == 99 and answer["version"] == version + 1
    # Everyone got the new version as a full state; a snapshot repeats it.
    for each in (duel.a, duel.b, duel.spectator):
        if each.state["version"] != version + 1:
            each.until(lambda f: f["type"] == "state" and f["version"] == version + 1)
        before = each.state
        each.send({"type": "snapshot"})
        again = each.until(lambda f: f["type"] == "state")
        assert again["version"] == before["version"] and again["view"] == before["view"]
        assert again["table"]["seats"] == before["table"]["seats"]


def test_a_master_table_matches_the_schema(tmp_path: Path) -> None:
    """MASTER is a level like the others: the host may seat it, listings and every frame
    of a whole match against it name it, and the schema takes them all."""
    settings = Settings(data_dir=tmp_path, bot_workers=0, bot_budget=0.05, **UNLIMITED)
    with TestClient(create_app(settings)) as client:
        ann = guest(client, "Ann")
        info = create_table(
            client, ann, variant="german", options={"match": "single"}, bots={"1": "master"}
        )
        assert info["seats"][1]["bot"] == "master"
        with connect(client, info["id"], ann) as session:
            sock = Socket(session)  # validates every frame against the schema
            frame = sock.until(lambda f: f["type"] == "state")
            assert frame["table"]["seats"][1]["bot"] == "master"
            while frame["type"] != "state" or frame["table"]["status"] != "finished":
                if frame["type"] == "state" and frame["view"]["legal"]:
                    action = dict(frame["view"]["legal"][0])
                    del action["seat"]
                    sock.send({"type": "act", "id": f"v{frame['version']}", "action": action})
                frame = sock.receive()
        assert "master" in client.get("/api/config").json()["levels"]


def test_the_rate_limit_refuses_a_burst(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_workers=0)  # 20 a second, bursts of 40
    assert (settings.rate_limit_per_second, settings.rate_limit_burst) == (20.0, 40)
    with TestClient(create_app(settings)) as client:
        ann = guest(client, "Ann")
        info = create_table(client, ann, variant="german", options={"match": "single"})
        with connect(client, info["id"]) as session:
            sock = Socket(session)
            sock.until(lambda f: f["type"] == "state")
            for _ in range(100):
                sock.send({"type": "ping"})
            answers = [sock.until(lambda f: f["type"] in ("pong", "error")) for _ in range(100)]
    assert all(f["type"] == "pong" for f in answers[:40])
    refused = [f for f in answers if f["type"] == "error"]
    assert refused and all(f["code"] == "rate_limited" for f in refused)


def test_origin_cookie_and_table_rules_of_the_socket(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, bot_workers=0, allowed_origins=["https://club.example"], **UNLIMITED
    )
    with TestClient(create_app(settings)) as client:
        ann = guest(client, "Ann")
        table_id = create_table(client, ann, variant="german")["id"]
        foreign = {**ann, "origin": "https://evil.example"}
        with pytest.raises(WebSocketDisconnect) as refused, connect(client, table_id, foreign):
            pass
        assert refused.value.code == 4403
        with pytest.raises(WebSocketDisconnect) as missing, connect(client, "nope", ann):
            pass
        assert missing.value.code == 4404
        for origin in ("http://testserver", "https://club.example", None):
            headers = ann if origin is None else {**ann, "origin": origin}
            with connect(client, table_id, headers) as session:
                state = Socket(session).until(lambda f: f["type"] == "state")
                assert state["table"]["you"] == 0 and state["view"]["seat"] == 0
        # A bad or missing cookie is a spectator, not an error.
        with connect(client, table_id, {"cookie": f"{COOKIE}=forged"}) as session:
            state = Socket(session).until(lambda f: f["type"] == "state")
            assert state["table"]["you"] is None and state["view"]["seat"] is None


# ----------------------------------------------------------------------------- HTTP
def test_http_bodies_and_error_codes(client: TestClient) -> None:
    def refused(response: Any, status: int, code: str) -> None:
        assert response.status_code == status, response.text
        body = response.json()
        assert_valid(HTTP_ERROR, body)
        assert body.get("code", body.get("detail", {}).get("code")) == code

    refused(client.get("/api/me"), 401, "not_signed_in")
    refused(client.post("/api/tables", json={"variant": "german"}), 401, "not_signed_in")
    assert client.post("/api/guest", json={}).status_code == 422
    body = {"login": "ann_1", "password": "correct horse"}
    registered = client.post("/api/register", json=body)
    assert registered.status_code == 200 and COOKIE in registered.cookies
    assert_valid(ME, registered.json())
    assert registered.json()["registered"] and registered.json()["login"] == "ann_1"
    refused(client.post("/api/register", json=body), 409, "login_taken")
    wrong = {**body, "password": "wrong password"}
    refused(client.post("/api/login", json=wrong), 401, "bad_login")
    logged_in = client.post("/api/login", json=body)
    assert logged_in.status_code == 200
    assert_valid(ME, logged_in.json())
    ann = {"cookie": f"{COOKIE}={logged_in.cookies[COOKIE]}"}
    client.cookies.clear()
    me = client.get("/api/me", headers=ann).json()
    assert_valid(ME, me)
    look = {"card_back": "royal", "card_face": "classic"}
    refused(client.put("/api/me/appearance", json=look, headers=ann), 403, "locked")
    look["card_back"] = "classic"
    assert_valid(ME, client.put("/api/me/appearance", json=look, headers=ann).json())

    def create(**body: Any) -> Any:
        return client.post("/api/tables", json=body, headers=ann)

    refused(create(variant="nope"), 400, "unknown_variant")
    refused(create(variant="german", options={"nope": 1}), 400, "unknown_option")
    refused(create(variant="german", options={"match": "never"}), 400, "bad_option_value")
    refused(create(variant="german", bots={"1": "genius"}), 400, "bad_bot")
    refused(create(variant="german", bots={"0": "easy"}), 400, "bad_seat")
    refused(create(variant="german", seat=2), 400, "bad_seat")
    refused(create(variant="german", bots={"5": "easy"}), 400, "bad_seat")
    assert client.get("/api/tables").json() == []  # a refused table leaves nothing behind

    public = create_table(client, ann, variant="german")
    private = create_table(client, ann, variant="german", private=True)
    assert "invite" in private and "invite" not in public
    listed = client.get("/api/tables").json()
    for row in listed:
        assert_valid(LISTING, row)
    assert [row["id"] for row in listed] == [public["id"]]
    bob, cid = guest(client, "Bob"), guest(client, "Cid")
    refused(client.post("/api/tables/nope/join", json={}, headers=bob), 404, "no_table")
    refused(client.post(f"/api/tables/{private['id']}/join", json={}, headers=bob), 404, "no_table")
    refused(client.post("/api/invite/nope/join", json={}, headers=bob), 404, "no_table")
    refused(
        client.post(f"/api/tables/{public['id']}/join", json={"seat": 0}, headers=bob),
        409,
        "seat_taken",
    )
    joined = client.post(f"/api/invite/{private['invite']}/join", json={}, headers=bob)
    assert_valid(LISTING, joined.json())
    assert joined.json()["you"] == 1 and joined.json()["status"] == "playing"
    refused(
        client.post(f"/api/invite/{private['invite']}/join", json={}, headers=cid),
        409,
        "wrong_phase",
    )
    refused(client.get("/api/tables/nope"), 404, "no_table")
    refused(client.post(f"/api/tables/{private['id']}/leave", headers=cid), 409, "not_seated")
    refused(client.post(f"/api/tables/{private['id']}/suspend", headers=ann), 409, "not_alone")
    quick = client.post("/api/quickplay", json={"variant": "german"}, headers=cid).json()
    assert_valid(LISTING, quick)
    assert quick["id"] == public["id"] and quick["you"] == 1  # joined the waiting table
    left = client.post(f"/api/tables/{private['id']}/leave", headers=bob)
    assert left.json() == {"left": 1}
    assert client.post("/api/logout", headers=ann).json() == {"ok": True}
    refused(client.get("/api/me", headers=ann), 401, "not_signed_in")
