"""Leases: in cluster mode each live table is run by one node at a time.

A node holds a table's lease for ``ttl`` seconds and renews it while it runs the table. A
lease that was not renewed in time (its node died, paused, or lost the database) may be
claimed by any node: the claim raises the lease's epoch, and every log append checks that
epoch in its own transaction (``Repository.append_batch``), so the former owner, whatever it
believes, can never write to the table again. PostgreSQL only: times are the database's
(``now()``), so the nodes' clocks need not agree, and claims use ``SKIP LOCKED``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from whist.store.models import Table

LIVE = ("open", "playing", "suspended")


@dataclass(frozen=True)
class Claim:
    """A lease this node has just taken: the table, its new epoch, and when the former
    owner last renewed it (its last sign of life: clocks are not charged after it)."""

    table_id: str
    epoch: int
    last_seen: datetime


@dataclass(frozen=True)
class Owner:
    node: str
    epoch: int
    live: bool  # the lease has not expired


# Live tables that never got a lease (made before cluster mode: a node creates a table and
# its lease together): a lease row that has expired already, so that a claim takes it.
_MISSING = text(
    """
    INSERT INTO table_leases (table_id, node, epoch, expires_at, renewed_at)
    SELECT t.id, '', 0, now() - interval '1 second', now() FROM tables t
    WHERE t.status IN ('open', 'playing', 'suspended')
      AND NOT EXISTS (SELECT 1 FROM table_leases l WHERE l.table_id = t.id)
    ON CONFLICT DO NOTHING
    """
)

_CLAIM = """
    UPDATE table_leases l
    SET node = :node, epoch = l.epoch + 1,
        expires_at = now() + make_interval(secs => :ttl), renewed_at = now()
    FROM (
        SELECT l2.table_id, l2.renewed_at FROM table_leases l2
        JOIN tables t ON t.id = l2.table_id
        WHERE l2.expires_at < now() AND t.status IN ('open', 'playing', 'suspended') {only}
        ORDER BY l2.expires_at
        LIMIT :limit
        FOR UPDATE OF l2 SKIP LOCKED
    ) old
    WHERE l.table_id = old.table_id
    RETURNING l.table_id, l.epoch, old.renewed_at
"""
CLAIM_ANY = text(_CLAIM.format(only=""))
CLAIM_ONE = text(_CLAIM.format(only="AND l2.table_id = :table_id"))

_RENEW = text(
    """
    UPDATE table_leases l
    SET expires_at = now() + make_interval(secs => :ttl), renewed_at = now()
    FROM unnest(CAST(:ids AS text[]), CAST(:epochs AS integer[])) AS mine(table_id, epoch)
    WHERE l.table_id = mine.table_id AND l.epoch = mine.epoch AND l.node = :node
    RETURNING l.table_id
    """
)

_RELEASE = text(
    """
    UPDATE table_leases l
    SET expires_at = now() - interval '1 second', renewed_at = now()
    FROM unnest(CAST(:ids AS text[]), CAST(:epochs AS integer[])) AS mine(table_id, epoch)
    WHERE l.table_id = mine.table_id AND l.epoch = mine.epoch AND l.node = :node
    """
)


class Leases:
    def __init__(self, engine: Engine, node: str, ttl: float) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("cluster mode needs PostgreSQL (WHIST_DATABASE_URL=postgresql://...)")
        self.engine = engine
        self.node = node
        self.ttl = ttl

    def create(self, table: Table) -> int:
        """Store a new table with this node's lease on it (epoch 1), in one transaction: no
        other node can claim it in between."""
        with Session(self.engine, expire_on_commit=False) as db, db.begin():
            db.add(table)
            db.flush()
            db.execute(
                text(
                    "INSERT INTO table_leases (table_id, node, epoch, expires_at, renewed_at)"
                    " VALUES (:table_id, :node, 1, now() + make_interval(secs => :ttl), now())"
                ),
                {"table_id": table.id, "node": self.node, "ttl": self.ttl},
            )
        return 1

    def lease_unleased(self) -> int:
        """Give every live table without a lease row (one made before cluster mode) an
        expired lease, which a claim then takes. Returns how many there were."""
        with self.engine.begin() as db:
            return db.execute(_MISSING).rowcount

    def claim(self, limit: int, table_id: str | None = None) -> list[Claim]:
        """Take up to ``limit`` expired leases of live tables (or that of ``table_id``)."""
        with self.engine.begin() as db:
            params: dict[str, object] = {"node": self.node, "ttl": self.ttl, "limit": limit}
            if table_id is not None:
                params["table_id"] = table_id
            rows = db.execute(CLAIM_ONE if table_id is not None else CLAIM_ANY, params)
            return [Claim(row[0], row[1], row[2]) for row in rows]

    def renew(self, held: dict[str, int]) -> set[str]:
        """Extend the leases this node holds (table -> epoch); returns the tables whose
        lease it still holds. The others were claimed by another node meanwhile."""
        if not held:
            return set()
        ids = list(held)
        with self.engine.begin() as db:
            rows = db.execute(
                _RENEW,
                {"ids": ids, "epochs": [held[t] for t in ids], "node": self.node, "ttl": self.ttl},
            )
            return {row[0] for row in rows}

    def release(self, held: dict[str, int]) -> None:
        """Give up these leases now (a graceful stop): any node may claim them at once."""
        if not held:
            return
        ids = list(held)
        with self.engine.begin() as db:
            db.execute(_RELEASE, {"ids": ids, "epochs": [held[t] for t in ids], "node": self.node})

    def owner(self, table_id: str) -> Owner | None:
        """Who runs ``table_id`` (None: nobody ever has)."""
        with self.engine.connect() as db:
            row = db.execute(
                text(
                    "SELECT node, epoch, expires_at > now() FROM table_leases"
                    " WHERE table_id = :table_id"
                ),
                {"table_id": table_id},
            ).first()
        return None if row is None else Owner(row[0], row[1], bool(row[2]))

    def per_node(self) -> dict[str, int]:
        """Live tables per node holding an unexpired lease."""
        with self.engine.connect() as db:
            rows = db.execute(
                text(
                    "SELECT l.node, count(*) FROM table_leases l JOIN tables t ON t.id = l.table_id"
                    " WHERE l.expires_at > now() AND t.status IN ('open', 'playing', 'suspended')"
                    " GROUP BY l.node"
                )
            )
            return {row[0]: int(row[1]) for row in rows}

