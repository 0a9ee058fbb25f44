"""Indexes for the bounded reads of the player endpoints: a player's rating history in time
order, and a leaderboard in rating order.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """A player's history is read a page at a time along (player_id, at, game_id), which
    also serves what the index on player_id alone did; a leaderboard page along
    (rules, players, ordinal)."""
    op.drop_index("ix_dos_rating_history_player_id", table_name="dos_rating_history")
    op.create_index(
        "ix_dos_rating_history_player_at", "dos_rating_history", ["player_id", "at", "game_id"]
    )
    op.create_index("ix_dos_ratings_board", "dos_ratings", ["rules", "players", "ordinal"])


def downgrade() -> None:
    """Back to the index on the history's player_id alone."""
    op.drop_index("ix_dos_ratings_board", table_name="dos_ratings")
    op.drop_index("ix_dos_rating_history_player_at", table_name="dos_rating_history")
    op.create_index("ix_dos_rating_history_player_id", "dos_rating_history", ["player_id"])
