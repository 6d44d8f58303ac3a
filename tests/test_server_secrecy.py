"""Nothing leaks, nothing breaks: the server end to end, in process.

1. Random full matches of every variant with a human guest at every seat and a spectator,
   all on WebSockets: every frame sent to every connection names only cards that
   connection may see *at the version the frame carries*. What a seat may see is worked out
   by replaying the table's stored log and applying docs/rules.md, What each seat may see
   independently of the core (``helpers.visible_cards``); Minnesota bids and Swedish bottom cards
   after the first high/red are never named anywhere.
2. Malformed, oversized, binary, out-of-turn, wrong-kind, other-seat and replayed messages
   each get an error frame and change neither the table's version nor any view.
3. A per-connection rate limit; 4. only our own origin may open a WebSocket; 5. a player
   cannot act at a table where it has no seat.

Synchronisation: every command of a table goes through its actor one at a time and every
connection's frames leave in order, so after sending anything a test sends a *barrier* (an
``act`` with a fresh id and no action, refused with that id) and reads up to its error.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from helpers import CARD_TEXTS, card_strings, revealed_from_log, string_paths, visible_cards
from whist.core.views import view_for
from whist.server.app import create_app
from whist.server.deps import COOKIE
from whist.server.settings import Settings
from whist.server.table import TableState

BID_WORDS = frozenset({"high", "low", "spel", "pass"})
# Where a bid word may appear in a view (a shown bid, the contract, the seat's own choices).
BID_PATHS = {"revealed[*].choice", "contract.mode", "history[*].contract.mode", "legal[*].bid"}
CARD = re.compile(r"^[2-9TJQKA][SHDC]$")

# (id, variant, options): short matches, one deal in most of them.
MATCHES = [
    ("classic", "classic", {"target": 1}),
    ("german", "german", {"match": "single"}),
    ("german-talon", "german", {"match": "single", "talon_discard": True}),
    (
        "german-talon-free",
        "german",
        {"match": "single", "talon_discard": True, "stage1_follow": False},
    ),
    ("plockwhist", "plockwhist", {"target": 1}),
    ("plockwhist-upcard", "plockwhist", {"target": 1, "trump": "upcard"}),
    ("japanese", "japanese", {"target": 1}),
    ("japanese-immediate", "japanese", {"target": 1, "reveal": "immediate"}),
    ("minnesota", "minnesota", {"target": 1}),
    # "-b": the first seat in reveal order bids high / shows a red card, so the other
    # three choices stay secret for good.
    ("minnesota-b", "minnesota", {"target": 1}),
    ("swedish", "swedish", {"match": "target:1"}),
    ("swedish-b", "swedish", {"match": "target:1"}),
    ("swedish-button", "swedish", {"match": "target:1", "bid_input": "button"}),
    ("swedish-simultaneous", "swedish", {"match": "target:1", "reveal": "simultaneous"}),
]


# ------------------------------------------------------------------- the harness
def settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "bot_workers": 0,
        "clock_seconds": 600.0,  # a clock that never runs out during a test
        "rate_limit_per_second": 1000,
        "rate_limit_burst": 1000,
    }
    values.update(overrides)
    return Settings(**values)


@contextmanager
def running(tmp_path: Path, **overrides: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path, **overrides))) as client:
        yield client


def guest(client: TestClient, nickname: str) -> dict[str, str]:
    """A new guest; returns the headers that carry its session (the client keeps no
    cookie, so one client speaks for any number of players)."""
    response = client.post("/api/guest", json={"nickname": nickname})
    assert response.status_code == 200, response.text
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={token}"}


def new_table(
    client: TestClient, players: list[dict[str, str]], variant: str, options: dict[str, Any]
) -> str:
    """A table of ``variant`` with ``players[i]`` at seat i (it starts once all sit)."""
    response = client.post(
        "/api/tables",
        json={"variant": variant, "options": options, "clock": True, "seat": 0},
        headers=players[0],
    )
    assert response.status_code == 200, response.text
    table_id: str = response.json()["id"]
    for seat, headers in enumerate(players[1:], start=1):
        response = client.post(f"/api/tables/{table_id}/join", json={"seat": seat}, headers=headers)
        assert response.status_code == 200, response.text
        assert response.json()["you"] == seat
    return table_id


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next frame, or a failure after ``timeout`` seconds (not a hung test)."""

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()  # the session's queue of server messages

    message = ws.portal.call(next_message)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    assert message["type"] == "websocket.send", message
    assert "text" in message, f"a binary frame: {message!r}"
    frame: dict[str, Any] = json.loads(message["text"])
    return frame


