"""Fencing, for a server of many processes (``dos serve --redis``; docs/deployment.md,
"Ownership and fencing"): the epochs of a table's owners, checked by the database.

A table's owner records its epoch with ``claim_epoch`` before it commits, and each of its
actions carries that epoch (``dos.server.storage.database.NewAction.epoch``) and commits only while
the table is at it (``check_epochs``, in the commit's own transaction), so a former owner's actions
are refused (``StaleEpochError``) once another owner has claimed. Only actions are fenced. The
single-process server's actions carry no epoch: stored as 0, not checked.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, and_, or_, select, update
from sqlalchemy.orm import Session

from dos.server.storage.models import GameRow, TableRow


class StaleEpochError(Exception):
    """A write under a fencing epoch that is not the table's: another owner has claimed the
    table since (or this writer never claimed it). Nothing of the write was stored.

    >>> str(StaleEpochError("ABCDEF", 3, 4))
    'table ABCDEF: epoch 3 refused, the table is at epoch 4'
    """

    def __init__(self, code: str, epoch: int, recorded: int | None) -> None:
        self.code = code
        self.epoch = epoch
        self.recorded = recorded
        at = "no such table" if recorded is None else f"the table is at epoch {recorded}"
        super().__init__(f"table {code}: epoch {epoch} refused, {at}")


def check_epochs(connection: Connection, fenced: Iterable[tuple[int, int]]) -> None:
    """Raises ``StaleEpochError`` unless each game's table is at the epoch given with it
    (``fenced``: pairs of a game's id and the epoch its actions are committed under).

    In the transaction that inserts the actions, before them: a conditional update of the
    table's row (``WHERE epoch = :epoch``, the value left as it is) both checks the epoch and
    locks the row on PostgreSQL until the commit, so a ``claim_epoch`` of a new owner waits
    for this commit and every later write of the former owner finds rowcount 0. SQLite runs
    one writer at a time, which gives the same order."""
    for game_id, epoch in sorted(set(fenced)):
        code = select(GameRow.table_code).where(GameRow.id == game_id).scalar_subquery()
        held = connection.execute(
            update(TableRow)
            .where(TableRow.code == code, TableRow.epoch == epoch)
            .values(epoch=TableRow.epoch)
        )
        if getattr(held, "rowcount", 0) != 1:
            found = connection.execute(
                select(TableRow.code, TableRow.epoch).where(TableRow.code == code)
            ).first()
            name = str(game_id) if found is None else found[0]
            raise StaleEpochError(name, epoch, None if found is None else found[1])


def table_epoch(session: Session, code: str) -> int | None:
    """The fencing epoch recorded for a table (0 until an owner claims one), or ``None`` if
    there is no such table: the high-water mark a new owner's epoch must pass
    (``dos.cluster.lease.TableLease.acquire``'s ``floor``)."""
    return session.scalar(select(TableRow.epoch).where(TableRow.code == code))


def claim_epoch(
    session: Session, code: str, epoch: int, owner: str, after: int | None = None
) -> None:
    """Records ``epoch`` as the table's, claimed by ``owner``; from this commit on, only
    actions under ``epoch`` commit at the table (``NewAction.epoch``).

    Guarantees: the recorded epoch never decreases, and each epoch is claimed by one owner
    only. A claim succeeds if ``epoch`` is larger than the recorded one, or equal to it and
    claimed by the same ``owner`` (a repeated claim); otherwise it raises
    ``StaleEpochError`` and changes nothing. ``after``: the claim succeeds only if the
    recorded epoch is still ``after`` (an owner that keeps the table it holds in memory: no
    other owner claimed it, so nothing was committed that it has not seen). Atomic on SQLite
    and PostgreSQL: one conditional update, checked by its rowcount (it waits for a commit of
    the former owner's actions under way)."""
    newer = or_(
        TableRow.epoch < epoch,
        and_(TableRow.epoch == epoch, TableRow.epoch_owner == owner),
    )
    if after is not None:
        newer = and_(newer, TableRow.epoch == after)
    claimed = session.execute(
        update(TableRow).where(TableRow.code == code, newer).values(epoch=epoch, epoch_owner=owner)
    )
    if getattr(claimed, "rowcount", 0) != 1:
        raise StaleEpochError(code, epoch, table_epoch(session, code))
