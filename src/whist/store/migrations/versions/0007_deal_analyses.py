"""deal_analyses: the analysis of each finished deal that a player reviewed

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 12:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_analyses",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("analysis", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "deal"),
    )


def downgrade() -> None:
    op.drop_table("deal_analyses")
