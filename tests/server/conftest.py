"""Fixtures of the server tests: a running server, and PostgreSQL when it is installed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.support import PostgresCluster, ServerProcess


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with SQLite in a fresh data folder, instant bots and a rate limit that
    instant test players never reach, shared by the tests. ``DOS_SERVER_LOG=FILE`` keeps its
    output."""
    process = ServerProcess(tmp_path_factory.mktemp("data"), None, "--grace", "0.2")
    process.start()
    yield process
    process.stop()
    log = os.environ.get("DOS_SERVER_LOG")
    if log:
        Path(log).write_text("".join(process.output), encoding="utf-8")


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
