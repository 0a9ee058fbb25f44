"""A table's ownership in Redis: a lease with expiry that only its holder renews or releases,
and a fencing epoch that grows at every acquisition.

Two keys per table ``CODE`` (``prefix`` ``dos``; the braces are a Redis Cluster hash tag,
so both keys of a table sit on one node and one script may touch both):

``dos:table:{CODE}:lease``
    ``"EPOCH OWNER UNTIL"`` while the lease is held: its holder (``Holder``, ``"EPOCH
    OWNER"``) and the time it is held until (ms, on the server's clock), also set as the
    key's expiry (``PXAT``); gone once it expires or its holder releases it. One ``GET``
    says who holds it and until when.
``dos:table:{CODE}:epoch``
    the table's epoch counter, never expiring; incremented at every acquisition.

What it guarantees while Redis keeps its data:

* at most one holder at a time: a script sets the lease only where there is none;
* every acquisition gets an epoch larger than any earlier acquisition of the table and larger
  than the ``floor`` it is given;
* only the holder renews or releases: the scripts compare the stored ``EPOCH OWNER`` with the
  holder's own before they touch it.

What it does not guarantee: that a holder paused past the expiry knows it is no longer the
owner. The epoch takes care of that, checked by the database at every commit of an action
(``dos.server.storage.fencing.claim_epoch``, ``NewAction.epoch``). Redis may also lose its data (a
restart without persistence): the lease is then free at once and the counter starts again
from 0, which is why ``acquire`` takes a ``floor``, the epoch the database holds
(``dos.cluster.ownership.take_table`` passes it).

Time comes from the server's clock (``dos.server.clock``), not from Redis: the expiry is set
at the clock's time plus the TTL, and every script, given the clock's time, takes a lease
whose expiry has passed for gone (Redis removes it by its own clock too, at the same moment
when the clock is the real one). So a test moves a ``ManualClock`` past a lease's expiry
instead of waiting for it. Processes on several machines must keep their wall clocks in step
(NTP), as their tables' handovers already require (``dos.server.tables.handover``): a process whose
clock is ahead by a second sees leases expire a second early, which the epoch makes safe.

>>> lease_key("ABCDEF"), epoch_key("ABCDEF")
('dos:table:{ABCDEF}:lease', 'dos:table:{ABCDEF}:epoch')
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from dos.server.clock import SYSTEM_CLOCK, Clock

T = TypeVar("T")

DEFAULT_TTL = 10.0
"""Seconds a lease lives without renewal: how long a table waits for a new owner after its
owner died."""

OWNER_MAX = 64
"""The longest owner id (``dos_tables.epoch_owner`` holds it)."""

# The holder's "EPOCH OWNER" if the lease is held at ARGV[1] (the clock's time in ms), else
# false (an expired one removed): the first lines of every script that reads the lease. A
# value without its time (written by hand) is held until Redis expires it.
_LIVE = """
local function live(key, now)
    local value = redis.call('GET', key)
    if not value then
        return false
    end
    local token, until_ms = string.match(value, '^(%S+ %S+) (%d+)$')
    if not token then
        return value
    end
    if tonumber(until_ms) <= tonumber(now) then
        redis.call('DEL', key)
        return false
    end
    return token
end
"""

# KEYS: lease, epoch counter. ARGV: now in ms, owner, ttl in ms, floor.
# Returns {1, "EPOCH OWNER"} when acquired, {0, the holder's "EPOCH OWNER"} when held.
_ACQUIRE = (
    _LIVE
    + """
local current = live(KEYS[1], ARGV[1])
if current then
    return {0, current}
end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[4])
if epoch <= floor then
    epoch = floor + 1
    redis.call('SET', KEYS[2], string.format('%d', epoch))
end
local token = string.format('%d', epoch) .. ' ' .. ARGV[2]
local until_ms = string.format('%d', tonumber(ARGV[1]) + tonumber(ARGV[3]))
redis.call('SET', KEYS[1], token .. ' ' .. until_ms, 'PXAT', until_ms, 'NX')
return {1, token}
"""
)

# KEYS: lease. ARGV: now in ms, the holder's "EPOCH OWNER", ttl in ms.
# Returns {1, token} when renewed, {0, the holder's token or ""} when not the holder.
_RENEW = (
    _LIVE
    + """
local current = live(KEYS[1], ARGV[1])
if current == ARGV[2] then
    local until_ms = string.format('%d', tonumber(ARGV[1]) + tonumber(ARGV[3]))
    redis.call('SET', KEYS[1], current .. ' ' .. until_ms, 'PXAT', until_ms)
    return {1, current}
end
return {0, current or ''}
"""
)

# KEYS: lease. ARGV: now in ms, the holder's "EPOCH OWNER". Returns 1 when released, 0 when
# not held.
_RELEASE = (
    _LIVE
    + """
if live(KEYS[1], ARGV[1]) == ARGV[2] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""
)


def lease_key(code: str, prefix: str = "dos") -> str:
    """The Redis key of a table's lease."""
    return f"{prefix}:table:{{{code}}}:lease"


