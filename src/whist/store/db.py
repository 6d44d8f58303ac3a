"""Engine, sessions and migrations. The schema is created and upgraded by Alembic at every
start, so a new data directory needs nothing done by hand."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, orm, text
from sqlalchemy.orm import sessionmaker

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 0x77686973  # "whis": the advisory lock that serialises migrations


def make_engine(url: str, idle_transaction_seconds: float | None = None) -> Engine:
    """An engine for `url`. PostgreSQL: `idle_transaction_seconds` ends a session whose
    client leaves a transaction open that long (see below)."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False}, json_deserializer=orjson.loads
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: object) -> None:
            # WAL keeps readers and the writer apart; FULL sync makes every commit durable,
            # which is what "no acknowledged action lost" needs after a SIGKILL.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # A connection whose server or network went away must fail, not hang a thread (the
    # one writer's above all): bounded connecting, and TCP keepalives that notice a dead
    # peer within about 20 s.
    connect_args: dict[str, object] = {
        "connect_timeout": 5,
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 2,
    }
    if idle_transaction_seconds is not None:
        # A process paused in the middle of a transaction (SIGSTOP, a frozen machine) keeps
        # its row locks while it sleeps: a node's lease rows among them, which other nodes'
        # claims skip (SKIP LOCKED), so its tables would wait for it to wake. The database
        # ends such a session instead; the sleeper's commit then fails when it wakes.
        timeout_ms = max(1, round(idle_transaction_seconds * 1000))
        connect_args["options"] = f"-c idle_in_transaction_session_timeout={timeout_ms}"
    return create_engine(
        url, pool_pre_ping=True, json_deserializer=orjson.loads, connect_args=connect_args
    )


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema."""
    config = alembic_config(str(engine.url))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Nodes of a cluster may start together on a new database: one migrates, the
            # others wait here for its commit and then find nothing left to do.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def session_factory(engine: Engine) -> sessionmaker[orm.Session]:
    return sessionmaker(engine, expire_on_commit=False)