class Conn:
    """One WebSocket of one player (``seat`` None: a spectator), with every frame it got."""

    def __init__(self, ws: WebSocketTestSession, seat: int | None, name: str) -> None:
        self.ws = ws
        self.seat = seat
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None  # the latest "state" frame
        self._barriers = 0

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def sync(self) -> list[dict[str, Any]]:
        """Every frame up to a barrier sent now (the barrier's own error not included)."""
        self._barriers += 1
        marker = f"sync-{self.name}-{self._barriers}"
        self.send({"type": "act", "id": marker, "action": None})
        got: list[dict[str, Any]] = []
        while True:
            frame = receive(self.ws)
            self.frames.append(frame)
            if frame.get("type") == "error" and frame.get("id") == marker:
                assert frame["code"] in ("bad_action", "not_seated", "wrong_phase"), frame
                return got
            got.append(frame)
            if frame.get("type") == "state":
                self.state = frame

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None
        view: dict[str, Any] = self.state["view"]
        return view


@contextmanager
def connect(
    client: TestClient, table_id: str, people: list[tuple[dict[str, str], int | None, str]]
) -> Iterator[list[Conn]]:
    with ExitStack() as stack:
        conns = []
        for headers, seat, name in people:
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/tables/{table_id}", headers=dict(headers))
            )
            conns.append(Conn(ws, seat, name))
        for conn in conns:
            conn.sync()
        yield conns


def actor_of(client: TestClient, table_id: str) -> Any:
    return client.app.state.club.actors[table_id]  # type: ignore[attr-defined]


def table_snapshot(client: TestClient, table_id: str) -> str:
    """The table's version, log length and every seat's view and the public view."""
    state = actor_of(client, table_id).state
    match = state.match
    log = client.app.state.club.repo.log(table_id)  # type: ignore[attr-defined]
    views = [view_for(match, seat).to_json() for seat in [*range(match.players), None]]
    return json.dumps(
        {"version": state.version, "log": len(log), "status": state.status, "views": views},
        sort_keys=True,
    )


def states_by_version(client: TestClient, table_id: str) -> list[TableState]:
    """The table at every version, rebuilt from its stored log (index = version)."""
    club = client.app.state.club  # type: ignore[attr-defined]
    row = club.repo.table(table_id)
    state = TableState.new(table_id, row.variant, row.options, row.clock_seconds)
    states = [copy.deepcopy(state)]
    for kind, data, _at in club.repo.log(table_id):
        state.replay([(kind, data)])
        states.append(copy.deepcopy(state))
    assert [s.version for s in states] == list(range(len(states)))
    return states


# ---------------------------------------------------------------- 1. no leaks
def named_cards(frame: Any) -> set[str]:
    """Every string anywhere in a frame (keys too) that reads as a card, in any case."""
    found = {t.upper() for t in all_strings(frame) if CARD.fullmatch(t.upper())}
    assert found == card_strings(frame)  # the helpers' scan agrees
    return found


def all_strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from all_strings(key)
            yield from all_strings(value)
    elif isinstance(obj, list):
        for item in obj:
            yield from all_strings(item)


def allowed_cards(state: TableState, seat: int | None) -> set[str]:
    return {CARD_TEXTS[c] for c in visible_cards(state.match, seat)}


