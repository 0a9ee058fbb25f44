"""The server's own tables (SQLAlchemy 2): accounts, passkeys, sign-outs and the tables' chat
lines; and, named here too, the base, the stored games of ``dos.db`` that the rest of the
server reads and the ratings' tables of ``dos.ratings``: once this module is imported,
``Base.metadata`` holds every table of the server's database.

The schema is upgraded by the Alembic migrations in ``dos/server/storage/migrations``, which
compare against ``Base.metadata`` imported from here; an empty database is built from it
(``dos.server.storage.schema``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from dos.db.base import Base
from dos.db.games import ActionRow, GamePlayerRow, GameRow, SeatRow, TableRow
from dos.ratings.store import AgentRow, RatingHistoryRow, RatingRow
from dos.server.storage.friends_rows import ChallengeRow, FollowRow, FriendshipRow, PresenceRow
from dos.server.storage.queue_rows import QueueRow
from dos.server.storage.tournament_rows import (
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
)

__all__ = [
    "AccountRow",
    "ActionRow",
    "AdminActionRow",
    "AdminRow",
    "AgentRow",
    "Base",
    "BlockRow",
    "ChallengeRow",
    "ChatLineRow",
    "FollowRow",
    "FriendshipRow",
    "GamePlayerRow",
    "GameRow",
    "MuteRow",
    "PasskeyRow",
    "PresenceRow",
    "QueueRow",
    "RatingHistoryRow",
    "RatingRow",
    "ReportRow",
    "ReviewRow",
    "SanctionRow",
    "SeatRow",
    "SignedOutRow",
    "TableRow",
    "TournamentGameRow",
    "TournamentPlayerRow",
    "TournamentRow",
]


class AccountRow(Base):
    """A player kept beyond one browser (``dos.server.people.accounts``): keyed by the player id
    their ratings and results hang off, with at most one unused recovery code, as a hash."""

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
    a token lives, ``dos.server.people.auth.TOKEN_DAYS``)."""

    __tablename__ = "dos_signed_out"

    session: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(48))
    at: Mapped[float] = mapped_column(Float, index=True)


class ChatLineRow(Base):
    """One line of a table's chat (``dos.server.tables.chat``), in the order said (``id``): the
    author's seat (null: a spectator) and name then, and a text or a quick reaction."""

    __tablename__ = "dos_chat_lines"
    __table_args__ = (Index("ix_dos_chat_lines_table", "table_code", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("dos_tables.code", ondelete="CASCADE")
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    player_id: Mapped[str | None] = mapped_column(String(48), nullable=True)
    """The author's player id (null: an anonymous spectator), never sent to clients: a
    blocker's, a blocked player's and a muter's chat leave it out, and reports quote it
    (``dos.server.people.moderation``)."""
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    reaction: Mapped[str | None] = mapped_column(String(16), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    """When it was said (seconds since the epoch)."""


class ReviewRow(Base):
    """A game review done (``dos.server.storage.kept_reviews``), by its name: the record's
    hash, the seat and the settings (``dos.server.hosting.review_store.review_name``); the
    JSON of ``dos review --json``."""

    __tablename__ = "dos_reviews"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    game_id: Mapped[int] = mapped_column(BigInteger, index=True)
    """The game reviewed (a game's record may be reviewed under another id too: same name)."""
    seat: Mapped[int] = mapped_column(Integer)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)
    """When it was done (seconds since the epoch)."""


class BlockRow(Base):
    """A player blocks another (``dos.server.people.blocks``): the two are never seated nor
    paired together, and the blocker sees none of the other's chat."""

    __tablename__ = "dos_blocks"

    blocker: Mapped[str] = mapped_column(String(48), primary_key=True)
    blocked: Mapped[str] = mapped_column(String(48), primary_key=True, index=True)
    at: Mapped[float] = mapped_column(Float)


class MuteRow(Base):
    """A player mutes another for themselves (``dos.server.people.moderation``): the other's
    chat is hidden from them, nothing else."""

    __tablename__ = "dos_mutes"

    muter: Mapped[str] = mapped_column(String(48), primary_key=True)
    muted: Mapped[str] = mapped_column(String(48), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class ReportRow(Base):
    """A player's report of another (``dos.server.people.moderation``): the reason, their
    words, the table's chat around it, and whether an admin closed it."""

    __tablename__ = "dos_reports"
    __table_args__ = (Index("ix_dos_reports_reporter_at", "reporter", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter: Mapped[str] = mapped_column(String(48))
    reported: Mapped[str] = mapped_column(String(48), index=True)
    reported_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    excerpt: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The table's chat lines around the report, copied: they outlive the table's chat."""
    at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    closed_by: Mapped[str | None] = mapped_column(String(48), nullable=True)


class AdminRow(Base):
    """A player with the admin role (``dos admin grant``)."""

    __tablename__ = "dos_admins"

    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    granted_at: Mapped[float] = mapped_column(Float)


class SanctionRow(Base):
    """What an admin did to a player (``dos.server.people.admins``): a warning (shown to them
    once), a mute on the server or a ban, each until a time or for good (``until`` null)."""

    __tablename__ = "dos_sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(48), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    until: Mapped[float | None] = mapped_column(Float, nullable=True)
    seen_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the player was shown a warning."""


class AdminActionRow(Base):
    """One action of an admin, kept for good: who, when, what, to whom and why."""

    __tablename__ = "dos_admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    admin: Mapped[str] = mapped_column(String(48))
    """The admin's player id, or ``cli`` for the ``dos admin`` command."""
    action: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(String(48), nullable=True)
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    until: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[float] = mapped_column(Float, index=True)
