"""The admin role and what admins do: warn a player, mute them on the server, ban them, close
a table; every action logged.

- **Admins** (``dos_admins``) are granted and revoked by the host with ``dos admin``, never
  through the web: the role cannot be given away by a stolen session.
- **Sanctions** (``dos_sanctions``): a *warning* is shown to the player the next time they
  come (in their language, with the admin's words), then marked seen; a *mute* keeps them
  from chatting until a time; a *ban* keeps them from sitting, playing and chatting until a
  time or for good (``until`` null); their open connections are closed.
- **The log** (``dos_admin_actions``): each action is written in the same transaction as
  its effect: who, when, what, to whom, why (``log_action``); nothing an admin does is
  unlogged, and the admin page shows it.

Kept in the database, so every process of a server of many reads the same.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from dos.server.people.blocks import ModerationRefusedError
from dos.server.people.moderation import close_report
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.models import (
    AccountRow,
    AdminActionRow,
    AdminRow,
    GamePlayerRow,
    SanctionRow,
)

if TYPE_CHECKING:
    from dos.server.storage.database import Database

CLI = "cli"
"""Who did an action made with the ``dos admin`` command."""
SANCTIONS: tuple[str, ...] = ("warn", "mute", "ban")
"""What an admin does to a player."""
ACTIONS: tuple[str, ...] = (*SANCTIONS, "close_table", "dismiss", "grant", "revoke")
"""Every action the log keeps: the sanctions, closing a table, dismissing a report, and the
role given or taken."""
REASON_MAX = 500
"""The longest reason an admin gives, in characters."""
MAX_HOURS = 24 * 365
"""The longest mute or ban with an end, in hours (longer: for good)."""
LOG_PAGE = 100
"""The most log entries one page has."""


@dataclass(frozen=True, slots=True)
class Order:
    """One action as an admin orders it, and as the log keeps it: who (``admin``: a player
    id, or ``CLI``), what (``action``, one of ``ACTIONS``), why, and whom or what it is about;
    ``until``: when a mute or ban ends (``None``: for good)."""

    admin: str
    action: str
    reason: str
    player_id: str | None = None
    report_id: int | None = None
    table_code: str | None = None
    until: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """What holds a player back now: a ban's or a server mute's end (``inf``: for good,
    ``None``: none)."""

    banned_until: float | None = None
    muted_until: float | None = None

    @property
    def banned(self) -> bool:
        """Whether the player may not sit, play or chat."""
        return self.banned_until is not None

    @property
    def muted(self) -> bool:
        """Whether the player may not chat (banned players neither)."""
        return self.banned or self.muted_until is not None


def check_reason(reason: str) -> str:
    """The reason trimmed; refused (``bad_reason``) if empty or over ``REASON_MAX``.

    >>> check_reason("  spam in chat ")
    'spam in chat'
    """
    reason = reason.strip()
    if not reason or len(reason) > REASON_MAX:
        raise ModerationRefusedError(
            "bad_reason", f"reason: 1 to {REASON_MAX} characters: say why", "reason"
        )
    return reason


def until_of(hours: float | None, now: float) -> float | None:
    """When a mute or ban of ``hours`` started ``now`` ends (``None``: for good).

    >>> until_of(2, 1000.0)
    8200.0
    >>> until_of(None, 1000.0) is None
    True
    """
    if hours is None:
        return None
    if not 0 < hours <= MAX_HOURS:
        raise ModerationRefusedError(
            "bad_hours", f"hours: more than 0, at most {MAX_HOURS}", "hours"
        )
    return now + hours * 3600.0


# --- the repository: functions of a session ---------------------------------------------------


def is_admin(session: Session, player_id: str) -> bool:
    """Whether the player has the admin role."""
    return session.get(AdminRow, player_id) is not None


def log_action(session: Session, order: Order, at: float) -> int:
    """Writes one entry of the admins' log, done at ``at``; returns its id."""
    assert order.action in ACTIONS, order.action
    row = AdminActionRow(
        admin=order.admin,
        action=order.action,
        player_id=order.player_id,
        table_code=order.table_code,
        report_id=order.report_id,
        reason=order.reason,
        until=order.until,
        at=at,
    )
    session.add(row)
    session.flush()
    return row.id


def grant(session: Session, player_id: str, at: float, by: str = CLI) -> bool:
    """Gives the player the admin role (logged); ``False`` if they had it."""
    if is_admin(session, player_id):
        return False
    session.add(AdminRow(player_id=player_id, granted_at=at))
    log_action(session, Order(by, "grant", "admin role given", player_id=player_id), at)
    return True


def revoke(session: Session, player_id: str, at: float, by: str = CLI) -> bool:
    """Takes the admin role away (logged); ``False`` if they had none."""
    result = session.execute(delete(AdminRow).where(AdminRow.player_id == player_id))
    if not getattr(result, "rowcount", 0):
        return False
    log_action(session, Order(by, "revoke", "admin role taken", player_id=player_id), at)
    return True


