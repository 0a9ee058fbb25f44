"""Matchmaking: the queue of players waiting for a table (``dos_queue``).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_queue``, one row per player waiting or matched."""
    op.create_table(
        "dos_queue",
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("skill", sa.Float(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots_after", sa.Float(), nullable=True),
        sa.Column("blocked", sa.JSON(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.Column("match", sa.String(32), nullable=True),
        sa.Column("matched_at", sa.Float(), nullable=True),
        sa.Column("code", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
    )
    op.create_index("ix_dos_queue_game", "dos_queue", ["rules", "seats", "since"])


def downgrade() -> None:
    """Drops the queue."""
    op.drop_index("ix_dos_queue_game", table_name="dos_queue")
    op.drop_table("dos_queue")
