"""Accounts: a player kept on passkeys and a recovery code, and the sessions signed out.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates ``dos_accounts``, ``dos_passkeys`` and ``dos_signed_out`` (docs/accounts.md)."""
    op.create_table(
        "dos_accounts",
        sa.Column("player_id", sa.String(48), primary_key=True),
        sa.Column("user_handle", sa.String(64), nullable=False),
        sa.Column("recovery_hash", sa.String(64), nullable=True),
        sa.Column("recovery_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_accounts_user_handle", "dos_accounts", ["user_handle"], unique=True)
    op.create_index("ix_dos_accounts_recovery_hash", "dos_accounts", ["recovery_hash"], unique=True)
    op.create_table(
        "dos_passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(48),
            sa.ForeignKey("dos_accounts.player_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("backed_up", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_dos_passkeys_player_id", "dos_passkeys", ["player_id"])
    op.create_table(
        "dos_signed_out",
        sa.Column("session", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(48), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_dos_signed_out_at", "dos_signed_out", ["at"])


def downgrade() -> None:
    """Drops the three tables."""
    op.drop_table("dos_signed_out")
    op.drop_table("dos_passkeys")
    op.drop_table("dos_accounts")
