"""Blocks: a player blocks another, and from then on the two are never seated together nor
paired again, either way round, and the blocker sees none of the other's chat.

A block is one row (``dos_blocks``: blocker, blocked), kept in the database so every process
of a server of many reads the same: seating (``dos.server.tables.seating.join``), the chat
(``dos.server.tables.chat``), the matchmaking queue and the tournaments' pairings ask
``blocked_between`` or ``blocked_set``, which look both ways. Only the blocker may lift it
(``unblock``); the blocked player is never told.

The repository's functions take a session (run by ``dos.server.storage.database.Database``);
the two questions the rest of the server asks are coroutines over the database itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from dos.server.storage.models import BlockRow

if TYPE_CHECKING:
    from dos.server.storage.database import Database

MAX_BLOCKS = 500
"""The most players one player may block."""


class ModerationRefusedError(ValueError):
    """A moderation request the rules refuse (a block, a mute, a report, an admin's action):
    ``code``, a message and the field at fault (``None``: the player it is about). Nothing
    changed."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field


# --- the repository: functions of a session ---------------------------------------------------


def add_block(session: Session, blocker: str, blocked: str, at: float) -> bool:
    """``blocker`` blocks ``blocked`` from ``at``; ``False`` if they had already. Raises
    ``ModerationRefusedError`` for blocking oneself or past ``MAX_BLOCKS``."""
    if blocker == blocked:
        raise ModerationRefusedError("bad_player", "player_id: you cannot block yourself")
    if session.get(BlockRow, (blocker, blocked)) is not None:
        return False
    count = len(session.scalars(select(BlockRow.blocked).where(BlockRow.blocker == blocker)).all())
    if count >= MAX_BLOCKS:
        raise ModerationRefusedError(
            "too_many_blocks", f"you block {count} players already (at most)"
        )
    session.add(BlockRow(blocker=blocker, blocked=blocked, at=at))
    session.flush()
    return True


def remove_block(session: Session, blocker: str, blocked: str) -> bool:
    """``blocker`` lifts their block of ``blocked``; ``False`` if there was none."""
    result = session.execute(
        delete(BlockRow).where(BlockRow.blocker == blocker, BlockRow.blocked == blocked)
    )
    return bool(getattr(result, "rowcount", 0))


def blocks_of(session: Session, blocker: str) -> list[str]:
    """The players ``blocker`` blocks, the latest first."""
    rows = session.scalars(
        select(BlockRow).where(BlockRow.blocker == blocker).order_by(BlockRow.at.desc())
    )
    return [row.blocked for row in rows]


def either_way(session: Session, player: str) -> frozenset[str]:
    """The players ``player`` blocks or is blocked by."""
    rows = session.execute(
        select(BlockRow.blocker, BlockRow.blocked).where(
            or_(BlockRow.blocker == player, BlockRow.blocked == player)
        )
    )
    return frozenset(blocked if blocker == player else blocker for blocker, blocked in rows)


def between(session: Session, a: str, b: str) -> bool:
    """Whether ``a`` blocks ``b`` or ``b`` blocks ``a``."""
    return session.get(BlockRow, (a, b)) is not None or session.get(BlockRow, (b, a)) is not None


# --- the questions the server asks ------------------------------------------------------------


async def blocked_between(db: Database, a: str, b: str) -> bool:
    """Whether either of the players ``a`` and ``b`` blocks the other: they are never seated
    nor paired together."""
    if a == b:
        return False
    return await db.read(between, a, b)


async def blocked_set(db: Database, player: str) -> frozenset[str]:
    """Every player ``player`` must not be seated nor paired with: those they block and those
    who block them."""
    return await db.read(either_way, player)
