"""Redis protected: its password comes from the environment or a file, never the command
line; a wrong one stops the start with one line; a Redis open to anyone on another machine
is refused unless the host says so (``dos.cluster.redis_access``, ``dos serve``, ``dos
bot-worker``). Each test starts a throwaway ``redis-server`` and protects it at run time
(an ACL user, the default user switched off), as docs/deployment.md's recipe does."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from cluster.conftest import own_redis  # noqa: F401 (the fixture)
from cluster.redis_support import ClusterNode
from cluster.support import RedisServer
from dos.cli import main
from dos.cluster.redis_access import RedisAccessError, is_local, resolve
from server.support import ServerProcess

SECRET = "s" * 32
PASSWORD = "hand of cards: 7% / @ #"
"""A password with the characters a URL would take apart."""


def _protect(server: RedisServer) -> None:
    """The ACL user ``dos`` of docs/deployment.md ("Protecting Redis"), with ``PASSWORD``;
    nobody else gets in."""
    with redis.Redis(port=server.port) as admin:
        rules = ["on", f">{PASSWORD}", "~dos:*", "&*", "+@all", "-@admin", "-@dangerous"]
        admin.execute_command("ACL", "SETUSER", "dos", *rules)
        admin.acl_setuser("default", enabled=False)


@pytest.fixture
def protected(own_redis: RedisServer) -> Iterator[RedisServer]:  # noqa: F811
    own_redis.start()
    _protect(own_redis)
    yield own_redis


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """What ``dos serve`` and ``dos bot-worker`` were started with: the test stops them
    before they listen or take jobs (nothing to clean up)."""
    calls: list[Any] = []
    monkeypatch.setenv("DOS_SECRET", SECRET)
    for name in (
        "DOS_REDIS_URL",
        "DOS_REDIS_URL_FILE",
        "DOS_REDIS_PASSWORD",
        "DOS_REDIS_PASSWORD_FILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("dos.house.serve", lambda config, *where: calls.append(config))
    # The worker sets up the root logger (handlers, format, level): put back after the test.
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    level = root.level

    class Worker:
        def __init__(self, url: str, *_args: Any, **_kwargs: Any) -> None:
            calls.append(url)

        def stop(self) -> None:
            pass

        async def serve(self) -> None:
            pass

    monkeypatch.setattr("dos.cluster.jobworker.JobWorker", Worker)
    yield calls
    root.setLevel(level)


def _serve(tmp_path: Path, *args: str) -> int:
    return main(["serve", "--data", str(tmp_path), "--port", "0", *args])


def _answers(url: str) -> bool:
    with redis.Redis.from_url(url) as client:
        return bool(client.ping())


def test_the_password_comes_from_the_environment(
    tmp_path: Path, protected: RedisServer, started: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOS_REDIS_PASSWORD", PASSWORD)
    assert _serve(tmp_path, "--redis", f"redis://dos@127.0.0.1:{protected.port}/0") == 0
    assert _answers(started[0].redis)


def test_a_file_holds_the_password_or_the_whole_url(
    tmp_path: Path, protected: RedisServer, started: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "password").write_text(PASSWORD + "\n")  # as an editor leaves it
    monkeypatch.setenv("DOS_REDIS_PASSWORD_FILE", str(tmp_path / "password"))
    monkeypatch.setenv("DOS_REDIS_URL", f"redis://dos@127.0.0.1:{protected.port}/0")
    assert main(["bot-worker"]) == 0
    assert _answers(started[0])


def test_a_password_on_the_command_line_is_refused(
    tmp_path: Path,
    protected: RedisServer,
    started: list[Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"redis://dos:secret@127.0.0.1:{protected.port}/0"
    assert _serve(tmp_path, "--redis", url) == 2
    assert main(["bot-worker", "--redis", url]) == 2
    refusals = capsys.readouterr().err.splitlines()
    assert len(refusals) == 2 and all("DOS_REDIS_PASSWORD" in line for line in refusals)
    assert not any("secret" in line for line in refusals)
    assert started == []


@pytest.mark.parametrize("password", [None, "wrong"])
def test_a_wrong_or_missing_password_stops_the_start_with_one_line(
    tmp_path: Path,
    protected: RedisServer,
    started: list[Any],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *,
    password: str | None,
) -> None:
    if password is not None:
        monkeypatch.setenv("DOS_REDIS_PASSWORD", password)
    url = f"redis://dos@127.0.0.1:{protected.port}/0"
    assert _serve(tmp_path, "--redis", url) == 2
    assert main(["bot-worker", "--redis", url]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert all("DOS_REDIS_PASSWORD" in line for line in lines)
    assert not any("wrong" in line for line in lines)
    assert started == []


def _outward_address() -> str:
    """This machine's address on its network (not loopback), or a skip."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: only the route is chosen
        except OSError:
            pytest.skip("no network address besides loopback")
        address = str(probe.getsockname()[0])
    if is_local(f"redis://{address}"):
        pytest.skip("no network address besides loopback")
    return address


@pytest.fixture
def reachable(own_redis: RedisServer) -> Iterator[tuple[RedisServer, str]]:  # noqa: F811
    """A Redis listening on this machine's network address too, protected mode off (as a
    host that opened it to its other machines would), and that address."""
    address = _outward_address()
    own_redis.start()
    with redis.Redis(port=own_redis.port) as admin:
        admin.config_set("bind", f"127.0.0.1 {address}")
        admin.config_set("protected-mode", "no")
    yield own_redis, address


