"""The stored games: tables, seats, games, who played them, and actions.

A game is stored as its rule set, options and seed plus the append-only list of its accepted
actions; its state is rebuilt by replaying them (the engine is deterministic). The server
writes them (``dos.server.storage.database``); the ratings read them (``dos.ratings.store``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String, true
from sqlalchemy.orm import Mapped, mapped_column

from dos.db.base import Base


class TableRow(Base):
    """A table: its code, rule set and options, status and settings."""

    __tablename__ = "dos_tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    games: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean, server_default=true())
    """Whether its games update the players' ratings (``dos.ratings``); else casual."""
    epoch: Mapped[int] = mapped_column(Integer, server_default="0")
    """The fencing epoch of its current owner (``dos.server.storage.fencing.claim_epoch``): only
    actions committed under this epoch are accepted. 0 for the single-process server."""
    epoch_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Who claimed ``epoch`` (a process's owner id), so that a claim can be repeated."""
    deal_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The table seed its games are dealt from on a seeded server (``dos.server.deals``);
    ``None``: dealt at random. A seeded table is never rated."""


class SeatRow(Base):
    """One seat of a table: open (no name, no bot), a human guest, or a bot level."""

    __tablename__ = "dos_seats"

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("dos_tables.code", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class GameRow(Base):
    """One game at a table: everything needed to deal it again, and its result when over."""

    __tablename__ = "dos_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("dos_tables.code", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    deal_salt: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The secret salt of the commitment to ``seed`` (``dos.records.commitment``), revealed
    with the record once the game is finished; ``None``: a game stored before commitments."""
    players: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class GamePlayerRow(Base):
    """Who sat where in a game (for a player's results)."""

    __tablename__ = "dos_game_players"

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("dos_games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)


class ActionRow(Base):
    """One accepted action of a game, in order: ``idx`` is the version before it."""

    __tablename__ = "dos_actions"

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("dos_games.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(200))
    seat: Mapped[int] = mapped_column(Integer)
    by_bot: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)
    epoch: Mapped[int] = mapped_column(Integer, server_default="0")
    """The fencing epoch of the owner that committed it (0: the single-process server)."""
