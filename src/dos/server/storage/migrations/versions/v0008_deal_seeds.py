"""Deal seeds: the table seed a seeded server deals a table's games from.

A server started with ``--deal-seed`` records on each table the seed its games are dealt
from (``dos.server.deals``); every other table, and every table from before this migration,
has none and is dealt at random.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds ``dos_tables.deal_seed`` (null: dealt at random)."""
    with op.batch_alter_table("dos_tables") as batch:
        batch.add_column(sa.Column("deal_seed", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Drops the deal seeds."""
    with op.batch_alter_table("dos_tables") as batch:
        batch.drop_column("deal_seed")
