"""Hostile input through the real HTTP API and WebSocket (in process, on SQLite and
PostgreSQL): every outside value is bounded before it reaches the core, an encoder or the
database; every refused frame is answered with its id; nothing a refusal touches changes.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_recovery import postgres_database
from test_server import (
    Room,
    Sock,
    _receive_within,
    create,
    first_legal,
    pump,
    room,
    seat_table,
)
from whist.server import actor as server_actor


@pytest.fixture(params=["sqlite", "postgresql"])
def club(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    if request.param == "sqlite":
        with room(tmp_path) as r:
            yield r
        return
    for url in postgres_database():
        with room(tmp_path, database_url=url) as r:
            yield r


def tables_now(r: Room) -> list[Any]:
    return sorted((t.id, t.status) for t in r.repo.tables_with_status(["open", "playing"]))


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.text
    assert isinstance(response.json()["message"], str)


# ------------------------------------------------------------------------------ HTTP
def test_option_values_out_of_range_are_refused_and_make_no_table(club: Room) -> None:
    host = club.guest("host")
    for target in (2**64, 10**30, 1001, 0, -5, "1" * 60, "0"):
        response = host.post(
            "/api/tables", json={"variant": "classic", "options": {"target": target}}
        )
        refused(response, 400, "bad_option_value")
    for match in ("target:18446744073709551616", "target:1001", "deals:0"):
        response = host.post("/api/tables", json={"variant": "german", "options": {"match": match}})
        refused(response, 400, "bad_option_value")
    assert tables_now(club) == []
    # A 5,000-digit number is refused too (Python's int() would refuse to read it).
    body = '{"variant": "classic", "options": {"target": ' + "9" * 5000 + "}}"
    response = host.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code in (400, 422) and response.json()["code"] == "bad_request"
    # The ends of the documented range are accepted.
    for target in (1, 1000):
        info = create(host, variant="classic", options={"target": target}, bots={"1": "easy"})
        assert info["options"]["target"] == target
    # /api/variants says the range.
    variants = {v["key"]: v for v in host.get("/api/variants").json()["variants"]}
    target_spec = next(o for o in variants["classic"]["options"] if o["name"] == "target")
    assert (target_spec["min"], target_spec["max"]) == (1, 1000)


def test_quickplay_never_routes_into_a_table_with_a_bad_option(club: Room) -> None:
    host = club.guest("host")
    big = {"variant": "classic", "options": {"target": 2**64}}
    assert host.post("/api/tables", json=big).status_code == 400
    player = club.guest("player")
    response = player.post("/api/quickplay", json={"variant": "classic"})
    assert response.status_code == 200, response.text
    assert response.json()["options"]["target"] == 5


BAD_TEXTS = ["a\u0000b", "\ud800", "tab\u0007bell", "x" * 41]


def test_bad_strings_are_refused_on_every_route_and_store_nothing(club: Room) -> None:
    browser = club.browser()
    for text in BAD_TEXTS:
        # Sent as JSON text as a client would write it: "\ud800" is legal JSON.
        body = json.dumps({"nickname": text})
        response = browser.post(
            "/api/guest", content=body, headers={"content-type": "application/json"}
        )
        refused(response, 422, "bad_request")
        assert "nickname" in response.json()["message"]
        for route, payload in (
            ("/api/login", {"login": text, "password": "whatever1"}),
            ("/api/register", {"login": "ann", "password": "longenough", "nickname": text}),
        ):
            response = browser.post(
                route, content=json.dumps(payload), headers={"content-type": "application/json"}
            )
            refused(response, 422, "bad_request")
    with club.repo.sessions() as db:
        from sqlalchemy import func, select

        from whist.store.models import Player

        assert db.scalar(select(func.count()).select_from(Player)) == 0
    host = club.guest("host")
    for body in (
        {"variant": "classic\u0000"},
        {"variant": "classic", "options": {"tar\u0000get": 5}},
        {"variant": "german", "options": {"scoring": "\ud800"}},
        {"variant": "classic", "bots": {"1": "ea\u0000sy"}},
    ):
        response = host.post(
            "/api/tables", content=json.dumps(body), headers={"content-type": "application/json"}
        )
        refused(response, 422, "bad_request")
    assert tables_now(club) == []


@pytest.mark.parametrize(
    "method,path",
    [
        ("get", "/api/tables/%00"),
        ("get", "/api/tables/a%00b"),
        ("post", "/api/tables/%00/join"),
        ("post", "/api/tables/%00/leave"),
        ("get", "/api/games/%00"),
        ("get", "/api/games/%00/record"),
        ("post", "/api/invite/%00/join"),
        ("post", "/api/invite/%ED%A0%80/join"),
        ("get", "/api/tables/" + "x" * 300),
    ],
)
def test_ids_that_cannot_exist_are_no_table(club: Room, method: str, path: str) -> None:
    player = club.guest("ann")
    response = getattr(player, method)(path, **({"json": {}} if method == "post" else {}))
    refused(response, 404, "no_table")


def test_request_bodies_over_64_kib_are_refused_before_they_are_read(club: Room) -> None:
    browser = club.browser()
    huge = json.dumps({"nickname": "x" * (65 * 1024)})
    response = browser.post(
        "/api/guest", content=huge, headers={"content-type": "application/json"}
    )
    refused(response, 413, "too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as it comes
        yield b'{"nickname": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}'

    response = browser.post(
        "/api/guest", content=chunks(), headers={"content-type": "application/json"}
    )
    refused(response, 413, "too_large")
    assert browser.get("/api/me").status_code == 401  # no player was made
    # Deep nesting inside the limit is a bad request, not a crash.
    deep = '{"nickname": ' + "[" * 5000 + "]" * 5000 + "}"
    response = browser.post(
        "/api/guest", content=deep, headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 422) and response.json()["code"] == "bad_request"


# ------------------------------------------------------------------------- WebSocket
def two_players(r: Room, variant: str = "german") -> tuple[str, list[TestClient]]:
    return seat_table(r, variant, {}, False, "ann", "bob")  # type: ignore[no-any-return]


def answer(sock: Sock, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next frame of ``kind`` this socket receives."""
    seen = len(sock.frames)
    pump([sock], lambda: any(f["type"] == kind for f in sock.frames[seen:]), timeout)
    return next(f for f in sock.frames[seen:] if f["type"] == kind)


