"""What one client may ask of the server, and the counters that hold it to that.

A client is its network address (behind a proxy, the address the proxy forwards: see
docs/deployment.md). Rates are counted by the ``limits`` library (sliding windows in
memory, or in Redis for the per-client ones when the server has one: ``Counters``): tables
created, joins, HTTP look-ups, new WebSockets and messages per client, and
messages and full resyncs per connection. Counts are caps on what is open at once: HTTP
connections per client and in all, and, on a server of many processes, a client's WebSockets
on every process together (``client_sockets``, counted in Redis by ``dos.cluster``).

``Limits`` holds the figures; ``dos serve --limit NAME=VALUE`` changes one (``off`` lifts it;
``--limit off`` lifts every per-client limit, for tests and benchmarks).

>>> Limits().with_changes(["create=5/minute", "client_connections=off"]).create
'5/minute'
>>> Limits().with_changes(["speed=3"])
Traceback (most recent call last):
...
ValueError: --limit speed: unknown (known: create, join, lookup, connects, client_messages, \
messages, syncs, chat, client_chat, work, accounts, recover, hints, reviews, client_connections, \
client_sockets, connections, header_seconds, table_page, lobby_idle, abandoned_idle)
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from fastapi import Depends, HTTPException, Request
from limits import RateLimitItem, parse, storage, strategies
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits of one server. A rate is ``"N/second|minute|hour"``; ``None`` lifts it."""

    create: str | None = "20/minute"
    """Tables a client may create."""
    join: str | None = "60/minute"
    """Seats a client may ask for."""
    lookup: str | None = "600/minute"
    """Other API requests of a client (table lists, records, replays, results)."""
    connects: str | None = "60/minute"
    """WebSockets a client may open (reconnecting does not renew its message budget)."""
    client_messages: str | None = "60/second"
    """WebSocket messages of a client, all its connections together."""
    messages: str | None = "40/2second"
    """WebSocket messages of one connection (20 a second, in bursts of 40)."""
    syncs: str | None = "4/10second"
    """Full resyncs (``sync``) one connection may ask for; more are refused."""
    chat: str | None = "5/10second"
    """Chat messages one connection may send."""
    client_chat: str | None = "10/10second"
    """Chat messages of a client, all its connections together (reconnecting renews nothing)."""
    work: str | None = "40000/minute"
    """Heavy work a client may cost the server, in units of one game action replayed (a game's
    replay, its log): a limit by cost, not by count (``Counters.spend``)."""
    accounts: str | None = "60/minute"
    """Account requests of a client: passkey ceremonies, sign-ins, recovery codes, sign-outs
    (``dos.server.people.accounts``)."""
    recover: str | None = "10/minute"
    """Sign-ins with a recovery code a client may try (on top of ``accounts``)."""
    hints: str | None = "30/minute"
    """Hints a client may ask for (``dos.server.tables.hints``: a search of the ``expert`` bot
    each)."""
    reviews: str | None = "30/hour"
    """Game reviews a client may ask for (``dos.server.http.reviews``), cached ones included."""
    client_connections: int | None = 64
    """HTTP connections (WebSockets included) one client may hold open."""
    client_sockets: int | None = 64
    """WebSockets one client (its forwarded address behind a proxy) may hold open on every
    process of a server of many together (``--redis``: counted in Redis); one process alone
    caps them under ``client_connections``. An audience of spectators is bounded by it."""
    connections: int | None = 10000
    """HTTP connections the server holds open; past it, new ones get 503."""
    header_seconds: float | None = 10.0
    """Time a client has to send a whole request (line, headers and body) on a connection."""
    table_page: int = 50
    """The most tables ``GET /api/tables`` lists at once."""
    lobby_idle: float | None = 3600.0
    """Seconds a table in the lobby lives with no player connected, before it expires."""
    abandoned_idle: float | None = 86400.0
    """Seconds a game lives with no human connected, before it is abandoned."""

    def with_changes(self, changes: Iterable[str]) -> Limits:
        """These limits with ``NAME=VALUE`` changes; raises ``ValueError`` naming the bad one."""
        known = {f.name: f for f in fields(self)}
        values: dict[str, Any] = {}
        for change in changes:
            if change.strip() == "off":  # every per-client limit (tests, benchmarks)
                lifted = (*_RATES, "client_connections", "client_sockets")
                values.update({name: None for name in lifted})
                continue
            name, _, value = change.partition("=")
            name = name.strip()
            if name not in known:
                raise ValueError(f"--limit {name}: unknown (known: {', '.join(known)})")
            values[name] = _value(name, value.strip(), known[name].type)
        return dataclasses.replace(self, **values)


