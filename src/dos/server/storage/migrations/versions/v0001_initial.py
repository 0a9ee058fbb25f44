"""The first schema: tables, seats, games, game players, actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates the five tables."""
    op.create_table(
        "dos_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_tables_public", "dos_tables", ["public"])
    op.create_index("ix_dos_tables_status", "dos_tables", ["status"])
    op.create_table(
        "dos_seats",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("dos_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "dos_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("dos_tables.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_dos_games_table_code", "dos_games", ["table_code"])
    op.create_table(
        "dos_game_players",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("dos_games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
    )
    op.create_index("ix_dos_game_players_player_id", "dos_game_players", ["player_id"])
    op.create_table(
        "dos_actions",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("dos_games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("by_bot", sa.Boolean(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drops everything."""
    for name in ("dos_actions", "dos_game_players", "dos_games", "dos_seats", "dos_tables"):
        op.drop_table(name)
