"""Redis over TLS, end to end: a ``redis-server`` listening on a TLS port only, with a
certificate of a throwaway authority made here and an ACL user (docs/deployment.md,
"Protecting Redis"), and two ``dos serve --redis rediss://...`` processes started as the
recipe starts them: the URL, naming the authority, on the command line, the password in a
file the environment names. A table created on one process is played through the other.

A process given the wrong authority, or a plain ``redis://`` URL for the TLS port, stops at
start with one line saying so: neither is a Redis that has not answered yet, and waiting
cannot mend either.

Debian's ``redis-server`` is built with TLS; one built without it skips these tests (a failure
under ``CI=true``, tests/conftest.py)."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import random
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cluster.conftest import redis_server  # noqa: F401 (the fixture)
from cluster.support import RedisServer
from dos.cli import main
from dos.cluster.redis_access import RedisAccessError, check
from server.support import ServerProcess, WsPlayer, create_table, join_table

SECRET = "tls-secret-0123456789-0123456789-0123"
PASSWORD = "cards-in-the-clear:never"
"""Without spaces: an ACL file splits its lines at them."""


def _authority(
    name: str, now: datetime.datetime
) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A self-signed certificate authority, valid for a day."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, certificate


def _certificates(folder: Path) -> None:
    """``ca.pem`` (the authority that signed Redis's certificate), ``server.pem`` and
    ``server.key`` (for ``127.0.0.1`` and ``localhost``), and ``other-ca.pem`` (an authority
    that signed nothing here)."""
    now = datetime.datetime.now(datetime.UTC)
    pem = serialization.Encoding.PEM
    ca_key, ca = _authority("DOS test authority", now)
    _, other = _authority("another authority", now)
    key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "other-ca.pem").write_bytes(other.public_bytes(pem))
    (folder / "server.pem").write_bytes(certificate.public_bytes(pem))
    private = key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (folder / "server.key").write_bytes(private)


class TlsRedis(RedisServer):
    """``redis-server`` on a TLS port only (``--port 0 --tls-port``), no client certificates
    asked, the ACL user ``dos`` of docs/deployment.md and nobody else (an ACL file)."""

    def __init__(self) -> None:
        super().__init__()
        folder = self.folder
        _certificates(folder)
        acl = "user default off\nuser dos on >{} ~dos:* &* +@all -@admin -@dangerous\n"
        (folder / "users.acl").write_text(acl.format(PASSWORD))
        options = [
            *("--port", "0", "--tls-port", str(self.port)),
            *("--tls-cert-file", str(folder / "server.pem")),
            *("--tls-key-file", str(folder / "server.key")),
            *("--tls-ca-cert-file", str(folder / "ca.pem")),
            *("--tls-auth-clients", "no", "--aclfile", str(folder / "users.acl")),
        ]
        # The plain port of ``RedisServer``'s command is overridden by the options after it.
        wrapper = folder / "redis-server"
        command = f'exec {shlex.quote(self.binary)} "$@" {shlex.join(options)}'
        wrapper.write_text(f"#!/bin/sh\n{command}\n")
        wrapper.chmod(0o755)
        self.binary = str(wrapper)

    def tls_url(self, authority: str = "ca.pem") -> str:
        """The recipe's URL: the user, no password, the authority Redis is checked against."""
        return f"rediss://dos@127.0.0.1:{self.port}/0?ssl_ca_certs={self.folder / authority}"


@pytest.fixture(scope="module")
def tls_redis() -> Iterator[TlsRedis]:
    try:
        server = TlsRedis()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    try:
        server.start()
    except AssertionError:
        server.remove()
        if any("tls" in line.lower() for line in server.output):
            # Its TLS options refused at start: built without TLS (a failure under CI=true).
            pytest.skip("redis-server cannot listen with TLS:\n" + "".join(server.output))
        raise
    yield server
    server.remove()


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    path = tmp_path / "redis-password"
    path.write_text(PASSWORD + "\n")
    path.chmod(0o600)
    return path


@pytest.mark.asyncio
async def test_a_table_is_played_through_two_processes_over_tls(
    tmp_path: Path, tls_redis: TlsRedis, password_file: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    env = {"DOS_SECRET": SECRET, "DOS_REDIS_PASSWORD_FILE": str(password_file)}
    servers = [
        ServerProcess(
            tmp_path / name,
            database,
            *("--redis", tls_redis.tls_url(), "--name", name),
            *("--limit", "off", "--limit", "join=100/minute"),  # counted in Redis
            env=env,
        )
        for name in ("p0", "p1")
    ]
    players: list[WsPlayer] = []
    try:
        for server in servers:
            server.start()
        owner, relay = servers
        grant = create_table(owner.url, seats=[None, None], name="Ada")
        code = grant["code"]
        guest = join_table(relay.url, code, "Bea")
        # Ada through the owner, Bea through the other process (relayed to the owner).
        ada = await WsPlayer(owner.ws_url, code, grant["token"]).connect()
        bea = await WsPlayer(relay.ws_url, code, guest["token"]).connect()
        players = [ada, bea]
        await ada.send({"type": "start"})
        await asyncio.gather(ada.expect("state"), bea.expect("state"))
        assert ada.version == bea.version
        rng = random.Random(41)
        for _ in range(4):  # Ada's turn first, at most (one action, or a few DOS calls)
            mover, other = (bea, ada) if bea.choice(rng) is not None else (ada, bea)
            action = mover.choice(rng)
            assert action is not None, (ada.view, bea.view)
            answer = await mover.act(action)
            assert answer["type"] == "update", answer
            await other.expect("update", version=answer["version"])
            if mover is bea:
                break
        else:
            raise AssertionError("Bea never had an action to play")
        assert bea.history and ada.history == bea.history
        assert ada.version == bea.version
        # The table's lease is in the TLS Redis, taken by its owner as the ACL user, and so
        # is the count of joins (a limit whose Redis fails falls back to memory, unseen).
        with redis.Redis.from_url(tls_redis.tls_url(), password=PASSWORD) as client:
            lease = client.get(f"dos:table:{{{code}}}:lease")
            counted = list(client.scan_iter(match="dos:limits*"))
        assert lease is not None and b" p0:" in lease, lease
        assert counted
    finally:
        await asyncio.gather(*(player.close() for player in players))
        for server in servers:
            server.stop()
    for server in servers:
        assert not any("Traceback" in line or "NOPERM" in line for line in server.output)


def _serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str) -> list[Any]:
    """``dos serve --redis url`` in this process, stopped before it would listen: what it
    was started with (nothing when refused)."""
    started: list[Any] = []
    monkeypatch.setattr("dos.house.serve", lambda config, *where: started.append(config))
    status = main(["serve", "--data", str(tmp_path), "--port", "0", "--redis", url])
    assert status == (0 if started else 2)
    return started


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, password_file: Path) -> None:
    monkeypatch.setenv("DOS_SECRET", SECRET)
    for name in ("DOS_REDIS_URL", "DOS_REDIS_URL_FILE", "DOS_REDIS_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DOS_REDIS_PASSWORD_FILE", str(password_file))


