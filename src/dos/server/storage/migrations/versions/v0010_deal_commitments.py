"""Deal commitments: the secret salt of each game's commitment to its seed.

Every game dealt from now on has a salt (``dos.records.commitment``); a game from before this
migration has none, and its record carries no commitment.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds ``dos_games.deal_salt`` (null: a game from before commitments)."""
    with op.batch_alter_table("dos_games") as batch:
        batch.add_column(sa.Column("deal_salt", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drops the salts."""
    with op.batch_alter_table("dos_games") as batch:
        batch.drop_column("deal_salt")
