"""Taking a table: the lease in Redis, then its epoch recorded in the database.

A process becomes a table's owner in two steps, in this order: it acquires the table's lease
(``dos.cluster.lease``) with the database's epoch as the floor, then records the new epoch
with ``dos.server.storage.fencing.claim_epoch``. Only then may it commit actions, each under that
epoch (``NewAction.epoch``). The database refuses:

* any action under an epoch other than the table's recorded one, so a former owner that was
  paused or cut off commits nothing once the next owner has claimed;
* a claim of an epoch not larger than the recorded one (unless the same owner repeats its
  own claim), so two processes never both own one epoch, even when Redis lost its counter
  and handed the same number out twice: the second claim fails.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from dos.cluster.lease import LeaseHeldError, TableLease
from dos.cluster.lease_errors import LeaseError
from dos.server.metrics import Metrics
from dos.server.storage.database import Database
from dos.server.storage.fencing import StaleEpochError, claim_epoch, table_epoch


async def take_table(
    lease: TableLease, db: Database, metrics: Metrics | None = None, after: int | None = None
) -> int:
    """Makes ``lease``'s owner the owner of its table; returns the epoch to commit under
    (and counts it in ``metrics``' ``dos_ownership_changes_total``, if given).

    Raises ``LookupError`` when the table is not stored, ``LeaseHeldError`` when another
    process holds the lease, ``RedisUnavailableError``, and ``StaleEpochError`` when another
    owner claimed the same or a larger epoch in the database meanwhile (the lease is then
    released: try again, the next acquisition starts above that epoch).

    ``after``: the epoch under which this process holds the table in memory, to keep it so;
    the table is taken only if no other owner claimed it since (``StaleEpochError`` if one
    did: what it committed is not in memory here).
    """
    floor = await db.call(table_epoch, lease.code)
    if floor is None:
        raise LookupError(f"table {lease.code}: no such table is stored")
    if after is not None and floor != after:
        raise StaleEpochError(lease.code, after, floor)
    epoch = await lease.acquire(floor)
    await _claim(lease, db, epoch, after, metrics)
    return epoch


async def _claim(
    lease: TableLease,
    db: Database,
    epoch: int,
    after: int | None,
    metrics: Metrics | None,
    *,
    store: Callable[[], Awaitable[bool]] | None = None,
) -> bool:
    """Claims ``epoch``, the lease's, in the database (after ``store``, if given, stored the
    table: ``False`` if it did not, its code taken); the lease is released if that fails."""
    try:
        if store is not None and not await store():
            await lease.release()
            return False
        await db.call(claim_epoch, lease.code, epoch, lease.owner, after)
    except BaseException:
        with contextlib.suppress(LeaseError):
            await lease.release()
        raise
    if metrics is not None:
        metrics.ownership_changes.inc()
    return True


async def take_new_table(
    lease: TableLease,
    db: Database,
    store: Callable[[], Awaitable[bool]],
    metrics: Metrics | None = None,
) -> int | None:
    """Takes the lease of a table not stored yet, then stores it (``store``: whether it was
    stored, ``False`` when its code is taken) and claims its epoch: held from the moment it
    exists. Returns the epoch, or ``None`` when the code is taken (stored, or being created
    by another process): try another. Raises ``RedisUnavailableError``."""
    try:
        epoch = await lease.acquire(0)
    except LeaseHeldError:
        return None
    return epoch if await _claim(lease, db, epoch, None, metrics, store=store) else None
