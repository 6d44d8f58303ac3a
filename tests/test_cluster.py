"""Cluster mode with real processes: ``whist serve`` nodes on one PostgreSQL database and a
private Redis, played through sockets on any node, while nodes are killed, paused and
restarted, and Redis goes away."""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from redis import Redis as RedisClient

from cluster import LEASE_SECONDS, Cluster, Player, Redis, Seat
from test_commit_heal import PgProxy
from test_recovery import postgres_database
from whist.cluster.node import LOBBY
from whist.server.table import TableState

EASY = {"1": "easy", "2": "easy", "3": "easy"}


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path / "redis")
    server.start()
    yield server
    server.kill()


@pytest.fixture
def cluster(tmp_path: Path, redis: Redis) -> Iterator[Cluster]:
    for url in postgres_database():
        club = Cluster(tmp_path, url, redis)
        try:
            yield club
        finally:
            club.close()


def play(seats: list[Seat], actions: int, rng: random.Random) -> list[tuple[Seat, int]]:
    """The humans make ``actions`` moves (random legal ones; fewer when the match ends);
    returns each ack's version."""
    acked: list[tuple[Seat, int]] = []
    deadline = time.monotonic() + 90
    while len(acked) < actions:
        assert time.monotonic() < deadline, "the humans did not get to play"
        newest = max([s.version for s in seats] + [version for _s, version in acked])
        for seat in seats:  # every seat sees the newest state first
            seat.wait(lambda s=seat, n=newest: s.version >= n, f"version {newest}", 30)
        if seats[0].view["over"]:
            break
        mover = next((s for s in seats if s.my_turn()), None)
        if mover is not None:
            acked.append((mover, mover.act(rng.choice(mover.view["legal"]))))
            continue
        seats[0].wait(lambda n=newest: seats[0].version > n, "a bot's move", 30)
    return acked


