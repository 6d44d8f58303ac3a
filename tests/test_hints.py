"""Hints in practice games (issue 20, point 5): MASTER's advice for a seat, with its
estimate, thought in a worker process on the seat's own view; the table's rules for
asking (the host's option, the only human, the seat's turn); the log entry that marks a
match as hinted (it survives a restart) and leaves it unrated.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis import Redis as SyncRedis

from cluster import Cluster, Player, Redis, Seat
from test_cluster import cluster, log_of, redis  # noqa: F401  (fixtures)
from test_jobs import (  # the private redis-server and bot-worker fixtures
    START_TIMEOUT,
    RedisServer,
    Workers,
    eventually,
    has_workers,
    node,
    redis_server,  # noqa: F401  (a fixture)
    workers,  # noqa: F401  (a fixture)
)
from test_protocol import SERVER, assert_valid
from test_server import Room, Sock, create, pump, room, socks_on
from whist.cluster.jobs import STREAM, BotJobs
from whist.core.actions import action_to_json
from whist.core.views import View, view_for
from whist.master.bot import Estimate, MasterBot
from whist.server.bots import BotPool, warm_up_here
from whist.server.deps import COOKIE
from whist.server.ratings import end_rating
from whist.variants import new_match


def position(variant: str, actions: int, deck_seed: int = 7) -> View:
    """The view of the seat to act after ``actions`` first-legal actions of a deal."""
    match = new_match(variant)
    deck = list(range(52))
    Random(deck_seed).shuffle(deck)
    match.start_deal(deck, dealer=0)
    for _ in range(actions):
        match.apply(match.legal_actions(match.to_act()[0])[0])
    return view_for(match, match.to_act()[0])


# ------------------------------------------------------------------ MASTER's advice
@pytest.mark.parametrize(
    ("variant", "actions", "unit"),
    [
        ("classic", 5, "margin"),  # card play, solved in sampled worlds
        ("minnesota", 0, "margin"),  # a bid, by playouts
        ("german", 3, "margin"),  # the stock phase, by playouts
        ("japanese", 6, "tricks"),  # early Japanese play, by rollouts
    ],
)
def test_advice_is_masters_own_choice_with_its_estimate(
    variant: str, actions: int, unit: str
) -> None:
    view = position(variant, actions)
    action, estimate = MasterBot().advise(view, Random("s"), 0.1)
    assert action in view.legal
    assert isinstance(estimate, Estimate) and estimate.unit == unit and estimate.worlds > 0
    assert estimate.to_json()["unit"] == unit


def test_advice_is_what_master_would_play() -> None:
    """The same seed gives ``choose``'s action (a budget its planned worlds keep well
    within, so that the deadline guard cannot cut one search short on a loaded machine)."""
    view = position("classic", 5)
    action, _ = MasterBot(most=40).advise(view, Random("s"), 5.0)
    assert action == MasterBot(most=40).choose(view, Random("s"), 5.0)


def test_a_forced_action_has_no_estimate() -> None:
    view = position("classic", 0)
    forced = View(**{**view.__dict__, "legal": view.legal[:1]})
    action, estimate = MasterBot().advise(forced, Random(0), 0.1)
    assert action == forced.legal[0] and estimate is None


def test_advice_for_a_secret_bid_holds_while_the_others_lock_theirs() -> None:
    """The others' locked bids tell nothing of what they bid: a hint asked before them is
    still for the same decision (bots bid while MASTER thinks), a played card is not."""
    match = new_match("minnesota")
    match.start_deal(list(range(52)), dealer=0)
    asked = view_for(match, 0)
    assert set(asked.to_act) == {0, 1, 2, 3}
    for seat in (1, 2, 3):
        match.apply(match.legal_actions(seat)[0])
    later = view_for(match, 0)
    assert later != asked and later.decided == (1, 2, 3)
    assert asked.same_decision(later)
    match.apply(match.legal_actions(0)[0])  # every bid is in: shown, and play begins
    player = match.to_act()[0]
    first = view_for(match, player)
    assert not asked.same_decision(view_for(match, 0))
    match.apply(match.legal_actions(player)[0])
    match.apply(match.legal_actions(match.to_act()[0])[0])
    assert not first.same_decision(view_for(match, player))


def test_the_pool_advises_in_a_worker_process() -> None:
    view = position("classic", 5)

    async def ask() -> dict[str, object]:
        pool = BotPool(1, 0.1)
        try:
            return await pool.advise(view, "seed")
        finally:
            pool.close()

    advice = asyncio.run(ask())
    assert advice["action"] in [action_to_json(a) for a in view.legal]
    estimate = advice["estimate"]
    assert isinstance(estimate, dict) and estimate["unit"] == "margin"


def test_a_bot_worker_advises_in_cluster_mode(
    redis_server: RedisServer,  # noqa: F811  (the fixture)
    workers: Workers,  # noqa: F811  (the fixture)
) -> None:
    """A hint in cluster mode is a bot job of kind ``advise``: a worker answers with the
    action and MASTER's estimate."""
    workers.start(budget=0.1)
    view = position("classic", 5)

    async def scenario(jobs: BotJobs) -> None:
        await eventually(lambda: has_workers(jobs, 1), START_TIMEOUT, "a live worker")
        advice = await jobs.advise(view, "seed")
        assert advice is not None
        assert advice["action"] in [action_to_json(a) for a in view.legal]
        assert advice["estimate"]["unit"] == "margin" and advice["estimate"]["worlds"] >= 1
        # A move job still answers a bare action, as before.
        assert await jobs.think("medium", view, "seed") in [action_to_json(a) for a in view.legal]

    node(redis_server.url, 0.1, scenario)


