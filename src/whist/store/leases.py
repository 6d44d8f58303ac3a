"""Leases: in cluster mode each live table is run by one node at a time.

A table's lease names the node running it and an epoch. The node holds all its leases by
one heartbeat row of its own (``cluster_nodes``), renewed every ``ttl / 4`` seconds: a
lease whose node has not renewed its heartbeat for ``ttl`` seconds (the node died, paused,
or lost the database), or that its node released, may be claimed by any node. The claim
raises the lease's epoch, and every log append checks that epoch in its own transaction,
under the lease row's lock (``Repository.append_batch``): the former owner, whatever it
believes, can never write to the table again.

Renewing is one row per node, not one per table: it takes no lock an append takes, so
renewals never wait for a table's commit, nor a commit for a renewal. Claims skip rows an
append has locked (``SKIP LOCKED``) and take them in a later round.

PostgreSQL only: times are the database's (``now()``), so that the nodes' clocks need not
agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from whist.store.models import Table


@dataclass(frozen=True)
class Claim:
    """A lease this node has just taken: the table, its new epoch, and the former owner's
    last sign of life (its last heartbeat, or when it released the table): clocks are not
    charged after it."""

    table_id: str
    epoch: int
    last_seen: datetime


@dataclass(frozen=True)
class Owner:
    node: str
    epoch: int
    live: bool  # its node's heartbeat is fresh
    ended: bool  # the table is not live any more: nobody will run it again


LIVE_STATUSES = "('open', 'playing', 'suspended')"

# Live tables that never got a lease (made before cluster mode: a node creates a table and
# its lease together): a released lease row, which a claim then takes.
_UNLEASED = text(
    f"""
    INSERT INTO table_leases (table_id, node, epoch, since)
    SELECT t.id, '', 0, now() FROM tables t
    WHERE t.status IN {LIVE_STATUSES}
      AND NOT EXISTS (SELECT 1 FROM table_leases l WHERE l.table_id = t.id)
    ON CONFLICT DO NOTHING
    """
)

# A claim is two statements. The first picks candidates: leases of live tables whose node
# is gone or released them. The second takes them, each only if its epoch is still the one
# picked and its node still gone, in a fresh snapshot: in one statement, a lease claimed a
# moment ago by a node that had just come back would be re-checked against that node's
# heartbeat as the statement's older snapshot saw it (expired), and taken a second time.
_CANDIDATES = f"""
    SELECT l2.table_id, l2.epoch FROM table_leases l2
    JOIN tables t ON t.id = l2.table_id
    LEFT JOIN cluster_nodes h ON h.node = l2.node
    WHERE t.status IN {LIVE_STATUSES} AND (h.node IS NULL OR h.expires_at < now()) {{only}}
    ORDER BY l2.table_id
    LIMIT :limit
