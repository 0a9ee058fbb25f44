"""What a player does about another: mute them for oneself, and report them to the admins.

- **Mute** (``dos_mutes``): the muter sees none of the other's chat, nothing else changes;
  kept with the muter's player id, so it follows them to every table and device signed in.
  A block (``dos.server.people.blocks``) hides the chat too; ``hidden_authors`` is both.
- **Report** (``dos_reports``): a reason of ``REASONS`` and, optionally, the reporter's own
  words (``TEXT_MAX`` characters). A player files at most ``REPORTS_PER_DAY`` reports in any
  24 hours, and one open report of the same player at a time (``already_reported``: the
  admins have it). A report made from a table carries the table's chat as stored: the last
  ``EXCERPT_LINES`` lines said up to the report, each with its author's player id, copied so
  the excerpt outlives the table's chat.

The rules are checked here, in the transaction that writes the report (``file_report``): two
reports sent at once by one player on two processes meet the same limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from dos.server.people.blocks import ModerationRefusedError
from dos.server.protocol.names import hidden_character
from dos.server.storage.models import BlockRow, ChatLineRow, MuteRow, ReportRow

REASONS: tuple[str, ...] = ("abuse", "cheating", "spam", "name", "other")
"""The reasons a report may give (each client says them in its own language:
``moderation.reason_*``)."""
TEXT_MAX = 500
"""The longest text a reporter may add, in characters."""
REPORTS_PER_DAY = 10
"""The most reports one player files in any 24 hours."""
DAY = 86400.0
EXCERPT_LINES = 20
"""The chat lines a report from a table carries: the last ones said up to it."""
MAX_MUTES = 500
"""The most players one player may mute."""


@dataclass(frozen=True, slots=True)
class NewReport:
    """A report as a player files it; ``reporter`` from their token, never from the request."""

    reporter: str
    reported: str
    reason: str
    text: str | None = None
    reported_name: str | None = None
    table_code: str | None = None


def check_report(report: NewReport) -> NewReport:
    """The report with its text trimmed (empty: none), or ``ModerationRefusedError`` naming
    the field at fault.

    >>> check_report(NewReport("p_a", "p_b", "spam", "  again  ")).text
    'again'
    >>> check_report(NewReport("p_a", "p_b", "rude"))
    Traceback (most recent call last):
    ...
    dos.server.people.blocks.ModerationRefusedError: bad_reason: reason: one of abuse, \