def check_frames(conn: Conn, states: list[TableState]) -> int:
    """Every frame ``conn`` received names only cards (and bids) it may know at the frame's
    version; returns the number of frames checked."""
    version = 0
    checked = 0
    for frame in conn.frames:
        version = frame.get("version", version)
        assert isinstance(version, int) and 0 <= version < len(states), frame
        state = states[version]
        match = state.match
        where = f"{conn.name} (seat {conn.seat}) frame {frame.get('type')} v{version}"
        leaked = sorted(named_cards(frame) - allowed_cards(state, conn.seat))
        assert not leaked, f"{where} names {leaked}"
        if frame.get("type") == "state":
            view = frame["view"]
            assert view == view_for(match, conn.seat).to_json(), f"{where}: not the true view"
            assert view["seat"] == conn.seat
            if conn.seat is None:
                assert view["hand"] == [] and view["legal"] == [] and view["offer"] is None
        if match.variant.key in ("minnesota", "swedish"):
            view_part = frame.get("view", {})
            rest = {k: v for k, v in frame.items() if k != "view"}
            assert not string_paths(rest, BID_WORDS), f"{where}: a bid word outside the view"
            # The variant's facts name every bid word: the same for every seat, never secret.
            facts = view_part.get("facts")
            assert facts in (None, match.variant.facts.to_json()), f"{where}: facts {facts}"
            words = string_paths(view_part, BID_WORDS)
            stray = [p for p in words if p not in BID_PATHS and not p.startswith("facts.")]
            assert not stray, f"{where}: a bid word at {stray}"
            if frame.get("type") == "state" and match.deal is not None:
                revealed = revealed_from_log(match)
                shown = [
                    {"seat": s, "choice": c if isinstance(c, str) else CARD_TEXTS[c]}
                    for s, c in revealed
                ]
                assert view_part["revealed"] == shown, f"{where}: revealed {view_part['revealed']}"
                if match.variant.key == "minnesota":
                    assert [e["seat"] for e in view_part["revealed"]] == [s for s, _ in revealed]
        checked += 1
    return checked


def assert_listings_name_no_card(client: TestClient, table_id: str) -> None:
    """The HTTP table listings are public: no card at all."""
    for url in (f"/api/tables/{table_id}", "/api/tables"):
        response = client.get(url)
        assert response.status_code == 200
        assert not named_cards(response.json()), f"{url} names a card"


def choose(rng: random.Random, view: dict[str, Any], steer: bool) -> dict[str, Any]:
    """A random legal action from the seat's own view; with ``steer`` the seat first in
    reveal order bids high/spel or shows a red bottom card when it can."""
    legal: list[dict[str, Any]] = view["legal"]
    if steer and view["phase"] == "bid" and view["seat"] == (view["dealer"] + 1) % 4:
        stops = [
            a
            for a in legal
            if a.get("bid") in ("high", "spel") or str(a.get("bottom", "xS"))[1] in "HD"
        ]
        if stops:
            return rng.choice(stops)
    return rng.choice(legal)


@pytest.mark.parametrize(("case", "variant", "options"), MATCHES, ids=[m[0] for m in MATCHES])
def test_no_frame_names_a_card_or_bid_its_connection_may_not_see(
    tmp_path: Path, case: str, variant: str, options: dict[str, Any]
) -> None:
    rng = random.Random(case)
    steer = case.endswith("-b")
    with running(tmp_path) as client:
        players = 4 if variant in ("classic", "minnesota", "swedish") else 2
        people = [guest(client, f"p{i}") for i in range(players)]
        watcher = guest(client, "watcher")
        table_id = new_table(client, people, variant, options)
        roster = [(h, s, f"p{s}") for s, h in enumerate(people)] + [(watcher, None, "watcher")]
        with connect(client, table_id, roster) as conns:
            seats, spectator = conns[:players], conns[players]
            mover = seats[0]
            actions = 0
            while mover.state is not None and mover.state["table"]["status"] == "playing":
                to_act = mover.view["to_act"]
                assert to_act, "a playing table with nobody to act"
                conn = seats[rng.choice(to_act)]
                conn.sync()
                legal = conn.view["legal"]
                assert legal, f"seat {conn.seat} is to act but has no legal action"
                actions += 1
                message_id = f"move-{actions}"
                action = choose(rng, conn.view, steer)
                conn.send({"type": "act", "id": message_id, "action": action})
                got = conn.sync()
                acks = [f for f in got if f.get("id") == message_id]
                assert [f["type"] for f in acks] == ["ack"], acks
                mover = conn
                assert actions < 400, "the match does not end"
                if actions % 25 == 1:
                    assert_listings_name_no_card(client, table_id)
            assert mover.state is not None and mover.state["table"]["status"] == "finished"
            for conn in conns:
                conn.sync()
            assert_listings_name_no_card(client, table_id)
        states = states_by_version(client, table_id)
        final = states[-1]
        assert final.status == "finished" and final.match.over
        # Nobody watches the ended table any more: the server has let it go (the store keeps it).
        assert table_id not in client.app.state.club.actors  # type: ignore[attr-defined]
        assert final.version == len(client.app.state.club.repo.log(table_id))  # type: ignore[attr-defined]
        for conn in conns:
            assert conn.state is not None and conn.state["version"] == final.version
            assert check_frames(conn, states) > actions // 2
        assert spectator.frames
        if steer:  # one choice shown, three kept secret (all from the stored log)
            assert len(final.match.deals) == 1
            assert len(revealed_from_log(final.match)) == 1