def _value(name: str, text: str, kind: Any) -> Any:
    if text == "off":
        if "None" not in str(kind):
            raise ValueError(f"--limit {name}: cannot be off")
        return None
    try:
        if "str" in str(kind):
            parse(text)
            return text
        number = float(text) if "float" in str(kind) else int(text)
    except ValueError:
        raise ValueError(f"--limit {name}: {text!r} is not a valid value") from None
    if number <= 0:
        raise ValueError(f"--limit {name}: must be positive")
    return number


class _Limiters:
    """The two strategies over one storage: moving windows (exact, for the small limits)
    and sliding window counters (constant memory, for the busy ones)."""

    def __init__(self, store: storage.Storage) -> None:
        self.few = strategies.MovingWindowRateLimiter(store)
        self.many = strategies.SlidingWindowCounterRateLimiter(store)

    def of(self, kind: str) -> strategies.RateLimiter:
        return self.many if kind in _MANY else self.few


REDIS_SECONDS = 0.25
"""The longest a shared counter waits for Redis (to connect, or for an answer)."""
REDIS_RETRY_SECONDS = 5.0
"""After Redis failed to answer, how long the counters stay in memory before asking again."""
READY_KEY = "dos:limits:ready"
"""The key ``Counters.redis_problem`` writes to see that Redis takes writes."""