def test_a_redis_open_to_anyone_on_the_network_is_refused_unless_told(
    tmp_path: Path,
    reachable: tuple[RedisServer, str],
    started: list[Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server, address = reachable
    url = f"redis://{address}:{server.port}/0"
    assert _serve(tmp_path, "--redis", url) == 2
    assert main(["bot-worker", "--redis", url]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("without a password" in line for line in lines), lines
    assert started == []
    # The host who knows its network is its own says so.
    assert _serve(tmp_path, "--redis", url, "--redis-insecure") == 0
    assert main(["bot-worker", "--redis", url, "--redis-insecure"]) == 0
    assert len(started) == 2
    # On loopback an open Redis is this machine's business: no refusal.
    assert _serve(tmp_path, "--redis", f"redis://127.0.0.1:{server.port}/0") == 0


def test_a_protected_redis_on_the_network_is_used(
    tmp_path: Path,
    reachable: tuple[RedisServer, str],
    started: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server, address = reachable
    _protect(server)
    monkeypatch.setenv("DOS_REDIS_PASSWORD", PASSWORD)
    assert _serve(tmp_path, "--redis", f"redis://dos@{address}:{server.port}/0") == 0
    assert _answers(started[0].redis)


@pytest.mark.parametrize(
    ("argument", "environ", "refusal"),
    [
        ("redis://h/0", {"DOS_REDIS_URL": "redis://g/0"}, "both name a Redis"),
        (None, {"DOS_REDIS_PASSWORD": "p"}, "no Redis is named"),
        (None, {"DOS_REDIS_URL": "http://h/0"}, "a redis://, rediss:// or unix:// URL"),
        ("redis://h/0", {"DOS_REDIS_PASSWORD": ""}, "empty"),
        ("redis://h/0", {"DOS_REDIS_PASSWORD": "p", "DOS_REDIS_PASSWORD_FILE": "f"}, "keep one"),
        (None, {"DOS_REDIS_URL": "redis://:a@h/0", "DOS_REDIS_PASSWORD": "b"}, "keep one"),
        ("redis://h/0", {"DOS_REDIS_PASSWORD_FILE": "/nonexistent/p"}, "cannot read"),
    ],
)
def test_a_redis_named_two_ways_or_half_named_is_refused(
    argument: str | None, environ: dict[str, str], refusal: str
) -> None:
    with pytest.raises(RedisAccessError, match=refusal):
        resolve(argument, environ)


def test_the_url_keeps_its_tls_options_and_unix_sockets_take_a_password() -> None:
    tls = "rediss://dos@r:6380/0?ssl_ca_certs=/etc/dos/ca.pem"
    with_password = resolve(tls, {"DOS_REDIS_PASSWORD": "p w"})
    assert with_password == "rediss://dos:p%20w@r:6380/0?ssl_ca_certs=/etc/dos/ca.pem"
    socket_url = resolve("unix:///run/redis.sock?db=0", {"DOS_REDIS_PASSWORD": "p"})
    assert socket_url == "unix://:p@/run/redis.sock?db=0"
    kwargs = redis.connection.parse_url(socket_url)
    assert (kwargs["password"], kwargs["path"]) == ("p", "/run/redis.sock")


def test_a_server_of_many_runs_on_a_protected_redis_and_logs_json(
    tmp_path: Path,
    protected: RedisServer,
) -> None:
    server = ServerProcess(
        tmp_path,
        None,
        "--redis",
        f"redis://dos@127.0.0.1:{protected.port}/0",
        "--log-format",
        "json",
        env={"DOS_SECRET": SECRET, "DOS_REDIS_PASSWORD": PASSWORD},
    )
    server.start()
    try:
        created = httpx.post(
            f"{server.url}/api/tables", json={"name": "Ada", "seats": [None, "easy"]}
        )
        assert created.status_code == 201, created.text
        code = created.json()["code"]
        assert httpx.get(f"{server.url}/api/ready").json() == {"ready": True}
        port = int(server.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as garbled:
            garbled.sendall(b"NOT HTTP\r\n\r\n")  # uvicorn's own warning, logged
            assert garbled.recv(100).startswith(b"HTTP/1.1 400")
    finally:
        server.stop()
    refused = [line for line in server.output if "NOPERM" in line or "Traceback" in line]
    assert refused == []  # the user's rights are enough for all the server did
    logged = [json.loads(line) for line in server.output if line.startswith("{")]
    assert logged and all(entry["node"] and entry["time"] for entry in logged), server.output
    # Every log line is JSON, uvicorn's too; the others are what the server prints.
    others = [line for line in server.output if not line.startswith("{")]
    assert not any("Invalid HTTP request" in line for line in others), others
    assert any(entry["logger"] == "uvicorn.error" for entry in logged)
    with redis.Redis(port=protected.port, username="dos", password=PASSWORD) as client:
        assert client.exists(f"dos:table:{{{code}}}:epoch")  # the lease was taken there


@pytest.fixture
def cluster_node() -> Iterator[RedisServer]:
    try:
        node = ClusterNode()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    node.start()
    yield node
    node.remove()


def test_a_redis_cluster_is_refused_at_start(
    tmp_path: Path,
    cluster_node: RedisServer,
    started: list[Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Its clients follow no MOVED redirection: on three shards every table's lease failed
    # (503 busy) on the keys of the other two.
    url = f"redis://127.0.0.1:{cluster_node.port}/0"
    assert _serve(tmp_path, "--redis", url) == 2
    assert main(["bot-worker", "--redis", url]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("Redis Cluster" in line for line in lines), lines
    assert started == []
