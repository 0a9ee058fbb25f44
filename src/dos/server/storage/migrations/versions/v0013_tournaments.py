"""Tournaments: arenas and Swiss events, their players, rounds and games.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_tournaments``, ``dos_tournament_players`` and ``dos_tournament_games``
    (docs/tournaments.md)."""
    op.create_table(
        "dos_tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("streaks", sa.Boolean(), nullable=False),
        sa.Column("organiser", sa.String(48), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=True),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_dos_tournaments_status", "dos_tournaments", ["status", "created_at"])
    op.create_table(
        "dos_tournament_players",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("dos_tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "dos_tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("dos_tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("ranks", sa.JSON(), nullable=True),
        sa.Column("bye", sa.Boolean(), nullable=False),
        sa.Column("paired_at", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=True),
    )
    op.create_index(
        "ix_dos_tournament_games_tournament", "dos_tournament_games", ["tournament_id", "id"]
    )


def downgrade() -> None:
    """Drops the tournaments."""
    op.drop_index("ix_dos_tournament_games_tournament", table_name="dos_tournament_games")
    op.drop_table("dos_tournament_games")
    op.drop_table("dos_tournament_players")
    op.drop_index("ix_dos_tournaments_status", table_name="dos_tournaments")
    op.drop_table("dos_tournaments")
