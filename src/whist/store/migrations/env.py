"""Alembic environment: the URL comes from the config set by ``whist.store.db.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, engine_from_config, pool

from whist.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connectable = config.attributes.get("connection")
    if connectable is None:
        connectable = engine_from_config(
            config.get_section(config.config_ini_section) or {},
            prefix="sqlalchemy.",
            poolclass=pool.NullPool,
        )
        with connectable.connect() as connection:
            _run(connection)
    else:
        _run(connectable)


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
