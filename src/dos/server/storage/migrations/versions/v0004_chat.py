"""The chat of each table, kept: its latest lines (``dos.server.tables.chat.HISTORY_MAX``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_chat_lines``, read a table at a time in the order said."""
    op.create_table(
        "dos_chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("dos_tables.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("reaction", sa.String(16), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_chat_lines_table", "dos_chat_lines", ["table_code", "id"])


def downgrade() -> None:
    """Drops the chat."""
    op.drop_index("ix_dos_chat_lines_table", table_name="dos_chat_lines")
    op.drop_table("dos_chat_lines")
