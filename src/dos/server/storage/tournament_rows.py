"""The tournaments' tables (``dos.server.tournaments``): each tournament, its players and its
games (tables and byes).

A tournament's row carries a ``version`` that every pairing raises in the same transaction
that stores the pairing's games, only if it is still the version the pairing was made from:
two processes that pair the same tournament at once store one pairing, never both.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from dos.db.base import Base


class TournamentRow(Base):
    """A tournament: its format (``swiss``, ``arena``), the games it plays (rule set, options,
    seats a table, rated), its organiser (a player id), a Swiss's rounds or an arena's window,
    and where it stands (``open``, ``running``, ``finished``)."""

    __tablename__ = "dos_tournaments"
    __table_args__ = (Index("ix_dos_tournaments_status", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    format: Mapped[str] = mapped_column(String(8))
    rules: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    streaks: Mapped[bool] = mapped_column(Boolean)
    organiser: Mapped[str] = mapped_column(String(48))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A Swiss's rounds; null for an arena."""
    round: Mapped[int] = mapped_column(Integer)
    """A Swiss's round under way or last played (0 before the first)."""
    starts_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[float] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer)


class TournamentPlayerRow(Base):
    """A player of a tournament: the name they entered under, their rating then, whether
    they still play (``active``: not left, not dropped)."""

    __tablename__ = "dos_tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("dos_tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)
    active: Mapped[bool] = mapped_column(Boolean)
    joined_at: Mapped[float] = mapped_column(Float)


class TournamentGameRow(Base):
    """A table (or a bye) of a tournament: its round (a Swiss) or its number (an arena), its
    players by seat, the table's code, and once its game ended each seat's rank (0 first)."""

    __tablename__ = "dos_tournament_games"
    __table_args__ = (Index("ix_dos_tournament_games_tournament", "tournament_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("dos_tournaments.id", ondelete="CASCADE")
    )
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[str]] = mapped_column(JSON)
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    ranks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    bye: Mapped[bool] = mapped_column(Boolean)
    paired_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
