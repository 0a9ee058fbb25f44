"""Fencing in the database, on SQLite and PostgreSQL: an action commits only under its
table's recorded epoch, so a former owner commits nothing once the next one has claimed
(``dos.server.storage.fencing.claim_epoch``, ``NewAction.epoch``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from sqlalchemy import select
from sqlalchemy.orm import Session

from dos.server.storage.database import Database, NewAction
from dos.server.storage.fencing import StaleEpochError, claim_epoch, table_epoch
from dos.server.storage.models import ActionRow
from dos.server.storage.table_store import StoredSeat, insert_game, insert_table, load_game
from server.stored import stored_game, stored_table

pytestmark = pytest.mark.asyncio

CODE = "ABCDEF"
AT = 2_000_000_000.0
"""When the actions are accepted (their rows' time)."""


@pytest_asyncio.fixture
async def two(database: str) -> AsyncIterator[tuple[Database, Database, int]]:
    """Two processes' connections to one database holding a table and its game (the id)."""
    first, second = Database(database), Database(database)
    first.start()
    second.start()
    try:
        await first.call(insert_table, stored_table(CODE))
        seats = [StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, None, "easy", None)]
        game_id = await first.call(insert_game, CODE, stored_game(), seats)
        yield first, second, game_id
    finally:
        first.close()
        second.close()


def epochs_of(session: Session, game_id: int) -> list[int]:
    return list(
        session.scalars(
            select(ActionRow.epoch).where(ActionRow.game_id == game_id).order_by(ActionRow.idx)
        )
    )


async def test_a_table_starts_at_epoch_0(two: tuple[Database, Database, int]) -> None:
    db, _, _ = two
    assert await db.call(table_epoch, CODE) == 0
    assert await db.call(table_epoch, "ZZZZZZ") is None


async def test_a_claim_must_be_larger_unless_its_owner_repeats_it(
    two: tuple[Database, Database, int],
) -> None:
    db, _, _ = two
    await db.call(claim_epoch, CODE, 3, "owner-a")
    await db.call(claim_epoch, CODE, 3, "owner-a")  # repeated: no harm
    with pytest.raises(StaleEpochError) as refused:
        await db.call(claim_epoch, CODE, 3, "owner-b")  # the same epoch, another owner
    assert str(refused.value) == "table ABCDEF: epoch 3 refused, the table is at epoch 3"
    with pytest.raises(StaleEpochError):
        await db.call(claim_epoch, CODE, 2, "owner-b")
    with pytest.raises(StaleEpochError, match="no such table"):
        await db.call(claim_epoch, "ZZZZZZ", 9, "owner-b")
    await db.call(claim_epoch, CODE, 4, "owner-b")
    assert await db.call(table_epoch, CODE) == 4


async def test_a_former_owner_cannot_commit_after_the_next_one_claims(
    two: tuple[Database, Database, int],
) -> None:
    old, new, game_id = two
    await old.call(claim_epoch, CODE, 1, "owner-a")
    await old.append(NewAction(game_id, 0, "draw", 0, False, epoch=1, at=AT))
    await new.call(claim_epoch, CODE, 2, "owner-b")
    with pytest.raises(StaleEpochError) as refused:
        await old.append(NewAction(game_id, 1, "draw", 1, False, epoch=1, at=AT))
    assert str(refused.value) == "table ABCDEF: epoch 1 refused, the table is at epoch 2"
    await new.append(NewAction(game_id, 1, "lay B3", 1, False, epoch=2, at=AT))
    game = await new.call(load_game, game_id)
    assert game is not None and game.actions == ["draw", "lay B3"]
    assert await new.call(epochs_of, game_id) == [1, 2]


async def test_an_unclaimed_epoch_commits_nothing(two: tuple[Database, Database, int]) -> None:
    db, _, game_id = two
    await db.call(claim_epoch, CODE, 1, "owner-a")
    with pytest.raises(StaleEpochError):
        await db.append(NewAction(game_id, 0, "draw", 0, False, epoch=2, at=AT))
    game = await db.call(load_game, game_id)
    assert game is not None and game.actions == []


async def test_a_stale_action_in_a_group_commit_fails_alone(
    two: tuple[Database, Database, int],
) -> None:
    db, _, game_id = two
    await db.call(insert_table, stored_table("BBBBBB"))
    other = await db.call(insert_game, "BBBBBB", stored_game(), [])
    await db.call(claim_epoch, CODE, 2, "owner-b")
    outcomes = await asyncio.gather(
        db.append(NewAction(game_id, 0, "draw", 0, False, epoch=2, at=AT)),
        db.append(NewAction(other, 0, "draw", 0, False, epoch=1, at=AT)),  # BBBBBB is at epoch 0
        db.append(NewAction(other, 1, "draw", 1, False, at=AT)),  # not fenced
        db.append(NewAction(game_id, 1, "draw", 1, False, epoch=1, at=AT)),
        return_exceptions=True,
    )
    assert [type(o).__name__ for o in outcomes] == [
        "NoneType",
        "StaleEpochError",
        "NoneType",
        "StaleEpochError",
    ]
    game = await db.call(load_game, game_id)
    assert game is not None and game.actions == ["draw"]


async def test_the_single_process_server_writes_as_before_under_epoch_0(
    two: tuple[Database, Database, int],
) -> None:
    db, _, game_id = two
    await db.append(NewAction(game_id, 0, "draw", 0, False, at=AT))
    await db.append(NewAction(game_id, 1, "draw", 1, False, at=AT))
    assert await db.call(epochs_of, game_id) == [0, 0]
    assert await db.call(table_epoch, CODE) == 0
