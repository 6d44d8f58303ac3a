"""Rematch: a player of a finished table makes the same match again (docs/protocol.md,
``POST /api/tables/{id}/rematch``); the other humans are asked on the old table's socket and
accept (their seat is kept for them) or decline. Through the real HTTP API and WebSocket."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from test_protocol import HTTP_ERROR, LISTING, SERVER, assert_valid
from test_server import (
    Room,
    create,
    first_legal,
    over,
    pump,
    room,
    seat_table,
    socks_on,
    table_row,
)

SINGLE = {"match": "single"}  # German Whist: one deal is the whole match


def post(browser: TestClient, path: str) -> tuple[int, dict[str, Any]]:
    response = browser.post(path)
    return response.status_code, response.json()


def refused(answer: tuple[int, dict[str, Any]], status: int, code: str) -> None:
    assert answer[0] == status, answer
    assert_valid(HTTP_ERROR, answer[1])
    assert answer[1]["code"] == code


def finished_duel(r: Room) -> tuple[str, list[TestClient]]:
    """Two humans play one German deal to its end; the sockets are closed after it."""
    table_id, browsers = seat_table(r, "german", SINGLE, False, "ann", "bo")
    with socks_on(table_id, *browsers) as socks:
        pump(socks, over(*socks), choose=first_legal, timeout=30)
    return table_id, browsers


def test_a_rematch_keeps_every_seat_asks_the_others_and_is_made_once(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (ann, bo) = seat_table(r, "german", SINGLE, False, "ann", "bo")
        with socks_on(table_id, ann, bo) as (s_ann, s_bo):
            pump([s_ann, s_bo], over(s_ann, s_bo), choose=first_legal, timeout=30)
            status, new = post(ann, f"/api/tables/{table_id}/rematch")
            assert status == 200, new
            assert_valid(LISTING, new)
            assert new["id"] != table_id and new["you"] == 0
            assert new["variant"] == "german" and new["options"]["match"] == "single"
            assert new["clock"] is None and new["status"] == "open"
            assert new["seats"][0]["kind"] == "human" and new["seats"][0]["nickname"] == "ann"
            assert new["seats"][1]["kind"] == "reserved" and new["seats"][1]["nickname"] == "bo"
            assert new["free_seats"] == []  # a kept seat is nobody else's
            # Bo is asked on the old table's socket; its table info says so too.
            asked = {"type": "rematch", "table": new["id"], "by": 0}
            pump([s_bo], lambda: asked in s_bo.frames)
            assert_valid(SERVER, asked)
            assert s_bo.table is not None
            assert s_bo.table["rematch"] == {"table": new["id"], "by": 0}
            for frame in s_bo.frames:
                assert_valid(SERVER, frame)
        # Asking again, by anyone of the table, answers the same new table.
        status, again = post(ann, f"/api/tables/{table_id}/rematch")
        assert status == 200 and again["id"] == new["id"] and again["you"] == 0
        status, joined = post(bo, f"/api/tables/{table_id}/rematch")
        assert status == 200 and joined["id"] == new["id"] and joined["you"] == 1
        assert joined["status"] == "playing"  # the last seat taken: the match starts
        assert table_row(r, table_id).status == "finished"


def test_accept_and_decline(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (ann, bo) = finished_duel(r)
        cy = r.guest("cy")
        status, new = post(ann, f"/api/tables/{table_id}/rematch")
        assert status == 200
        path = f"/api/tables/{new['id']}"
        # Nobody else may take Bo's kept seat, nor accept or decline it.
        taken = cy.post(f"{path}/join", json={"seat": 1})
        refused((taken.status_code, taken.json()), 409, "seat_taken")
        full = cy.post(f"{path}/join", json={})
        refused((full.status_code, full.json()), 409, "table_full")
        refused(post(cy, f"{path}/accept"), 409, "not_seated")
        refused(post(cy, f"{path}/decline"), 409, "not_seated")
        # Bo declines: the seat is free for anyone; declining again changes nothing.
        assert post(bo, f"{path}/decline") == (200, {"declined": 1})
        refused(post(bo, f"{path}/decline"), 409, "not_seated")
        refused(post(bo, f"{path}/accept"), 409, "not_seated")
        joined = cy.post(f"{path}/join", json={})
        assert joined.status_code == 200 and joined.json()["you"] == 1
        assert joined.json()["status"] == "playing"


def test_accepting_takes_the_kept_seat_and_starts_the_match(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (ann, bo) = finished_duel(r)
        status, new = post(bo, f"/api/tables/{table_id}/rematch")
        assert status == 200 and new["you"] == 1  # the asker keeps the seat they had
        # Ann may not sit elsewhere than her kept seat (there is no other one here).
        wrong = ann.post(f"/api/tables/{new['id']}/join", json={"seat": 1})
        refused((wrong.status_code, wrong.json()), 409, "seat_taken")
        status, accepted = post(ann, f"/api/tables/{new['id']}/accept")
        assert status == 200 and accepted["you"] == 0 and accepted["status"] == "playing"
        assert post(ann, f"/api/tables/{new['id']}/accept")[1]["you"] == 0  # idempotent


def test_a_rematch_against_bots_keeps_options_clock_privacy_and_bots(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann = r.guest("ann")
        old = create(
            ann,
            variant="german",
            options=SINGLE,
            clock=True,
            private=True,
            seat=1,
            bots={"0": "hard"},
        )
        with socks_on(old["id"], ann) as socks:
            pump(socks, over(*socks), choose=first_legal, timeout=30)
        # Nobody watches the ended table any more: the rematch still finds it.
        assert old["id"] not in r.app.state.club.actors
        status, new = post(ann, f"/api/tables/{old['id']}/rematch")
        assert status == 200, new
        assert new["you"] == 1 and new["status"] == "playing"
        assert new["seats"][0]["kind"] == "bot" and new["seats"][0]["bot"] == "hard"
        assert new["clock"] == old["clock"] and new["options"] == old["options"]
        assert table_row(r, new["id"]).private and table_row(r, new["id"]).invite_code
        assert old["id"] not in r.app.state.club.actors  # let go again
        again = post(ann, f"/api/tables/{old['id']}/rematch")
        assert again[0] == 200 and again[1]["id"] == new["id"]


def test_a_rematch_is_refused_to_outsiders_and_before_the_end(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann, cy = r.guest("ann"), r.guest("cy")
        playing = create(ann, variant="german", options=SINGLE, clock=False, bots={"1": "easy"})
        refused(post(ann, f"/api/tables/{playing['id']}/rematch"), 409, "wrong_phase")
        refused(post(cy, f"/api/tables/{playing['id']}/rematch"), 409, "not_seated")
        refused(post(ann, "/api/tables/nosuchtable/rematch"), 404, "no_table")
        refused(post(ann, "/api/tables/bad%20id/rematch"), 404, "no_table")
        refused(post(r.browser(), f"/api/tables/{playing['id']}/rematch"), 401, "not_signed_in")
        table_id, _ = finished_duel(r)
        refused(post(cy, f"/api/tables/{table_id}/rematch"), 409, "not_seated")
        assert table_row(r, table_id).status == "finished"