def epoch_key(code: str, prefix: str = "dos") -> str:
    """The Redis key of a table's epoch counter."""
    return f"{prefix}:table:{{{code}}}:epoch"


def clock_ms(clock: Clock) -> int:
    """The clock's wall time in whole milliseconds, as the lease's scripts take it.

    >>> from dos.server.clock import ManualClock
    >>> clock_ms(ManualClock(start=1.5))
    1500
    """
    return int(clock.time() * 1000)


async def holders(
    redis: Redis, codes: list[str], clock: Clock, prefix: str = "dos"
) -> list[Holder | None]:
    """Who holds each table's lease at the clock's time (``None``: nobody), in one command
    without a script. Raises Redis's errors."""
    return [holder for holder, _until in await leases(redis, codes, clock, prefix)]


async def leases(
    redis: Redis, codes: list[str], clock: Clock, prefix: str = "dos"
) -> list[tuple[Holder | None, int | None]]:
    """Each table's lease at the clock's time: its holder (``None``: nobody) and the time
    (ms, on the clock) it is held until if nobody renews it (``None``: not held, or held
    without an expiry). One ``MGET`` (see ``holders``)."""
    if not codes:
        return []
    answers: list[Any] = await redis.mget([lease_key(code, prefix) for code in codes])
    now = clock_ms(clock)
    found: list[tuple[Holder | None, int | None]] = []
    for value in answers:
        if value is None:
            found.append((None, None))
            continue
        holder, until = Holder.parse(value), _until(value)
        found.append((None, None) if until is not None and until <= now else (holder, until))
    return found


def _until(value: bytes | str) -> int | None:
    """The time (ms) a lease's stored value says it is held until (``None``: not said)."""
    text = value.decode() if isinstance(value, bytes) else value
    parts = text.split(" ")
    return int(parts[2]) if len(parts) > 2 else None


def new_owner_id() -> str:
    """A fresh owner id for this process: host, process id and a random part, so that a
    restarted process with the same pid is another owner.

    >>> owner = new_owner_id()
    >>> owner.split(":")[1] == str(os.getpid()), len(owner) <= OWNER_MAX
    (True, True)
    """
    host = socket.gethostname()[:40]
    return f"{host}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lease, under which epoch.

    >>> Holder.parse(b"7 web-1:42:beef")
    Holder(owner='web-1:42:beef', epoch=7)
    >>> Holder.parse("7 web-1:42:beef 1700000000000")
    Holder(owner='web-1:42:beef', epoch=7)
    >>> str(Holder("web-1:42:beef", 7))
    '7 web-1:42:beef'
    """

    owner: str
    epoch: int

    def __str__(self) -> str:
        return f"{self.epoch} {self.owner}"

    @classmethod
    def parse(cls, value: bytes | str) -> Holder:
        """Reads a lease's stored ``"EPOCH OWNER"`` (and the time after it, if any)."""
        text = value.decode() if isinstance(value, bytes) else value
        epoch, owner = text.split(" ")[:2]
        return cls(owner, int(epoch))


class LeaseError(Exception):
    """A table's lease could not be acquired, kept or reached."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"table {code}: {message}")


class LeaseHeldError(LeaseError):
    """Another owner holds the lease (``holder``): this process may not own the table now.

    >>> str(LeaseHeldError("ABCDEF", Holder("web-2:7:aa", 3)))
    'table ABCDEF: the lease is held by web-2:7:aa (epoch 3)'
    """

    def __init__(self, code: str, holder: Holder) -> None:
        self.holder = holder
        super().__init__(code, f"the lease is held by {holder.owner} (epoch {holder.epoch})")


class LeaseLostError(LeaseError):
    """The lease is no longer this owner's, or may not be: it expired, another owner took
    it (``holder``), or Redis could not be reached before it expired. The process must stop
    acting as the table's owner; its writes are refused from the next owner's claim on."""

    def __init__(self, code: str, epoch: int | None, why: str, holder: Holder | None = None):
        self.epoch = epoch
        self.holder = holder
        self.why = why
        super().__init__(code, f"the lease of epoch {epoch} was lost: {why}")


class RedisUnavailableError(LeaseError):
    """Redis did not answer (down, unreachable, timed out); the lease's state is unknown."""


