"""AI players: who played through the agent API or MCP, for the bots' leaderboard.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_agents``: one row per player marked as an AI (docs/ratings.md)."""
    op.create_table(
        "dos_agents",
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("since", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drops ``dos_agents``: every player is a person again."""
    op.drop_table("dos_agents")