@pytest.mark.usefixtures("environment")
def test_the_wrong_authority_stops_the_start_with_one_line(
    tmp_path: Path,
    tls_redis: TlsRedis,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _serve(tmp_path, monkeypatch, tls_redis.tls_url("other-ca.pem")) == []
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert "certificate" in lines[0] and "ssl_ca_certs" in lines[0], lines
    assert PASSWORD not in lines[0]
    # The right authority: started.
    assert len(_serve(tmp_path, monkeypatch, tls_redis.tls_url())) == 1


@pytest.mark.usefixtures("environment")
def test_a_plain_url_to_the_tls_port_stops_the_start_with_one_line(
    tmp_path: Path,
    tls_redis: TlsRedis,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _serve(tmp_path, monkeypatch, f"redis://dos@127.0.0.1:{tls_redis.port}/0") == []
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert "TLS" in lines[0] and "rediss://" in lines[0], lines


def test_a_tls_url_to_a_plain_port_is_refused(redis_server: RedisServer) -> None:  # noqa: F811
    # Redis takes the TLS handshake for a command line it waits to see the end of: the
    # check's time runs out (short here) rather than a refusal coming back.
    url = f"rediss://dos:{PASSWORD}@127.0.0.1:{redis_server.port}/0"
    with pytest.raises(RedisAccessError, match="answers without TLS on this port") as refused:
        check(url, timeout=0.5)
    assert PASSWORD not in str(refused.value)
