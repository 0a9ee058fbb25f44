"""Per-client limits shared by the processes of one server through Redis
(``dos serve --redis``, ``dos.server.net.limits.Counters``): a client spreading its requests over
several processes meets the same limits as on one. Needs Debian's ``redis-server``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from cluster.conftest import own_redis, redis_server  # noqa: F401 (fixtures)
from cluster.support import RedisServer
from dos.house import create_app
from dos.server.app import ServerConfig
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.tables.settings import Settings

SECRET = "s" * 32


def _app(data: Path, database: str, redis_url: str | None, *limits: str) -> TestClient:
    config = ServerConfig(
        data=data,
        database=database,
        settings=Settings(bot_delay=0, pause_seconds=0),
        limits=Limits().with_changes(["off", *limits]),
        relying_party=RelyingParty("localhost"),
        redis=redis_url,
    )
    return TestClient(create_app(config))


@pytest.fixture
def shared_redis(redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:  # noqa: F811
    """The URL of the shared Redis server, emptied; every process's secret configured."""
    monkeypatch.setenv("DOS_SECRET", SECRET)
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    yield redis_server.url


def _create(client: TestClient) -> int:
    return client.post("/api/tables", json={"name": "Ada", "seats": [None, "easy"]}).status_code


def test_two_processes_share_one_clients_budget(tmp_path: Path, shared_redis: str) -> None:
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    one = _app(tmp_path / "one", database, shared_redis, "create=3/minute", "lookup=4/day")
    other = _app(tmp_path / "other", database, shared_redis, "create=3/minute", "lookup=4/day")
    with one, other:
        assert [_create(one), _create(other), _create(one)] == [201, 201, 201]
        refused = other.post("/api/tables", json={"name": "Ada", "seats": [None, "easy"]})
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) >= 1
        assert _create(one) == 429
        looks = [c.get("/api/tables").status_code for c in (one, other, other, one, one, other)]
        assert looks == [200, 200, 200, 200, 429, 429]


def test_without_redis_each_process_counts_alone(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    one = _app(tmp_path / "one", database, None, "create=2/minute")
    other = _app(tmp_path / "other", database, None, "create=2/minute")
    with one, other:
        assert [_create(one), _create(one), _create(one)] == [201, 201, 429]
        assert [_create(other), _create(other)] == [201, 201]


def test_limits_fall_back_to_memory_while_redis_is_away(
    tmp_path: Path,
    own_redis: RedisServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOS_SECRET", SECRET)
    url = own_redis.start()
    app = _app(tmp_path, f"sqlite:///{tmp_path / 'db.sqlite3'}", url, "lookup=2/minute")
    with app:
        assert app.get("/api/ready").json() == {"ready": True}
        assert _create(app) == 201
        assert app.get("/api/tables").status_code == 200
        own_redis.stop()
        # Never a server error: the process counts alone meanwhile (its own budget, fresh).
        looks = [app.get("/api/tables").status_code for _ in range(3)]
        assert looks == [200, 200, 429]
        # A new table needs an owner, which needs Redis (dos.cluster.node): a clear refusal.
        refused = app.post("/api/tables", json={"name": "Ada", "seats": [None, "easy"]})
        assert refused.status_code == 503 and refused.json()["code"] == "busy"
        assert "Redis" in refused.json()["message"]
        down = app.get("/api/ready")
        assert down.status_code == 503
        assert "Redis" in down.json()["reason"]
        own_redis.start()
        assert app.get("/api/ready").status_code == 200
        assert _create(app) == 201  # back without a restart


def test_a_server_of_many_processes_needs_a_configured_secret(
    tmp_path: Path, shared_redis: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DOS_SECRET")
    with pytest.raises(ValueError, match="DOS_SECRET"):
        _app(tmp_path, f"sqlite:///{tmp_path / 'db.sqlite3'}", shared_redis)


@pytest.mark.parametrize(
    "case",
    [
        ("http://127.0.0.1:6379", SECRET, "--redis: a redis://, rediss:// or unix:// URL"),
        ("redis://127.0.0.1:6379/0", None, "DOS_SECRET: with --redis every process"),
        ("redis://127.0.0.1:6379/0", "short", "DOS_SECRET: at least 16 bytes"),
        ("redis://127.0.0.1:6379/0 --lease 0.5", SECRET, "--lease: 1-60 seconds"),
        ("redis://127.0.0.1:6379/0 --lease nan", SECRET, "--lease: 1-60 seconds"),
        ("redis://127.0.0.1:6379/0 --lease 61", SECRET, "--lease: 1-60 seconds"),
        ("--lease 5", SECRET, "--lease: only with --redis"),
    ],
)
def test_serve_refuses_a_bad_redis_url_or_no_shared_secret(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, str | None, str],
) -> None:
    from dos.cli import main

    redis_url, secret, refusal = case

    if secret is None:
        monkeypatch.delenv("DOS_SECRET", raising=False)
    else:
        monkeypatch.setenv("DOS_SECRET", secret)
    # A case's first word is the Redis URL (none: "--..."), the rest more options.
    redis_url, *more = redis_url.split()
    redis = [] if redis_url.startswith("--") else ["--redis", redis_url]
    more = [redis_url, *more] if redis_url.startswith("--") else more
    status = main(["serve", "--data", str(tmp_path), *redis, *more, "--port", "0"])
    assert status == 2
    assert refusal in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # refused before anything was made
