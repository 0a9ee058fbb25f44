"""Fixtures of the agent tests: one live server (instant bots, no per-client limits)."""

from __future__ import annotations

import pytest

from server.support import ServerProcess


@pytest.fixture(scope="session")
def agent_server(server: ServerProcess) -> ServerProcess:
    """``dos serve`` on a free loopback port with SQLite in a fresh data folder: the server
    that the server tests share too (``server``, ``tests/conftest.py``)."""
    return server
