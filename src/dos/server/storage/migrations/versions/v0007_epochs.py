"""Fencing epochs: the epoch each action was committed under, and each table's current one.

A table run by many processes has one owner at a time, under a lease in Redis
(``dos.cluster.lease``); each new owner gets a larger epoch and records it on the table
(``dos.server.storage.fencing.claim_epoch``). An action commits only under the table's recorded
epoch, so a former owner that was paused or cut off can no longer commit. Rows from before
this migration, and everything the single-process server writes, have epoch 0.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds ``dos_tables.epoch`` and ``epoch_owner`` (who claimed it) and
    ``dos_actions.epoch``; every existing table and action gets epoch 0."""
    with op.batch_alter_table("dos_tables") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("epoch_owner", sa.String(64), nullable=True))
    with op.batch_alter_table("dos_actions") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drops the epochs."""
    with op.batch_alter_table("dos_actions") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("dos_tables") as batch:
        batch.drop_column("epoch_owner")
        batch.drop_column("epoch")
