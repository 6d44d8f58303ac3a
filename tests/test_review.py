"""The analysis behind "Review deal", through the real HTTP API (issue 20, point 4): a
finished deal's analysis is made once as a job (202 while it runs, 200 with it after), kept
in the store, shown only to the players who sat at the table, never for a deal in play."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from test_processes import ORPHAN_GRACE, Family, new_server, servers
from test_recovery import Guest, Server, play
from test_server import Room, create, first_legal, pump, room, socks_on
from whist.core.cards import card_text, cards_in
from whist.server import analysing
from whist.server.club import Club
from whist.server.deps import COOKIE

__all__ = ["servers"]  # a fixture, used by name

ANALYSIS_DEADLINE = 120.0  # seconds: a Classic deal takes ~2 s; a loaded 2-core machine more


def club_of(r: Room) -> Club:
    return r.app.state.club  # type: ignore[no-any-return]


def classic_with_bots(player: TestClient) -> str:
    """Classic to 8 with three EASY bots: at least two deals (a deal gives 7 points at most)."""
    info = create(player, variant="classic", options={"target": 8}, clock=False,
                  bots={"1": "easy", "2": "easy", "3": "easy"})  # fmt: skip
    return str(info["id"])


def play_first_deal(r: Room, player: TestClient, table_id: str) -> None:
    """Deal 0 to its end and deal 1 under way (cards dealt, none of them seen)."""
    deals = lambda: club_of(r).actors[table_id].state.match.deals  # noqa: E731
    with socks_on(table_id, player) as socks:
        pump(socks, lambda: len(deals()) > 1, choose=first_legal, timeout=120)
    assert deals()[0].complete and not deals()[1].complete


def analysis_url(table_id: str, deal: int) -> str:
    return f"/api/games/{table_id}/deals/{deal}/analysis"


def wait_ready(player: TestClient, table_id: str, deal: int) -> tuple[dict[str, Any], int]:
    """Poll until the analysis is ready: the answer and how many 202s came first."""
    waits = 0
    deadline = time.monotonic() + ANALYSIS_DEADLINE
    while True:
        response = player.get(analysis_url(table_id, deal))
        if response.status_code == 200:
            return response.json(), waits
        assert response.status_code == 202, response.text
        assert response.json() == {"status": "analysing"}
        assert response.headers["retry-after"] == "1"
        waits += 1
        assert time.monotonic() < deadline, "the analysis never came"
        time.sleep(0.1)


def check_graded(analysis: dict[str, Any]) -> None:
    """Every card of a Classic deal graded, values as the objective says, lost = the sum."""
    assert analysis["deal"] == 0 and analysis["players"] == 4
    assert sorted(analysis["hands"]) == ["0", "1", "2", "3"]
    hands = [card for cards in analysis["hands"].values() for card in cards]
    assert len(hands) == 52 and len(set(hands)) == 52
    plays = analysis["plays"]
    assert len(plays) == 52 and {p["card"] for p in plays} == set(hands)
    lost = dict.fromkeys(analysis["hands"], 0)
    for graded in plays:
        assert graded["exact"] is True
        assert graded["best"] >= graded["played"]  # most tricks: the best is at least as good
        assert graded["card"] in graded["hand"] and set(graded["best_cards"]) <= set(graded["hand"])
        assert (graded["best"] == graded["played"]) == (graded["card"] in graded["best_cards"])
        lost[str(graded["seat"])] += graded["best"] - graded["played"]
    assert analysis["lost"] == lost


@pytest.mark.parametrize("workers", [0, 1], ids=["thread", "process"])
def test_a_finished_deal_is_analysed_once_then_read_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    jobs: list[tuple[int, int]] = []
    real = analysing.Reviews._analyse

    async def counted(self: analysing.Reviews, key: tuple[str, int], document: Any) -> None:
        jobs.append((len(document["deals"]), key[1]))
        await asyncio.sleep(0.5)  # a Classic deal is analysed in ~0.1 s: leave time to ask again
        await real(self, key, document)

    monkeypatch.setattr(analysing.Reviews, "_analyse", counted)
    with room(tmp_path, analysis_workers=workers) as r:
        ann = r.guest("ann")
        table_id = classic_with_bots(ann)
        play_first_deal(r, ann, table_id)
        first = ann.get(analysis_url(table_id, 0))
        assert first.status_code == 202, first.text
        answer, waits = wait_ready(ann, table_id, 0)
        assert waits >= 1  # asked again while it ran: no second job
        assert jobs == [(2, 0)]
        assert answer["status"] == "ready" and answer["deal"] == 0 and answer["you"] == 0
        assert answer["variant"] == "classic" and answer["seats"][0] == "ann"
        check_graded(answer["analysis"])
        assert r.repo.analysis(table_id, 0) == answer["analysis"]
        # Asked again: read from the store at once, no job.
        again = ann.get(analysis_url(table_id, 0))
        assert again.status_code == 200 and again.json() == answer
        assert jobs == [(2, 0)] and not club_of(r).reviews.running


def test_a_deal_in_play_and_strangers_see_nothing(tmp_path: Path) -> None:
    with room(tmp_path, analysis_workers=0) as r:
        ann = r.guest("ann")
        table_id = classic_with_bots(ann)
        play_first_deal(r, ann, table_id)
        live = ann.get(analysis_url(table_id, 1))
        assert live.status_code == 409
        assert live.json()["code"] == "deal_not_over"
        state = club_of(r).actors[table_id].state
        deal = state.match.deals[1]
        hidden = [card_text(c) for seat in (1, 2, 3) for c in cards_in(deal.hands[seat])]
        assert hidden and not [card for card in hidden if card in live.text]
        assert not club_of(r).reviews.running  # nothing started for it
        for deal in (2, 99, -1):
            missing = ann.get(analysis_url(table_id, deal))
            assert missing.status_code == 404 and missing.json()["code"] == "no_deal"
        unknown = ann.get(analysis_url("nosuchtable", 0))
        assert unknown.status_code == 404 and unknown.json()["code"] == "no_table"
        stranger = r.guest("stranger")
        refused = stranger.get(analysis_url(table_id, 0))
        assert refused.status_code == 404 and refused.json()["code"] == "no_table"
        nobody = r.browser()
        assert nobody.get(analysis_url(table_id, 0)).status_code == 401
        assert not club_of(r).reviews.running and r.repo.analysis(table_id, 0) is None


def test_a_failed_analysis_is_told_once_then_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with room(tmp_path, analysis_workers=0) as r:
        ann = r.guest("ann")
        table_id = classic_with_bots(ann)
        play_first_deal(r, ann, table_id)
        real = analysing.analyse_deal

        def broken(document: dict[str, Any], deal: int) -> dict[str, Any]:
            raise RuntimeError("a bug")

        monkeypatch.setattr(analysing, "analyse_deal", broken)
        assert ann.get(analysis_url(table_id, 0)).status_code == 202
        deadline = time.monotonic() + 30
        while (response := ann.get(analysis_url(table_id, 0))).status_code == 202:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert response.status_code == 500
        assert response.json() == {
            "code": "analysis_failed",
            "message": "the analysis failed (RuntimeError)",
        }
        monkeypatch.setattr(analysing, "analyse_deal", real)
        assert ann.get(analysis_url(table_id, 0)).status_code == 202  # a new job
        answer, _ = wait_ready(ann, table_id, 0)
        check_graded(answer["analysis"])


def test_the_analysis_process_dies_with_a_killed_server(
    servers: list[Server], tmp_path: Path
) -> None:
    """Like the bot workers: a SIGKILLed ``whist serve`` leaves no analysis behind."""
    server = new_server(servers, tmp_path)
    server.start()
    family = Family(server.process)  # type: ignore[arg-type]
    family.wait_for_children(2)  # the bot workers
    ann = Guest(server, "Ann")
    table_id = ann.create("german", {"match": "single"}, False, {"1": "easy"})
    play([ann.socket(table_id, 0)], random.Random(3), None, timeout=90)
    with httpx2.Client(base_url=server.url, cookies={COOKIE: ann.token}, trust_env=False) as http:
        assert http.get(analysis_url(table_id, 0)).status_code == 202
    family.wait_for_children(3)  # the analysis process, apart from the bots'
    server.kill()
    family.assert_all_gone(within=ORPHAN_GRACE)