def admins(session: Session) -> list[tuple[str, float]]:
    """Every admin and when they were granted the role, oldest first."""
    rows = session.scalars(select(AdminRow).order_by(AdminRow.granted_at, AdminRow.player_id))
    return [(row.player_id, row.granted_at) for row in rows]


def sanction(session: Session, order: Order, at: float) -> int:
    """Warns, mutes or bans ``order.player_id`` (``order.action``) from ``at``, logged with
    its reason; closes the report it answers, if any. Returns the log entry's id."""
    if order.action not in SANCTIONS:
        raise ModerationRefusedError(
            "bad_action", f"action: one of {', '.join(SANCTIONS)}", "action"
        )
    if order.player_id is None:
        raise ModerationRefusedError("bad_request", "name a player_id", "player_id")
    until = None if order.action == "warn" else order.until
    order = replace(order, reason=check_reason(order.reason), until=until)
    session.add(
        SanctionRow(
            player_id=order.player_id,
            kind=order.action,
            reason=order.reason,
            at=at,
            until=until,
            seen_at=None,
        )
    )
    if order.report_id is not None:
        close_report(session, order.report_id, order.admin, at)
    return log_action(session, order, at)


def dismiss(session: Session, order: Order, at: float) -> int:
    """Closes ``order.report_id`` with no action against anyone (logged). Refused
    (``no_report``) if it is not open."""
    order = replace(order, action="dismiss", reason=check_reason(order.reason))
    if order.report_id is None or not close_report(session, order.report_id, order.admin, at):
        raise ModerationRefusedError(
            "no_report", f"report {order.report_id} is not open", "report_id"
        )
    return log_action(session, order, at)


def standing(session: Session, player_id: str, now: float) -> Standing:
    """The bans and server mutes in force on the player at ``now``."""
    rows = session.scalars(
        select(SanctionRow).where(
            SanctionRow.player_id == player_id,
            SanctionRow.kind.in_(("mute", "ban")),
            or_(SanctionRow.until.is_(None), SanctionRow.until > now),
        )
    ).all()
    ends: dict[str, float | None] = {"mute": None, "ban": None}
    for row in rows:
        end = float("inf") if row.until is None else row.until
        known = ends[row.kind]
        ends[row.kind] = end if known is None else max(known, end)
    return Standing(banned_until=ends["ban"], muted_until=ends["mute"])


def take_warnings(session: Session, player_id: str, now: float) -> list[dict[str, Any]]:
    """The player's warnings not yet shown, oldest first, marked seen at ``now``."""
    rows = session.scalars(
        select(SanctionRow)
        .where(
            SanctionRow.player_id == player_id,
            SanctionRow.kind == "warn",
            SanctionRow.seen_at.is_(None),
        )
        .order_by(SanctionRow.at, SanctionRow.id)
    ).all()
    for row in rows:
        row.seen_at = now
    return [{"reason": row.reason, "at": row.at} for row in rows]


def action_log(session: Session, limit: int = LOG_PAGE) -> list[dict[str, Any]]:
    """The latest ``limit`` entries of the admins' log, newest first."""
    rows = session.scalars(select(AdminActionRow).order_by(AdminActionRow.id.desc()).limit(limit))
    return [
        {
            "id": row.id,
            "admin": row.admin,
            "action": row.action,
            "player_id": row.player_id,
            "table_code": row.table_code,
            "report_id": row.report_id,
            "reason": row.reason,
            "until": row.until,
            "at": row.at,
        }
        for row in rows
    ]


async def refuse_banned(db: Database, player_id: str, now: float) -> None:
    """Raises ``RefusedError("banned")`` if an admin banned the player (at ``now``): they may
    not sit, play or chat."""
    if (await db.read(standing, player_id, now)).banned:
        raise RefusedError("banned", "an admin banned you from this server")


def find_players(session: Session, name: str) -> list[tuple[str, str | None]]:
    """The players ``name`` may mean, with their latest name: the player with that id if
    any has played or has an account, else every player whose games bear that name."""
    by_id = session.scalars(
        select(GamePlayerRow.name)
        .where(GamePlayerRow.player_id == name)
        .order_by(GamePlayerRow.game_id.desc())
        .limit(1)
    ).first()
    if by_id is not None or session.get(AccountRow, name) is not None:
        return [(name, by_id)]
    ids = session.scalars(
        select(GamePlayerRow.player_id)
        .where(GamePlayerRow.name == name, GamePlayerRow.player_id.is_not(None))
        .distinct()
    ).all()
    return [(player_id, name) for player_id in sorted(pid for pid in ids if pid is not None)]
