"""Fixtures of the agent tests: one live server (instant bots, no per-client limits)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.support import ServerProcess


@pytest.fixture(scope="session")
def agent_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``dos serve`` on a free loopback port with SQLite in a fresh data folder."""
    process = ServerProcess(tmp_path_factory.mktemp("agents"), None)
    process.start()
    yield process
    process.stop()
