"""table_leases: one owner per live table in cluster mode

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 04:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(length=16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("node", sa.String(length=80), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("renewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_table_leases_node", "table_leases", ["node"])
    op.create_index("ix_table_leases_expires_at", "table_leases", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_table_leases_expires_at", table_name="table_leases")
    op.drop_index("ix_table_leases_node", table_name="table_leases")
    op.drop_table("table_leases")
