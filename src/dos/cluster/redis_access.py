"""Where a process's Redis is, and how it proves who it is: the URL and its secret, and the
checks made once at start (``dos serve --redis``, ``dos bot-worker``).

Every player's private hand crosses Redis in clear (the relayed connections' frames, the bots'
jobs), so a Redis that anyone can reach is a leak. The URL names the server, the user (an ACL
user, ``redis://dos@host:6379/0``) and the TLS options (``rediss://...?ssl_ca_certs=PATH``);
the password never travels on the command line, where ``ps`` shows it to every user of the
machine. The URL comes from exactly one of:

* ``--redis URL``: no password allowed in it (refused, saying where to put it);
* ``DOS_REDIS_URL`` or ``DOS_REDIS_URL_FILE`` (a file holding the URL): the whole URL, a
  password included if wanted.

The password, for a URL that carries none, from ``DOS_REDIS_PASSWORD`` or
``DOS_REDIS_PASSWORD_FILE`` (a file holding it; one trailing line break is not part of it).
``resolve`` puts it into the URL the process's clients are made from, which never leaves the
process (``redact`` is the URL as messages show it).

``check``, at start, before anything is built: a wrong password, or a Redis that wants one
and was given none, stops the process with one line (retrying cannot mend it), and so does a
node of a Redis Cluster (not supported: the clients follow no redirection), and so does a
URL whose TLS does not match the port's (a certificate its ``ssl_ca_certs`` did not sign, for
this host; ``rediss://`` to a port without TLS; ``redis://`` to a TLS port); a Redis that
answers a client that gives no password at all, on an address that is not this machine's own
(loopback or a unix socket), stops it too, unless the host says it knows (``insecure``:
``--redis-insecure``). A Redis that does not answer yet is left to the process's own waiting
for it (``check`` says so, as its return value).

>>> resolve("redis://dos@redis.internal:6379/0", {"DOS_REDIS_PASSWORD": "s3cret"})
'redis://dos:s3cret@redis.internal:6379/0'
>>> redact(resolve(None, {"DOS_REDIS_URL": "redis://dos:s3cret@redis.internal/0"}) or "")
'redis://dos:***@redis.internal/0'
>>> resolve("redis://dos:s3cret@redis.internal/0", {})
Traceback (most recent call last):
...
dos.cluster.redis_access.RedisAccessError: --redis: no password on the command line (\
`ps` shows it to every user): put it in DOS_REDIS_PASSWORD or DOS_REDIS_PASSWORD_FILE \
(or the whole URL in DOS_REDIS_URL or DOS_REDIS_URL_FILE)
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import redis
from redis.exceptions import AuthenticationError, RedisError, ResponseError

URL = "DOS_REDIS_URL"
URL_FILE = "DOS_REDIS_URL_FILE"
PASSWORD = "DOS_REDIS_PASSWORD"
PASSWORD_FILE = "DOS_REDIS_PASSWORD_FILE"

SCHEMES = ("redis", "rediss", "unix")
"""The URLs redis-py takes: plain, TLS, a unix socket."""

CHECK_SECONDS = 3.0
"""How long the checks at start wait for Redis."""


class RedisAccessError(ValueError):
    """Redis cannot be used as configured; the message is one line for the host."""


def _one_of(environ: Mapping[str, str], name: str, file_name: str) -> str | None:
    """The value of ``name``, or the text of the file ``file_name`` names (``None``: neither
    is set); both set is refused."""
    value, path = environ.get(name), environ.get(file_name)
    if value is not None and path is not None:
        raise RedisAccessError(f"{name} and {file_name} are both set: keep one")
    if path is None:
        return value
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RedisAccessError(f"{file_name}: cannot read {path}: {error.strerror}") from None
    return text.removesuffix("\n").removesuffix("\r")


def resolve(argument: str | None, environ: Mapping[str, str]) -> str | None:
    """The Redis URL with its password, from ``--redis`` (``argument``) or the environment
    (the module's text); ``None``: no Redis named anywhere (one process). Raises
    ``RedisAccessError`` for a URL that is not a Redis one, a password on the command line,
    two sources of one thing, a password without a Redis, an unreadable or empty file."""
    from_environment = _one_of(environ, URL, URL_FILE)
    password = _one_of(environ, PASSWORD, PASSWORD_FILE)
    if argument is not None and from_environment is not None:
        raise RedisAccessError(f"--redis and {URL} (or {URL_FILE}) both name a Redis: keep one")
    url = argument if argument is not None else from_environment
    source = "--redis" if argument is not None else URL
    if url is None:
        if password is not None:
            raise RedisAccessError(f"{PASSWORD} is set but no Redis is named (--redis or {URL})")
        return None
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise RedisAccessError(f"{source}: a redis://, rediss:// or unix:// URL")
    if argument is not None and parts.password is not None:
        raise RedisAccessError(
            f"--redis: no password on the command line (`ps` shows it to every user): put it "
            f"in {PASSWORD} or {PASSWORD_FILE} (or the whole URL in {URL} or {URL_FILE})"
        )
    if password is None:
        return url
    if password == "":
        raise RedisAccessError(f"{PASSWORD} (or {PASSWORD_FILE}): empty")
    if parts.password is not None:
        raise RedisAccessError(f"{URL} carries a password and {PASSWORD} another: keep one")
    return _with_credentials(url, parts.username or "", password)


def _with_credentials(url: str, username: str, password: str) -> str:
    """``url`` with ``username`` and ``password`` (percent-encoded) in its authority."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    authority = f"{quote(username, safe='')}:{quote(password, safe='')}@{host}"
    return urlunsplit(parts._replace(netloc=authority))


def _without_credentials(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def redact(url: str) -> str:
    """``url`` as messages show it: its password, if any, replaced by ``***``.

    >>> redact("rediss://dos:pw@r:6380/0?ssl_ca_certs=/etc/ca.pem")
    'rediss://dos:***@r:6380/0?ssl_ca_certs=/etc/ca.pem'
    >>> redact("redis://r/0")
    'redis://r/0'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def is_local(url: str) -> bool:
    """Whether ``url`` reaches a Redis on this machine only: a unix socket, ``localhost`` or
    a loopback address (a name is not resolved: any other name counts as remote).

    >>> is_local("unix:///run/redis/redis.sock"), is_local("redis://127.0.0.1:6379/0")
    (True, True)
    >>> is_local("redis://[::1]:6379"), is_local("redis://redis.internal:6379/0")
    (True, False)
    """
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return True
    host = parts.hostname or "localhost"
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _ping(url: str, timeout: float) -> None:
    client = redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, single_connection_client=True
    )
    try:
        client.ping()
    finally:
        client.close()


def _in_a_cluster(url: str, timeout: float) -> bool:
    """Whether the Redis at ``url`` runs in cluster mode (``CLUSTER INFO`` answers; a Redis
    without it refuses the command, as would a user not allowed it: then it is not known,
    and not refused). The server's clients (redis-py's ``Redis``) follow no ``MOVED``
    redirection: on a cluster every key of another node fails."""
    client = redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, single_connection_client=True
    )
    try:
        client.cluster("INFO")
    except (RedisError, OSError):
        return False
    finally:
        client.close()
    return True


def check(url: str, *, insecure: bool = False, timeout: float = CHECK_SECONDS) -> str | None:
    """Checks, once at start, that Redis takes this process's credentials and refuses
    anyone without them (the module's text). Raises ``RedisAccessError`` (one line) when it
    must not be used; returns a line to log when it could not be checked (it did not
    answer), ``None`` when all is well."""
    shown = redact(url)
    username = urlsplit(url).username or "default"
    try:
        _ping(url, timeout)
    except AuthenticationError as error:
        if urlsplit(url).password is None:
            raise RedisAccessError(
                f"Redis at {shown} asks for a password: put it in {PASSWORD} or "
                f"{PASSWORD_FILE} ({_first_line(error)})"
            ) from None
        raise RedisAccessError(
            f"Redis at {shown} refused the password of user {username!r}: check {PASSWORD} "
            f"or {PASSWORD_FILE} ({_first_line(error)})"
        ) from None
    except ResponseError as error:
        raise RedisAccessError(f"Redis at {shown} refused: {_first_line(error)}") from None
    except (RedisError, OSError) as error:
        mismatch = _tls_mismatch(url, error, timeout)
        if mismatch is not None:
            raise RedisAccessError(f"Redis at {shown} {mismatch}") from None
        return (
            f"Redis at {shown} did not answer ({_first_line(error)}): going on, waiting for "
            "it; its password and protection were not checked"
        )
    if _in_a_cluster(url, timeout):
        raise RedisAccessError(
            f"Redis at {shown} is a node of a Redis Cluster, which the server does not "
            "support: give it one Redis (docs/deployment.md, 'Capacity')"
        )
    if insecure or is_local(url):
        return None
    try:
        _ping(_without_credentials(url), timeout)
    except (RedisError, OSError):
        return None  # refused without credentials: protected
    raise RedisAccessError(
        f"Redis at {shown} answers a client without a password, and every player's hand "
        "crosses it: protect it (docs/deployment.md, 'Protecting Redis'), or pass "
        "--redis-insecure if the network is yours alone"
    )


def _tls_mismatch(url: str, error: BaseException, timeout: float) -> str | None:
    """What is wrong with how ``url`` speaks to Redis, when ``error`` (raised by the first
    command) comes of the URL rather than of a Redis not answering yet: a certificate the
    URL's authority did not sign (or not for this host), a TLS handshake with a port that
    does not speak TLS, a plain ``redis://`` URL for a port that does. ``None``: none of
    these (waiting may mend it)."""
    for cause in _causes(error):
        if isinstance(cause, ssl.SSLCertVerificationError):
            reason = cause.verify_message or _first_line(cause)
            return (
                f"presented a certificate that is not trusted ({reason}): ssl_ca_certs in "
                "the URL names the authority that signed Redis's certificate, for this host"
            )
        if isinstance(cause, ssl.SSLError):
            return (
                f"failed the TLS handshake ({cause.reason or _first_line(cause)}): is this "
                "Redis's tls-port? rediss:// is for a TLS port only"
            )
    scheme = urlsplit(url).scheme
    if scheme == "redis" and _speaks_tls(url, timeout):
        return (
            "speaks TLS on this port: use rediss://, with ssl_ca_certs=PATH (the authority "
            "that signed its certificate) in the URL"
        )
    if scheme == "rediss" and _speaks_plain(url, timeout):
        return (
            "answers without TLS on this port, and rediss:// waited for a TLS handshake: "
            "use Redis's tls-port"
        )
    return None


def _causes(error: BaseException) -> Iterator[BaseException]:
    """``error`` and the exceptions it was raised from or while handling."""
    seen: BaseException | None = error
    while seen is not None:
        yield seen
        seen = seen.__cause__ or seen.__context__


def _speaks_tls(url: str, timeout: float) -> bool:
    """Whether the TCP port of the ``redis://`` URL ``url`` completes a TLS handshake (its
    certificate unchecked: nothing is sent over it, the answer only says which scheme the
    URL should have had)."""
    parts = urlsplit(url)
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    address = (parts.hostname or "localhost", parts.port or 6379)
    try:
        with (
            socket.create_connection(address, timeout=timeout) as connection,
            context.wrap_socket(connection, server_hostname=address[0]),
        ):
            return True
    except (OSError, ValueError):
        return False


def _speaks_plain(url: str, timeout: float) -> bool:
    """Whether the TCP port of the ``rediss://`` URL ``url`` answers ``PING`` in clear, as
    a Redis port without TLS does (``+PONG``, or an error: ``-NOAUTH``...). A TLS port takes
    the bytes as a broken handshake and answers none of this."""
    parts = urlsplit(url)
    address = (parts.hostname or "localhost", parts.port or 6379)
    try:
        with socket.create_connection(address, timeout=timeout) as connection:
            connection.sendall(b"PING\r\n")
            answer = connection.recv(64)
    except OSError:
        return False
    return answer[:1] in (b"+", b"-")


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
