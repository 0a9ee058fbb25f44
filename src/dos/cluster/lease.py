"""A table's ownership in Redis: a claim that rests on its owner's process lease
(``dos.cluster.process_lease``), and a fencing epoch that grows at every acquisition.

Two keys per table ``CODE`` (``prefix`` ``dos``; the braces are a Redis Cluster hash tag,
so both keys of a table sit on one node and one script may touch both):

``dos:table:{CODE}:lease``
    ``"EPOCH OWNER INCARNATION"``: the table was taken under ``EPOCH`` by the process
    ``OWNER`` while its process lease held ``INCARNATION``. No expiry and no renewal of its
    own: the table is held while, and only while, its owner's alive key
    (``dos:owner:{OWNER}:alive``) still holds that incarnation. A process renews one key
    however many tables it holds; when that key lapses, every table it took under it is
    free at once.
``dos:table:{CODE}:epoch``
    the table's epoch counter, never expiring; incremented at every acquisition.

What it guarantees while Redis keeps its data:

* at most one holder at a time: one script takes the table only where nobody holds it (no
  claim, or its owner's alive key no longer holds the claim's incarnation), and only for a
  process whose own lease is held;
* every acquisition gets an epoch larger than any earlier acquisition of the table and larger
  than the ``floor`` it is given;
* only the holder releases: the script compares the stored claim with the holder's own.

The scripts read the alive key named in a table's claim, a key they are not given: one Redis
(the server supports no Redis Cluster) runs them.

What it does not guarantee: that a holder paused past its process lease knows it is no
longer the owner. The epoch takes care of that, checked by the database at every commit of
an action (``dos.server.storage.fencing.claim_epoch``, ``NewAction.epoch``). Redis may also lose
its data (a restart without persistence): every table is then free at once and the counter
starts again from 0, which is why ``acquire`` takes a ``floor``, the epoch the database holds
(``dos.cluster.ownership.take_table`` passes it).

Time comes from the server's clock (``dos.server.clock``), as for the process lease: a test
moves a ``ManualClock`` past the alive key's time instead of waiting for it.

>>> lease_key("ABCDEF"), epoch_key("ABCDEF")
('dos:table:{ABCDEF}:lease', 'dos:table:{ABCDEF}:epoch')
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from dos.cluster.lease_errors import LeaseError, LeaseLostError, ProcessLeaseGoneError, ask
from dos.cluster.process_lease import (
    ProcessLease,
    alive_key,
    alive_until,
    clock_ms,
)
from dos.server.clock import Clock

# The table's claim "EPOCH OWNER INCARNATION" if its owner's alive key (under prefix ARGV[1])
# holds the incarnation at ARGV[2] (the clock's time in ms), else false: the first lines of
# every script that reads a claim.
_LIVE = """
local function live(key, prefix, now)
    local value = redis.call('GET', key)
    if not value then
        return false
    end
    local owner, incarnation = string.match(value, '^%S+ (%S+) (%S+)$')
    if not owner then
        return false
    end
    local alive = redis.call('GET', prefix .. ':owner:{' .. owner .. '}:alive')
    if not alive then
        return false
    end
    local held, until_ms = string.match(alive, '^(%S+) (%d+)$')
    if held ~= incarnation or tonumber(until_ms) <= tonumber(now) then
        return false
    end
    return value
end
"""

# KEYS: claim, epoch counter, the taker's alive key. ARGV: prefix, now in ms, owner,
# incarnation, floor. Returns {1, claim} when taken, {0, the holder's claim} when held, {-1, ""}
# when the taker's own process lease no longer holds its incarnation.
_ACQUIRE = (
    _LIVE
    + """
local mine = redis.call('GET', KEYS[3])
local held, until_ms = string.match(mine or '', '^(%S+) (%d+)$')
if held ~= ARGV[4] or tonumber(until_ms) <= tonumber(ARGV[2]) then
    return {-1, ''}
end
local current = live(KEYS[1], ARGV[1], ARGV[2])
if current then
    return {0, current}
end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[5])
if epoch <= floor then
    epoch = floor + 1
    redis.call('SET', KEYS[2], string.format('%d', epoch))
