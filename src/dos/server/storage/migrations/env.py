"""Alembic's environment: migrates the connection the server hands over, or the URL in the
configuration (``sqlalchemy.url``) when run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from dos.server.storage.models import Base

target_metadata = Base.metadata


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Runs the migrations on the given connection or the configured URL."""
    config = context.config
    given = config.attributes.get("connection")
    if isinstance(given, Connection):
        _migrate(given)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection given and no sqlalchemy.url configured")
    engine = create_engine(url)
    with engine.begin() as connection:
        _migrate(connection)
    engine.dispose()


# Alembic runs this file as a script; importing it elsewhere (doctest collection) does nothing.
if hasattr(context, "config"):
    run()
