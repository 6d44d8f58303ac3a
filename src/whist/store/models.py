"""The tables of the database. Every table's history is an append-only log (``TableLog``):
a table comes back after any stop by replaying it, which is why nothing else about a
match is stored as mutable state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    nickname: Mapped[str] = mapped_column(String(40))
    # Registered players have a unique login name and an argon2 hash; guests have neither.
    login: Mapped[str | None] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    xp: Mapped[int] = mapped_column(Integer, default=0)
    card_back: Mapped[str] = mapped_column(String(40), default="classic")
    card_face: Mapped[str] = mapped_column(String(40), default="classic")
    # The player's table settings as last saved (server/players.py checks them); None: never
    # saved, the defaults apply.
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Session(Base):
    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Table(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock_seconds: Mapped[float | None] = mapped_column()
    private: Mapped[bool] = mapped_column(default=False)
    invite_code: Mapped[str | None] = mapped_column(String(32), index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # open (seats being taken) | playing | suspended | finished | abandoned
    status: Mapped[str] = mapped_column(String(12), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Result, filled once at the end (also derivable from the log; kept for listings).
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class TableLog(Base):
    """One entry of a table's history: ``kind`` is seat (someone sat, left, was replaced),
    start, deal (the deck and dealer), action (a whist-record/1 action), suspend, resume,
    end. ``seq`` numbers the entries of a table from 1; it is the version clients see."""

    __tablename__ = "table_log"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(12))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class XpAward(Base):
    """XP credited for a match: at most one row per player and table."""

    __tablename__ = "xp_awards"
    __table_args__ = (UniqueConstraint("player_id", "table_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    amount: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Heartbeat(Base):
    """One row per run of the server: when it started and when it last showed it was
    alive. Clocks charge only the time inside runs, never the downtime between them (a
    turn may span several restarts). ``started_at`` is None for a row of before 0002."""

    __tablename__ = "heartbeat"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TableLease(Base):
    """Cluster mode: which node runs a live table, and under which epoch.

    A node appends to a table's log only while the lease row holds its epoch (checked in
    the append's own transaction, under the row's lock): a node that lost the lease while
    paused or cut off can never write again, whatever it believes. ``node`` is empty when
    the lease was released (``since`` then says when)."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    node: Mapped[str] = mapped_column(String(80), index=True)
    epoch: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClusterNode(Base):
    """Cluster mode: one row per node (per start of a ``whist serve``): it holds its leases
    while ``expires_at`` is ahead, renewing it every quarter of the lease. ``seen_at`` is
    its last sign of life: a clock is not charged for the time after it. Times are the
    database's, so that nodes' clocks need not agree."""

    __tablename__ = "cluster_nodes"

    node: Mapped[str] = mapped_column(String(80), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Rating(Base):
    """A player's rating in one variant (store/ratings.py): openskill's ``mu`` and
    ``sigma``, the conservative ``rating`` shown (kept so a leaderboard sorts in the
    database), and the rated matches and wins that made it."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_variant_rating", "variant", "rating"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChange(Base):
    """One rated match of one player: the rating after it. At most one row per player and
    table, written first, so that a match can never be rated twice."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("player_id", "table_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    variant: Mapped[str] = mapped_column(String(20))
    outcome: Mapped[str] = mapped_column(String(4))  # win | loss | draw
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DealAnalysis(Base):
    """The analysis of one finished deal (``whist.analysis``'s per-deal JSON), made once
    for "Review deal" and kept: a finished deal never changes."""

    __tablename__ = "deal_analyses"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    analysis: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
