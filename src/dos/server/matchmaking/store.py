"""The queue in the database (``dos_queue``): joining, heartbeats, leaving, and one round of
matching as one transaction, safe to run from any process of a server of many.

A round (``match_round``) runs under the queue's lock: on PostgreSQL an advisory lock held
to the end of its transaction (``QUEUE_LOCK``), on SQLite the database's one writer. It
drops whoever stopped saying they are there (``HEARTBEAT_SECONDS``) and the matches nobody
went to (``MATCHED_SECONDS``), puts back in the queue the matches whose table was never made
(``SETTLE_SECONDS``: the process making it died), reads the waiting rows (locked too:
``SELECT ... FOR UPDATE``), matches them (``dos.matchmaking.queue.match``) and marks each
table's people with one match id and their seats, all in one transaction. A second process's
round waits for the first to commit and finds them matched: nobody is matched twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select, text, update
from sqlalchemy.orm import Session

from dos.matchmaking.queue import Entry, Table, match
from dos.ratings.model import Rating
from dos.ratings.store import RatingRow
from dos.server.storage.queue_rows import QueueRow

HEARTBEAT_SECONDS = 30.0
"""A waiting player who has not been heard of for this long (a closed tab) leaves the queue."""
MATCHED_SECONDS = 300.0
"""How long a match waits for its player to hear of it before the row goes."""
SETTLE_SECONDS = 60.0
"""A match whose table was not made within this long goes back to the queue."""

QUEUE_LOCK = 0x444F535F51554555
"""The PostgreSQL advisory lock a round of matching holds to the end of its transaction."""


@dataclass(frozen=True, slots=True)
class Planned:
    """A table one round decided: its match id and who sits where."""

    match: str
    table: Table


def skill_of(session: Session, player_id: str, rules: str, seats: int) -> float:
    """The player's skill (mu) in ``rules`` at tables of ``seats``; a new player's without a
    rating there."""
    row = session.get(RatingRow, (player_id, rules, seats))
    return row.mu if row is not None else Rating().mu


def join(session: Session, entry: Entry, now: float) -> None:
    """Puts ``entry`` in the queue, in place of any entry or match of the same player. A
    player who asks again for the same game keeps their place (``since``)."""
    row = session.get(QueueRow, entry.player)
    since = entry.since
    if (
        row is not None
        and row.match is None
        and (row.rules, row.seats) == (entry.rules, entry.seats)
        and now - row.seen <= HEARTBEAT_SECONDS
    ):
        since = row.since
    if row is not None:
        session.delete(row)
        session.flush()
    session.add(
        QueueRow(
            player_id=entry.player,
            name=entry.name,
            rules=entry.rules,
            seats=entry.seats,
            skill=entry.skill,
            rated=entry.rated,
            bots_after=entry.bots_after,
            blocked=sorted(entry.blocked),
            since=since,
            seen=now,
        )
    )


def heartbeat(
    session: Session, player_id: str, now: float, blocked: frozenset[str] | None = None
) -> QueueRow | None:
    """The player's row, marked seen at ``now`` (and their blocks brought up to date, when
    given); ``None`` when they are not in the queue (they left, or their entry expired)."""
    row = session.get(QueueRow, player_id)
    if row is None:
        return None
    if row.match is None and now - row.seen > HEARTBEAT_SECONDS:
        session.delete(row)
        return None
    row.seen = now
    if blocked is not None:
        row.blocked = sorted(blocked)
    session.flush()
    session.expunge(row)
    return row


def row_of(session: Session, player_id: str) -> QueueRow | None:
    """The player's row as it stands (read only)."""
    row = session.get(QueueRow, player_id)
    if row is not None:
        session.expunge(row)
    return row


def leave(session: Session, player_id: str) -> bool:
    """Takes the player out of the queue; ``False`` if they were not in it."""
    gone = session.execute(delete(QueueRow).where(QueueRow.player_id == player_id))
    return bool(getattr(gone, "rowcount", 0))


def _entry(row: QueueRow) -> Entry:
    return Entry(
        player=row.player_id,
        name=row.name,
        rules=row.rules,
        seats=row.seats,
        since=row.since,
        skill=row.skill,
        rated=row.rated,
        bots_after=row.bots_after,
        blocked=frozenset(row.blocked),
    )


def expire(session: Session, now: float) -> None:
    """Drops the silent waiting players and the matches nobody came for; puts back in the
    queue the matches whose table was never made."""
    session.execute(
        delete(QueueRow).where(QueueRow.match.is_(None), QueueRow.seen < now - HEARTBEAT_SECONDS)
    )
    session.execute(
        delete(QueueRow).where(
            QueueRow.code.is_not(None), QueueRow.matched_at < now - MATCHED_SECONDS
        )
    )
    session.execute(
        update(QueueRow)
        .where(
            QueueRow.match.is_not(None),
            QueueRow.code.is_(None),
            QueueRow.matched_at < now - SETTLE_SECONDS,
        )
        .values(match=None, matched_at=None, seat=None, seen=now)
    )


def match_round(session: Session, now: float, match_ids: list[str]) -> list[Planned]:
    """One round of matching at ``now``: the tables it makes, each with one of
    ``match_ids`` (taken in order; a round makes at most as many tables), its people's rows
    marked with it and their seats (the host, the longest waiting, at seat 0)."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": QUEUE_LOCK})
    expire(session, now)
    rows = session.scalars(
        select(QueueRow)
        .where(QueueRow.match.is_(None))
        .order_by(QueueRow.since, QueueRow.player_id)
        .with_for_update()
    ).all()
    tables, _ = match([_entry(row) for row in rows], now)
    by_player = {row.player_id: row for row in rows}
    planned = []
    for table, match_id in zip(tables, match_ids, strict=False):
        for seat, person in enumerate(table.people):
            row = by_player[person.player]
            row.match, row.matched_at, row.seat = match_id, now, seat
        planned.append(Planned(match_id, table))
    return planned


def settle(session: Session, match_id: str, code: str) -> None:
    """The table of ``match_id`` is made: its people's rows say its code."""
    session.execute(update(QueueRow).where(QueueRow.match == match_id).values(code=code))


def unmatch(session: Session, match_id: str, now: float) -> None:
    """The table of ``match_id`` could not be made: its people wait again, in their places."""
    session.execute(
        update(QueueRow)
        .where(QueueRow.match == match_id)
        .values(match=None, matched_at=None, seat=None, seen=now)
    )