# ------------------------------------------------------------------ 2. abuse
def expect_refused(
    client: TestClient,
    table_id: str,
    sender: Conn,
    message: Any,
    code: str,
    others: list[Conn],
    binary: bool = False,
) -> dict[str, Any]:
    """``sender`` sends ``message``: exactly one error frame with ``code`` comes back, no
    connection gets a new state or an ack, and the table (version, log, every view) is
    unchanged."""
    for conn in others:
        conn.sync()  # earlier frames are not this message's
    before = table_snapshot(client, table_id)
    if binary:
        sender.ws.send_bytes(message)
    else:
        sender.send(message)
    got = sender.sync()
    errors = [f for f in got if f.get("type") == "error"]
    assert len(errors) == 1 and errors[0]["code"] == code, (message, got)
    assert not [f for f in got if f.get("type") in ("state", "ack")], got
    for other in others:
        if other is not sender:
            assert not [f for f in other.sync() if f.get("type") in ("state", "ack")]
    assert table_snapshot(client, table_id) == before, f"{str(message)[:80]} changed the table"
    return errors[0]


def act(action: Any, message_id: str | None = None, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "act", "action": action, **extra}
    if message_id is not None:
        message["id"] = message_id
    return message


def acted(conn: Conn, message: dict[str, Any]) -> None:
    conn.send(message)
    got = conn.sync()
    assert [f["type"] for f in got if f.get("id") == message.get("id")] == ["ack"], got


