"""Ratings: a table is rated or casual; players' openskill ratings and their history.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds ``dos_tables.rated`` (tables made before it are rated) and the two rating tables."""
    with op.batch_alter_table("dos_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.create_table(
        "dos_ratings",
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("rules", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_table(
        "dos_rating_history",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("dos_games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_rating_history_player_id", "dos_rating_history", ["player_id"])


def downgrade() -> None:
    """Drops the rating tables and ``dos_tables.rated``."""
    op.drop_table("dos_rating_history")
    op.drop_table("dos_ratings")
    with op.batch_alter_table("dos_tables") as batch:
        batch.drop_column("rated")
