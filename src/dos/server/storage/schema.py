"""The database's schema, brought up to the newest migration as the server starts.

The migrations are Alembic's, shipped in the package (``dos/server/storage/migrations``); they build
the tables of ``dos.server.storage.models`` (``tests/server/test_storage.py`` holds the two equal).
"""

from __future__ import annotations

from importlib import resources

from sqlalchemy import Engine, text

MIGRATION_LOCK = 0x444F535F4D494752
"""The PostgreSQL advisory lock the migrations run under (``migrate``)."""


def migrate(engine: Engine) -> None:
    """Brings the schema up to the newest migration (Alembic, from the installed package).
    On PostgreSQL under an advisory lock held to the end of the migration's transaction:
    processes started together on a new database (many processes' first start) migrate one
    after the other, the later ones finding the schema built."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    folder = resources.files("dos.server.storage").joinpath("migrations")
    with resources.as_file(folder) as path:
        config.set_main_option("script_location", str(path))
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                lock = text("SELECT pg_advisory_xact_lock(:key)")
                connection.execute(lock, {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
