"""The database's schema, brought up to the newest migration as the server starts.

The migrations are Alembic's, shipped in the package (``dos/server/storage/migrations``); they build
the tables of ``dos.server.storage.models``. An empty database (a first start) gets those
tables at once, built from the models and stamped with the newest migration, instead of
through every migration in turn; a database with tables goes through the migrations it lacks.
``tests/server/test_storage.py`` holds the two ways to the same schema, column by column.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATION_LOCK = 0x444F535F4D494752
"""The PostgreSQL advisory lock the migrations run under (``migrate``)."""


def migrate(engine: Engine) -> None:
    """Brings the schema up to the newest migration (Alembic, from the installed package);
    an empty database is built from the models at once (``create``). On PostgreSQL under an
    advisory lock held to the end of the migration's transaction: processes started together
    on a new database (many processes' first start) migrate one after the other, the later
    ones finding the schema built."""
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            lock = text("SELECT pg_advisory_xact_lock(:key)")
            connection.execute(lock, {"key": MIGRATION_LOCK})
        if inspect(connection).get_table_names():
            upgrade(connection)
        else:
            create(connection)


def upgrade(connection: Connection) -> None:
    """Runs the migrations the database on ``connection`` lacks, in its transaction."""
    from alembic import command

    with _config() as config:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def create(connection: Connection) -> None:
    """Builds the models' tables in the empty database on ``connection`` and stamps it with
    the newest migration, in its transaction: what ``upgrade`` builds, at a fraction of the
    cost."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from dos.server.storage.models import Base

    Base.metadata.create_all(connection)
    with _config() as config:
        MigrationContext.configure(connection).stamp(ScriptDirectory.from_config(config), "head")


@contextmanager
def _config() -> Iterator[Config]:
    """Alembic's configuration: the migrations shipped in the package."""
    from alembic.config import Config

    config = Config()
    folder = resources.files("dos.server.storage").joinpath("migrations")
    with resources.as_file(folder) as path:
        config.set_main_option("script_location", str(path))
        yield config