# ------------------------------------------------------------------ at the table
HINT_IDS = itertools.count(1)
WAIT = 20.0  # seconds a hint or a turn may take on a loaded machine


def practice(player: TestClient, hints: bool, **body: Any) -> str:
    """A one-deal Classic Whist table where ``player`` sits at seat 0 with three EASY bots."""
    bots = body.pop("bots", {"1": "easy", "2": "easy", "3": "easy"})
    info = create(
        player, variant="classic", options={"target": 1}, clock=False, bots=bots, hints=hints
    )
    table_id: str = info["id"]
    return table_id


def my_turn(sock: Sock) -> None:
    pump([sock], lambda: sock.can_act(), timeout=WAIT)


def ask_hint(sock: Sock) -> dict[str, Any]:
    """Ask for a hint and return the hint frame answering it (every frame checked against
    the schema on the way)."""
    message_id = f"h{next(HINT_IDS)}"
    seen = len(sock.frames)
    sock.send({"type": "hint", "id": message_id})
    answers = lambda: [f for f in sock.frames[seen:] if f["type"] == "hint"]  # noqa: E731
    pump([sock], lambda: bool(answers()), timeout=WAIT)
    for frame in sock.frames[seen:]:
        assert_valid(SERVER, frame)
    [answer] = answers()
    assert answer["id"] == message_id
    return answer


def hint_entries(room_: Room, table_id: str) -> list[dict[str, Any]]:
    return [data for kind, data, _at in room_.repo.log(table_id) if kind == "hint"]


def test_a_hint_needs_the_hosts_option_and_changes_nothing_when_refused(
    tmp_path: Path,
) -> None:
    with room(tmp_path, bot_budget=0.1) as here:
        player = here.guest("Ada")
        table_id = practice(player, hints=False)
        with socks_on(table_id, player) as [sock]:
            my_turn(sock)
            assert sock.table is not None
            assert sock.table["hints"] == {"allowed": False, "open": False, "shown": False}
            version = sock.version
            answer = ask_hint(sock)
            assert answer["code"] == "hints_off" and "action" not in answer
            assert answer["version"] == version == sock.version  # nothing changed
            assert hint_entries(here, table_id) == []


def test_hints_stop_while_another_person_is_seated(tmp_path: Path) -> None:
    with room(tmp_path, bot_budget=0.1) as here:
        host, guest = here.guest("Host"), here.guest("Guest")
        table_id = practice(host, hints=True, bots={"2": "easy", "3": "easy"})
        with socks_on(table_id, host) as [alone]:
            pump([alone], lambda: alone.table is not None, timeout=WAIT)
            assert alone.table is not None
            assert alone.table["hints"] == {"allowed": True, "open": True, "shown": False}
            assert ask_hint(alone)["code"] == "wrong_phase"  # open: no decision to make yet
        joined = guest.post(f"/api/tables/{table_id}/join", json={"seat": 1})
        assert joined.status_code == 200, joined.text
        with socks_on(table_id, host, guest) as socks:
            pump(socks, lambda: any(s.can_act() for s in socks), timeout=WAIT)
            sock = next(s for s in socks if s.can_act())
            assert sock.table is not None
            assert sock.table["hints"] == {"allowed": True, "open": False, "shown": False}
            version = sock.version
            answer = ask_hint(sock)
            assert answer["code"] == "not_alone" and "action" not in answer
            assert sock.version == version
            assert hint_entries(here, table_id) == []