end
local claim = string.format('%d', epoch) .. ' ' .. ARGV[3] .. ' ' .. ARGV[4]
redis.call('SET', KEYS[1], claim)
return {1, claim}
"""
)

# KEYS: claim. ARGV: the holder's claim. Returns 1 when released, 0 when not held.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


def lease_key(code: str, prefix: str = "dos") -> str:
    """The Redis key of a table's claim."""
    return f"{prefix}:table:{{{code}}}:lease"


def epoch_key(code: str, prefix: str = "dos") -> str:
    """The Redis key of a table's epoch counter."""
    return f"{prefix}:table:{{{code}}}:epoch"


async def holders(
    redis: Redis, codes: list[str], clock: Clock, prefix: str = "dos"
) -> list[Holder | None]:
    """Who holds each table at the clock's time (``None``: nobody), in two commands without
    a script. Raises Redis's errors."""
    return [holder for holder, _until in await leases(redis, codes, clock, prefix)]


async def leases(
    redis: Redis, codes: list[str], clock: Clock, prefix: str = "dos"
) -> list[tuple[Holder | None, int | None]]:
    """Each table's holder at the clock's time (``None``: nobody) and the time (ms, on the
    clock) it is held until if its owner does not renew its process lease (``None``: not
    held). One ``MGET`` of the claims, one of their owners' alive keys."""
    if not codes:
        return []
    values: list[Any] = await redis.mget([lease_key(code, prefix) for code in codes])
    claims = [None if value is None else Claim.parse(value) for value in values]
    owners = sorted({claim.holder.owner for claim in claims if claim is not None})
    if not owners:
        return [(None, None)] * len(codes)
    alive: list[Any] = await redis.mget([alive_key(owner, prefix) for owner in owners])
    by_owner = dict(zip(owners, alive, strict=True))
    now = clock_ms(clock)
    found: list[tuple[Holder | None, int | None]] = []
    for claim in claims:
        if claim is None:
            found.append((None, None))
            continue
        until = alive_until(by_owner[claim.holder.owner], claim.incarnation, now)
        found.append((None, None) if until is None else (claim.holder, until))
    return found


def new_owner_id() -> str:
    """A fresh owner id for this process: host, process id and a random part, so that a
    restarted process with the same pid is another owner.

    >>> from dos.cluster.process_lease import OWNER_MAX
    >>> owner = new_owner_id()
    >>> owner.split(":")[1] == str(os.getpid()), len(owner) <= OWNER_MAX
    (True, True)
    """
    host = socket.gethostname()[:40]
    return f"{host}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a table, under which epoch.

    >>> Holder.parse(b"7 web-1:42:beef")
    Holder(owner='web-1:42:beef', epoch=7)
    >>> Holder.parse("7 web-1:42:beef 0a1b2c3d")
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
        """Reads a claim's ``"EPOCH OWNER"`` (and anything after it)."""
        text = value.decode() if isinstance(value, bytes) else value
        epoch, owner = text.split(" ")[:2]
        return cls(owner, int(epoch))


@dataclass(frozen=True, slots=True)
class Claim:
    """A table's stored claim: its holder and the incarnation of the holder's process lease
    it was taken under.

    >>> claim = Claim.parse(b"7 web-1:42:beef 0a1b2c3d")
    >>> claim.holder, claim.incarnation, str(claim)
    (Holder(owner='web-1:42:beef', epoch=7), '0a1b2c3d', '7 web-1:42:beef 0a1b2c3d')
    >>> Claim.parse("7 web-1:42:beef").incarnation
    ''
    """

    holder: Holder
    incarnation: str

    def __str__(self) -> str:
        return f"{self.holder} {self.incarnation}"

    @classmethod
    def parse(cls, value: bytes | str) -> Claim:
        """Reads a stored claim (one without an incarnation is held by nobody)."""
        text = value.decode() if isinstance(value, bytes) else value
        parts = text.split(" ")
        return cls(Holder.parse(text), parts[2] if len(parts) > 2 else "")