def log_of(database_url: str, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    with psycopg.connect(database_url, autocommit=True) as db:
        rows = db.execute(
            "SELECT seq, kind, data FROM table_log WHERE table_id = %s ORDER BY seq", (table_id,)
        ).fetchall()
    return [(int(seq), str(kind), data) for seq, kind, data in rows]


def assert_log_whole(cluster: Cluster, table_id: str, acked: list[tuple[Seat, int]]) -> None:
    """The log replays from the start (no gap, no entry of a fenced node) and holds every
    acknowledged action at the version its ack named."""
    entries = log_of(cluster.database_url, table_id)
    assert [seq for seq, _k, _d in entries] == list(range(1, len(entries) + 1))
    with psycopg.connect(cluster.database_url, autocommit=True) as db:
        variant, options, clock = db.execute(
            "SELECT variant, options, clock_seconds FROM tables WHERE id = %s", (table_id,)
        ).fetchone()
    state = TableState.new(table_id, variant, options, clock)
    # Raises on a move that was not legal then.
    state.replay((kind, data) for _seq, kind, data in entries)
    kinds = {seq: kind for seq, kind, _d in entries}
    for _seat, version in acked:
        assert kinds.get(version) == "action", f"ack of version {version} is not in the log"


def two_humans(cluster: Cluster, target: int = 13) -> tuple[str, list[Player]]:
    """A Minnesota table made on the first node: two humans (seats 0 and 2), bots at 1 and
    3; ``target``: the points that end the match."""
    a = cluster.nodes[0]
    host, guest = Player(a, "host"), Player(cluster.nodes[-1], "guest")
    body = {
        "variant": "minnesota",
        "options": {"target": target},
        "clock": False,
        "bots": {"1": "easy", "3": "easy"},
    }
    table_id = host.ok(a, "POST", "/api/tables", body)["id"]
    joined = guest.ok(cluster.nodes[-1], "POST", f"/api/tables/{table_id}/join", {"seat": 2})
    assert joined["you"] == 2 and joined["status"] == "playing"
    return table_id, [host, guest]


def test_a_table_is_played_from_sockets_on_every_node(cluster: Cluster) -> None:
    """Any node serves any table: the owner (the node that made it) builds each seat's
    view; sockets on the other node get their frames over Redis, in version order."""
    a, b = cluster.add(), cluster.add()
    table_id, (host, guest) = two_humans(cluster)
    assert cluster.owner(table_id) == cluster.node_id(a)
    seats = [Seat(host, [b, a], table_id), Seat(guest, [b, a], table_id)]
    watcher = Seat(Player(a, "watcher"), [a, b], table_id)
    acked = play(seats, 12, random.Random(1))
    for seat in seats:
        assert seat.reconnects == 0
        assert seat.versions == sorted(seat.versions), "frames out of order"
        assert seat.view["seat"] in (0, 2)
    assert seats[0].view["hand"] != seats[1].view["hand"]
    # Presence: the owner counts the sockets on the other node as connected.
    connected = [seat["connected"] for seat in seats[0].table["seats"]]
    assert connected == [True, False, True, False], connected
    watcher.wait(lambda: watcher.version >= seats[0].version, "the moves", 30)
    assert watcher.view["seat"] is None and watcher.view["hand"] == []
    assert_log_whole(cluster, table_id, acked)
    # The lobby and the table's listing are the same from both nodes.
    assert (
        host.ok(b, "GET", f"/api/tables/{table_id}")["seats"]
        == host.ok(a, "GET", f"/api/tables/{table_id}")["seats"]
    )


def wait_for(what: str, done: Any, timeout: float) -> float:
    """Poll ``done()`` until true; returns the seconds it took."""
    started = time.monotonic()
    while not done():
        assert time.monotonic() - started < timeout, f"no {what} within {timeout} s"
        time.sleep(0.05)
    return time.monotonic() - started


def test_a_killed_node_s_tables_are_taken_over_within_10_s(cluster: Cluster) -> None:
    """SIGKILL the owner mid-deal: another node rebuilds the table from the log within
    10 s, the sockets (on the dead node and elsewhere) find it, bots carry on, and no
    acknowledged action is lost."""
    a, b = cluster.add(), cluster.add()
    table_id, (host, guest) = two_humans(cluster)
    seats = [Seat(host, [a, b], table_id), Seat(guest, [b, a], table_id)]
    rng = random.Random(2)
    acked = play(seats, 8, rng)
    a.kill()
    took = wait_for("new owner", lambda: cluster.owner(table_id) == cluster.node_id(b), timeout=10)
    acked += play(seats, 8, rng)  # bots at seats 1 and 3 move too
    assert seats[0].reconnects >= 1 and seats[1].reconnects == 0
    assert_log_whole(cluster, table_id, acked)
    assert took <= 10


def test_a_clock_is_not_charged_for_the_time_without_a_node(cluster: Cluster) -> None:
    """The owner dies while a human's clock runs: on the new node the clock resumes with the
    time it had left when the old node was last seen, so the deadline moves later by the
    time the table had no node."""
    a, b = cluster.add(WHIST_CLOCK_SECONDS="60"), cluster.add(WHIST_CLOCK_SECONDS="60")
    host = Player(a, "host")
    body = {"variant": "minnesota", "clock": True, "bots": EASY}
    table_id = host.ok(a, "POST", "/api/tables", body)["id"]
    seat = Seat(host, [b], table_id)
    seat.wait(lambda: seat.my_turn() and "0" in seat.table["deadlines"], "the clock", 30)
    before = seat.table["deadlines"]["0"]
    time.sleep(1)
    killed = time.monotonic()
    a.kill()
    wait_for("new owner", lambda: cluster.owner(table_id) == cluster.node_id(b), timeout=10)
    seat.wait(lambda: seat.table["deadlines"].get("0", before) != before, "a new deadline", 15)
    outage = time.monotonic() - killed
    moved = (seat.table["deadlines"]["0"] - before) / 1000
    # Charged up to the old node's last heartbeat (at most a quarter of the lease before
    # the kill), not from then until the new node restored the table: that is at least the
    # lease (the table is claimed only once the heartbeat has run out), at most the outage.
    lease = float(LEASE_SECONDS)
    assert lease - lease / 4 - 0.1 <= moved <= outage + 0.5, (moved, outage)
    assert seat.my_turn()


def test_a_paused_owner_is_fenced_off(cluster: Cluster) -> None:
    """SIGSTOP the owner past its lease: another node takes the table and play goes on
    there. SIGCONT: the old owner finds its lease taken (or its append fenced off) and never
    writes to the table again."""
    a, b = cluster.add(), cluster.add()
    table_id, (host, guest) = two_humans(cluster)
    seats = [Seat(host, [b], table_id), Seat(guest, [b], table_id)]
    rng = random.Random(3)
    acked = play(seats, 4, rng)
    assert a.process is not None
    a.process.send_signal(signal.SIGSTOP)
    try:
        # Acted on while the owner sleeps: the socket's node takes the table over (lease
        # run out) and re-sends the act there.
        acked += play(seats, 6, rng)
        assert cluster.owner(table_id) == cluster.node_id(b)
    finally:
        a.process.send_signal(signal.SIGCONT)
    time.sleep(3)  # the old owner wakes up: its renewals and any pending move
    acked += play(seats, 4, rng)
    assert_log_whole(cluster, table_id, acked)
    text = a.log_path.read_text(errors="replace")
    assert "another node runs it now" in text or "fenced off" in text, a.log_tail()
    assert cluster.owner(table_id) == cluster.node_id(b)


def press(
    start: threading.Barrier, results: list[Any], index: int, player: Player, node: Any
) -> None:
    """Quick play, at the same moment as the other thread."""
    start.wait()
    results[index] = player.ok(node, "POST", "/api/quickplay", {"variant": "minnesota"})


def test_quick_play_on_two_nodes_at_once_never_gives_one_seat_twice(
    cluster: Cluster, redis: Redis
) -> None:
    """One free seat left at an open table; two players press quick play on two nodes at
    the same moment: one gets the seat, the other another table. The owner puts the table
    in the shared lobby within a second, and the other node lists it from there."""
    a, b = cluster.add(), cluster.add()
    with RedisClient.from_url(redis.url) as lobby:
        for round_ in range(3):
            host = Player(a, f"host{round_}")
            body = {"variant": "minnesota", "clock": False, "bots": {"1": "easy", "2": "easy"}}
            table_id = host.ok(a, "POST", "/api/tables", body)["id"]
            # Timed at the lobby itself: a node reads it on every request, so what is left
            # is one request's time, which a loaded CI machine can stretch past a second.
            written = wait_for(
                "the owner's listing in the lobby",
                lambda t=table_id: (
                    json.loads(lobby.hget(LOBBY, t) or "{}").get("free_seats") == [3]
                ),
                timeout=5,
            )
            assert written <= 1.0
            wait_for(
                "listing on the other node",
                lambda t=table_id, h=host: any(
                    info["id"] == t and info["free_seats"] == [3]
                    for info in h.ok(b, "GET", "/api/tables")
                ),
                timeout=5,
            )
            players = [Player(a, f"x{round_}"), Player(b, f"y{round_}")]
            results: list[Any] = [None, None]
            start = threading.Barrier(2)
            threads = [
                threading.Thread(target=press, args=(start, results, i, player, node))
                for i, (player, node) in enumerate(zip(players, (a, b), strict=True))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            got = [(r["id"], r["you"]) for r in results]
            assert got[0] != got[1]
            assert sorted(t == table_id for t, _seat in got) == [False, True], got
            assert (table_id, 3) in got


def remote_and_local(cluster: Cluster) -> tuple[str, Seat, Seat]:
    """Two nodes (``cluster.nodes``), a two-human table made on the first (its owner), the
    host's socket on the second node (``remote``: its frames cross Redis) and the guest's on
    the owner."""
    a, b = cluster.add(), cluster.add()
    table_id, (host, guest) = two_humans(cluster)
    return table_id, Seat(host, [b], table_id), Seat(guest, [a], table_id)


def test_redis_going_away_refuses_then_resumes(cluster: Cluster, redis: Redis) -> None:
    """Redis is killed: a socket whose table runs on another node is refused with a clear
    error; the owner's own sockets play on. Redis back: every socket gets a fresh state and
    play goes on, nothing lost or applied twice."""
    table_id, remote, local = remote_and_local(cluster)
    b = cluster.nodes[1]
    seats = [remote, local]
    rng = random.Random(4)
    acked = play(seats, 4, rng)
    redis.kill()
    # Once the node knows Redis is gone (its /healthz says so, with 503), an act for a table
    # run elsewhere is refused at once; the owner's own socket plays on.
    wait_for("the node to see Redis gone", lambda: not redis_up(b), timeout=20)
    errors = len(remote.errors)
    remote._send({"type": "act", "id": "while-redis-is-away", "action": {"bid": "pass"}})
    remote.wait(lambda: len(remote.errors) > errors, "a refusal", 10)
    assert remote.errors[-1]["code"] == "unavailable", remote.errors[-1]
    redis.start()
    time.sleep(3)
    acked += play(seats, 8, rng)
    assert_log_whole(cluster, table_id, acked)
    for seat in seats:
        assert seat.versions[-1] == max(seat.versions)


def node_status(node: Any) -> dict[str, Any]:
    import httpx2

    with httpx2.Client(base_url=node.url, timeout=5, trust_env=False) as client:
        return dict(client.get("/healthz").json()["cluster"])


def redis_up(node: Any) -> bool:
    return bool(node_status(node)["redis"])


def until_alone_to_act(seat: Seat, seats: list[Seat], rng: random.Random) -> list[tuple[Seat, int]]:
    """Play on until ``seat`` alone is to act: nothing changes at the table until it moves."""
    acked: list[tuple[Seat, int]] = []
    while not (seat.my_turn() and len(seat.view["to_act"]) == 1):
        assert not seat.view["over"], "the match ended first"
        acked += play(seats, 1, rng)
    for other in seats:
        other.wait(lambda o=other: o.version >= seat.version, f"version {seat.version}")
    return acked


def test_a_broken_subscription_brings_every_socket_a_fresh_state(
    cluster: Cluster, redis: Redis
) -> None:
    """Redis closes the nodes' subscriptions (a restart quicker than a retry, a client limit
    reached): whatever was sent to a node in the gap is lost, so the nodes notice the break
    and every socket gets a fresh state; play goes on."""
    table_id, remote, local = remote_and_local(cluster)
    seats = [remote, local]
    rng = random.Random(6)
    acked = play(seats, 2, rng)
    acked += until_alone_to_act(local, seats, rng)
    states = [len(seat.versions) for seat in seats]
    with RedisClient.from_url(redis.url) as client:
        assert client.client_kill_filter(_type="pubsub") >= 2  # the bus of each node, and more
    for seat, seen in zip(seats, states, strict=True):
        seat.wait(lambda s=seat, n=seen: len(s.versions) > n, "a fresh state", 10)
    acked += play(seats, 4, rng)
    assert_log_whole(cluster, table_id, acked)


def test_a_node_taken_for_gone_gets_its_sockets_back(cluster: Cluster) -> None:
    """The owner takes the other node for gone (its heartbeat lapsed: a pause here; after a
    Redis restart every heartbeat is lost until the next) and drops that node's sockets
    from the table. The node was alive: its socket connects again, gets a fresh state and
    plays on, nothing lost or applied twice."""
    table_id, remote, local = remote_and_local(cluster)
    a, b = cluster.nodes
    seats = [remote, local]
    rng = random.Random(5)
    acked = play(seats, 4, rng)
    acked += until_alone_to_act(local, seats, rng)  # it moves first after the pause
    assert b.process is not None
    b.process.send_signal(signal.SIGSTOP)
    try:
        wait_for(
            "the owner to drop the paused node's socket",
            lambda: not node_status(a)["remote_sockets"],
            timeout=20,
        )
    finally:
        b.process.send_signal(signal.SIGCONT)
    acked.append((local, local.act(rng.choice(local.view["legal"]))))
    remote.wait(lambda: remote.version >= local.version, "the owner's new state", 15)
    acked += play(seats, 8, rng)
    assert_log_whole(cluster, table_id, acked)
    assert node_status(a)["remote_sockets"] == 1
    for seat in seats:
        assert seat.versions[-1] == max(seat.versions)


def test_a_rolling_restart_refuses_no_action(cluster: Cluster) -> None:
    """SIGTERM each node in turn (and start it again) while two tables are played through
    sockets on both nodes: each stopping node hands its tables over, the sockets follow
    them, and every action is acknowledged."""
    a, b = cluster.add(), cluster.add()
    tables = [two_humans(cluster, target=1000), two_humans(cluster, target=1000)]
    seats = [
        [Seat(players[0], [a, b], table_id), Seat(players[1], [b, a], table_id)]
        for table_id, players in tables
    ]
    rng = random.Random(5)
    acked: list[list[tuple[Seat, int]]] = [[], []]
    stop = threading.Event()
    failures: list[BaseException] = []

    def players(index: int) -> None:
        try:
            while not stop.is_set():
                acked[index] += play(seats[index], 1, rng)
        except BaseException as exc:  # reported by the test below
            failures.append(exc)

    threads = [threading.Thread(target=players, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    try:
        for node in (a, b):
            time.sleep(2)
            node.stop()  # SIGTERM: hands its tables over
            time.sleep(1)
            node.start()
        time.sleep(2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(120)
    assert not failures, failures
    for (table_id, _players), done in zip(tables, acked, strict=True):
        assert len(done) >= 5
        assert_log_whole(cluster, table_id, done)
    assert all(not seat.errors for pair in seats for seat in pair), [
        seat.errors for pair in seats for seat in pair
    ]


def test_the_database_going_away_refuses_then_resumes(tmp_path: Path, redis: Redis) -> None:
    """The nodes lose PostgreSQL: acts are refused with ``unavailable`` (nothing stored, and
    the nodes stop running tables whose leases they cannot renew). PostgreSQL back: the
    tables are claimed again from their logs and play goes on, nothing lost or doubled."""
    for url in postgres_database():
        parts = urlsplit(url)
        proxy = PgProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        through = parts._replace(
            netloc=f"{parts.username}@127.0.0.1:{proxy.port}",
            query="sslmode=disable&gssencmode=disable",
        ).geturl()
        cluster = Cluster(tmp_path, url, redis, nodes_url=through)
        try:
            a, b = cluster.add(), cluster.add()
            table_id, (host, guest) = two_humans(cluster)
            seats = [Seat(host, [b], table_id), Seat(guest, [a], table_id)]
            rng = random.Random(6)
            acked = play(seats, 4, rng)
            with proxy.lock:
                proxy.down = True
                links = set(proxy.links)
            for link in links:
                link.close()
            mover = next((s for s in seats if s.my_turn()), None)
            if mover is not None:
                errors = len(mover.errors)
                action = {k: v for k, v in mover.view["legal"][0].items() if k != "seat"}
                mover._send({"type": "act", "id": "while-db-is-away", "action": action})
                mover.wait(lambda m=mover, n=errors: len(m.errors) > n, "a refusal", 15)
                assert mover.errors[-1]["code"] == "unavailable", mover.errors[-1]
            time.sleep(3)  # past the lease: the nodes give their tables up
            proxy.come_up()
            acked += play(seats, 8, rng)
            assert_log_whole(cluster, table_id, acked)
            assert "while-db-is-away" not in str(log_of(url, table_id))
        finally:
            cluster.close()
            proxy.close()


def test_xp_is_awarded_once_when_a_match_ends_after_a_failover(cluster: Cluster) -> None:
    """A one-deal match whose node is killed mid-deal ends on the other node: each winner
    gets its XP once, the same seen from both nodes."""
    a, b = cluster.add(), cluster.add()
    table_id, (host, guest) = two_humans(cluster, target=1)
    seats = [Seat(host, [a, b], table_id), Seat(guest, [b, a], table_id)]
    rng = random.Random(7)
    acked = play(seats, 4, rng)
    a.kill()
    while not seats[0].view["over"]:
        acked += play(seats, 1, rng)
    a.start()
    assert_log_whole(cluster, table_id, acked)
    with psycopg.connect(cluster.database_url, autocommit=True) as db:
        winner = db.execute("SELECT result FROM tables WHERE id = %s", (table_id,)).fetchone()
    side = winner[0]["winner"]
    for seat, player in zip((0, 2), (host, guest), strict=True):
        xp = {player.ok(node, "GET", "/api/me")["xp"] for node in (a, b)}
        assert xp == {100 if seat % 2 == side else 0}, (seat, side, xp)
