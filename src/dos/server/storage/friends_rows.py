"""The friends' tables (``dos.server.people.friends``): who follows whom, the friendships asked
for and agreed, each player's presence and its setting, and the challenges between friends.

Every row is keyed by player ids (accounts': ``dos_accounts``); what the rows mean, and who may
write them, is the service's (``dos.server.people.friends``).
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from dos.db.base import Base


class FollowRow(Base):
    """``follower`` follows ``followed``: they see the other's presence (one-sided)."""

    __tablename__ = "dos_follows"
    __table_args__ = (Index("ix_dos_follows_followed", "followed"),)

    follower: Mapped[str] = mapped_column(String(48), primary_key=True)
    followed: Mapped[str] = mapped_column(String(48), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class FriendshipRow(Base):
    """Two players, the lesser id first: asked by ``asked_by`` and, once the other agreed,
    ``agreed`` (friends)."""

    __tablename__ = "dos_friendships"
    __table_args__ = (Index("ix_dos_friendships_second", "second"),)

    first: Mapped[str] = mapped_column(String(48), primary_key=True)
    second: Mapped[str] = mapped_column(String(48), primary_key=True)
    asked_by: Mapped[str] = mapped_column(String(48))
    agreed: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)
    """When it was asked, then when it was agreed."""


class PresenceRow(Base):
    """Where a player was last seen on the site (``where``: ``site``, ``table``, ``watching``;
    ``code``: the table), when, and whether they hide it."""

    __tablename__ = "dos_presence"

    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    where: Mapped[str] = mapped_column(String(16))
    code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seen_at: Mapped[float] = mapped_column(Float)
    hidden: Mapped[bool] = mapped_column(Boolean)


class ChallengeRow(Base):
    """A challenge from ``challenger`` to ``challenged``: the table it asks for (rules, bot
    levels, rated), its status (``open``, ``accepted``, ``declined``, ``cancelled``; an open
    one past ``expires_at`` is expired) and, once accepted, the table made."""

    __tablename__ = "dos_challenges"
    __table_args__ = (
        Index("ix_dos_challenges_challenged", "challenged", "status"),
        Index("ix_dos_challenges_challenger", "challenger", "status"),
    )

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    challenger: Mapped[str] = mapped_column(String(48))
    challenged: Mapped[str] = mapped_column(String(48))
    name: Mapped[str] = mapped_column(String(64))
    """The challenger's display name at the table."""
    rules: Mapped[str] = mapped_column(String(32))
    bots: Mapped[list[str]] = mapped_column(JSON)
    """The bot levels of the seats after the two players' (none: a table of two)."""
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    answered_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
