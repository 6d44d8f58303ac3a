"""Leases and fencing at the store, on a real PostgreSQL: a node that lost a table's lease
cannot append to its log, whatever it believes."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from test_recovery import postgres_database
from whist.store.db import make_engine, migrate
from whist.store.leases import Leases
from whist.store.models import Table
from whist.store.repository import Append, Repository, now


@pytest.fixture
def engine() -> Iterator[Engine]:
    for url in postgres_database():
        engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        migrate(engine)
        try:
            yield engine
        finally:
            engine.dispose()


def a_table(repo: Repository, table_id: str, leases: Leases | None = None) -> None:
    """A playing table; with ``leases``, created under that node's lease (epoch 1)."""
    player = repo.create_player("host")
    assert player is not None
    row = Table(id=table_id, variant="german", options={}, clock_seconds=None, private=False,
                invite_code=None, host_id=player.id, status="playing", created_at=now(),
                finished_at=None, result=None)  # fmt: skip
    if leases is None:
        repo.create_table(row)
    else:
        assert leases.create(row) == 1


def expire(engine: Engine, node: str) -> None:
    """The node paused (or died) past its lease: its heartbeat has run out."""
    with engine.begin() as db:
        db.execute(
            text("UPDATE cluster_nodes SET expires_at = now() - interval '1 second'"
                 " WHERE node = :node"),
            {"node": node},
        )  # fmt: skip


def test_an_append_under_a_lost_lease_is_fenced_off_and_stores_nothing(engine: Engine) -> None:
    repo = Repository(engine)
    old, new = Leases(engine, "old", 30), Leases(engine, "new", 30)
    old.beat()
    new.beat()
    a_table(repo, "t1", old)
    assert new.claim(10) == [], "a live lease is not claimed"
    expire(engine, "old")  # the old node paused past its lease
    (claim,) = new.claim(10)
    assert (claim.table_id, claim.epoch) == ("t1", 2)
    assert old.beat() == {}, "the old node learns it lost the table"
    assert new.beat() == {"t1": 2}
    stale = Append("t1", 1, (("start", {}),), epoch=1)
    fresh = Append("t1", 1, (("start", {}),), epoch=2)
    assert repo.append_batch([stale]) == [stale]
    assert repo.log("t1") == []
    assert repo.append_batch([fresh]) == []
    assert [kind for kind, _data, _at in repo.log("t1")] == ["start"]


def test_a_claim_takes_one_table_once_and_a_release_frees_it_at_once(engine: Engine) -> None:
    repo = Repository(engine)
    for table_id in ("t1", "t2"):
        a_table(repo, table_id)
    a, b = Leases(engine, "a", 30), Leases(engine, "b", 30)
    a.beat()
    b.beat()
    # Tables without a lease row (made before cluster mode) are claimed like expired ones
    # once a node has given them a lease row (when it starts).
    assert a.claim(10) == []
    assert a.lease_unleased() == 2
    first = a.claim(1)
    second = b.claim(10)
    assert len(first) == 1 and len(second) == 1
    assert {first[0].table_id, second[0].table_id} == {"t1", "t2"}
    assert a.claim(10) == [] and b.claim(10) == []
    held = {first[0].table_id: first[0].epoch}
    started = time.monotonic()
    a.release(held)
    (taken,) = b.claim(10)
    assert taken.table_id == first[0].table_id and taken.epoch == first[0].epoch + 1
    assert time.monotonic() - started < 5
    assert b.per_node() == {"b": 2}


def test_a_node_paused_inside_a_transaction_loses_its_table_once_the_database_ends_it(
    engine: Engine,
) -> None:
    """A node stopped (SIGSTOP, a frozen machine) in the middle of an append holds the lease
    row's lock, which claims skip: the database ends its idle transaction, the table goes to
    another node, and the sleeper's commit fails when it wakes."""
    repo = Repository(engine)
    paused = make_engine(str(engine.url), idle_transaction_seconds=0.5)
    try:
        old, new = Leases(paused, "old", 30), Leases(engine, "new", 30)
        old.beat()
        new.beat()
        a_table(repo, "t1", old)
        sleeper = paused.connect()
        sleeper.begin()
        sleeper.execute(text("SELECT epoch FROM table_leases WHERE table_id = 't1' FOR UPDATE"))
        expire(engine, "old")  # ... and the node sleeps past its lease, the lock held
        assert new.claim(10) == [], "a locked lease is skipped"
        deadline = time.monotonic() + 10
        while not (claimed := new.claim(10)):
            assert time.monotonic() < deadline, "the paused node's lock was never released"
            time.sleep(0.1)
        assert [(c.table_id, c.epoch) for c in claimed] == [("t1", 2)]
        with pytest.raises(DBAPIError):  # (terminated: idle-in-transaction timeout)
            sleeper.commit()
        sleeper.close()
    finally:
        paused.dispose()
