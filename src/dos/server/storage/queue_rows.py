"""Matchmaking's table (``dos.server.matchmaking``): one row per player waiting for a table,
or matched and not yet gone to it.

A row is the player's entry as they asked for it (rule set, size, when bots may fill), what
the server knows of them when they joined (their skill, whether they may play rated, whom
they never meet), when they last said they are still there, and, once matched, the table and
seat they were given.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from dos.db.base import Base


class QueueRow(Base):
    """One player in the queue (``dos.server.matchmaking.store``)."""

    __tablename__ = "dos_queue"
    __table_args__ = (Index("ix_dos_queue_game", "rules", "seats", "since"),)

    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    rules: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    skill: Mapped[float] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean)
    bots_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds waited before bots may fill the table; null: never."""
    blocked: Mapped[list[str]] = mapped_column(JSON)
    """The players they block or who block them, as of their last heartbeat."""
    since: Mapped[float] = mapped_column(Float)
    """When they joined (the server's clock)."""
    seen: Mapped[float] = mapped_column(Float)
    """Their last heartbeat: a row not seen for ``HEARTBEAT_SECONDS`` leaves the queue."""
    match: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The match they were given (one id for everyone of one table); null: waiting."""
    matched_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The table made for their match; null until it exists."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Their seat at it."""