"""
CANDIDATES_ANY = text(_CANDIDATES.format(only=""))
CANDIDATES_ONE = text(_CANDIDATES.format(only="AND l2.table_id = :table_id"))

_CLAIM = text(
    """
    UPDATE table_leases l
    SET node = :node, epoch = l.epoch + 1, since = now()
    FROM (
        SELECT l2.table_id, coalesce(h.seen_at, l2.since) AS last_seen
        FROM table_leases l2
        JOIN unnest(CAST(:ids AS text[]), CAST(:epochs AS integer[])) AS picked(table_id, epoch)
          ON picked.table_id = l2.table_id AND picked.epoch = l2.epoch
        LEFT JOIN cluster_nodes h ON h.node = l2.node
        WHERE h.node IS NULL OR h.expires_at < now()
        FOR UPDATE OF l2 SKIP LOCKED
    ) old
    WHERE l.table_id = old.table_id
    RETURNING l.table_id, l.epoch, old.last_seen
    """
)

_BEAT = text(
    """
    INSERT INTO cluster_nodes (node, expires_at, seen_at)
    VALUES (:node, now() + make_interval(secs => :ttl), now())
    ON CONFLICT (node) DO UPDATE SET expires_at = excluded.expires_at, seen_at = now()
    """
)

_RELEASE = text(
    """
    UPDATE table_leases l SET node = '', since = now()
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

    def beat(self) -> dict[str, int]:
        """Renew this node's hold on its leases; returns the leases it holds now (table ->
        epoch): a table it runs that is missing here, or has another epoch, was claimed by
        another node meanwhile."""
        with self.engine.begin() as db:
            db.execute(_BEAT, {"node": self.node, "ttl": self.ttl})
            rows = db.execute(
                text("SELECT table_id, epoch FROM table_leases WHERE node = :node"),
                {"node": self.node},
            )
            return {row[0]: int(row[1]) for row in rows}

    def leave(self) -> None:
        """This node stops: whatever it still holds may be claimed at once."""
        with self.engine.begin() as db:
            db.execute(
                text("UPDATE cluster_nodes SET expires_at = now() - interval '1 second'"
                     " WHERE node = :node"),
                {"node": self.node},
            )  # fmt: skip

    def create(self, table: Table) -> int:
        """Store a new table with this node's lease on it (epoch 1), in one transaction: no
        other node can claim it in between."""
        with Session(self.engine, expire_on_commit=False) as db, db.begin():
            db.add(table)
            db.flush()
            db.execute(
                text(
                    "INSERT INTO table_leases (table_id, node, epoch, since)"
                    " VALUES (:table_id, :node, 1, now())"
                ),
                {"table_id": table.id, "node": self.node},
            )
        return 1

    def lease_unleased(self) -> int:
        """Give every live table without a lease row (one made before cluster mode) a
        released lease, which a claim then takes. Returns how many there were."""
        with self.engine.begin() as db:
            return db.execute(_UNLEASED).rowcount

    def claim(self, limit: int, table_id: str | None = None) -> list[Claim]:
        """Take up to ``limit`` leases of live tables whose node is gone or released them
        (or only that of ``table_id``)."""
        with self.engine.begin() as db:
            # The claimer's own heartbeat first: a lease taken by a node whose heartbeat has
            # run out (the database was away for all) would at once be claimable again.
            db.execute(_BEAT, {"node": self.node, "ttl": self.ttl})
            params: dict[str, object] = {"limit": limit}
            if table_id is not None:
                params["table_id"] = table_id
            query = CANDIDATES_ONE if table_id is not None else CANDIDATES_ANY
            picked = db.execute(query, params).all()
            if not picked:
                return []
            rows = db.execute(
                _CLAIM,
                {
                    "node": self.node,
                    "ids": [row[0] for row in picked],
                    "epochs": [row[1] for row in picked],
                },
            )
            return [Claim(row[0], row[1], row[2]) for row in rows]

    def release(self, held: dict[str, int]) -> None:
        """Give up these leases now (a graceful stop, an ended table): any node may claim
        them at once."""
        if not held:
            return
        ids = list(held)
        with self.engine.begin() as db:
            db.execute(_RELEASE, {"ids": ids, "epochs": [held[t] for t in ids], "node": self.node})

    def owner(self, table_id: str) -> Owner | None:
        """Who runs ``table_id`` (None: no lease, the table is not live or unknown)."""
        with self.engine.connect() as db:
            row = db.execute(
                text(
                    "SELECT l.node, l.epoch, coalesce(h.expires_at > now(), false),"
                    f" t.status NOT IN {LIVE_STATUSES}"
                    " FROM table_leases l JOIN tables t ON t.id = l.table_id"
                    " LEFT JOIN cluster_nodes h ON h.node = l.node"
                    " WHERE l.table_id = :table_id"
                ),
                {"table_id": table_id},
            ).first()
        return None if row is None else Owner(row[0], row[1], bool(row[2]), bool(row[3]))

    def per_node(self) -> dict[str, int]:
        """Live tables per node whose heartbeat is fresh."""
        with self.engine.connect() as db:
            rows = db.execute(
                text(
                    "SELECT l.node, count(*) FROM table_leases l"
                    " JOIN tables t ON t.id = l.table_id"
                    " JOIN cluster_nodes h ON h.node = l.node"
                    f" WHERE h.expires_at > now() AND t.status IN {LIVE_STATUSES}"
                    " GROUP BY l.node"
                )
            )
            return {row[0]: int(row[1]) for row in rows}

    def forget_old_nodes(self) -> None:
        """Heartbeat rows of nodes gone for a day (each start of a node is a new one)."""
        with self.engine.begin() as db:
            db.execute(
                text(
                    "DELETE FROM cluster_nodes WHERE expires_at < now() - interval '1 day'"
                    " AND NOT EXISTS (SELECT 1 FROM table_leases l"
                    " WHERE l.node = cluster_nodes.node)"
                )
            )