class Counters:
    """Rate counters for the server's clients and connections.

    In memory by default. Given a Redis URL (``dos serve --redis``), the per-client counters
    (``SHARED``: those keyed by the client's address) are kept in Redis by the ``limits``
    library's Redis storage, so that a client spreading its requests over several processes
    meets the same limits as on one; the per-connection ones (``messages``, ``syncs``,
    ``chat``) stay in memory, as a connection lives in one process. The counters answer
    synchronously, as every caller expects (HTTP dependencies, the WebSocket loop, the MCP
    tools): a shared check is one round trip to Redis (a Lua script) on the event loop,
    bounded by ``REDIS_SECONDS``. Should Redis not answer, the counters fall back to memory
    (per-process limits) for ``REDIS_RETRY_SECONDS`` and ask it again: a Redis outage
    loosens the limits by the number of processes, and never fails a request."""

    def __init__(self, limits: Limits, redis_url: str | None = None) -> None:
        self.limits = limits
        self._memory = _Limiters(storage.MemoryStorage())
        self._shared: _Limiters | None = None
        self._redis_back_at = 0.0
        if redis_url is not None:
            import redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            pool = redis.ConnectionPool.from_url(
                redis_url,
                socket_timeout=REDIS_SECONDS,
                socket_connect_timeout=REDIS_SECONDS,
                retry=Retry(NoBackoff(), 0),  # one attempt: the fallback is memory
            )
            self._pool: Any = pool
            self._shared = _Limiters(
                storage.RedisStorage(redis_url, connection_pool=pool, key_prefix="dos:limits")
            )
        self._items: dict[str, RateLimitItem | None] = {
            f.name: parse(getattr(limits, f.name)) if getattr(limits, f.name) else None
            for f in fields(limits)
            if f.name in _RATES
        }

    @property
    def shared(self) -> bool:
        """Whether the per-client counters are kept in Redis."""
        return self._shared is not None

    def _limiter(self, kind: str) -> tuple[strategies.RateLimiter, strategies.RateLimiter]:
        """The limiter to ask first for ``kind``, and the one to fall back on."""
        memory = self._memory.of(kind)
        if self._shared is None or kind not in SHARED or time.monotonic() < self._redis_back_at:
            return memory, memory
        return self._shared.of(kind), memory

    def _hit(self, kind: str, item: RateLimitItem, key: tuple[str, ...], cost: int) -> bool:
        first, fallback = self._limiter(kind)
        if first is fallback:
            return first.hit(item, kind, *key, cost=cost)
        try:
            return first.hit(item, kind, *key, cost=cost)
        except (RedisError, OSError) as error:
            self._redis_failed(error)
            return fallback.hit(item, kind, *key, cost=cost)

    def _redis_failed(self, error: BaseException) -> None:
        if time.monotonic() >= self._redis_back_at:
            log.warning(
                "rate limits: Redis did not answer (%s); counting in memory for %.0f s",
                error,
                REDIS_RETRY_SECONDS,
            )
        self._redis_back_at = time.monotonic() + REDIS_RETRY_SECONDS

    def allow(self, kind: str, *key: str) -> bool:
        """Counts one ``kind`` request of ``key`` (a client, a connection); whether it fits."""
        item = self._items[kind]
        if item is None:
            return True
        return self._hit(kind, item, key, 1)

    def spend(self, kind: str, cost: int, *key: str) -> bool:
        """Counts ``cost`` units of ``kind`` for ``key``; whether they fit (nothing is
        counted when they do not)."""
        item = self._items[kind]
        if item is None or cost <= 0:
            return True
        return self._hit(kind, item, key, cost)

    def retry_after(self, kind: str, *key: str) -> int:
        """Whole seconds until ``kind`` of ``key`` is allowed again (at least 1)."""
        item = self._items[kind]
        if item is None:
            return 1
        first, fallback = self._limiter(kind)
        try:
            reset = first.get_window_stats(item, kind, *key).reset_time
        except (RedisError, OSError) as error:
            self._redis_failed(error)
            reset = fallback.get_window_stats(item, kind, *key).reset_time
        return max(1, int(reset - time.time() + 0.999))

    def redis_problem(self) -> str | None:
        """Why Redis cannot serve this process now (``None``: it does, or there is none).

        A new connection is opened, as the process's pools open theirs, and a key written
        (``READY_KEY``, expiring), so that a Redis that refuses new clients (its
        ``maxclients``) or writes (out of memory, a read-only replica, an ACL user without
        the right) counts as not serving, while the connections already open would still
        answer a ``PING``. Blocks for up to twice ``REDIS_SECONDS``: call it on a worker
        thread."""
        if self._shared is None:
            return None
        connection = self._pool.connection_class(**self._pool.connection_kwargs)
        try:
            connection.connect()
            connection.send_command("SET", READY_KEY, "1", "PX", 10_000)
            connection.read_response()
        except (RedisError, OSError) as error:
            detail = str(error).strip().splitlines()
            return f"Redis did not serve: {detail[0] if detail else type(error).__name__}"
        finally:
            connection.disconnect()
        return None

    def close(self) -> None:
        """Closes the connections to Redis, if any."""
        if self._shared is not None:
            self._pool.disconnect()


def client_address(scope_client: Any) -> str:
    """The client's network address, the key of its limits."""
    return str(scope_client[0]) if scope_client else "unknown"


def limited(counters: Counters, *kinds: str) -> Any:
    """A FastAPI dependency that counts one request of each ``kind`` for the client; past a
    limit, 429 ``rate_limited`` with ``Retry-After``."""

    def check(request: Request) -> None:
        who = client_address(request.client)
        for kind in kinds:
            if not counters.allow(kind, who):
                wait = counters.retry_after(kind, who)
                raise HTTPException(
                    429,
                    f"too many requests ({kind}): try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )

    return Depends(check)


_RATES = (
    "create",
    "join",
    "lookup",
    "connects",
    "client_messages",
    "messages",
    "syncs",
    "chat",
    "client_chat",
    "work",
    "accounts",
    "recover",
    "hints",
    "reviews",
)
_MANY = frozenset({"client_messages", "messages", "lookup", "work"})
"""Busy counters: sliding window counters (constant memory); the others count exactly."""
SHARED = frozenset(_RATES) - {"messages", "syncs", "chat"}
"""The per-client counters: in Redis when the server has one (the others count a connection,
which lives in one process)."""