cheating, spam, name, other
    """
    if report.reporter == report.reported:
        raise ModerationRefusedError("bad_player", "you cannot report yourself", "player_id")
    if report.reason not in REASONS:
        raise ModerationRefusedError("bad_reason", f"reason: one of {', '.join(REASONS)}", "reason")
    text = (report.text or "").strip() or None
    if text is not None:
        if len(text) > TEXT_MAX:
            raise ModerationRefusedError(
                "text_too_long", f"text: {len(text)} characters; at most {TEXT_MAX}", "text"
            )
        hidden = hidden_character(text)
        if hidden is not None:
            raise ModerationRefusedError("bad_text", f"text: {hidden}", "text")
    return NewReport(
        report.reporter,
        report.reported,
        report.reason,
        text,
        report.reported_name,
        report.table_code,
    )


# --- the repository: functions of a session ---------------------------------------------------


def add_mute(session: Session, muter: str, muted: str, at: float) -> bool:
    """``muter`` mutes ``muted``; ``False`` if they had already."""
    if muter == muted:
        raise ModerationRefusedError("bad_player", "you cannot mute yourself", "player_id")
    if session.get(MuteRow, (muter, muted)) is not None:
        return False
    count = session.scalar(select(func.count()).where(MuteRow.muter == muter)) or 0
    if count >= MAX_MUTES:
        raise ModerationRefusedError("too_many_mutes", f"you mute {count} players already")
    session.add(MuteRow(muter=muter, muted=muted, at=at))
    session.flush()
    return True


def remove_mute(session: Session, muter: str, muted: str) -> bool:
    """``muter`` hears ``muted`` again; ``False`` if they had not muted them."""
    result = session.execute(delete(MuteRow).where(MuteRow.muter == muter, MuteRow.muted == muted))
    return bool(getattr(result, "rowcount", 0))


def mutes_of(session: Session, muter: str) -> list[str]:
    """The players ``muter`` mutes, the latest first."""
    rows = session.scalars(
        select(MuteRow).where(MuteRow.muter == muter).order_by(MuteRow.at.desc())
    )
    return [row.muted for row in rows]


def hidden_authors(session: Session, reader: str) -> frozenset[str]:
    """The players whose chat ``reader`` does not see: those they block or mute, and those
    who block them (a block keeps both apart; a mute is for the muter alone)."""
    blocked = session.scalars(select(BlockRow.blocked).where(BlockRow.blocker == reader))
    blockers = session.scalars(select(BlockRow.blocker).where(BlockRow.blocked == reader))
    muted = session.scalars(select(MuteRow.muted).where(MuteRow.muter == reader))
    return frozenset(blocked) | frozenset(blockers) | frozenset(muted)


def chat_excerpt(
    session: Session, code: str, upto: float, lines: int = EXCERPT_LINES
) -> list[dict[str, Any]]:
    """The last ``lines`` lines of table ``code``'s stored chat said at or before ``upto``,
    oldest first, each with its author's player id (null: an anonymous spectator, or a line
    kept from before authors were stored) and its time."""
    rows = session.scalars(
        select(ChatLineRow)
        .where(ChatLineRow.table_code == code, ChatLineRow.at <= upto)
        .order_by(ChatLineRow.id.desc())
        .limit(lines)
    ).all()
    return [
        {
            "seat": row.seat,
            "name": row.name,
            "player_id": row.player_id,
            "text": row.text,
            "reaction": row.reaction,
            "at": row.at,
        }
        for row in reversed(rows)
    ]


def file_report(session: Session, report: NewReport, at: float) -> int:
    """Stores a checked report (``check_report``) made at ``at`` with its chat excerpt;
    returns its id. Refused past the day's limit (``too_many_reports``) or while the
    reporter's earlier report of the same player is open (``already_reported``)."""
    report = check_report(report)
    recent = session.scalar(
        select(func.count()).where(ReportRow.reporter == report.reporter, ReportRow.at > at - DAY)
    )
    if (recent or 0) >= REPORTS_PER_DAY:
        raise ModerationRefusedError(
            "too_many_reports", f"at most {REPORTS_PER_DAY} reports in 24 hours"
        )
    open_one = session.scalar(
        select(ReportRow.id).where(
            ReportRow.reporter == report.reporter,
            ReportRow.reported == report.reported,
            ReportRow.closed_at.is_(None),
        )
    )
    if open_one is not None:
        raise ModerationRefusedError(
            "already_reported", "your report of this player is with the admins already"
        )
    excerpt = [] if report.table_code is None else chat_excerpt(session, report.table_code, at)
    row = ReportRow(
        reporter=report.reporter,
        reported=report.reported,
        reported_name=report.reported_name,
        reason=report.reason,
        text=report.text,
        table_code=report.table_code,
        excerpt=excerpt,
        at=at,
        closed_at=None,
        closed_by=None,
    )
    session.add(row)
    session.flush()
    return row.id


def report_json(row: ReportRow) -> dict[str, Any]:
    """A report as the admins' API has it."""
    return {
        "id": row.id,
        "reporter": row.reporter,
        "reported": row.reported,
        "reported_name": row.reported_name,
        "reason": row.reason,
        "text": row.text,
        "table_code": row.table_code,
        "excerpt": row.excerpt,
        "at": row.at,
        "closed_at": row.closed_at,
        "closed_by": row.closed_by,
    }


def open_reports(session: Session, limit: int = 100) -> list[dict[str, Any]]:
    """The open reports, oldest first (the admins' queue), at most ``limit``."""
    rows = session.scalars(
        select(ReportRow)
        .where(ReportRow.closed_at.is_(None))
        .order_by(ReportRow.at, ReportRow.id)
        .limit(limit)
    )
    return [report_json(row) for row in rows]


def close_report(session: Session, report_id: int, by: str, at: float) -> bool:
    """Closes an open report; ``False`` if there is no such open report."""
    row = session.get(ReportRow, report_id)
    if row is None or row.closed_at is not None:
        return False
    row.closed_at, row.closed_by = at, by
    return True
