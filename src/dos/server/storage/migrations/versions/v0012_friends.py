"""Friends: follows, friendships, presence settings, challenges.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_follows``, ``dos_friendships``, ``dos_presence`` and ``dos_challenges``
    (docs/friends.md)."""
    op.create_table(
        "dos_follows",
        sa.Column("follower", sa.String(48), primary_key=True),
        sa.Column("followed", sa.String(48), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_follows_followed", "dos_follows", ["followed"])
    op.create_table(
        "dos_friendships",
        sa.Column("first", sa.String(48), primary_key=True),
        sa.Column("second", sa.String(48), primary_key=True),
        sa.Column("asked_by", sa.String(48), nullable=False),
        sa.Column("agreed", sa.Boolean(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_friendships_second", "dos_friendships", ["second"])
    op.create_table(
        "dos_presence",
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("where", sa.String(16), nullable=False),
        sa.Column("code", sa.String(16), nullable=True),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "dos_challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("challenger", sa.String(48), nullable=False),
        sa.Column("challenged", sa.String(48), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("bots", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("answered_at", sa.Float(), nullable=True),
        sa.Column("table_code", sa.String(16), nullable=True),
    )
    op.create_index("ix_dos_challenges_challenged", "dos_challenges", ["challenged", "status"])
    op.create_index("ix_dos_challenges_challenger", "dos_challenges", ["challenger", "status"])


def downgrade() -> None:
    """Drops the four tables."""
    op.drop_table("dos_challenges")
    op.drop_table("dos_presence")
    op.drop_table("dos_friendships")
    op.drop_table("dos_follows")
