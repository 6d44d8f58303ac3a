"""heartbeat: one row per server run, with its start

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 23:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("heartbeat", schema=None) as batch_op:
        batch_op.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("heartbeat", schema=None) as batch_op:
        batch_op.drop_column("started_at")