def test_a_hint_is_masters_choice_on_the_seats_view_logged_before_it_is_sent(
    tmp_path: Path,
) -> None:
    with room(tmp_path, bot_budget=0.1, bot_delay=1.0) as here:
        player = here.guest("Ada")
        token = player.cookies[COOKIE]
        table_id = practice(player, hints=True)
        club = here.app.state.club
        asked: list[tuple[View, str]] = []
        advise = club.advise

        async def spy(view: View, seed: str) -> dict[str, Any]:
            asked.append((view, seed))
            return await advise(view, seed)  # type: ignore[no-any-return]

        club.advise = spy
        with socks_on(table_id, player) as [sock]:
            my_turn(sock)
            seat = sock.view["seat"]
            version = sock.version
            answer = ask_hint(sock)
            assert answer["action"] in sock.legal
            estimate = answer["estimate"]
            assert estimate is None or estimate["unit"] == "margin"
            # MASTER was given this seat's view, as the seat's socket gets it: no more.
            [(view, _seed)] = asked
            match = club.actors[table_id].state.match
            assert view.seat == seat and view == view_for(match, seat)
            assert view.to_json() == sock.view
            # The marker was committed first: the state announcing it came before the hint.
            marked = [f for f in sock.frames if f["type"] == "state" and f["version"] > version]
            assert marked and marked[0]["table"]["hints"]["shown"] is True
            assert answer["version"] == marked[0]["version"]
            assert hint_entries(here, table_id) == [{"seat": seat}]
            # A second hint is given without a second entry; then the hint is played.
            assert ask_hint(sock)["action"] in sock.legal
            assert len(hint_entries(here, table_id)) == 1
            action = {k: v for k, v in answer["action"].items() if k != "seat"}
            sock.act(action)
            pump([sock], lambda: sock.pending is None, timeout=WAIT)
            assert sock.acks and not sock.errors
            while sock.can_act():  # her card took the trick and she leads: play on
                sock.act(sock.legal[0])
                pump([sock], lambda: sock.pending is None, timeout=WAIT)
            # Bots to act now (each waits bot_delay): no decision of this seat's to hint.
            assert ask_hint(sock)["code"] == "not_your_turn"
            assert len(asked) == 2  # refusals never reach a worker
    # The marker is in the log: a table restored from it knows the match is hinted.
    with room(tmp_path, bot_budget=0.1) as again:
        state = again.app.state.club.actors[table_id].state
        assert state.hints_shown and end_rating(state) is None
        player = again.browser()
        player.cookies.set(COOKIE, token)
        info = player.get(f"/api/tables/{table_id}").json()
        assert info["hints"] == {"allowed": True, "open": True, "shown": True}
        [game] = player.get("/api/games").json()
        assert game["id"] == table_id and game["hints_used"] is True


def slow_advice(here: Room, seconds: float) -> list[str]:
    """MASTER's advice comes ``seconds`` late (the worker is busy, the machine loaded);
    the seed of each advice given is added to the list returned, once it is given.  The
    solvers are loaded first: these rooms think in the test's own process, whose pool
    would load them before the first advice, in a thread that on a loaded machine could
    slow the table answers these tests time."""
    warm_up_here()
    club = here.app.state.club
    advise = club.advise
    given: list[str] = []

    async def slow(view: View, seed: str) -> dict[str, Any]:
        await asyncio.sleep(seconds)
        advice: dict[str, Any] = await advise(view, seed)
        given.append(seed)
        return advice

    club.advise = slow
    return given


def test_a_slow_hint_delays_nothing_and_a_stale_one_is_not_shown(tmp_path: Path) -> None:
    with room(tmp_path, bot_budget=0.1, bot_delay=1.0) as here:
        player = here.guest("Ada")
        table_id = practice(player, hints=True)
        slow_advice(here, 1.5)
        with socks_on(table_id, player) as [sock]:
            my_turn(sock)
            seen = len(sock.frames)
            sock.send({"type": "hint", "id": "slow"})
            asked = time.monotonic()
            sock.act(sock.legal[0])  # the table answers at once, the hint still thinking
            pump([sock], lambda: sock.pending is None, timeout=WAIT)
            assert time.monotonic() - asked < 1.0 and sock.acks and not sock.errors
            pump([sock], lambda: any(f["type"] == "hint" for f in sock.frames[seen:]), WAIT)
            [hint] = [f for f in sock.frames[seen:] if f["type"] == "hint"]
            assert hint["code"] == "position_changed" and "action" not in hint
            assert hint_entries(here, table_id) == []  # not shown: not logged


