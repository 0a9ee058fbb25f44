"""The database schema (SQLAlchemy 2): tables, seats, games, who played them, and actions.

A game is stored as its rule set, options and seed plus the append-only list of its accepted
actions; its state is rebuilt by replaying them (the engine is deterministic). The schema is
created and upgraded by the Alembic migrations in ``dos/server/migrations``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of the server's models."""


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
    """The fencing epoch of its current owner (``dos.server.storage.claim_epoch``): only
    actions committed under this epoch are accepted. 0 for the single-process server."""
    epoch_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Who claimed ``epoch`` (a process's owner id), so that a claim can be repeated."""


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


class AccountRow(Base):
    """A player kept beyond one browser (``dos.server.accounts``): keyed by the player id their
    ratings and results hang off, with at most one unused recovery code, as a hash."""

    __tablename__ = "dos_accounts"

    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    user_handle: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    """The WebAuthn user handle of the player's passkeys (random, base64url)."""
    recovery_hash: Mapped[str | None] = mapped_column(
        String(64), nullable=True, unique=True, index=True
    )
    """SHA-256 of the unused recovery code (hex), null when there is none."""
    recovery_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """One passkey of a player: its credential id, public key and signature counter."""

    __tablename__ = "dos_passkeys"

    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    """The credential id, base64url."""
    player_id: Mapped[str] = mapped_column(
        String(48), ForeignKey("dos_accounts.player_id", ondelete="CASCADE"), index=True
    )
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """The COSE public key, as the authenticator gave it."""
    sign_count: Mapped[int] = mapped_column(BigInteger)
    transports: Mapped[list[str]] = mapped_column(JSON)
    backed_up: Mapped[bool] = mapped_column(Boolean)
    """Synced to other devices by its provider (a password manager, a platform account)."""
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SignedOutRow(Base):
    """A session signed out: the player tokens of that device open nothing (kept as long as
    a token lives, ``dos.server.auth.TOKEN_DAYS``)."""

    __tablename__ = "dos_signed_out"

    session: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(48))
    at: Mapped[float] = mapped_column(Float, index=True)
