"""What one client may ask of the server, and the counters that hold it to that.

A client is its network address (behind a proxy, the address the proxy forwards: see
docs/deployment.md). Rates are counted by the ``limits`` library (sliding windows in
memory): tables created, joins, HTTP look-ups, new WebSockets and messages per client, and
messages and full resyncs per connection. Counts are caps on what is open at once: HTTP
connections per client and in all.

``Limits`` holds the figures; ``dos serve --limit NAME=VALUE`` changes one (``off`` lifts it;
``--limit off`` lifts every per-client limit, for tests and benchmarks).

>>> Limits().with_changes(["create=5/minute", "client_connections=off"]).create
'5/minute'
>>> Limits().with_changes(["speed=3"])
Traceback (most recent call last):
...
ValueError: --limit speed: unknown (known: create, join, lookup, connects, client_messages, \
messages, syncs, chat, client_chat, work, accounts, recover, client_connections, connections, \
header_seconds, table_page, lobby_idle, abandoned_idle)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from fastapi import Depends, HTTPException, Request
from limits import RateLimitItem, parse, storage, strategies


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
    (``dos.server.accounts``)."""
    recover: str | None = "10/minute"
    """Sign-ins with a recovery code a client may try (on top of ``accounts``)."""
    client_connections: int | None = 64
    """HTTP connections (WebSockets included) one client may hold open."""
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
                values.update({name: None for name in (*_RATES, "client_connections")})
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


class Counters:
    """Rate counters for the server's clients and connections."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._store = storage.MemoryStorage()
        self._few = strategies.MovingWindowRateLimiter(self._store)
        self._many = strategies.SlidingWindowCounterRateLimiter(self._store)
        self._items: dict[str, RateLimitItem | None] = {
            f.name: parse(getattr(limits, f.name)) if getattr(limits, f.name) else None
            for f in fields(limits)
            if f.name in _RATES
        }

    def allow(self, kind: str, *key: str) -> bool:
        """Counts one ``kind`` request of ``key`` (a client, a connection); whether it fits."""
        item = self._items[kind]
        if item is None:
            return True
        limiter = self._many if kind in _MANY else self._few
        return limiter.hit(item, kind, *key)

    def spend(self, kind: str, cost: int, *key: str) -> bool:
        """Counts ``cost`` units of ``kind`` for ``key``; whether they fit (nothing is
        counted when they do not)."""
        item = self._items[kind]
        if item is None or cost <= 0:
            return True
        limiter = self._many if kind in _MANY else self._few
        return limiter.hit(item, kind, *key, cost=cost)

    def retry_after(self, kind: str, *key: str) -> int:
        """Whole seconds until ``kind`` of ``key`` is allowed again (at least 1)."""
        item = self._items[kind]
        if item is None:
            return 1
        limiter = self._many if kind in _MANY else self._few
        reset = limiter.get_window_stats(item, kind, *key).reset_time
        return max(1, int(reset - time.time() + 0.999))


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
)
_MANY = frozenset({"client_messages", "messages", "lookup", "work"})
"""Busy counters: sliding window counters (constant memory); the others count exactly."""
