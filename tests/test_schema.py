"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL:
a model changed without its migration (or the reverse) fails here, not in production."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from test_recovery import postgres_database
from whist.store.db import make_engine, migrate
from whist.store.models import Base


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_the_migrations_build_the_models_schema(dialect: str, tmp_path: Path) -> None:
    if dialect == "sqlite":
        urls = iter([f"sqlite:///{tmp_path / 'whist.sqlite3'}"])
    else:
        urls = (u.replace("postgresql://", "postgresql+psycopg://", 1) for u in postgres_database())
    for url in urls:
        engine = make_engine(url)
        try:
            migrate(engine)
            migrate(engine)  # a second start finds nothing to do
            with engine.connect() as connection:
                assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        finally:
            engine.dispose()
