"""Migration 0007: the fencing epochs of tables and actions (``dos.server.storage.database``)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from dos.server.storage import migrations
from dos.server.storage.database import make_engine
from dos.server.storage.fencing import table_epoch
from dos.server.storage.models import ActionRow
from dos.server.storage.schema import migrate


def test_migration_0007_gives_existing_tables_and_actions_epoch_0(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO dos_tables (code, rules, options, public, status, host,"
                " turn_seconds, games, created_at, rated)"
                " VALUES ('OLDOLD', 'official', '{}', 1, 'playing', 0, NULL, 1, 1.0, 1)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO dos_games (id, table_code, number, rules, options, seed, players,"
                " status, started_at) VALUES"
                " (1, 'OLDOLD', 1, 'official', '{}', 5, '[]', 'playing', 1.0)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO dos_actions (game_id, idx, action, seat, by_bot, at)"
                " VALUES (1, 0, 'draw', 0, 0, 1.0)"
            )
        )
    migrate(engine)
    with Session(engine) as session:
        assert table_epoch(session, "OLDOLD") == 0
        assert list(session.scalars(select(ActionRow.epoch))) == [0]
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")
    engine.dispose()
