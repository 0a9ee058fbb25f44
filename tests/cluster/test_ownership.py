"""Taking a table: the lease in Redis, then its epoch claimed in the database, so that epochs
never go back, even after Redis lost its data (``dos.cluster.ownership``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from cluster.leases import table_lease
from cluster.support import RedisServer
from dos.cluster.lease import LeaseHeldError
from dos.cluster.ownership import take_table
from dos.server.storage.database import Database, NewAction
from dos.server.storage.fencing import StaleEpochError, claim_epoch, table_epoch
from dos.server.storage.table_store import (
    StoredGame,
    StoredTable,
    insert_game,
    insert_table,
    load_game,
)

pytestmark = pytest.mark.asyncio

CODE = "ABCDEF"
AT = 2_000_000_000.0
"""When the actions are accepted (their rows' time)."""


@pytest_asyncio.fixture
async def db(database: str) -> AsyncIterator[Database]:
    """A database holding one table."""
    store = Database(database)
    store.start()
    try:
        await store.call(
            insert_table,
            StoredTable(
                code=CODE,
                rules="official",
                options={},
                public=True,
                status="lobby",
                host=0,
                turn_seconds=None,
                games=0,
                created_at=1.0,
                seats=[],
            ),
        )
        yield store
    finally:
        store.close()


@pytest_asyncio.fixture
async def client(own_redis: RedisServer) -> AsyncIterator[Redis]:
    """A client of a Redis server of the test's own (without persistence), started."""
    own_redis.start()
    redis = Redis.from_url(own_redis.url)
    yield redis
    await redis.aclose()


async def test_taking_a_table_records_its_epoch(db: Database, client: Redis) -> None:
    lease = await table_lease(client, CODE, "owner-a")
    assert await take_table(lease, db) == 1
    assert await db.call(table_epoch, CODE) == 1
    with pytest.raises(LeaseHeldError):
        await take_table(await table_lease(client, CODE, "owner-b"), db)
    assert await db.call(table_epoch, CODE) == 1


async def test_an_unknown_table_cannot_be_taken(db: Database, client: Redis) -> None:
    lease = await table_lease(client, "ZZZZZZ", "owner-a")
    with pytest.raises(LookupError, match="no such table"):
        await take_table(lease, db)
    assert await lease.holder() is None


async def test_epochs_keep_growing_after_redis_lost_its_data(
    db: Database, client: Redis, own_redis: RedisServer
) -> None:
    old = await table_lease(client, CODE, "owner-a")
    assert await take_table(old, db) == 1
    game = StoredGame(
        id=0,
        number=1,
        rules="official",
        options={},
        seed=5,
        players=["A", "B"],
        status="playing",
        result=None,
    )
    game_id = await db.call(insert_game, CODE, game, [])
    await db.append(NewAction(game_id, 0, "draw", 0, False, epoch=1, at=AT))
    own_redis.restart()  # no persistence: the lease and the counter are gone
    new = await table_lease(client, CODE, "owner-b")
    assert await take_table(new, db) == 2  # above the database's epoch, not Redis's 1
    with pytest.raises(StaleEpochError):
        await db.append(NewAction(game_id, 1, "draw", 1, False, epoch=1, at=AT))
    await db.append(NewAction(game_id, 1, "draw", 1, False, epoch=2, at=AT))
    stored = await db.call(load_game, game_id)
    assert stored is not None and stored.actions == ["draw", "draw"]


async def test_a_lost_claim_releases_the_lease(
    db: Database, client: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another owner claimed epoch 5 after this process read the database's epoch (4), and
    # Redis lost its counter in between: this acquisition gets 5 too, and its claim fails.
    await db.call(claim_epoch, CODE, 5, "owner-x")
    lease = await table_lease(client, CODE, "owner-a")
    read = db.call

    async def read_before_the_claim(fn: Any, *args: Any) -> Any:
        return 4 if fn is table_epoch else await read(fn, *args)

    with monkeypatch.context() as patch:
        patch.setattr(db, "call", read_before_the_claim)
        with pytest.raises(StaleEpochError, match="epoch 5 refused"):
            await take_table(lease, db)
    assert await lease.holder() is None  # released: the next attempt starts above 5
    assert await take_table(lease, db) == 6


async def test_a_table_kept_in_memory_is_taken_again_only_if_nobody_claimed_it_since(
    db: Database, client: Redis, own_redis: RedisServer
) -> None:
    first = await table_lease(client, CODE, "owner-a")
    assert await take_table(first, db) == 1
    own_redis.restart()  # the lease is gone, nobody else claimed: taken again, above 1
    again = await table_lease(client, CODE, "owner-a")
    assert await take_table(again, db, after=1) == 2
    await again.release()
    assert await take_table(await table_lease(client, CODE, "owner-b"), db) == 3
    own_redis.restart()
    late = await table_lease(client, CODE, "owner-a")  # what owner-b committed is not in its memory
    with pytest.raises(StaleEpochError, match="epoch 2 refused, the table is at epoch 3"):
        await take_table(late, db, after=2)
    assert await late.holder() is None and await db.call(table_epoch, CODE) == 3


async def test_a_claim_after_an_epoch_fails_if_another_came_between(db: Database) -> None:
    # The database's own check: read epoch 1, then another owner claimed 2, then this claim.
    await db.call(claim_epoch, CODE, 1, "owner-a")
    await db.call(claim_epoch, CODE, 2, "owner-b")
    with pytest.raises(StaleEpochError):
        await db.call(claim_epoch, CODE, 3, "owner-a", 1)
    assert await db.call(table_epoch, CODE) == 2
    await db.call(claim_epoch, CODE, 3, "owner-a", 2)
    assert await db.call(table_epoch, CODE) == 3
