"""cluster_nodes: a node holds its leases by one heartbeat row, not one expiry per table

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 05:05:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cluster_nodes",
        sa.Column("node", sa.String(length=80), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("node"),
    )
    op.drop_index("ix_table_leases_expires_at", table_name="table_leases")
    with op.batch_alter_table("table_leases", schema=None) as batch_op:
        batch_op.drop_column("expires_at")
        batch_op.drop_column("renewed_at")
        batch_op.add_column(
            sa.Column(
                "since", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("table_leases", schema=None) as batch_op:
        batch_op.drop_column("since")
        batch_op.add_column(
            sa.Column(
                "expires_at", sa.DateTime(timezone=True), nullable=False,
                server_default=sa.func.now(),
            )
        )  # fmt: skip
        batch_op.add_column(
            sa.Column(
                "renewed_at", sa.DateTime(timezone=True), nullable=False,
                server_default=sa.func.now(),
            )
        )  # fmt: skip
    op.create_index("ix_table_leases_expires_at", "table_leases", ["expires_at"])
    op.drop_table("cluster_nodes")