class TableLease:
    """One process's lease on one table, in Redis.

    ``acquire`` makes this process the table's owner and returns its epoch; ``renew`` keeps
    it (``dos.cluster.renewal.LeaseRenewal`` does so in the background); ``release`` hands
    it back. Every Redis failure raises ``RedisUnavailableError``, never a Redis client
    exception.

    Used from one event loop; one ``TableLease`` per table and owner.
    """

    def __init__(
        self,
        redis: Redis,
        code: str,
        owner: str,
        ttl: float = DEFAULT_TTL,
        *,
        prefix: str = "dos",
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        if not 0 < len(owner) <= OWNER_MAX or " " in owner:
            raise ValueError(f"an owner id has 1-{OWNER_MAX} characters and no space: {owner!r}")
        if ttl <= 0:
            raise ValueError(f"a lease's TTL is positive: {ttl}")
        self.redis = redis
        self.clock = clock
        """The server's clock: the lease's expiry and its renewals' times."""
        self.code = code
        self.owner = owner
        self.prefix = prefix
        self.ttl = ttl
        self.key = lease_key(code, prefix)
        self.counter = epoch_key(code, prefix)
        self.epoch: int | None = None
        """The epoch of the current (or latest) acquisition; ``None`` before the first."""
        self.valid_until = 0.0
        """``clock.monotonic()`` before which the lease is surely still held: the start of the
        latest successful acquisition or renewal plus the TTL; 0 when not held."""
        self._token: str | None = None
        self._ttl_ms = max(1, round(ttl * 1000))
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    @property
    def held(self) -> bool:
        """Whether this process holds the lease, as far as it can tell without asking Redis:
        acquired, not released, not lost, and the TTL since the latest renewal not over."""
        return self._token is not None and self.clock.monotonic() < self.valid_until

    async def _ask(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        """``await call()``; a connection closed by Redis (it restarted) is tried once more,
        on a new one (every call here may run twice: acquiring adopts its own lease); every
        Redis failure becomes ``RedisUnavailableError``."""
        for attempt in range(2):
            try:
                return await call()
            except RedisConnectionError as error:
                if attempt == 0:
                    continue
                failure: RedisError = error
            except RedisError as error:
                failure = error
            break
        raise RedisUnavailableError(
            self.code, f"could not {what} the lease, Redis did not answer ({failure})"
        ) from failure

    @staticmethod
    def _script(
        script: AsyncScript, keys: list[str], args: list[Any]
    ) -> Callable[[], Awaitable[Any]]:
        async def run() -> Any:
            return await script(keys=keys, args=args)

        return run

    async def acquire(self, floor: int = 0) -> int:
        """Takes the lease if nobody holds it and returns the new epoch: one more than the
        table's counter, and more than ``floor`` (the database's epoch, so that an epoch never
        goes back after Redis lost its counter). Atomic: one script sets the lease and the
        counter.

        If this lease already holds it, returns its epoch unchanged; a lease held under this
        lease's own owner id is taken as its own too (an earlier attempt succeeded but its
        answer was lost), and renewed at once. So ``acquire`` may be retried after a
        ``RedisUnavailableError``; owner ids are unique to a process (``new_owner_id``), with
        one ``TableLease`` per table. Raises ``LeaseHeldError`` when another owner holds it
        (nothing changes, the counter neither) and ``RedisUnavailableError``."""
        started = self.clock.monotonic()
        args = [clock_ms(self.clock), self.owner, self._ttl_ms, floor]
        done, value = await self._ask(
            "acquire", self._script(self._acquire, [self.key, self.counter], args)
        )
        holder = Holder.parse(value)
        token = str(holder)
        if done:
            self.epoch = holder.epoch
            self._token = token
            self.valid_until = started + self.ttl
        elif token != self._token:
            if holder.owner != self.owner:
                raise LeaseHeldError(self.code, holder)
            # Its own lease from an attempt whose answer was lost: when it was set is
            # unknown, so it is renewed before it counts as held.
            self.epoch = holder.epoch
            self._token = token
            await self.renew()
        assert self.epoch is not None
        return self.epoch

    async def renew(self) -> None:
        """Extends the lease by its TTL if this owner still holds it under its epoch.

        Raises ``LeaseLostError`` when it does not (it expired, or another owner holds it:
        ``holder``), after which this lease is no longer held, and ``RedisUnavailableError``
        (the lease may still be held until ``valid_until``)."""
        if self._token is None:
            raise LeaseLostError(self.code, self.epoch, "it is not held")
        started = self.clock.monotonic()
        args = [clock_ms(self.clock), self._token, self._ttl_ms]
        done, value = await self._ask("renew", self._script(self._renew, [self.key], args))
        if done:
            self.valid_until = started + self.ttl
            return
        self.forget()
        if not value:
            raise LeaseLostError(self.code, self.epoch, "it expired")
        holder = Holder.parse(value)
        why = f"{holder.owner} holds it (epoch {holder.epoch})"
        raise LeaseLostError(self.code, self.epoch, why, holder)

    async def release(self) -> bool:
        """Hands the lease back, if this owner still holds it under its epoch: another owner
        may acquire it at once. Returns whether it was held. Never removes another owner's
        lease. Locally the lease is no longer held, even when Redis does not answer
        (``RedisUnavailableError``; the lease then expires by itself)."""
        token = self._token
        self.forget()
        if token is None:
            return False
        args = [clock_ms(self.clock), token]
        released = await self._ask("release", self._script(self._release, [self.key], args))
        return bool(released)

    def forget(self) -> None:
        """Marks the lease as no longer held here, without asking Redis (it was lost)."""
        self._token = None
        self.valid_until = 0.0

    async def holder(self) -> Holder | None:
        """Who holds the table's lease now, according to Redis (``None``: nobody)."""
        found = await self._ask(
            "read", lambda: holders(self.redis, [self.code], self.clock, self.prefix)
        )
        return found[0]