def test_hostile_frames_get_an_error_with_their_id_and_change_nothing(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (ann, bob) = two_players(r)
        a, b = Sock(ann, table_id), Sock(bob, table_id)
        try:
            pump([a, b], lambda: a.state is not None and b.state is not None)
            version = a.version
            legal = dict(a.legal[0] if a.legal else b.legal[0])
            legal.pop("seat")
            hostile = [
                # (raw frame text, code, the id the error must carry, or "absent")
                ('{"type":"act","id":18446744073709551616,"action":%s}', "bad_message", None),
                ('{"type":"act","id":"\\ud800","action":%s}', "bad_message", None),
                ('{"type":"act","id":"' + "i" * 65 + '","action":%s}', "bad_message", None),
                ('{"type":"act","id":1.5,"action":%s}', "bad_message", None),
                ('{"type":"act","id":{"a":1},"action":%s}', "bad_message", None),
                (
                    '{"type":"act","id":"n1","action":{"play":' + "[" * 300 + "]" * 300 + "}}",
                    "bad_message",
                    "n1",
                ),
                (
                    '{"type":"act","id":"n2","x":' + "[" * 2000 + "]" * 2000 + "}",
                    "bad_message",
                    "absent",
                ),
                ('{"type":"dance","id":"t1"}', "bad_message", "t1"),
                ('{"type":"ping","id":"big","pad":"' + "p" * 5000 + '"}', "too_large", "big"),
                ("[1, 2]", "bad_message", "absent"),
                ("not json", "bad_message", "absent"),
            ]
            for text, code, echoed in hostile:
                frame = text % json.dumps(legal) if "%s" in text else text
                a.ws.send_text(frame)
                error = answer(a, "error")
                assert error["code"] == code, (frame[:80], error)
                if echoed == "absent":
                    assert "id" not in error, error
                else:
                    assert error["id"] == echoed, (frame[:80], error)
            a.ws.send_bytes(b'{"type":"ping","id":"bin"}')
            error = answer(a, "error")
            assert error["code"] == "bad_message" and "id" not in error
            # Nothing changed, the socket still serves, and the ids come back on answers.
            a.send({"type": "ping", "id": "p1"})
            pong = answer(a, "pong")
            assert pong == {"type": "pong", "id": "p1", "version": version}
            a.send({"type": "ping", "id": 7})
            assert answer(a, "pong")["id"] == 7
            a.send({"type": "ping"})
            assert answer(a, "pong")["id"] is None
            a.send({"type": "snapshot", "id": "s1"})
            state = answer(a, "state")
            assert state["id"] == "s1" and state["version"] == version
            assert r.app.state.club.actors[table_id].state.version == version
            # Both players go on: an act is acked and the other one sees it.
            pump([a, b], lambda: bool(a.acks or b.acks), choose=first_legal)
            pump([a, b], lambda: a.version == b.version > version)
        finally:
            a.close()
            b.close()


def test_refusals_for_rate_carry_the_id(tmp_path: Path) -> None:
    with room(tmp_path, rate_limit_burst=3, rate_limit_per_second=0.01) as r:
        table_id, (ann, _bob) = two_players(r)
        a = Sock(ann, table_id)
        try:
            for n in range(5):
                a.send({"type": "ping", "id": f"r{n}"})
            pump([a], lambda: len([f for f in a.frames if f["type"] in ("pong", "error")]) == 5)
            answers = [f for f in a.frames if f["type"] in ("pong", "error")]
            assert [f["id"] for f in answers] == [f"r{n}" for n in range(5)]
            assert [f["type"] for f in answers][-2:] == ["error", "error"]
            assert all(f["code"] == "rate_limited" for f in answers[-2:])
        finally:
            a.close()


def test_a_frame_that_cannot_be_encoded_closes_that_socket_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If an answer cannot be encoded, its socket is closed with 1011 (never dropped while
    it stays open); the act stands, the other player sees it, a reconnect shows it."""
    real = server_actor.frame_text

    def no_acks(message: dict[str, Any]) -> str:
        if message.get("type") == "ack":
            raise TypeError("cannot encode")
        return real(message)

    monkeypatch.setattr(server_actor, "frame_text", no_acks)
    with room(tmp_path) as r:
        table_id, (ann, bob) = two_players(r)
        a, b = Sock(ann, table_id), Sock(bob, table_id)
        try:
            pump([a, b], lambda: a.state is not None and b.state is not None)
            actor, first = (a, b) if a.legal else (b, a)
            before = actor.version
            actor.act({k: v for k, v in actor.legal[0].items() if k != "seat"})
            # The next thing this socket gets (after the state of its act) is a close.
            closing = None
            for _ in range(50):
                message = actor.ws.portal.call(_receive_within, actor.ws._send_rx, 5.0)
                if message["type"] == "websocket.close":
                    closing = message
                    break
            assert closing is not None and closing["code"] == 1011
            actor.open = False
            with contextlib.suppress(Exception):
                actor._cm.__exit__(None, None, None)
            pump([first], lambda: first.version > before)
            again = Sock(ann if actor is a else bob, table_id)
            try:
                pump([again], lambda: again.state is not None)
                assert again.version == first.version > before
            finally:
                again.close()
        finally:
            a.close()
            b.close()


# ------------------------------------------------------------------- after leaving
# Matches long enough to reach a second deal: one deal can score 13 or more (a Plockwhist
# or Swedish spel bidder without a trick gives 14, a Japanese 26-0 gives 13).
LEAVERS = {
    "classic": {"target": 30},
    "german": {"match": "target:30"},
    "plockwhist": {"target": 30},
    "japanese": {"target": 30},
    "minnesota": {"target": 30},
    "swedish": {"match": "target:30"},
}


@pytest.mark.parametrize("variant", sorted(LEAVERS))
def test_a_player_who_left_sees_no_later_hand_of_the_seat_anywhere(
    tmp_path: Path, variant: str
) -> None:
    """Ann leaves mid-deal; a bot plays her seat on. On the socket, in /api/games and in the
    record download she sees the next deal only as a spectator would: no card of the bot's
    new hand, no legal actions naming them."""
    from whist import records
    from whist.core.cards import card_text, cards_in
    from whist.variants import lookup

    with room(tmp_path) as r:
        players = lookup(variant)[0].players
        ann, bob = r.guest("ann"), r.guest("bob")
        bots = {str(s): "easy" for s in range(2, players)}
        info = create(ann, variant=variant, options=LEAVERS[variant], clock=False, bots=bots)
        assert bob.post(f"/api/tables/{info['id']}/join", json={"seat": 1}).status_code == 200
        table_id = info["id"]
        a, b = Sock(ann, table_id), Sock(bob, table_id)
        try:
            # Both play until Ann has acted in the first deal; then she leaves.
            pump([a, b], lambda: len(a.acks) >= 1, choose=first_legal, timeout=30)
            assert ann.post(f"/api/tables/{table_id}/leave").status_code == 200
            # Bob plays on into the next deal and stops at his first turn there.
            pump(
                [a, b],
                lambda: b.state is not None and b.view["deal"] == 1 and bool(b.legal),
                choose={1: first_legal},
                timeout=120,  # a whole deal of bot moves: slow on a loaded 2-core machine
            )
            # Both read on (Bob does not act): where bots decide at the same time as Bob
            # (Swedish bottom cards) Bob's socket stopped at his first turn, before theirs.
            pump([a, b], lambda: a.version == b.version)
            assert a.view["seat"] is None and a.view["hand"] == [] and a.view["legal"] == []
            game = ann.get(f"/api/games/{table_id}").json()
            assert game["you"] == 0  # still listed among her games
            replay = game["replay"]
            assert all("hand" not in deal for deal in replay["deals"]), replay["deals"]
            assert replay["next"] is None or "legal" not in replay["next"]
            record = ann.get(f"/api/games/{table_id}/record").json()
            shown, error = records.replay(records.parse(record))
            assert error is None
            truth = r.app.state.club.actors[table_id].state.match
            assert len(truth.deals) == len(shown.deals) == 2
            real = {card_text(c) for c in cards_in(truth.deals[1].hands[0])}
            told = {card_text(c) for c in cards_in(shown.deals[1].hands[0])}
            assert len(real) == len(told) >= 3
            assert told != real, "the download names the bot's new hand"
        finally:
            a.close()
            b.close()


def test_leaving_a_finished_table_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann = r.guest("ann")
        info = create(
            ann,
            variant="minnesota",
            options={"target": 1},
            clock=False,
            bots={"1": "easy", "2": "easy", "3": "easy"},
        )
        a = Sock(ann, info["id"])
        try:
            pump(
                [a],
                lambda: a.table is not None and a.table["status"] == "finished",
                choose=first_legal,
                timeout=60,
            )
            entries = len(r.repo.log(info["id"]))
            refused(ann.post(f"/api/tables/{info['id']}/leave"), 409, "wrong_phase")
            refused(ann.post(f"/api/tables/{info['id']}/join", json={}), 409, "wrong_phase")
            a.send({"type": "act", "id": "late", "action": {"resign": True}})
            error = answer(a, "error")
            assert (error["code"], error["id"]) == ("wrong_phase", "late")
            assert len(r.repo.log(info["id"])) == entries
            assert r.repo.table(info["id"]).status == "finished"  # type: ignore[union-attr]
        finally:
            a.close()


def test_a_bot_worker_that_dies_is_replaced_and_the_bots_play_on(tmp_path: Path) -> None:
    """A worker killed from outside (out of memory, an operator's kill) breaks its pool:
    the move it was asked for is played safe at once and a new pool takes the next ones."""
    import os
    import signal
    import time

    with room(tmp_path, bot_workers=1, bot_budget=0.2) as r:
        pool = r.app.state.club.bots
        ann = r.guest("ann")
        info = create(
            ann, variant="german", options={"match": "single"}, clock=False, bots={"1": "easy"}
        )
        a = Sock(ann, info["id"])
        try:
            pump([a], lambda: a.state is not None)
            deadline = time.monotonic() + 20
            while not any(pool.workers().values()) and time.monotonic() < deadline:
                time.sleep(0.1)
            (old,) = pool.workers()
            os.kill(old, signal.SIGKILL)
            pump(
                [a],
                lambda: a.table is not None and a.table["status"] == "finished",
                choose=first_legal,
                timeout=90,
            )
            assert a.view["over"]
            alive = [pid for pid, up in pool.workers().items() if up]
            assert alive and old not in alive
        finally:
            a.close()


def test_a_table_command_the_store_refuses_answers_500_internal(tmp_path: Path) -> None:
    """docs/protocol.md: a table command that fails inside the server answers 500 internal;
    the table is unchanged and the same request succeeds once the store takes it."""
    from test_server import failing_appends

    with room(tmp_path) as r:
        host, bob = r.guest("host"), r.guest("bob")
        info = create(host, variant="german", clock=False)
        refusals = failing_appends(r, lambda item: item.table_id == info["id"], most=1)
        refused(bob.post(f"/api/tables/{info['id']}/join", json={}), 500, "internal")
        assert len(refusals) == 1
        listing = bob.get(f"/api/tables/{info['id']}").json()
        assert listing["status"] == "open" and listing["seats"][1]["kind"] == "empty"
        joined = bob.post(f"/api/tables/{info['id']}/join", json={})
        assert joined.status_code == 200 and joined.json()["you"] == 1
