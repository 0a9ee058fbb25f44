"""Moderation: blocks, mutes, reports, admins and their actions.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_blocks``, ``dos_mutes``, ``dos_reports``, ``dos_admins``,
    ``dos_sanctions`` and ``dos_admin_actions`` (docs/moderation.md); a chat line keeps its
    author's player id."""
    with op.batch_alter_table("dos_chat_lines") as batch:
        batch.add_column(sa.Column("player_id", sa.String(48), nullable=True))
    op.create_table(
        "dos_blocks",
        sa.Column("blocker", sa.String(48), primary_key=True),
        sa.Column("blocked", sa.String(48), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_blocks_blocked", "dos_blocks", ["blocked"])
    op.create_table(
        "dos_mutes",
        sa.Column("muter", sa.String(48), primary_key=True),
        sa.Column("muted", sa.String(48), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "dos_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(48), nullable=False),
        sa.Column("reported", sa.String(48), nullable=False),
        sa.Column("reported_name", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("excerpt", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("closed_by", sa.String(48), nullable=True),
    )
    op.create_index("ix_dos_reports_reporter_at", "dos_reports", ["reporter", "at"])
    op.create_index("ix_dos_reports_reported", "dos_reports", ["reported"])
    op.create_index("ix_dos_reports_closed_at", "dos_reports", ["closed_at"])
    op.create_table(
        "dos_admins",
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("granted_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "dos_sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(48), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=True),
        sa.Column("seen_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_dos_sanctions_player_id", "dos_sanctions", ["player_id"])
    op.create_table(
        "dos_admin_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("admin", sa.String(48), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(48), nullable=True),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("until", sa.Float(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_admin_actions_at", "dos_admin_actions", ["at"])


def downgrade() -> None:
    """Drops the six tables and the chat lines' authors."""
    with op.batch_alter_table("dos_chat_lines") as batch:
        batch.drop_column("player_id")
    for name in (
        "dos_admin_actions",
        "dos_sanctions",
        "dos_admins",
        "dos_reports",
        "dos_mutes",
        "dos_blocks",
    ):
        op.drop_table(name)
