"""The database layer on SQLite and PostgreSQL: migrations, group commits, loading tables."""

from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.exc import IntegrityError

from dos.server.models import Base
from dos.server.players import player_results
from dos.server.storage import (
    Database,
    NewAction,
    StoredSeat,
    finish_game,
    insert_game,
    insert_table,
    load_active,
    load_game,
    load_table,
    migrate,
)
from server.stored import stored_game, stored_table


def test_the_migrations_build_the_models_schema(database: str) -> None:
    db = Database(database)
    migrate(db.engine)
    migrate(db.engine)  # a second run finds nothing to do
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, Base.metadata) == []
    db.close()


@pytest.mark.asyncio
async def test_actions_are_committed_in_order_and_a_table_loads_back(database: str) -> None:
    db = Database(database)
    db.start()
    try:
        await db.call(insert_table, stored_table("AAAAAA"))
        seats = [StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, None, "easy", None)]
        game_id = await db.call(insert_game, "AAAAAA", stored_game(2**61 + 5), seats)
        texts = ["draw", "lay B3", "1: dos", "R7@0"] * 10
        await asyncio.gather(
            *(
                db.append(NewAction(game_id, index, text, index % 2, False))
                for index, text in enumerate(texts)
            )
        )
        with pytest.raises(IntegrityError):
            await db.append(NewAction(game_id, 0, "draw", 0, False))  # the same index twice
        active = await db.call(load_active)
        assert [t.code for t in active] == ["AAAAAA"]
        loaded = active[0]
        assert loaded.status == "playing" and loaded.games == 1
        assert loaded.game is not None and loaded.game.actions == texts
        assert loaded.game.seed == 2**61 + 5
        await db.call(finish_game, "AAAAAA", game_id, {"winner": 0, "scores": [50, 0]})
        assert await db.call(load_active) == []
        table = await db.call(load_table, "AAAAAA")
        assert table is not None and table.status == "finished"
        game = await db.call(load_game, game_id)
        assert game is not None and game.result == {"winner": 0, "scores": [50, 0]}
        results = await db.call(player_results, "p_ada")
        assert [r["game_id"] for r in results] == [game_id]
    finally:
        db.close()