def test_malformed_foreign_and_replayed_messages_change_nothing(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        p0, p1, p2, p3 = (guest(client, f"p{i}") for i in range(4))
        table_a = new_table(client, [p0, p1], "german", {"match": "single"})
        table_b = new_table(client, [p2, p3], "german", {"match": "single"})
        people = [(p0, 0, "p0"), (p1, 1, "p1"), (p2, None, "p2")]
        with connect(client, table_a, people) as conns:
            turn = conns[conns[0].view["to_act"][0]]
            other = conns[1 - turn.seat]  # type: ignore[operator]
            spectator = conns[2]
            turn.sync()
            legal = turn.view["legal"]
            mine = turn.view["hand"]
            theirs = other.view["hand"]
            assert legal and mine and theirs

            def refused(sender: Conn, message: Any, code: str, binary: bool = False) -> None:
                expect_refused(client, table_a, sender, message, code, conns, binary)

            # Not a message at all.
            refused(turn, "not json", "bad_message")
            refused(turn, '{"type": "act",', "bad_message")
            refused(turn, "[1, 2]", "bad_message")
            refused(turn, '"act"', "bad_message")
            refused(turn, "null", "bad_message")
            refused(turn, "{}", "bad_message")
            refused(turn, {"type": "dance"}, "bad_message")
            refused(turn, {"type": ["act"], "action": legal[0]}, "bad_message")
            refused(turn, "[" * 1500 + "]" * 1500, "bad_message")
            refused(turn, json.dumps(act(legal[0])).encode(), "bad_message", binary=True)
            # Too large, even though the action in it is legal.
            big = act(legal[0], "big", padding="x" * 5000)
            assert len(json.dumps(big)) > 4096
            refused(turn, big, "too_large")
            # Malformed actions.
            for action in (
                None,
                "xx",
                [1, 2],
                7,
                {},
                {"play": "ZZ"},
                {"play": 7},
                {"play": mine[0], "bid": "high"},
                {"resign": False},
                {"dance": "now"},
            ):
                refused(turn, act(action, "m"), "bad_action")
            refused(turn, {"type": "act"}, "bad_action")
            # Actions of the wrong kind, and a card the sender does not hold.
            for action in (
                {"bid": "high"},
                {"bid": "spel"},
                {"take": "keep"},
                {"trump": "S"},
                {"bottom": mine[0]},
            ):
                refused(turn, act(action, "k"), "wrong_phase")
            refused(turn, act({"play": theirs[0]}, "c"), "card_not_available")
            # Out of turn, and on behalf of the seat whose turn it is.
            refused(other, act({"play": theirs[0]}, "o"), "not_your_turn")
            for action in legal:
                refused(other, act(action, "o2"), "not_your_turn")
                refused(other, act({**action, "seat": turn.seat}, "o3"), "not_your_turn")
            # A spectator, and a player at a table where it has no seat.
            refused(spectator, act(legal[0], "s"), "not_seated")
            b_people = [(p0, None, "p0-at-b"), (p2, 0, "p2-at-b"), (p3, 1, "p3-at-b")]
            with connect(client, table_b, b_people) as at_b:
                stranger = at_b[0]
                b_turn = at_b[1 + stranger.view["to_act"][0]]
                for action in b_turn.view["legal"][:4]:
                    for message in (act(action, "x"), act({**action, "seat": b_turn.seat}, "y")):
                        expect_refused(client, table_b, stranger, message, "not_seated", at_b)
            # The seat field is ignored: the sender acts for its own seat only.
            log_before = len(actor_of(client, table_a).state.match.log[-1])
            acted(turn, act({**legal[0], "seat": other.seat}, "r1"))
            match = actor_of(client, table_a).state.match
            assert len(match.log[-1]) == log_before + 1
            assert match.log[-1][-1].seat == turn.seat
            other.sync()
            assert other.view["hand"] == theirs, "another seat's hand changed"
            # A replayed message: the same text again, then its id with a new legal action.
            refused(turn, act({**legal[0], "seat": other.seat}, "r1"), "duplicate_message")
            other.sync()
            acted(other, act(other.view["legal"][0], "r2"))
            for conn, used in ((turn, "r1"), (other, "r2")):
                conn.sync()
                if conn.view["legal"]:
                    refused(conn, act(conn.view["legal"][0], used), "duplicate_message")
                    acted(conn, act(conn.view["legal"][0], used + "-new"))
                    break
            else:
                raise AssertionError("nobody to act after the first trick")


def test_the_seat_field_cannot_lock_another_seats_secret_bid(tmp_path: Path) -> None:
    """Minnesota bidding, where all four may act: a bid naming another seat is the
    sender's own, and locking twice is refused."""
    with running(tmp_path) as client:
        people = [guest(client, f"p{i}") for i in range(4)]
        table_id = new_table(client, people, "minnesota", {"target": 1})
        with connect(client, table_id, [(h, s, f"p{s}") for s, h in enumerate(people)]) as conns:
            first, victim = conns[0], conns[1]
            assert first.view["phase"] == "bid" and first.view["decided"] == []
            acted(first, act({"seat": 1, "bid": "high"}, "b1"))
            victim.sync()
            assert victim.view["decided"] == [0]
            assert {a["bid"] for a in victim.view["legal"]} == {"high", "low"}
            expect_refused(
                client,
                table_id,
                first,
                act({"seat": 1, "bid": "low"}, "b2"),
                "already_decided",
                conns,
            )
            expect_refused(
                client, table_id, first, act({"bid": "high"}, "b1"), "duplicate_message", conns
            )
            expect_refused(
                client,
                table_id,
                victim,
                act({"play": victim.view["hand"][0]}, "p"),
                "wrong_phase",
                conns,
            )
            expect_refused(
                client, table_id, victim, act({"bid": "grand"}, "g"), "invalid_bid", conns
            )


# ------------------------------------------------------------- 3. rate limit
def test_a_burst_beyond_the_limit_is_refused(tmp_path: Path) -> None:
    with running(tmp_path, rate_limit_per_second=5, rate_limit_burst=5) as client:
        p0, p1 = guest(client, "p0"), guest(client, "p1")
        table_id = new_table(client, [p0, p1], "german", {"match": "single"})
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=dict(p0)) as ws:
            for _ in range(20):
                ws.send_text('{"type": "ping"}')
            actor = actor_of(client, table_id)
            version = actor.state.version
            seat = actor.state.match.to_act()[0]
            action = {
                "seat": seat,
                "play": CARD_TEXTS[actor.state.match.legal_actions(seat)[0].card],
            }
            ws.send_text(json.dumps(act(action, "late")))  # a legal move, but too many
            answers: list[str] = []
            late = None
            while len(answers) < 20 or late is None:
                frame = receive(ws)
                if frame["type"] == "pong":
                    answers.append("pong")
                elif frame["type"] == "error" and frame["code"] == "rate_limited":
                    if len(answers) < 20:
                        answers.append("rate_limited")
                    else:
                        late = frame
            assert answers[:5] == ["pong"] * 5
            assert answers.count("rate_limited") >= 12, answers
            assert actor.state.version == version
            anyio.run(anyio.sleep, 0.5)  # the bucket refills
            ws.send_text('{"type": "ping"}')
            while (frame := receive(ws))["type"] != "pong":
                assert frame["type"] in ("state", "table"), frame


