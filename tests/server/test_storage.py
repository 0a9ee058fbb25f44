"""The database layer on SQLite and PostgreSQL: migrations, group commits, loading tables."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from dos.server.http.players import player_results
from dos.server.storage.database import Database, NewAction, make_engine
from dos.server.storage.models import Base
from dos.server.storage.schema import migrate, upgrade
from dos.server.storage.table_store import (
    StoredSeat,
    finish_game,
    insert_game,
    insert_table,
    load_active,
    load_game,
    load_table,
)
from server.stored import stored_game, stored_table
from server.support import PostgresCluster

AT = 2_000_000_000.0
"""When the actions are accepted (their rows' time, as the table's clock gives it)."""


def test_the_migrations_build_the_models_schema(database: str) -> None:
    db = Database(database)
    migrate(db.engine)
    migrate(db.engine)  # a second run finds nothing to do
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, Base.metadata) == []
    db.close()


def _schema(url: str) -> dict[str, Any]:
    """Everything the database says of its tables: columns (type, nullability, default),
    keys, foreign keys, indexes, unique and check constraints, and the migration stamped."""
    engine = make_engine(url)
    with engine.connect() as connection:
        found = inspect(connection)
        tables: dict[str, Any] = {}
        for name in sorted(found.get_table_names()):
            tables[name] = {
                # by name: a migration adds its columns last, and no query reads them by place
                "columns": sorted(
                    (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                    for c in found.get_columns(name)
                ),
                "primary key": found.get_pk_constraint(name)["constrained_columns"],
                "foreign keys": sorted(
                    (
                        key["name"],
                        key["constrained_columns"],
                        key["referred_table"],
                        key["referred_columns"],
                        sorted(key.get("options", {}).items()),
                    )
                    for key in found.get_foreign_keys(name)
                ),
                "indexes": sorted(
                    (index["name"], index["column_names"], bool(index["unique"]))
                    for index in found.get_indexes(name)
                ),
                "unique": sorted(
                    (unique["name"] or "", unique["column_names"])
                    for unique in found.get_unique_constraints(name)
                ),
                "checks": sorted(
                    " ".join(check["sqltext"].split())
                    for check in found.get_check_constraints(name)
                ),
            }
        stamped = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    engine.dispose()
    return {"tables": tables, "stamped": stamped}


def test_an_empty_database_is_built_as_the_migrations_build_it(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # ``migrate`` builds an empty database from the models at once; the migrations, run one
    # by one on another empty database, must give the very same schema and stamp, so that a
    # database made either way takes the next migration alike.
    built = Database(database)
    migrate(built.engine)
    built.close()
    if database.startswith("sqlite"):
        other = f"sqlite:///{tmp_path / 'migrated.sqlite3'}"
    else:
        cluster, url = request.getfixturevalue("postgres")
        other = str(cluster.new_database(url))
    migrated = make_engine(other)
    with migrated.begin() as connection:
        upgrade(connection)
    migrated.dispose()
    assert _schema(database) == _schema(other)


def test_processes_starting_at_once_on_an_empty_postgresql_all_migrate_it(
    postgres: tuple[PostgresCluster, str],
) -> None:
    # Several server processes started together on a new database (a first install of many
    # processes): each runs the migrations; one builds the schema, the others find it built.
    cluster, url = postgres
    empty = cluster.new_database(url)
    script = (
        "import sys\n"
        "from dos.server.storage.schema import migrate, upgrade\n"
        "from dos.server.storage.database import make_engine\n"
        "engine = make_engine(sys.argv[1])\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"  # all at once: each waits for the word to go
        "migrate(engine)\n"
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-c", script, empty],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(4)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    outputs = [child.communicate(timeout=120)[0] for child in children]
    assert [child.returncode for child in children] == [0] * len(children), outputs
    engine = make_engine(empty)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


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
                db.append(NewAction(game_id, index, text, index % 2, False, at=AT + index))
                for index, text in enumerate(texts)
            )
        )
        with pytest.raises(IntegrityError):
            await db.append(NewAction(game_id, 0, "draw", 0, False, at=AT))  # the same index twice
        active = await db.call(load_active)
        assert [t.code for t in active] == ["AAAAAA"]
        loaded = active[0]
        assert loaded.status == "playing" and loaded.games == 1
        assert loaded.game is not None and loaded.game.actions == texts
        assert loaded.game.seed == 2**61 + 5
        assert loaded.game.last_at == AT + len(texts) - 1  # the rows' times are the callers'
        await db.call(finish_game, "AAAAAA", game_id, {"winner": 0, "scores": [50, 0]}, AT + 60)
        assert await db.call(load_active) == []
        table = await db.call(load_table, "AAAAAA")
        assert table is not None and table.status == "finished"
        game = await db.call(load_game, game_id)
        assert game is not None and game.result == {"winner": 0, "scores": [50, 0]}
        results = await db.call(player_results, "p_ada")
        assert [r["game_id"] for r in results] == [game_id]
    finally:
        db.close()