class LeaseHeldError(LeaseError):
    """Another owner holds the table (``holder``): this process may not own it now.

    >>> str(LeaseHeldError("ABCDEF", Holder("web-2:7:aa", 3)))
    'table ABCDEF: the lease is held by web-2:7:aa (epoch 3)'
    """

    def __init__(self, code: str, holder: Holder) -> None:
        self.holder = holder
        super().__init__(code, f"the lease is held by {holder.owner} (epoch {holder.epoch})")


class TableLease:
    """One process's claim on one table, under its process lease ``process``.

    ``acquire`` makes the process the table's owner and returns its epoch; ``release`` hands
    it back. Nothing renews it: it is held while ``process`` is (``held``). Every Redis
    failure raises ``RedisUnavailableError``, never a Redis client exception.

    Used from one event loop; one ``TableLease`` per table and owner.
    """

    def __init__(self, process: ProcessLease, code: str) -> None:
        self.process = process
        self.redis = process.redis
        self.clock = process.clock
        self.code = code
        self.owner = process.owner
        self.prefix = process.prefix
        self.key = lease_key(code, process.prefix)
        self.counter = epoch_key(code, process.prefix)
        self.epoch: int | None = None
        """The epoch of the current (or latest) acquisition; ``None`` before the first."""
        self.claim: str | None = None
        """The stored ``"EPOCH OWNER INCARNATION"`` while taken; ``None`` when not."""
        self._incarnation: str | None = None
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._release = self.redis.register_script(_RELEASE)

    @property
    def held(self) -> bool:
        """Whether this process holds the table, as far as it can tell without asking Redis:
        acquired, not released, and its process lease held under the same incarnation."""
        return (
            self.claim is not None
            and self.process.held
            and self.process.incarnation == self._incarnation
        )

    async def acquire(self, floor: int = 0) -> int:
        """Takes the table if nobody holds it and returns the new epoch: one more than the
        table's counter, and more than ``floor`` (the database's epoch, so that an epoch never
        goes back after Redis lost its counter). Atomic: one script sets the claim and the
        counter.

        If this process already holds it, returns its epoch unchanged (an earlier attempt
        may have succeeded with its answer lost, so ``acquire`` may be retried after a
        ``RedisUnavailableError``). Raises ``LeaseHeldError`` when another owner holds it
        (nothing changes, the counter neither), ``LeaseLostError`` when the process lease is
        not held (the process has lost its tables; ``ProcessLeaseGoneError`` when Redis no
        longer holds it), and ``RedisUnavailableError``."""
        incarnation = self.process.incarnation
        if incarnation is None or not self.process.held:
            raise LeaseLostError(self.code, self.epoch, "this process's lease is not held")
        args: list[str | int] = [self.prefix, clock_ms(self.clock), self.owner, incarnation, floor]
        keys = [self.key, self.counter, self.process.key]

        async def run() -> Any:
            return await self._acquire(keys=keys, args=args)

        done, value = await ask(self.code, "acquire", run)
        if done == -1:
            self.process.forget()
            raise ProcessLeaseGoneError(self.code, self.epoch, "this process's lease expired")
        claim = Claim.parse(value)
        if done == 0 and (claim.holder.owner != self.owner or claim.incarnation != incarnation):
            raise LeaseHeldError(self.code, claim.holder)
        self.epoch = claim.holder.epoch
        self.claim = str(claim)
        self._incarnation = incarnation
        return self.epoch

    async def release(self) -> bool:
        """Hands the table back, if this owner still holds it under its epoch: another owner
        may acquire it at once. Returns whether it was held. Never removes another owner's
        claim. Locally it is no longer held, even when Redis does not answer
        (``RedisUnavailableError``; it is then free once the process lease lapses)."""
        claim = self.claim
        self.forget()
        if claim is None:
            return False

        async def run() -> Any:
            return await self._release(keys=[self.key], args=[claim])

        return bool(await ask(self.code, "release", run))

    def forget(self) -> None:
        """Marks the table as no longer held here, without asking Redis (it was lost)."""
        self.claim = None
        self._incarnation = None

    async def holder(self) -> Holder | None:
        """Who holds the table now, according to Redis (``None``: nobody)."""

        async def run() -> list[Holder | None]:
            return await holders(self.redis, [self.code], self.clock, self.prefix)

        return (await ask(self.code, "read", run))[0]