def test_a_hint_whose_asker_left_is_neither_sent_nor_logged(tmp_path: Path) -> None:
    with room(tmp_path, bot_budget=0.1) as here:
        player = here.guest("Ada")
        table_id = practice(player, hints=True)
        given = slow_advice(here, 0.5)
        with socks_on(table_id, player) as [sock]:
            my_turn(sock)
            sock.send({"type": "hint", "id": "gone"})
        actor = here.app.state.club.actors[table_id]
        deadline = time.monotonic() + WAIT
        while (not given or actor.hinting) and time.monotonic() < deadline:
            time.sleep(0.05)  # the advice comes back meanwhile, to nobody
        assert given and not actor.hinting, "the advice never came back"
        assert hint_entries(here, table_id) == []
        assert not actor.state.hints_shown
        with socks_on(table_id, player) as [sock]:  # and hints still work
            my_turn(sock)
            assert "action" in ask_hint(sock)
            assert len(hint_entries(here, table_id)) == 1


def standing(browser: TestClient) -> list[dict[str, Any]]:
    me = browser.get("/api/me").json()
    profile = browser.get(f"/api/players/{me['id']}/profile").json()
    return profile["variants"]  # type: ignore[no-any-return]


def test_a_hinted_match_is_not_rated_and_an_unhinted_one_is(tmp_path: Path) -> None:
    with room(tmp_path, bot_budget=0.05) as here:
        player = here.guest("Ada")
        played: dict[str, bool] = {}
        for hints, rated in ((True, 0), (False, 1)):
            table_id = practice(player, hints=hints)
            played[table_id] = hints
            with socks_on(table_id, player) as [sock]:
                my_turn(sock)
                if hints:
                    assert "action" in ask_hint(sock)
                pump(
                    [sock],
                    lambda: sock.table is not None and sock.table["status"] == "finished",
                    timeout=60.0,
                    choose=lambda s: s.legal[0],
                )
            assert sum(v["matches"] for v in standing(player)) == rated
            # A rematch is made with the same options: hints allowed or not, as here.
            rematch = player.post(f"/api/tables/{table_id}/rematch")
            assert rematch.status_code == 200, rematch.text
            assert rematch.json()["hints"]["allowed"] is hints
            assert rematch.json()["hints"]["shown"] is False
            # (Ada is seated there with the bots: it starts, and waits for her.)
        games = {g["id"]: g["hints_used"] for g in player.get("/api/games").json()}
        assert {table: games[table] for table in played} == played


def test_a_hint_through_another_node_is_thought_by_a_bot_worker(
    tmp_path: Path,
    redis: Redis,  # noqa: F811  (the fixture)
    cluster: Cluster,  # noqa: F811  (the fixture)
) -> None:
    """Cluster mode: the player's socket is on the node that does not run the table; the
    hint goes to the owner, which has a ``whist bot-worker`` think (a job of kind
    ``advise`` on the bot stream), and comes back to that socket alone."""
    a, b = cluster.add(), cluster.add()
    worker = Workers(redis, tmp_path)  # type: ignore[arg-type]  # it needs only the URL
    worker.start_live(budget=0.3)
    client = SyncRedis.from_url(redis.url)
    try:
        host = Player(a, "host")
        body = {
            "variant": "classic",
            "options": {"target": 1},
            "clock": False,
            "hints": True,
            "bots": {"1": "easy", "2": "easy", "3": "easy"},
        }
        table_id = host.ok(a, "POST", "/api/tables", body)["id"]
        seat = Seat(host, [b, a], table_id)  # on b: a is the owner
        seat.wait(seat.my_turn, "her turn", WAIT)
        seat._send({"type": "hint", "id": "h-cluster"})
        seat.wait(lambda: bool(seat.hints), "the hint", WAIT)
        [hint] = seat.hints
        assert hint["id"] == "h-cluster" and "action" in hint, hint  # not a refusal
        assert hint["action"] in seat.view["legal"]
        assert seat.table["hints"]["shown"] is True  # the marker's state came first
        jobs = [fields for _id, fields in client.xrange(STREAM)]
        assert any(fields.get(b"kind") == b"advise" for fields in jobs), "no advise job"
        assert ("hint", {"seat": 0}) in [
            (k, d) for _s, k, d in log_of(cluster.database_url, table_id)
        ]
        seat.close()
    finally:
        client.close()
        worker.close()
