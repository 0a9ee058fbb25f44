"""Fixtures of the server tests: PostgreSQL when it is installed (the running server they
share, ``server``, is in ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.support import PostgresCluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[tuple[PostgresCluster, str]]:
    """A throwaway PostgreSQL cluster (skipped where PostgreSQL is not installed)."""
    try:
        cluster = PostgresCluster()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    url = cluster.start()
    yield cluster, url
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database URL, SQLite and PostgreSQL in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'dos.sqlite3'}"
    cluster, url = request.getfixturevalue("postgres")
    return str(cluster.new_database(url))
