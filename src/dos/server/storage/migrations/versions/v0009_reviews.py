"""Reviews kept in the database: every process of a server of many reads them there.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_reviews``, read by name."""
    op.create_table(
        "dos_reviews",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_reviews_game_id", "dos_reviews", ["game_id"])


def downgrade() -> None:
    """Drops the kept reviews."""
    op.drop_index("ix_dos_reviews_game_id", table_name="dos_reviews")
    op.drop_table("dos_reviews")