# ---------------------------------------------------------------- 4. origin
def test_only_our_own_origin_may_open_a_websocket(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        p0 = guest(client, "p0")
        table_id = new_table(client, [p0, guest(client, "p1")], "german", {"match": "single"})
        url = f"/ws/tables/{table_id}"
        for origin in (
            "http://evil.example",
            "https://evil.example",
            "null",
            "http://testserver.evil.example",
            "http://evil.example:80",
        ):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(url, headers={**p0, "origin": origin}),
            ):
                pass
            assert refused.value.code == 4403, origin
        for headers in ({**p0, "origin": "http://testserver"}, dict(p0), {}):
            with client.websocket_connect(url, headers=headers) as ws:
                frame = receive(ws)
                assert frame["type"] == "state"
                assert frame["table"]["you"] == (0 if headers.get("cookie") else None)
        with (
            pytest.raises(WebSocketDisconnect) as missing,
            client.websocket_connect("/ws/tables/nope", headers=dict(p0)),
        ):
            pass
        assert missing.value.code == 4404


def test_a_private_table_is_watched_only_by_its_players_or_with_the_invitation(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_workers=0))) as host:
        host.post("/api/guest", json={"nickname": "Host"})
        made = host.post(
            "/api/tables",
            json={"variant": "german", "private": True, "clock": False, "bots": {}},
        ).json()
        table_id, invite = made["id"], made["invite"]
        assert host.get(f"/api/tables/{table_id}").status_code == 200
        stranger = TestClient(host.app)
        stranger.portal = host.portal
        stranger.post("/api/guest", json={"nickname": "Eve"})
        assert stranger.get(f"/api/tables/{table_id}").status_code == 404
        assert stranger.get(f"/api/tables/{table_id}", params={"invite": invite}).status_code == 200
        with (
            pytest.raises(WebSocketDisconnect),
            stranger.websocket_connect(f"/ws/tables/{table_id}"),
        ):
            pass
        with stranger.websocket_connect(f"/ws/tables/{table_id}?invite={invite}") as socket:
            assert socket.receive_json()["type"] == "state"
